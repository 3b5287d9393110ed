import { Link } from "react-router";
import { company } from "~/components/content/company";
import { ContentPage, ContentSection } from "~/components/content/content-page";
import { separatePolicyPages as policy } from "~/components/content/policy-terms";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/terms";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Terms of Service",
    description:
      "The terms for buying from LayerKart: orders, prices in rupees, custom designs, shipping, returns and your responsibilities.",
    path: "/terms",
    origin: originFrom(matches),
  });

export default function Terms() {
  return (
    <ContentPage
      eyebrow="Legal"
      title="Terms of Service"
      lead={`These terms apply when you use this website or buy from ${company.name}. By placing an order you agree to them.`}
      updated="1 November 2026"
    >
      <ContentSection title="Your account">
        <p>
          You need an account with a verified e-mail address to check out. Keep your password to
          yourself; you are responsible for orders placed from your account.
        </p>
      </ContentSection>

      <ContentSection title="Orders and prices">
        <p>
          Prices are shown in Indian rupees (₹). Shipping and tax are added at checkout and shown
          before you pay. An order is confirmed once payment succeeds; we may cancel and fully
          refund an order if an item turns out to be unavailable or a price was shown in error.
        </p>
        <p>
          3D printed items are made layer by layer, so small layer lines and slight differences in
          colour or finish between pieces are normal and not defects.
        </p>
      </ContentSection>

      <ContentSection title="Custom designs and your files">
        <p>
          When you send us a model or an idea, you confirm that you own it or have permission to
          have it reproduced. We will not print items that infringe someone else's rights or that
          are unlawful, such as weapons or their parts. Your files stay yours; we use them only to
          make your order.
        </p>
      </ContentSection>

      <ContentSection title="Shipping, returns and refunds">
        <p>
          Orders are dispatched {policy.dispatch}. You may cancel {policy.cancellation}, and ask for
          a refund or exchange {policy.refundOrExchange}. The details are in our{" "}
          <Link to="/shipping">Shipping Policy</Link>, <Link to="/returns">Returns</Link> and{" "}
          <Link to="/refund-policy">Refund &amp; Cancellation</Link> pages.
        </p>
      </ContentSection>

      <ContentSection title="Reviews">
        <p>
          Reviews must be honest and about the product. We may remove reviews that are abusive,
          off-topic or contain personal information.
        </p>
      </ContentSection>

      <ContentSection title="Our content">
        <p>
          The designs, photos and text on this website belong to {company.name}. Do not copy or sell
          them without our written permission.
        </p>
      </ContentSection>

      <ContentSection title="Liability">
        <p>
          Our products are decorative and hobby items unless we say otherwise; they are not toys for
          children under three and not meant for food contact. As far as the law allows, our
          liability for any order is limited to the amount you paid for it.
        </p>
      </ContentSection>

      <ContentSection title="Law and disputes">
        <p>
          These terms are governed by the laws of India. Disputes fall under the courts of{" "}
          {company.city}, Karnataka. Please <Link to="/contact">contact us</Link> first: most
          problems are solved with a message.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
