/*
 * Shipping figures as the storefront words them (kept apart from the rate rules so pages that
 * only show a rate don't carry them).
 */

/** A chargeable weight: "500 g", "1 kg", "1.5 kg". */
export function weightText(grams: number): string {
  if (grams < 1000) return `${grams} g`;
  const kg = Math.round(grams / 100) / 10;
  return `${kg} kg`;
}

/** What the cart's shipping figure is for. */
export type CartShipping =
  | { kind: "rated"; pin: string; grams: number }
  | { kind: "unknown-pin"; pin: string };

/** The note under the cart's and checkout's shipping figure. */
export function shippingNoteText(shipping: CartShipping | null): string {
  if (!shipping) return "Estimate: check your PIN code below";
  if (shipping.kind === "unknown-pin") return `We don't deliver to ${shipping.pin} yet`;
  return `to ${shipping.pin} · ${weightText(shipping.grams)}`;
}
