import { Link } from "react-router";
import { company } from "~/components/content/company";
import { ContentPage, ContentSection } from "~/components/content/content-page";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/privacy-policy";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Privacy Policy",
    description:
      "What personal data LayerKart collects, why, how long we keep it and the choices you have.",
    path: "/privacy-policy",
    origin: originFrom(matches),
  });

export default function PrivacyPolicy() {
  return (
    <ContentPage
      eyebrow="Legal"
      title="Privacy Policy"
      lead="We collect only what we need to make and deliver your order, and we never sell your data."
      updated="1 November 2026"
    >
      <ContentSection title="Who we are">
        <p>
          {company.name} is a 3D printing studio based in {company.city}, {company.region}. We are
          responsible for the personal data you share with us through this website. We handle it in
          line with Indian law, including the Digital Personal Data Protection Act, 2023.
        </p>
      </ContentSection>

      <ContentSection title="What we collect">
        <ul>
          <li>
            <strong>Account details:</strong> your name, e-mail address and, if you add it, your
            phone number.
          </li>
          <li>
            <strong>Delivery addresses</strong> you save for checkout.
          </li>
          <li>
            <strong>Orders:</strong> what you bought, amounts, delivery details and payment status.
          </li>
          <li>
            <strong>Messages and files</strong> you send us through the contact form or for custom
            orders.
          </li>
          <li>
            <strong>Reviews and favourites</strong> you add to products.
          </li>
          <li>
            <strong>Newsletter:</strong> your e-mail address, if you subscribe.
          </li>
        </ul>
        <p>
          Payments are handled by our payment gateway. We never see or store your full card, UPI or
          bank details.
        </p>
      </ContentSection>

      <ContentSection title="How we use it">
        <ul>
          <li>To make, ship and support your orders, and to send order and account e-mails.</li>
          <li>To answer your messages and prepare quotes for custom work.</li>
          <li>
            To send the newsletter, only if you subscribed. Every issue has an unsubscribe link.
          </li>
          <li>To keep the shop secure and prevent fraud.</li>
          <li>To meet our legal duties, such as keeping tax invoices.</li>
        </ul>
      </ContentSection>

      <ContentSection title="Who we share it with">
        <p>
          We share only what is needed with the courier that delivers your parcel, the payment
          gateway that processes your payment and the services that host this website and send our
          e-mails. We do not sell or rent your personal data, and we do not use advertising
          trackers.
        </p>
      </ContentSection>

      <ContentSection title="How long we keep it">
        <p>
          We keep your account data while your account is open. Order and invoice records are kept
          for as long as Indian tax law requires. Contact messages are deleted when they are no
          longer needed to help you.
        </p>
      </ContentSection>

      <ContentSection title="Your choices and rights">
        <p>
          You can view and update your name and phone number in{" "}
          <Link to="/account">My Account</Link> and manage your saved{" "}
          <Link to="/addresses">addresses</Link>. To get a copy of your data, correct it or delete
          your account, <Link to="/contact">contact us</Link>. We reply within 30 days.
        </p>
        <p>
          Read about the few cookies we use in our <Link to="/cookie-policy">Cookie Policy</Link>.
        </p>
      </ContentSection>
    </ContentPage>
  );
}
