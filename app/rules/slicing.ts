/**
 * Slicer-true estimates (docs/decisions/0020): when the price from the slicer's grams and time
 * replaces the instant one, and the words the customer and staff read about it. Pure.
 */
import { formatPaise } from "./money.ts";
import { minutesText } from "./print-dates.ts";
import type { SliceOutcome, StoredSlice } from "./stored-shapes.ts";

export type { SliceOutcome, StoredSlice };

/** Where the part stands when the slicer's figures arrive (read under the quote's row lock). */
export type SlicePartState =
  /** In the cart at the instant price: the price may change. */
  | "in-cart"
  /** Paid for (or a cash-on-delivery order): the price never changes. */
  | "paid"
  /** In an order waiting for payment: its amount is fixed. */
  | "awaiting-payment"
  /** Staff set the price: theirs stands. */
  | "staff-priced"
  /** Not in the cart any more (review requested, closed …): nothing to re-price. */
  | "not-in-cart";

/**
 * Whether the slicer's price replaces the instant one: only for a part in the cart, not paid, not
 * in an order waiting for payment, not priced by staff, and only when the two differ by more than
 * the tolerance (percent of the instant price).
 */
export function slicerPriceOutcome(input: {
  instantUnitPaise: number;
  slicedUnitPaise: number;
  tolerancePercent: number;
  state: SlicePartState;
}): SliceOutcome {
  if (input.state !== "in-cart") return input.state;
  const difference = Math.abs(input.slicedUnitPaise - input.instantUnitPaise);
  return difference * 100 > input.instantUnitPaise * input.tolerancePercent
    ? "updated"
    : "within-tolerance";
}

/** Grams as people read them: "4.5 g", "1,240 g". */
export function gramsText(grams: number): string {
  return grams >= 100
    ? `${Math.round(grams).toLocaleString("en-IN")} g`
    : `${Number(grams.toFixed(1))} g`;
}

export const slicingText = {
  /** Heads the note on the cart line and the quote, before paying. */
  updatedTitle: "Price updated after slicing your model",
  /** The note the customer reads: what the slicer found, and the new price. */
  note: (slice: { grams: number; printMinutes: number }, fromPaise: number, toPaise: number) =>
    `Our slicer worked out ${gramsText(slice.grams)} of material and ${minutesText(slice.printMinutes)} of printing per piece, so the price is now ${formatPaise(toPaise)} each (was ${formatPaise(fromPaise)}).`,
  outcome: {
    updated: "Price updated from the slicer's figures",
    "within-tolerance": "Within the tolerance: price kept",
    paid: "Sliced after payment: price kept",
    "awaiting-payment": "Sliced while an order waited for payment: price kept",
    "staff-priced": "Priced by staff: price kept",
    "not-in-cart": "Not in the cart: price kept",
  } satisfies Record<SliceOutcome, string>,
  queued: "Waiting for the slicer",
  failed: "Slicing failed: the instant estimate stands",
} as const;

/** For staff: the instant and the slicer's figures side by side (null: not sliced). */
export function sliceFigures(slice: StoredSlice | null | undefined) {
  if (!slice) return null;
  const row = (label: string, instant: string, sliced: string | null) => ({
    label,
    instant,
    sliced,
  });
  const done = slice.status === "done";
  return {
    status:
      slice.status === "queued"
        ? slicingText.queued
        : slice.status === "failed"
          ? `${slicingText.failed}${slice.error ? ` (${slice.error})` : ""}`
          : slicingText.outcome[slice.outcome ?? "within-tolerance"],
    rows: [
      row(
        "Material",
        gramsText(slice.instant.grams),
        done && slice.grams !== undefined ? gramsText(slice.grams) : null,
      ),
      row(
        "Support",
        gramsText(slice.instant.supportGrams),
        done
          ? slice.supportGrams === null || slice.supportGrams === undefined
            ? "not reported"
            : gramsText(slice.supportGrams)
          : null,
      ),
      row(
        "Print time",
        minutesText(slice.instant.printMinutes),
        done && slice.printMinutes !== undefined ? minutesText(slice.printMinutes) : null,
      ),
      row(
        "Price per piece",
        formatPaise(slice.instant.unitPricePaise),
        done && slice.slicedUnitPricePaise !== undefined
          ? formatPaise(slice.slicedUnitPricePaise)
          : null,
      ),
    ],
  };
}
