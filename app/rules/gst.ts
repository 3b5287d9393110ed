/**
 * GST tax-invoice rules (pure; runs in the browser and on the server). Money is integer paise
 * (docs/decisions/0003-money-in-paise.md); every figure on a tax invoice comes from here so the
 * lines, the tax split and the totals agree to the paisa with the order.
 *
 * - Invoice numbers run per financial year (April to March, Asia/Kolkata): INV/2026-27/000042.
 * - A line's taxable value is its gross (quantity × unit price) less its share of the order's
 *   item discounts (order_items.discount_paise); a free-shipping discount lowers the shipping line.
 * - The order's tax (a rate of the discounted items, app/rules/discounts.ts) is shared across its
 *   lines in proportion to their taxable value by the largest-remainder method, so the shares sum
 *   exactly.
 * - Intra-state supply (shop state = delivery state) is taxed as CGST + SGST, each half the rate;
 *   inter-state supply as IGST at the full rate.
 * - Shipping is a separate line (SAC 9965) that the shop does not tax; so is a cash-on-delivery
 *   fee (the courier's collection charge, passed on).
 */
import { inIndia } from "./india-time.ts";

// ---------------------------------------------------------------------------------------------
// Dates and financial years (Asia/Kolkata is UTC+05:30 all year: no daylight saving)
// ---------------------------------------------------------------------------------------------

/** The calendar fields of `date` as seen in India (Asia/Kolkata). */
function istParts(date: Date): { year: number; month: number; day: number } {
  const time = date.getTime();
  if (!Number.isFinite(time)) throw new RangeError("Invalid date");
  const ist = inIndia(date);
  return { year: ist.getUTCFullYear(), month: ist.getUTCMonth() + 1, day: ist.getUTCDate() };
}

/** The Indian financial year (April to March, Asia/Kolkata) containing `date`, e.g. "2026-27". */
export function financialYear(date: Date): string {
  const { year, month } = istParts(date);
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}

/** Whether `value` is a well-formed financial year such as "2026-27" (or "2099-00"). */
export function isFinancialYear(value: string): boolean {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return false;
  return (Number(match[1]) + 1) % 100 === Number(match[2]);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date as printed on an invoice, in India's time zone: "01 Apr 2027". */
export function formatInvoiceDate(date: Date): string {
  const { year, month, day } = istParts(date);
  return `${String(day).padStart(2, "0")} ${MONTHS[month - 1]} ${year}`;
}

// ---------------------------------------------------------------------------------------------
// Invoice numbers
// ---------------------------------------------------------------------------------------------

const INVOICE_NUMBER = /^INV\/(\d{4}-\d{2})\/(\d{6,})$/;

/** "INV/2026-27/000042": the sequence is zero-padded to 6 digits (longer when it needs to be). */
export function formatInvoiceNumber(financialYear: string, sequence: number): string {
  if (!isFinancialYear(financialYear)) {
    throw new RangeError(`Not a financial year: ${JSON.stringify(financialYear)}`);
  }
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`Invoice sequence must be a positive integer, got ${sequence}`);
  }
  return `INV/${financialYear}/${String(sequence).padStart(6, "0")}`;
}

/** The parts of an invoice number in the canonical form `formatInvoiceNumber` writes, else null. */
export function parseInvoiceNumber(
  invoiceNumber: string,
): { financialYear: string; sequence: number } | null {
  const match = INVOICE_NUMBER.exec(invoiceNumber);
  if (!match) return null;
  const [, year, digits] = match;
  const sequence = Number(digits);
  if (!isFinancialYear(year) || !Number.isSafeInteger(sequence) || sequence < 1) return null;
  // Reject non-canonical padding such as "0000042".
  if (String(sequence).padStart(6, "0") !== digits) return null;
  return { financialYear: year, sequence };
}

// ---------------------------------------------------------------------------------------------
// States
// ---------------------------------------------------------------------------------------------

