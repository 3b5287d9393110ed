import { Link } from "react-router";
import { ContentPage, ContentSection, CtaPanel, Prose } from "~/components/content/content-page";
import {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
} from "~/components/ui/accordion";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/faq";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Help & Support",
    description:
      "Answers to common questions about LayerKart: custom orders, file formats, materials, delivery times, shipping, returns, payments and order tracking.",
    path: "/faq",
    origin: originFrom(matches),
  });

const faqs: Array<{ id: string; question: string; answer: React.ReactNode }> = [
  {
    id: "custom-minimum",
    question: "Is there a minimum value for custom orders?",
    answer: (
      <p>
        Yes. Custom orders start at about ₹500, because every custom job needs setup, test prints
        and a check by our team. Catalogue products have no minimum.
      </p>
    ),
  },
  {
    id: "volume-discounts",
    question: "Do you give discounts on larger orders?",
    answer: (
      <p>
        Orders of 10 or more pieces may qualify for volume discounts. Businesses can see our tiers
        on the <Link to="/wholesale">Wholesale</Link> page.
      </p>
    ),
  },
  {
    id: "file-formats",
    question: "Which file formats do you accept?",
    answer: (
      <p>
        We accept STL, OBJ, 3MF and PLY files.{" "}
        <Link to="/custom-printing">Upload yours for an instant quote</Link>. No file? Send a sketch
        or photos and our designers can model it for you.
      </p>
    ),
  },
  {
    id: "materials",
    question: "What materials do you print with?",
    answer: (
      <p>
        Most of our work is printed in PLA and PETG. We also offer specialty materials for special
        finishes and uses; tell us what the piece is for and we will suggest the best fit.
      </p>
    ),
  },
  {
    id: "lead-time",
    question: "How long will my order take?",
    answer: (
      <p>
        Standard orders take 5-10 business days. Large, painted or very detailed custom pieces can
        take longer, and we tell you the timeline before you pay.
      </p>
    ),
  },
  {
    id: "shipping",
    question: "Do you ship outside India?",
    answer: (
      <p>
        Yes. We ship worldwide, and every parcel is tracked. See our{" "}
        <Link to="/shipping">Shipping Policy</Link> for details.
      </p>
    ),
  },
  {
    id: "custom-designs",
    question: "Can you create a custom design for me?",
    answer: (
      <p>
        Custom designs are welcome, from a replacement part to a miniature of your pet.{" "}
        <Link to="/contact?subject=Custom%20design">Tell us about your idea</Link> and we will reply
        with options and a quote, or{" "}
        <Link to="/custom-printing">get an instant price for your own model</Link>.
      </p>
    ),
  },
  {
    id: "returns-cancellation",
    question: "Can I return or cancel an order?",
    answer: (
      <p>
        The windows for returns, exchanges and cancellations are set out in our{" "}
        <Link to="/returns">Returns</Link> and{" "}
        <Link to="/refund-policy">Refund &amp; Cancellation</Link> pages, and the full set of shop
        rules is on our <Link to="/policies">Policies</Link> page. Contact us as soon as possible
        with your order number.
      </p>
    ),
  },
  {
    id: "payment",
    question: "How can I pay?",
    answer: (
      <p>
        Checkout goes through our secure payment gateway, which accepts UPI, debit and credit cards,
        net banking and popular wallets. All prices are in Indian rupees (₹).
      </p>
    ),
  },
  {
    id: "tracking",
    question: "How do I track my order?",
    answer: (
      <p>
        When your order ships we e-mail you a tracking number. You can also sign in and open{" "}
        <Link to="/orders">My Orders</Link> to see the status of every order and track shipped
        parcels.
      </p>
    ),
  },
];

export default function Faq() {
  return (
    <ContentPage
      eyebrow="Help"
      title="Help & Support"
      lead="Quick answers about custom orders, materials, delivery and payments. Can't find what you need? We are happy to help."
    >
      <ContentSection title="Frequently asked questions" prose={false}>
        <Accordion type="single" collapsible className="rounded-xl border bg-card px-5">
          {faqs.map((faq) => (
            <AccordionItem key={faq.id} value={faq.id}>
              <AccordionTrigger className="text-base">{faq.question}</AccordionTrigger>
              <AccordionContent>
                <Prose className="text-muted-foreground">{faq.answer}</Prose>
              </AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </ContentSection>

      <CtaPanel
        title="Still need help?"
        actions={
          <>
            <Link to="/contact" className={buttonVariants()}>
              Contact us
            </Link>
            <Link to="/policies" className={buttonVariants({ variant: "outline" })}>
              Read our policies
            </Link>
          </>
        }
      >
        <p>
          Our team answers messages Monday to Friday 9 am to 6 pm and Saturday 10 am to 4 pm. We are
          closed on Sundays.
        </p>
      </CtaPanel>
    </ContentPage>
  );
}
