/**
 * Units of length a model file may be drawn in. A 3MF states its unit (the reader converts it to
 * millimetres); STL, OBJ and PLY carry none, so the same numbers can mean 12.7 mm or 12.7 inches
 * (322.6 mm). The quote shows the other readings a file's size makes likely, with a one-click
 * switch, and the server prices the unit the customer chose. Pure and small: the quote page's
 * first JavaScript imports it.
 */

export const LENGTH_UNITS = ["mm", "cm", "inch", "m"] as const;
export type LengthUnit = (typeof LENGTH_UNITS)[number];

/** Millimetres per unit. */
export const MM_PER_UNIT: Record<LengthUnit, number> = { mm: 1, cm: 10, inch: 25.4, m: 1000 };

/** The unit's name in a sentence ("if the file is in inches"). */
export const UNIT_NAME: Record<LengthUnit, string> = {
  mm: "millimetres",
  cm: "centimetres",
  inch: "inches",
  m: "metres",
};

export function isLengthUnit(value: unknown): value is LengthUnit {
  return (LENGTH_UNITS as readonly unknown[]).includes(value);
}

/**
 * A reading is believable when the part's longest side comes out between 15 mm and 2 m: smaller
 * is a trinket no one draws that way on purpose, larger is more than any desktop printer makes.
 */
const SMALLEST_LIKELY_MM = 15;
const LARGEST_LIKELY_MM = 2000;

type Size = { x: number; y: number; z: number };

/** The size in millimetres if the file's numbers are in `unit`. */
export function sizeInMm(rawSize: Size, unit: LengthUnit): Size {
  const k = MM_PER_UNIT[unit];
  return { x: rawSize.x * k, y: rawSize.y * k, z: rawSize.z * k };
}

/** The size at a uniform scale (100 = as drawn). */
export function scaleSize(size: Size, percent: number): Size {
  const k = percent / 100;
  return { x: size.x * k, y: size.y * k, z: size.z * k };
}

function likely(rawSize: Size, unit: LengthUnit): boolean {
  const longest = Math.max(rawSize.x, rawSize.y, rawSize.z) * MM_PER_UNIT[unit];
  return longest >= SMALLEST_LIKELY_MM && longest <= LARGEST_LIKELY_MM;
}

/**
 * The other units worth offering for a file without a unit of its own, given the unit read now:
 * none while the reading is believable in millimetres; otherwise every believable unit, and
 * millimetres (the file's plain reading) whenever another unit is chosen. Empty for a file that
 * states its unit (3MF).
 */
export function otherLikelyUnits(
  rawSize: Size,
  fileUnit: string | null,
  chosen: LengthUnit,
): LengthUnit[] {
  if (fileUnit) return [];
  if (chosen === "mm" && likely(rawSize, "mm")) return [];
  return LENGTH_UNITS.filter((u) => u !== chosen && (u === "mm" || likely(rawSize, u)));
}

/** "12.7", "322", "0.4": one decimal below 100 mm, whole millimetres above. */
export function formatMm(value: number): string {
  return value.toLocaleString("en-IN", { maximumFractionDigits: value < 100 ? 1 : 0 });
}

/** "322 × 241 × 76 mm" */
export function formatSize(size: Size): string {
  return `${formatMm(size.x)} × ${formatMm(size.y)} × ${formatMm(size.z)} mm`;
}

/** "322 × 241 × 76 mm if the file is in inches" */
export function readingText(rawSize: Size, unit: LengthUnit): string {
  return `${formatSize(sizeInMm(rawSize, unit))} if the file is in ${UNIT_NAME[unit]}`;
}

/** How staff see the unit a quote was priced in, and who chose it. */
export function unitForStaff(fileUnit: string | null, chosen: string | undefined): string {
  if (fileUnit) return "millimetres (stated in the file)";
  const unit = isLengthUnit(chosen) ? chosen : "mm";
  return `${UNIT_NAME[unit]} (the customer's choice; the file states none)`;
}
