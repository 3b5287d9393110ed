import { Award, Leaf, Lightbulb } from "lucide-react";
import { companyValues } from "./company";

const icons = {
  "Quality Craftsmanship": Award,
  Innovation: Lightbulb,
  Sustainability: Leaf,
} as const;

/** The three values as cards; each name is an h3, so place it under an h2. */
export function CompanyValues() {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {companyValues.map((value) => {
        const Icon = icons[value.name];
        return (
          <li key={value.name} className="rounded-xl border bg-card p-5 text-card-foreground">
            <span className="flex size-10 items-center justify-center rounded-lg bg-accent text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <h3 className="mt-4 font-semibold text-lg">{value.name}</h3>
            <p className="mt-2 text-muted-foreground text-sm leading-6">{value.text}</p>
          </li>
        );
      })}
    </ul>
  );
}
