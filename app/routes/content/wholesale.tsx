import { Boxes, Building2, Gift, Store } from "lucide-react";
import { Link } from "react-router";
import { company } from "~/components/content/company";
import { ContentPage, ContentSection, CtaPanel, KeyFacts } from "~/components/content/content-page";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/wholesale";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Wholesale",
    description:
      "Wholesale 3D printing from LayerKart: 15% off 10–49 units, 25% off 50–199 units, 35% off 200+ units. Minimum order ₹5,000.",
    path: "/wholesale",
    origin: originFrom(matches),
  });

const tiers = [
  { name: "Small batch", units: "10–49 units", discount: "15% off" },
  { name: "Medium batch", units: "50–199 units", discount: "25% off" },
  { name: "Large batch", units: "200+ units", discount: "35% off" },
] as const;

const categories = [
  {
    icon: Store,
    name: "Retail and gift stores",
    text: "Home décor, planters, desk organisers and character miniatures to stock on your shelves.",
  },
  {
    icon: Gift,
    name: "Corporate gifting",
    text: "Branded desk gadgets, awards and keepsakes with your logo, for events and festive seasons.",
  },
  {
    icon: Building2,
    name: "Cafés, hotels and offices",
    text: "Table numbers, signage, lamp shades and décor made to match your space.",
  },
  {
    icon: Boxes,
    name: "Makers and small manufacturers",
    text: "Repeat batches of functional parts, enclosures, jigs and prototypes from your own files.",
  },
] as const;

export default function Wholesale() {
  return (
    <ContentPage
      eyebrow="For businesses"
      title="Wholesale"
      lead="Stock LayerKart prints in your store, order branded gifts for your team, or have us print your parts in batches. The more you order, the less each piece costs."
      width="wide"
      actions={
        <Link to="/contact?subject=Wholesale%20enquiry" className={buttonVariants({ size: "lg" })}>
          Start a wholesale enquiry
        </Link>
      }
    >
      <ContentSection
        title="Volume pricing"
        intro="Discounts apply to the whole order, on our catalogue prices or your custom quote."
        prose={false}
      >
        <ul className="grid gap-4 sm:grid-cols-3">
          {tiers.map((tier) => (
            <li
              key={tier.name}
              className="rounded-xl border bg-card p-6 text-center text-card-foreground shadow-xs"
            >
              <h3 className="font-semibold text-muted-foreground text-sm uppercase tracking-wider">
                {tier.name}
              </h3>
              <p className="mt-3 font-bold text-4xl text-primary">{tier.discount}</p>
              <p className="mt-2 font-medium">{tier.units}</p>
            </li>
          ))}
        </ul>
        <KeyFacts
          className="mt-6"
          facts={[
            { label: "Minimum wholesale order", value: "₹5,000" },
            { label: "Payment terms", value: "Net 30 terms for established partners" },
          ]}
        />
      </ContentSection>

      <ContentSection title="What we make for businesses" prose={false}>
        <ul className="grid gap-4 sm:grid-cols-2">
          {categories.map((c) => (
            <li
              key={c.name}
              className="flex gap-4 rounded-xl border bg-card p-5 text-card-foreground"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-primary">
                <c.icon aria-hidden="true" className="size-5" />
              </span>
              <div>
                <h3 className="font-semibold">{c.name}</h3>
                <p className="mt-1 text-muted-foreground text-sm leading-6">{c.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </ContentSection>

      <ContentSection title="Requirements">
        <ul>
          <li>
            <strong>A registered business.</strong> Share your business name and GSTIN so we can
            issue GST invoices.
          </li>
          <li>
            <strong>Minimum wholesale order of ₹5,000.</strong> Mix designs and colours to reach it.
          </li>
          <li>
            <strong>Approved sample or design.</strong> For custom pieces we print one sample and
            start the batch once you approve it.
          </li>
          <li>
            <strong>Payment.</strong> First orders are paid in advance. Established partners with a
            record of on-time payments can move to net 30 terms.
          </li>
          <li>
            <strong>Your files, your rights.</strong> If you send your own designs, you must own
            them or have permission to reproduce them.
          </li>
        </ul>
      </ContentSection>

      <ContentSection title="How it works">
        <ol>
          <li>Tell us what you need, how many and by when.</li>
          <li>We reply with a quote, material options and a lead time.</li>
          <li>We print a sample for custom work, then produce and quality-check the batch.</li>
          <li>Your order ships packed for retail or bulk, with tracking.</li>
        </ol>
      </ContentSection>

      <CtaPanel
        title="Let's talk volume"
        actions={
          <Link to="/contact?subject=Wholesale%20enquiry" className={buttonVariants()}>
            Send a wholesale enquiry
          </Link>
        }
      >
        <p>
          Tell us about your business and what you would like to order. Our partnerships team in{" "}
          {company.city} replies within one business day, or write to{" "}
          <a
            className="font-medium underline underline-offset-4"
            href={`mailto:${company.partnersEmail}`}
          >
            {company.partnersEmail}
          </a>
          .
        </p>
      </CtaPanel>
    </ContentPage>
  );
}
