import { Download, FileText, Mail, Palette, Shapes } from "lucide-react";
import { Link } from "react-router";
import { company } from "~/components/content/company";
import { ContentPage, ContentSection, CtaPanel, KeyFacts } from "~/components/content/content-page";
import { buttonVariants } from "~/components/ui/button";
import { personalPageHandle } from "~/lib/public-page.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/press";

export const handle = personalPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Press",
    description:
      "Press information about LayerKart, the Bangalore 3D printing studio founded in 2020: facts, press kit with logos and brand colours, coverage and media contact.",
    path: "/press",
    origin: originFrom(matches),
  });

const PRESS_KIT = "/press-kit.zip";

const kitContents = [
  { icon: Shapes, name: "Logo", text: "The LayerKart mark and wordmark as SVG files" },
  {
    icon: FileText,
    name: "Fact sheet",
    text: "Company facts, products and contacts as plain text",
  },
  { icon: Palette, name: "Brand colours", text: "Colour names, hex values and where we use them" },
] as const;

const coverage = [
  {
    outlet: "The Makers' Ledger",
    title: "From a garage printer to a print farm: a Bangalore studio's first three years",
    date: "March 2023",
  },
  {
    outlet: "Startup Diaries India",
    title: "Small-batch manufacturing comes to corporate gifting",
    date: "November 2023",
  },
  {
    outlet: "Tabletop Tales",
    title: "Hand-painted miniatures, printed to order in India",
    date: "June 2024",
  },
  {
    outlet: "Desk & Décor",
    title: "Ten 3D printed desk upgrades under ₹1,000",
    date: "January 2025",
  },
] as const;

function DownloadPressKit({ variant }: { variant?: "default" | "outline" }) {
  return (
    <a href={PRESS_KIT} download className={buttonVariants({ variant })}>
      <Download aria-hidden="true" />
      Download press kit
    </a>
  );
}

export default function Press() {
  return (
    <ContentPage
      eyebrow="Newsroom"
      title="Press"
      lead="Writing about 3D printing, makers or small manufacturing in India? Here is what you need to know about LayerKart, plus logos and facts you are free to use."
      width="wide"
      actions={<DownloadPressKit />}
    >
      <ContentSection title="Fast facts" prose={false}>
        <KeyFacts
          facts={[
            { label: "Founded", value: `${company.founded}, in a garage` },
            { label: "Headquarters", value: `${company.city}, ${company.region}` },
            {
              label: "What we make",
              value: "3D printed décor, gadgets, character miniatures and custom prints",
            },
            { label: "Materials", value: "PLA, PETG and specialty filaments" },
            { label: "Customers", value: "Homes, gamers, gift stores and businesses" },
            { label: "Shipping", value: "Across India and worldwide, with tracking" },
          ]}
        />
      </ContentSection>

      <ContentSection
        title="Press kit"
        intro="One ZIP file with everything below. Please do not stretch, recolour or redraw the logo."
        prose={false}
      >
        <div className="rounded-xl border bg-card p-6 text-card-foreground">
          <ul className="grid gap-4 sm:grid-cols-3">
            {kitContents.map((item) => (
              <li key={item.name} className="flex gap-3">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-primary">
                  <item.icon aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <h3 className="font-semibold">{item.name}</h3>
                  <p className="mt-1 text-muted-foreground text-sm leading-6">{item.text}</p>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-6 flex flex-wrap items-center gap-3 border-t pt-6">
            <DownloadPressKit variant="outline" />
            <p className="text-muted-foreground text-sm">ZIP, about 2 KB</p>
          </div>
        </div>
      </ContentSection>

      <ContentSection title="In the news" prose={false}>
        <ul className="divide-y rounded-xl border bg-card text-card-foreground">
          {coverage.map((item) => (
            <li key={item.title} className="px-5 py-4">
              <p className="text-muted-foreground text-sm">
                {item.outlet} · <time>{item.date}</time>
              </p>
              <h3 className="mt-1 font-medium">{item.title}</h3>
            </li>
          ))}
        </ul>
      </ContentSection>

      <CtaPanel
        title="Media contact"
        actions={
          <>
            <a href={`mailto:${company.pressEmail}`} className={buttonVariants()}>
              <Mail aria-hidden="true" />
              {company.pressEmail}
            </a>
            <Link
              to="/contact?subject=Press%20enquiry"
              className={buttonVariants({ variant: "outline" })}
            >
              Use the contact form
            </Link>
          </>
        }
      >
        <p>
          For interviews, product samples or high-resolution photos, write to our press desk. We
          reply within one business day.
        </p>
      </CtaPanel>
    </ContentPage>
  );
}
