import { Link } from "react-router";
import { ContentPage, ContentSection, KeyFacts } from "~/components/content/content-page";
import { separatePolicyPages as policy } from "~/components/content/policy-terms";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/refund-policy";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Refund & Cancellation",
    description:
      "LayerKart refund and cancellation policy: cancel within 3 days if not shipped, refund or exchange within 3 days of purchase, approved refunds within 7 days.",
    path: "/refund-policy",
    origin: originFrom(matches),
  });

export default function RefundPolicy() {
  return (
    <ContentPage
      eyebrow="Policy"
      title="Refund & Cancellation"
      lead="How to cancel an order, when you can get your money back, and how long it takes."
      updated="1 November 2026"
    >
      <KeyFacts
        facts={[
          { label: "Cancellation", value: `Cancel ${policy.cancellation}` },
          { label: "Refund or exchange", value: `Request ${policy.refundOrExchange}` },
          { label: "Approved refunds", value: `Paid ${policy.refundPayout}` },
          { label: "Refunded to", value: "Your original payment method" },
        ]}
      />

      <ContentSection title="Cancelling an order">
        <p>
          You can cancel an order <strong>{policy.cancellation}</strong>. To cancel,{" "}
          <Link to="/contact?subject=Order%20cancellation">contact us</Link> with your order number.
          Once an order has shipped it can no longer be cancelled, but you may still be able to
          return it under our <Link to="/returns">Returns</Link> policy.
        </p>
      </ContentSection>

      <ContentSection title="Refunds">
        <p>
          You can ask for a refund or an exchange <strong>{policy.refundOrExchange}</strong>. We
          review each request and let you know whether it is approved.
        </p>
        <p>
          Approved refunds are paid <strong>{policy.refundPayout}</strong> to the payment method you
          used (UPI, card, net banking or wallet). Your bank may take a little longer to show the
          amount in your account.
        </p>
      </ContentSection>

      <ContentSection title="If we cancel your order">
        <p>
          Very occasionally we cannot fulfil an order, for example when a material is unavailable or
          a custom design cannot be printed reliably. If that happens we tell you straight away and
          refund the full amount.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
