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
