/*
 * Indian mobile numbers as people write them (SPEC.md §5: a phone is exactly 10 digits). Customers
 * type or paste "+91 98765 43210", "098765-43210" or "91 9876543210": the country code or trunk
 * zero in front, and spaces, dashes, dots or brackets between the digits, are understood and the
 * 10-digit number is what is kept. Anything else (too few or too many digits, another country's
 * code, letters) is not a number we can hand to a courier, and is refused.
 */

export const MOBILE_DIGITS = 10;

/** What a phone input keeps while typing: digits, a leading +, spaces, dashes, dots, brackets. */
export const MOBILE_INPUT_MAX = 20;

/** The 10-digit number written in `value`, or null when it is not an Indian mobile number. */
export function indianMobile(value: string): string | null {
  const compact = value.trim().replace(/[\s().-]/g, "");
  const match = /^(?:\+91|91|0)?(\d{10})$/.exec(compact);
  // "+91…" must have all 10 digits after the code; a bare 10-digit number needs no prefix.
  return match ? (match[1] ?? null) : null;
}

/** While typing: drops what can't be part of a phone number and stops at MOBILE_INPUT_MAX. */
export function mobileInput(value: string): string {
  return value.replace(/[^\d+\s().-]/g, "").slice(0, MOBILE_INPUT_MAX);
}

/** For zod: a written number becomes its 10 digits; anything else is left for the check to refuse. */
export const toMobile = (value: unknown) =>
  typeof value === "string" ? (indianMobile(value) ?? value.trim()) : value;
