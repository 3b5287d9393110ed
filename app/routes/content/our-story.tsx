import { Link } from "react-router";
import { CompanyValues } from "~/components/content/company-values";
import { ContentPage, ContentSection, CtaPanel } from "~/components/content/content-page";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/our-story";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Our Story",
    description:
      "How LayerKart grew from one 3D printer in a Bangalore garage in 2020 into a studio making décor, gadgets and miniatures for customers across India.",
    path: "/our-story",
    origin: originFrom(matches),
  });

const milestones = [
  {
    year: "2020",
    title: "One printer in a garage",
    text: "With time on our hands and a second-hand printer in the garage, we started printing replacement parts and small gifts for neighbours. The first paid order was a set of cable clips for a home office.",
  },
  {
    year: "2021",
    title: "Characters and custom orders",
    text: "Hand-painted character miniatures became our most requested item. We added a design desk so customers could send a photo or a sketch instead of a ready-made file.",
  },
  {
    year: "2022",
    title: "Out of the garage",
    text: "The garage ran out of space and patience. We moved into a small studio, added more printers and started shipping to every corner of India.",
  },
  {
    year: "2023",
    title: "Wholesale and corporate gifting",
    text: "Cafés, gift stores and companies began ordering in batches, so we built a wholesale programme with volume pricing and predictable lead times.",
  },
  {
    year: "Today",
    title: "A studio that still checks every print",
    text: "A team of printing technicians and 3D designers runs the print farm, models custom work and finishes each piece by hand, the same way we did in the garage.",
  },
] as const;

export default function OurStory() {
  return (
    <ContentPage
      eyebrow="Our story"
      title="Our Story"
      lead="LayerKart started in 2020 in a Bangalore garage, with one printer, a lot of failed prints and a conviction that making things should be for everyone."
      width="wide"
    >
      <ContentSection title="From a garage to a studio" prose={false}>
        <ol className="relative space-y-8 border-l-2 border-border pl-6 sm:pl-8">
          {milestones.map((m) => (
            <li key={m.year} className="relative">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[calc(1.5rem+7px)] size-3 rounded-full bg-primary ring-4 ring-background sm:-left-[calc(2rem+7px)]"
              />
              <p className="font-semibold text-primary text-sm">{m.year}</p>
              <h3 className="mt-1 font-semibold text-lg">{m.title}</h3>
              <p className="mt-2 max-w-2xl leading-7">{m.text}</p>
            </li>
          ))}
        </ol>
      </ContentSection>

      <ContentSection title="How we grew">
        <p>
          We never raised big money or bought a factory. We grew one printer at a time, paid for by
          the orders before it. Every new machine meant shorter waits, and every difficult custom
          request taught us something about materials, supports or finishing that now goes into our
          regular products.
        </p>
        <p>
          Word of mouth did the rest: tabletop gamers, architects needing scale models, parents
          looking for a one-of-a-kind birthday gift and small businesses that wanted their logo on a
          desk organiser.
        </p>
      </ContentSection>

      <ContentSection title="Our mission">
        <p className="text-lg">
          To make 3D printing personal, affordable and dependable for everyone in India, whether you
          want a single miniature or a few hundred branded gifts.
        </p>
      </ContentSection>

      <ContentSection title="Our values" prose={false}>
        <CompanyValues />
      </ContentSection>

      <CtaPanel
        title="Be part of the next chapter"
        actions={
          <>
            <Link to="/products" className={buttonVariants()}>
              Shop our prints
            </Link>
            <Link to="/careers" className={buttonVariants({ variant: "outline" })}>
              Join the team
            </Link>
          </>
        }
      >
        <p>Order a print, send us your idea, or come and work with us.</p>
      </CtaPanel>
    </ContentPage>
  );
}