/** A state name for comparison: trimmed, case-insensitive, inner whitespace collapsed. */
export function normalizeState(state: string): string {
  return state.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Intra-state supply: the shop and the delivery address are in the same state. */
export function isIntraStateSupply(shopState: string, deliveryState: string): boolean {
  return normalizeState(shopState) === normalizeState(deliveryState);
}

/** GST state codes (the first two digits of a GSTIN), by state or union territory name. */
const STATE_CODES: Record<string, string> = {
  "jammu and kashmir": "01",
  "himachal pradesh": "02",
  punjab: "03",
  chandigarh: "04",
  uttarakhand: "05",
  uttaranchal: "05",
  haryana: "06",
  delhi: "07",
  "new delhi": "07",
  "nct of delhi": "07",
  rajasthan: "08",
  "uttar pradesh": "09",
  bihar: "10",
  sikkim: "11",
  "arunachal pradesh": "12",
  nagaland: "13",
  manipur: "14",
  mizoram: "15",
  tripura: "16",
  meghalaya: "17",
  assam: "18",
  "west bengal": "19",
  jharkhand: "20",
  odisha: "21",
  orissa: "21",
  chhattisgarh: "22",
  "madhya pradesh": "23",
  gujarat: "24",
  "dadra and nagar haveli and daman and diu": "26",
  "daman and diu": "26",
  "dadra and nagar haveli": "26",
  maharashtra: "27",
  karnataka: "29",
  goa: "30",
  lakshadweep: "31",
  kerala: "32",
  "tamil nadu": "33",
  puducherry: "34",
  pondicherry: "34",
  "andaman and nicobar islands": "35",
  telangana: "36",
  "andhra pradesh": "37",
  ladakh: "38",
};

/** The two-digit GST code of an Indian state or union territory, or null when unknown. */
export function gstStateCode(state: string): string | null {
  const key = normalizeState(state)
    .replace(/&/g, " and ")
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return STATE_CODES[key] ?? null;
}

/** The place of supply as printed: "Karnataka (29)", or the name alone when its code is unknown. */
export function placeOfSupply(deliveryState: string): string {
  const name = deliveryState.trim().replace(/\s+/g, " ");
  const code = gstStateCode(name);
  return code ? `${name} (${code})` : name;
}

// ---------------------------------------------------------------------------------------------
// Allocation and breakdown
// ---------------------------------------------------------------------------------------------

function assertAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
  }
}

/**
 * Shares `total` across `weights` in proportion, as integers that sum exactly to `total`
 * (largest-remainder method; ties go to the earlier weight). All-zero weights share equally.
 */
export function allocateProportionally(total: number, weights: readonly number[]): number[] {
  assertAmount(total, "The total to allocate");
  for (const w of weights) assertAmount(w, "A weight");
  if (weights.length === 0) {
    if (total === 0) return [];
    throw new RangeError("Cannot allocate a non-zero total across no weights");
  }
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  const effective = sum === 0n ? weights.map(() => 1n) : weights.map((w) => BigInt(w));
  const denominator = sum === 0n ? BigInt(weights.length) : sum;
  const t = BigInt(total);
  const shares = effective.map((w) => (t * w) / denominator);
  const remainders = effective.map((w) => (t * w) % denominator);
  let leftover = Number(t - shares.reduce((a, b) => a + b, 0n));
  const order = remainders
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) {
    if (leftover <= 0) break;
    shares[i] += 1n;
    leftover--;
  }
  return shares.map(Number);
}

/** Halves a tax amount for CGST and SGST: floor half and the remainder, summing exactly. */
export function splitCentralState(taxPaise: number): { cgstPaise: number; sgstPaise: number } {
  assertAmount(taxPaise, "A tax amount");
  const cgstPaise = Math.floor(taxPaise / 2);
  return { cgstPaise, sgstPaise: taxPaise - cgstPaise };
}

/** SAC for goods transport services: the invoice's shipping line. */
export const SHIPPING_SAC = "9965";

