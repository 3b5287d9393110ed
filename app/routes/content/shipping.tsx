import { Link } from "react-router";
import { ContentPage, ContentSection, KeyFacts } from "~/components/content/content-page";
import { separatePolicyPages as policy } from "~/components/content/policy-terms";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/shipping";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Shipping Policy",
    description:
      "How LayerKart ships: orders are printed to order and dispatched within about 10 days, with tracking across India and worldwide.",
    path: "/shipping",
    origin: originFrom(matches),
  });

export default function Shipping() {
  return (
    <ContentPage
      eyebrow="Policy"
      title="Shipping Policy"
      lead="Every LayerKart piece is printed for you after you order. Here is how long that takes and how your parcel reaches you."
      updated="1 November 2026"
    >
      <KeyFacts
        facts={[
          { label: "Dispatch", value: `Orders are dispatched ${policy.dispatch}` },
          { label: "Where we ship", value: "All over India, and worldwide" },
          { label: "Tracking", value: "Tracked shipping on every order" },
          { label: "Shipping charges", value: "Shown at checkout before you pay" },
        ]}
      />

      <ContentSection title="Processing and dispatch">
        <p>
          Because we print, finish and check each item after you order it, orders are dispatched{" "}
          <strong>{policy.dispatch}</strong> of the order being placed. Large pieces, big quantities
          and custom designs may need longer; we tell you before you pay if that is the case.
        </p>
        <p>
          Orders are processed Monday to Saturday. Orders placed on Sundays and public holidays are
          processed the next working day.
        </p>
      </ContentSection>

      <ContentSection title="Delivery">
        <p>
          We ship with trusted courier partners to every serviceable PIN code in India and to most
          countries worldwide. Delivery time after dispatch depends on your location; remote areas
          and international destinations take longer.
        </p>
        <p>
          International orders may be charged customs duties or import taxes by the destination
          country. These are paid by the recipient.
        </p>
      </ContentSection>

      <ContentSection title="Tracking your order">
        <p>
          As soon as your order ships we e-mail you the courier's name and a tracking number. You
          can also see the status of every order under <Link to="/orders">My Orders</Link>.
        </p>
      </ContentSection>

      <ContentSection title="Wrong address or failed delivery">
        <p>
          Please check your delivery address and phone number at checkout. If a parcel comes back to
          us because of an incorrect address or repeated failed delivery attempts, we will contact
          you to arrange re-shipping, which may be charged again.
        </p>
      </ContentSection>

      <ContentSection title="Questions">
        <p>
          For anything about a shipment, <Link to="/contact">contact us</Link> with your order
          number. See also our <Link to="/returns">Returns</Link> and{" "}
          <Link to="/refund-policy">Refund &amp; Cancellation</Link> policies.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
