import { Link } from "react-router";
import { company } from "~/components/content/company";
import { CompanyValues } from "~/components/content/company-values";
import { ContentPage, ContentSection, CtaPanel, KeyFacts } from "~/components/content/content-page";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/about";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "About Us",
    description:
      "LayerKart is a Bangalore 3D printing studio, founded in 2020, making décor, gadgets, character miniatures and custom prints.",
    path: "/about",
    origin: originFrom(matches),
  });

export default function About() {
  return (
    <ContentPage
      eyebrow="About us"
      title="About LayerKart"
      lead="We are a small 3D printing studio in Bangalore. Since 2020 we have been turning digital designs into things you can hold: home décor, desk gadgets, character miniatures and one-off custom parts."
      width="wide"
    >
      <ContentSection title="Our story">
        <p>
          LayerKart began in {company.founded} with a single printer on a workbench and a simple
          idea: good 3D printing should not be limited to engineers and factories. Friends asked for
          a replacement knob, then a planter, then a miniature of their favourite game character,
          and the requests never stopped.
        </p>
        <p>
          Today we run a print farm of machines that work through the day and night, a design desk
          that models custom pieces from a sketch or a photo, and a finishing bench where every
          print is cleaned, checked and packed by hand. Everything we sell is made to order in{" "}
          {company.city} and shipped across India and beyond.
        </p>
        <p>
          Want the longer version? Read{" "}
          <Link to="/our-story">how we went from a garage to a studio</Link>.
        </p>
      </ContentSection>

      <ContentSection title="LayerKart at a glance" prose={false}>
        <KeyFacts
          facts={[
            { label: "Founded", value: company.founded },
            { label: "Studio", value: `${company.city}, ${company.region}` },
            { label: "What we make", value: "3D printed décor, gadgets and character miniatures" },
            { label: "Custom work", value: "Your design or ours, from one piece to hundreds" },
          ]}
        />
      </ContentSection>

      <ContentSection
        title="What we value"
        intro="Three ideas guide every print that leaves our studio."
        prose={false}
      >
        <CompanyValues />
      </ContentSection>

      <CtaPanel
        title="Have something in mind?"
        actions={
          <>
            <Link to="/contact" className={buttonVariants()}>
              Contact us
            </Link>
            <Link to="/products" className={buttonVariants({ variant: "outline" })}>
              Browse products
            </Link>
          </>
        }
      >
        <p>
          Send us a model file, a sketch or just an idea. We will reply with options, materials and
          a price.
        </p>
      </CtaPanel>
    </ContentPage>
  );
}