export type GstInputLine = {
  name: string;
  hsnCode: string;
  quantity: number;
  unitPricePaise: number;
  /** This line's share of the order's item discounts (order_items.discount_paise); 0 if absent. */
  discountPaise?: number;
};

export type GstInput = {
  lines: GstInputLine[];
  /** Shipping as charged before any discount (orders.shipping_paise). */
  shippingPaise: number;
  /** What a free-shipping discount took off the shipping (0 if absent). */
  shippingDiscountPaise?: number;
  /** The cash-on-delivery fee (orders.cod_fee_paise; 0 if absent). */
  codFeePaise?: number;
  /** The order's tax, as charged (a rate of the discounted items). */
  taxPaise: number;
  taxRateBasisPoints: number;
  shopState: string;
  deliveryState: string;
};

export type GstLineTax =
  | { kind: "cgst-sgst"; cgstPaise: number; sgstPaise: number }
  | { kind: "igst"; igstPaise: number };

export type GstLine = Omit<GstInputLine, "discountPaise"> & {
  /** 1-based position on the invoice. */
  position: number;
  /** quantity × unit price */
  grossValuePaise: number;
  /** This line's share of the item discounts. */
  discountPaise: number;
  /** gross − discount: what the tax is charged on. */
  taxableValuePaise: number;
  /** This line's share of the order's tax. */
  taxPaise: number;
  /** taxable value + tax */
  amountPaise: number;
} & GstLineTax;

export type GstShippingLine = {
  name: string;
  hsnCode: string;
  valuePaise: number;
  /** A free-shipping discount. */
  discountPaise: number;
  taxPaise: 0;
  /** value − discount */
  amountPaise: number;
};

export type GstBreakdown = {
  supply: "intra-state" | "inter-state";
  /** Rates for display, as percentages: 8 → CGST 4 + SGST 4 (intra) or IGST 8 (inter). */
  rates:
    | { kind: "cgst-sgst"; ratePercent: number; cgstPercent: number; sgstPercent: number }
    | { kind: "igst"; ratePercent: number; igstPercent: number };
  lines: GstLine[];
  shipping: GstShippingLine;
  /** The cash-on-delivery fee's line (not taxed), or null when the order has none. */
  codFee: Omit<GstShippingLine, "discountPaise"> | null;
  totals: {
    /** Sum of the lines' gross values: the order's subtotal. */
    grossValuePaise: number;
    /** Sum of the lines' discounts. */
    itemDiscountPaise: number;
    /** Sum of the lines' taxable values: gross − item discounts. */
    taxableValuePaise: number;
    cgstPaise: number;
    sgstPaise: number;
    igstPaise: number;
    taxPaise: number;
    /** Shipping before its discount. */
    shippingPaise: number;
    shippingDiscountPaise: number;
    /** The cash-on-delivery fee (0 when none). */
    codFeePaise: number;
    /** Item and shipping discounts together: the order's discount. */
    discountPaise: number;
    /** taxable value + tax + shipping − shipping discount + COD fee: the order's total. */
    grandTotalPaise: number;
  };
};

/**
 * The GST breakdown of an order for its tax invoice: each line's taxable value is its gross less
 * its share of the discounts, and the order's tax is shared across the lines in proportion to
 * their taxable values. Throws RangeError on malformed amounts (a discount larger than its line
 * or than the shipping included).
 */
