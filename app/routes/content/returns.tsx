import { Link } from "react-router";
import { ContentPage, ContentSection, KeyFacts } from "~/components/content/content-page";
import { separatePolicyPages as policy } from "~/components/content/policy-terms";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/returns";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Returns",
    description:
      "LayerKart returns: ask for a refund or exchange within 3 days of purchase. How to request a return and what qualifies.",
    path: "/returns",
    origin: originFrom(matches),
  });

export default function Returns() {
  return (
    <ContentPage
      eyebrow="Policy"
      title="Returns"
      lead="Not happy with your print? Tell us quickly and we will put it right with a refund or an exchange."
      updated="1 November 2026"
    >
      <KeyFacts
        facts={[
          { label: "Refund or exchange", value: `Request ${policy.refundOrExchange}` },
          { label: "Approved refunds", value: `Paid ${policy.refundPayout}` },
        ]}
      />

      <ContentSection title="Return window">
        <p>
          You can ask for a refund or an exchange <strong>{policy.refundOrExchange}</strong>.
          Requests made after that cannot be accepted, so please open your parcel and check your
          items as soon as they arrive.
        </p>
      </ContentSection>

      <ContentSection title="What can be returned">
        <ul>
          <li>Items that arrive damaged, defective or different from what you ordered.</li>
          <li>
            Catalogue items in their original condition and packaging, unused and not painted or
            modified.
          </li>
        </ul>
        <p>
          Custom and personalised pieces are made only for you, so they can be returned only if they
          are damaged, defective or do not match the design you approved.
        </p>
      </ContentSection>

      <ContentSection title="How to request a return">
        <ol>
          <li>
            <Link to="/contact?subject=Return%20request">Contact us</Link> with your order number
            and what went wrong.
          </li>
          <li>Attach clear photos of the item and the packaging.</li>
          <li>We reply with the next steps and, if needed, a pickup or return address.</li>
        </ol>
      </ContentSection>

      <ContentSection title="Refunds and exchanges">
        <p>
          Once we approve your return, refunds are paid <strong>{policy.refundPayout}</strong> to
          your original payment method. Exchanges are printed and shipped as a new order at no extra
          cost. Read more in our <Link to="/refund-policy">Refund &amp; Cancellation</Link> policy.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
