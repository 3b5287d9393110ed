import { Link } from "react-router";
import { ContentPage, ContentSection, KeyFacts } from "~/components/content/content-page";
import { combinedPolicyPage as policy } from "~/components/content/policy-terms";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/policies";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Policies",
    description:
      "LayerKart's shop policies in one place: returns, damaged items, cancellation, refunds, replacements and delivery.",
    path: "/policies",
    origin: originFrom(matches),
  });

export default function Policies() {
  return (
    <ContentPage
      eyebrow="Policy"
      title="Shop Policies"
      lead="Our returns, cancellation, refund, replacement and delivery policies on one page."
      updated="1 November 2026"
    >
      <KeyFacts
        facts={[
          { label: "Returns", value: policy.returns },
          { label: "Report damage", value: `${policy.damageReport} of delivery` },
          { label: "Cancellation", value: `${policy.cancellation} of ordering` },
          { label: "Refunds", value: `In ${policy.refund}` },
          { label: "Replacements", value: `In ${policy.replacement}` },
          { label: "Delivery", value: policy.delivery },
        ]}
      />

      <ContentSection title="Returns">
        <p>
          <strong>{policy.returns}.</strong> Every piece is printed to order, so we do not accept
          returns for change of mind, size or colour. Please check the{" "}
          <Link to="/size-guide">Size Guide</Link> and product details before ordering.
        </p>
      </ContentSection>

      <ContentSection title="Damaged or wrong items">
        <p>
          If your order arrives damaged, broken or different from what you ordered, report it{" "}
          <strong>{policy.damageReport}</strong> of delivery through the{" "}
          <Link to="/contact?subject=Damaged%20item">contact form</Link>. Include your order number
          and photos of the item and the packaging; an unboxing video helps us resolve it faster.
        </p>
      </ContentSection>

      <ContentSection title="Cancellation">
        <p>
          You can cancel an order <strong>{policy.cancellation}</strong> of placing it. After that,
          printing has usually begun and the order can no longer be cancelled.
        </p>
      </ContentSection>

      <ContentSection title="Refunds">
        <p>
          Approved refunds, for cancelled orders or items we cannot replace, are credited to your
          original payment method in <strong>{policy.refund}</strong>.
        </p>
      </ContentSection>

      <ContentSection title="Replacements">
        <p>
          When a damage report is approved, we reprint the item and ship the replacement in{" "}
          <strong>{policy.replacement}</strong>, at no cost to you.
        </p>
      </ContentSection>

      <ContentSection title="Delivery">
        <p>
          Orders are delivered in <strong>{policy.delivery}</strong>. You receive a tracking link by
          e-mail as soon as your parcel ships, and you can follow every order under{" "}
          <Link to="/orders">My Orders</Link>.
        </p>
      </ContentSection>

      <ContentSection title="More details">
        <p>
          See also our <Link to="/privacy-policy">Privacy Policy</Link>,{" "}
          <Link to="/terms">Terms of Service</Link> and{" "}
          <Link to="/cookie-policy">Cookie Policy</Link>, or visit{" "}
          <Link to="/faq">Help &amp; Support</Link>.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