export function gstBreakdown(input: GstInput): GstBreakdown {
  const shippingDiscountPaise = input.shippingDiscountPaise ?? 0;
  assertAmount(input.shippingPaise, "Shipping");
  assertAmount(shippingDiscountPaise, "The shipping discount");
  const codFeePaise = input.codFeePaise ?? 0;
  assertAmount(codFeePaise, "The cash-on-delivery fee");
  if (shippingDiscountPaise > input.shippingPaise) {
    throw new RangeError("The shipping discount is more than the shipping");
  }
  assertAmount(input.taxPaise, "Tax");
  assertAmount(input.taxRateBasisPoints, "The tax rate");
  const figures = input.lines.map((line, i) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new RangeError(`Line ${i + 1}: quantity must be a positive integer`);
    }
    assertAmount(line.unitPricePaise, `Line ${i + 1}: unit price`);
    const gross = line.quantity * line.unitPricePaise;
    assertAmount(gross, `Line ${i + 1}: value`);
    const discount = line.discountPaise ?? 0;
    assertAmount(discount, `Line ${i + 1}: discount`);
    if (discount > gross) throw new RangeError(`Line ${i + 1}: discount is more than its value`);
    return { gross, discount, taxable: gross - discount };
  });
  const taxable = figures.map((f) => f.taxable);
  const shares = allocateProportionally(input.taxPaise, taxable);
  const intra = isIntraStateSupply(input.shopState, input.deliveryState);

  const lines: GstLine[] = input.lines.map((line, i) => {
    const base = {
      name: line.name,
      hsnCode: line.hsnCode,
      quantity: line.quantity,
      unitPricePaise: line.unitPricePaise,
      position: i + 1,
      grossValuePaise: figures[i].gross,
      discountPaise: figures[i].discount,
      taxableValuePaise: taxable[i],
      taxPaise: shares[i],
      amountPaise: taxable[i] + shares[i],
    };
    return intra
      ? { ...base, kind: "cgst-sgst" as const, ...splitCentralState(shares[i]) }
      : { ...base, kind: "igst" as const, igstPaise: shares[i] };
  });

  let cgstPaise = 0;
  let sgstPaise = 0;
  let igstPaise = 0;
  for (const line of lines) {
    if (line.kind === "cgst-sgst") {
      cgstPaise += line.cgstPaise;
      sgstPaise += line.sgstPaise;
    } else {
      igstPaise += line.igstPaise;
    }
  }
  const grossValuePaise = figures.reduce((a, f) => a + f.gross, 0);
  const itemDiscountPaise = figures.reduce((a, f) => a + f.discount, 0);
  const taxableValuePaise = grossValuePaise - itemDiscountPaise;
  const ratePercent = input.taxRateBasisPoints / 100;
  const halfPercent = input.taxRateBasisPoints / 200;
  const shippingNet = input.shippingPaise - shippingDiscountPaise;

  return {
    supply: intra ? "intra-state" : "inter-state",
    rates: intra
      ? { kind: "cgst-sgst", ratePercent, cgstPercent: halfPercent, sgstPercent: halfPercent }
      : { kind: "igst", ratePercent, igstPercent: ratePercent },
    lines,
    shipping: {
      name: "Shipping",
      hsnCode: SHIPPING_SAC,
      valuePaise: input.shippingPaise,
      discountPaise: shippingDiscountPaise,
      taxPaise: 0,
      amountPaise: shippingNet,
    },
    codFee:
      codFeePaise > 0
        ? {
            name: "Cash on delivery fee",
            hsnCode: SHIPPING_SAC,
            valuePaise: codFeePaise,
            taxPaise: 0,
            amountPaise: codFeePaise,
          }
        : null,
    totals: {
      grossValuePaise,
      itemDiscountPaise,
      taxableValuePaise,
      cgstPaise,
      sgstPaise,
      igstPaise,
      taxPaise: input.taxPaise,
      shippingPaise: input.shippingPaise,
      shippingDiscountPaise,
      codFeePaise,
      discountPaise: itemDiscountPaise + shippingDiscountPaise,
      grandTotalPaise: taxableValuePaise + input.taxPaise + shippingNet + codFeePaise,
    },
  };
}

/**
 * Where a breakdown disagrees with the order's stored figures (empty when they agree). An invoice
 * must not be issued with figures that differ from what the customer was charged.
 */
