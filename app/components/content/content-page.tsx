import { useId } from "react";
import { BackHomeButtons } from "~/components/layout/back-home-buttons";
import { cn } from "~/lib/cn";

/*
 * The one layout every company, policy and help page shares: the Back/Home pair, the page's only
 * h1 with a lead paragraph, then h2 sections of readable prose. Sections keep headings in order
 * (h1 → h2 → h3), which the e2e accessibility checks rely on.
 */

export type ContentPageProps = {
  title: string;
  /** One or two sentences under the title. */
  lead?: React.ReactNode;
  /** Small label above the title, e.g. "Company" or "Policy". */
  eyebrow?: string;
  /** Shown under the lead on policy pages, e.g. "1 November 2026". */
  updated?: string;
  /** Buttons or links under the lead. */
  actions?: React.ReactNode;
  /** Wide pages (tables, card grids) use more of the screen; text pages stay at reading width. */
  width?: "reading" | "wide";
  children?: React.ReactNode;
};

export function ContentPage({
  title,
  lead,
  eyebrow,
  updated,
  actions,
  width = "reading",
  children,
}: ContentPageProps) {
  return (
    <div
      className={cn(
        "mx-auto w-full px-4 pt-6 pb-12 sm:px-6 sm:pt-8 sm:pb-16",
        width === "wide" ? "max-w-5xl" : "max-w-3xl",
      )}
    >
      <BackHomeButtons />
      <header className="mt-6 border-b pb-8 sm:mt-8">
        {eyebrow ? (
          <p className="font-semibold text-primary text-sm uppercase tracking-wider">{eyebrow}</p>
        ) : null}
        <h1 className="mt-2 text-balance font-bold text-3xl tracking-tight sm:text-4xl">{title}</h1>
        {lead ? (
          <p className="mt-4 max-w-2xl text-pretty text-lg text-muted-foreground leading-relaxed">
            {lead}
          </p>
        ) : null}
        {updated ? (
          <p className="mt-3 text-muted-foreground text-sm">Last updated {updated}</p>
        ) : null}
        {actions ? <div className="mt-6 flex flex-wrap gap-3">{actions}</div> : null}
      </header>
      {children ? <div className="mt-10 space-y-12">{children}</div> : null}
    </div>
  );
}

/** Typography for running text: paragraphs, lists and links inside a section. */
export const proseClass = cn(
  "space-y-4 text-base leading-7",
  "[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:decoration-2",
  "[&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-5",
  "[&_li]:pl-1 [&_li::marker]:text-muted-foreground [&_strong]:font-semibold",
  "[&_h3]:pt-2 [&_h3]:font-semibold [&_h3]:text-lg",
);

export function Prose({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn(proseClass, className)} {...props} />;
}

export type ContentSectionProps = {
  title: string;
  /** Optional short text under the heading. */
  intro?: React.ReactNode;
  /** Wrap the children in prose typography (set false for grids, tables and cards). */
  prose?: boolean;
  className?: string;
  children?: React.ReactNode;
};

/** An h2 section, labelled by its heading. */
export function ContentSection({
  title,
  intro,
  prose = true,
  className,
  children,
}: ContentSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn("scroll-mt-20", className)}>
      <h2 id={headingId} className="text-balance font-semibold text-2xl tracking-tight">
        {title}
      </h2>
      {intro ? <p className="mt-2 text-muted-foreground">{intro}</p> : null}
      <div className={cn("mt-4", prose && [proseClass, "max-w-3xl"])}>{children}</div>
    </section>
  );
}

export type KeyFact = { label: string; value: React.ReactNode };

/** "At a glance" facts as a description list: policy windows, company facts, terms. */
export function KeyFacts({ facts, className }: { facts: KeyFact[]; className?: string }) {
  return (
    <dl
      className={cn(
        "grid gap-px overflow-hidden rounded-xl border bg-border sm:grid-cols-2",
        className,
      )}
    >
      {facts.map((fact) => (
        <div key={fact.label} className="bg-card px-5 py-4">
          <dt className="text-muted-foreground text-sm">{fact.label}</dt>
          <dd className="mt-1 font-semibold">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A closing call to action: an h2, a sentence and one or two links. */
export function CtaPanel({
  title,
  children,
  actions,
}: {
  title: string;
  children?: React.ReactNode;
  actions: React.ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl bg-accent px-6 py-8 text-accent-foreground sm:px-8"
    >
      <h2 id={headingId} className="font-semibold text-2xl tracking-tight">
        {title}
      </h2>
      {children ? <div className="mt-2 max-w-2xl leading-7">{children}</div> : null}
      <div className="mt-5 flex flex-wrap gap-3">{actions}</div>
    </section>
  );
}
