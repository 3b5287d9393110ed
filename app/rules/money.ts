/**
 * Money is integer paise end to end; it becomes rupees only when formatted (SPEC.md §1).
 * INR uses the Indian English locale (lakh grouping), USD the US English locale.
 */
export type Currency = "INR" | "USD";

const formatters: Record<string, Intl.NumberFormat> = {};

function formatter(currency: string): Intl.NumberFormat | undefined {
  if (!(currency in formatters)) {
    try {
      const locale = currency === "USD" ? "en-US" : "en-IN";
      formatters[currency] = new Intl.NumberFormat(locale, { style: "currency", currency });
    } catch {
      return undefined;
    }
  }
  return formatters[currency];
}

/** Formats an amount in major units (rupees). Non-finite amounts display as zero. */
export function formatAmount(amount: number, currency: string = "INR"): string {
  const value = Number.isFinite(amount) ? amount : 0;
  const f = formatter(currency.toUpperCase());
  if (!f) return `₹${value.toFixed(2)}`;
  return f.format(value);
}

/** Formats integer paise (or cents) as money. */
export function formatPaise(paise: number, currency: string = "INR"): string {
  // Below 10^15 paise, paise / 100 is the exact decimal Intl would round (15 digits round-trip).
  if (
    Number.isInteger(paise) &&
    Math.abs(paise) < 1e15 &&
    (currency === "INR" || currency === "inr")
  ) {
    return formatWholePaise(paise);
  }
  return formatAmount(Number.isFinite(paise) ? paise / 100 : 0, currency);
}

/**
 * Whole paise as the Indian English locale writes rupees ("-₹12,34,567.50"), the same text as
 * `Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" })` (money.test.ts compares
 * them). Written out because a page's first `Intl.NumberFormat` costs ~20 ms of main thread in
 * the browser (ICU's locale data), in the middle of hydrating a listing's prices.
 */
function formatWholePaise(paise: number): string {
  const sign = paise < 0 || Object.is(paise, -0) ? "-" : "";
  const abs = Math.abs(paise);
  const rupees = String(Math.floor(abs / 100));
  const fraction = String(abs % 100).padStart(2, "0");
  // The last three digits, then groups of two (lakh, crore).
  const grouped =
    rupees.length <= 3
      ? rupees
      : `${rupees.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ",")},${rupees.slice(-3)}`;
  return `${sign}₹${grouped}.${fraction}`;
}

/** Rupees (a number or a string with at most 2 decimals) to integer paise, rounded half away from zero. */
export function rupeesToPaise(rupees: number | string): number {
  const n = typeof rupees === "string" ? Number(rupees.trim()) : rupees;
  if (!Number.isFinite(n)) return 0;
  return Math.sign(n) * Math.round(Math.abs(n) * 100 + Number.EPSILON * 100);
}

/** Integer paise as rupees with exactly 2 decimals, as forms and CSV files show them: 38691 → "386.91", -5 → "-0.05". */
export function paiseToRupeesText(paise: number): string {
  const p = Number.isFinite(paise) ? Math.round(paise) : 0;
  const sign = p < 0 ? "-" : "";
  const abs = Math.abs(p);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Rupees text already checked to be digits with at most 2 decimals: "12.5" → 1250 paise, exactly (no floating-point drift). */
export function rupeesTextToPaise(text: string): number {
  const [whole, fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