export function invoiceMismatches(
  breakdown: GstBreakdown,
  order: {
    subtotalPaise: number;
    totalPaise: number;
    /** Checked when given: the order's discount, items and shipping together. */
    discountPaise?: number;
    /** Checked when given: the order's shipping before its discount. */
    shippingPaise?: number;
  },
): string[] {
  const problems: string[] = [];
  const t = breakdown.totals;
  if (t.grossValuePaise !== order.subtotalPaise) {
    problems.push(`line total ${t.grossValuePaise} ≠ order subtotal ${order.subtotalPaise}`);
  }
  if (order.discountPaise !== undefined && t.discountPaise !== order.discountPaise) {
    problems.push(`discounts ${t.discountPaise} ≠ order discount ${order.discountPaise}`);
  }
  if (order.shippingPaise !== undefined && t.shippingPaise !== order.shippingPaise) {
    problems.push(`shipping ${t.shippingPaise} ≠ order shipping ${order.shippingPaise}`);
  }
  if (t.grandTotalPaise !== order.totalPaise) {
    problems.push(`grand total ${t.grandTotalPaise} ≠ order total ${order.totalPaise}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Formatting for print (standard PDF fonts have no ₹ sign, so amounts read "Rs. 1,23,456.78")
// ---------------------------------------------------------------------------------------------

/** Indian digit grouping of a non-negative integer string: "12345678" → "1,23,45,678". */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3);
  return `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ",")},${last3}`;
}

/** Paise as rupees with Indian grouping and no currency sign: 12345678 → "1,23,456.78". */
export function formatIndianAmount(paise: number): string {
  if (!Number.isSafeInteger(paise)) return "0.00";
  const abs = Math.abs(paise);
  const rupees = groupIndian(String(Math.floor(abs / 100)));
  const fraction = String(abs % 100).padStart(2, "0");
  return `${paise < 0 ? "-" : ""}${rupees}.${fraction}`;
}

/** Paise for print: 12345678 → "Rs. 1,23,456.78"; negative amounts "-Rs. 5.00". */
export function formatRupees(paise: number): string {
  const text = formatIndianAmount(paise);
  return text.startsWith("-") ? `-Rs. ${text.slice(1)}` : `Rs. ${text}`;
}

/** A percentage for print: 4 → "4%", 2.5 → "2.5%", 0.005 → "0.005%". */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(4))}%`;
}

const ONES = [
  "",
  "One",
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Eleven",
  "Twelve",
  "Thirteen",
  "Fourteen",
  "Fifteen",
  "Sixteen",
  "Seventeen",
  "Eighteen",
  "Nineteen",
];
const TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n];
  const unit = n % 10;
  return unit === 0 ? TENS[Math.floor(n / 10)] : `${TENS[Math.floor(n / 10)]} ${ONES[unit]}`;
}

/** A positive integer in words, Indian system (thousand, lakh, crore): no "and", title case. */
function indianWords(n: number): string {
  const parts: string[] = [];
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const hundred = Math.floor((n % 1000) / 100);
  const rest = n % 100;
  if (crore > 0) parts.push(`${indianWords(crore)} Crore`);
  if (lakh > 0) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand > 0) parts.push(`${belowHundred(thousand)} Thousand`);
  if (hundred > 0) parts.push(`${ONES[hundred]} Hundred`);
  if (rest > 0) parts.push(belowHundred(rest));
  return parts.join(" ");
}

/**
 * An amount in words, Indian style: 123456 → "Rupees One Thousand Two Hundred Thirty Four and
 * Fifty Six Paise Only"; 0 → "Rupees Zero Only"; 50 → "Fifty Paise Only".
 */
export function amountInWords(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`Not an amount in paise: ${paise}`);
  if (paise < 0) return `Minus ${amountInWords(-paise)}`;
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const paiseWords = rest === 0 ? "" : `${belowHundred(rest)} ${rest === 1 ? "Paisa" : "Paise"}`;
  if (rupees === 0) return rest === 0 ? "Rupees Zero Only" : `${paiseWords} Only`;
  const rupeeWords = `Rupees ${indianWords(rupees)}`;
  return rest === 0 ? `${rupeeWords} Only` : `${rupeeWords} and ${paiseWords} Only`;
}
