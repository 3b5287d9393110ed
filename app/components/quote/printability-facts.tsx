import { AlertTriangle, CheckCircle2, LoaderCircle } from "lucide-react";
import { type QuoteBreakdown, thinWallFixText } from "~/rules/quote-pricing.ts";
import type { StoredPrintability } from "~/rules/stored-shapes.ts";

const grams = (g: number) => g.toLocaleString("en-IN", { maximumFractionDigits: 1 });
const mm = (v: number) => `${Number(v.toFixed(2)).toLocaleString("en-IN")} mm`;

/** How the part sits on the bed, in the customer's words. */
function orientationText(down: StoredPrintability["down"]): string {
  if (down.z <= -0.99999) return "Printed standing as drawn, on its largest flat face.";
  return "Printed turned to lie on its largest flat face.";
}

/**
 * The printability checks: the side it is printed on, support (priced in), and wall thickness
 * against the material's minimum with what would fix a wall too thin.
 */
export function PrintabilityFacts({
  printability,
  quote,
  materialName,
  scalePercent,
}: {
  printability: StoredPrintability | undefined;
  quote: QuoteBreakdown;
  materialName: string;
  scalePercent: number;
}) {
  if (!printability) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 text-muted-foreground text-sm"
        data-testid="printability-pending"
      >
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        Checking walls and overhangs…
      </p>
    );
  }
  const fix = thinWallFixText(quote, materialName, scalePercent);
  return (
    <section
      className="grid gap-2 rounded-xl border p-4 text-sm"
      aria-label="Printability"
      data-testid="printability"
    >
      <p>{orientationText(printability.down)}</p>
      <p data-testid="support">
        {quote.supportGrams > 0
          ? `Needs support under overhangs: about ${grams(quote.supportGrams)} g of support material is included in the price.`
          : "No support needed."}
      </p>
      {fix ? (
        <p className="flex items-start gap-2 text-destructive" data-testid="thin-walls">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {fix}
        </p>
      ) : quote.thinnestWallMm !== null ? (
        <p className="flex items-start gap-2" data-testid="walls-ok">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
          Thinnest wall {mm(quote.thinnestWallMm)}: fine for {materialName} (at least{" "}
          {mm(quote.minWallMm)}).
        </p>
      ) : null}
    </section>
  );
}
