import { Minus, Plus } from "lucide-react";
import { Button } from "~/components/ui/button";
import { EVERY_TAP } from "~/lib/early-taps";

export function QuantityStepper({
  value,
  onChange,
  min = 1,
  max = 99,
  label = "Quantity",
}: {
  value: number;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  label?: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would wrap two buttons in a form group with a legend; a labelled group is what screen readers need here
    <div className="inline-flex items-center rounded-md border" role="group" aria-label={label}>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label="Decrease quantity"
        {...EVERY_TAP}
        disabled={value <= min}
        onClick={() => onChange(Math.max(min, value - 1))}
      >
        <Minus aria-hidden="true" />
      </Button>
      <output
        aria-live="polite"
        aria-label={label}
        className="w-10 text-center font-medium tabular-nums"
      >
        {value}
      </output>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label="Increase quantity"
        {...EVERY_TAP}
        disabled={value >= max}
        onClick={() => onChange(Math.min(max, value + 1))}
      >
        <Plus aria-hidden="true" />
      </Button>
    </div>
  );
}
