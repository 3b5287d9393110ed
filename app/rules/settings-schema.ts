import { z } from "zod";

import { gstStateCode } from "./gst.ts";
import { paiseToRupeesText as moneyText, rupeesTextToPaise } from "./money.ts";
import { isIsoDay } from "./working-days.ts";

/*
 * The admin settings form (DESIGN.md decision 2: shipping and tax are shop settings; the shop's
 * identity prints on GST invoices). One zod schema, parsed by the browser before it submits and
 * again by the server action. The form speaks rupees and percent; the schema's output is what the
 * shop_settings row stores: integer paise and basis points.
 */

/** India's 28 states and 8 union territories, as GST names them (app/rules/gst.ts codes). */
export const INDIAN_STATES = [
  "Andhra Pradesh",
  "Arunachal Pradesh",
  "Assam",
  "Bihar",
  "Chhattisgarh",
  "Goa",
  "Gujarat",
  "Haryana",
  "Himachal Pradesh",
  "Jharkhand",
  "Karnataka",
  "Kerala",
  "Madhya Pradesh",
  "Maharashtra",
  "Manipur",
  "Meghalaya",
  "Mizoram",
  "Nagaland",
  "Odisha",
  "Punjab",
  "Rajasthan",
  "Sikkim",
  "Tamil Nadu",
  "Telangana",
  "Tripura",
  "Uttar Pradesh",
  "Uttarakhand",
  "West Bengal",
] as const;

export const INDIAN_UNION_TERRITORIES = [
  "Andaman and Nicobar Islands",
  "Chandigarh",
  "Dadra and Nagar Haveli and Daman and Diu",
  "Delhi",
  "Jammu and Kashmir",
  "Ladakh",
  "Lakshadweep",
  "Puducherry",
] as const;

const ALL_REGIONS: readonly string[] = [...INDIAN_STATES, ...INDIAN_UNION_TERRITORIES];

export function isIndianState(value: string): boolean {
  return ALL_REGIONS.includes(value);
}

/**
 * GSTIN: 2-digit state code, the 10-character PAN (5 letters, 4 digits, 1 letter), the entity
 * number (1–9 or A–Z), the letter Z, and a check character.
 */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** A GSTIN as typed ("29abcde 1234f1z5") in its canonical form: upper case, no spaces. */
export const normalizeGstin = (value: string) => value.replace(/[\s-]/g, "").toUpperCase();

export function isGstin(value: string): boolean {
  const gstin = normalizeGstin(value);
  if (!GSTIN_PATTERN.test(gstin)) return false;
  const state = Number(gstin.slice(0, 2));
  // 01–38 are states and union territories; 97 "other territory"; 99 centre jurisdiction.
  return (state >= 1 && state <= 38) || state === 97 || state === 99;
}

/** What checkout charges with a courier account (decision 0019). */
export const COURIER_RATE_MODES = ["table", "cheapest", "preferred"] as const;
export type CourierRateMode = (typeof COURIER_RATE_MODES)[number];

export const settingsText = {
  courierRates: "Choose how checkout prices shipping.",
  preferredCourier: "Enter the preferred courier's name, e.g. Delhivery Surface.",
  saved: "Settings saved",
  saveFailed: "Failed to save",
  fixFields: "Please correct the highlighted fields.",
  shippingFee: "Enter the shipping fee in rupees, e.g. 9.99.",
  taxRate: "Enter a tax rate from 0 to 100, with at most 2 decimals.",
  amount: "Enter an amount in rupees with at most 2 decimals.",
  positive: "Enter an amount above ₹0, or leave it empty.",
  tooLarge: "That amount is too large.",
  shopName: "Please enter the shop's name.",
  shopEmail: "Please enter a valid email address.",
  shopPhone: "Enter a phone number: digits, spaces, +, - and brackets (at least 10 digits).",
  gstin:
    "Enter a valid 15-character GSTIN: 2-digit state code, 10-character PAN, entity number, Z, check character.",
  state: "Choose the shop's state or union territory.",
  shipFromPin: "Please enter a valid 6-digit Indian PIN code",
  workingDays: "Enter a whole number of working days from 0 to 60.",
  leadByCategory: 'One category per line as "Category: days", days a whole number from 0 to 60.',
  holidays: "One date per line as YYYY-MM-DD (e.g. 2026-12-25).",
  rate: "Enter the rate in rupees, e.g. 45 or 45.50.",
  codFee: "Enter the fee in rupees from 0 to 10,000, e.g. 49.",
  codLimit:
    "Enter the largest order in rupees, 0 to turn cash on delivery off in this zone, or leave it empty for no limit.",
} as const;

const MAX_LEAD_DAYS = 60;
const MAX_HOLIDAYS = 200;

const workingDays = z
  .string({ error: settingsText.workingDays })
  .trim()
  .refine((v) => /^\d{1,2}$/.test(v) && Number(v) <= MAX_LEAD_DAYS, settingsText.workingDays)
  .transform(Number);

/** "3D Characters: 5" per line → { "3D Characters": 5 }; null when a line doesn't read. */
export function parseLeadDaysByCategory(text: string): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(.{1,100}?)\s*[:=]\s*(\d{1,2})$/.exec(line);
    if (!m || Number(m[2]) > MAX_LEAD_DAYS) return null;
    out[m[1].trim()] = Number(m[2]);
  }
  return out;
}

export const leadDaysByCategoryText = (byCategory: Record<string, number>) =>
  Object.entries(byCategory)
    .map(([category, days]) => `${category}: ${days}`)
    .join("\n");

/** Dates one per line (or separated by commas), each a real yyyy-mm-dd day; sorted, once each. */
export function parseHolidays(text: string): string[] | null {
  const days = text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);
  if (days.length > MAX_HOLIDAYS || !days.every(isIsoDay)) return null;
  return [...new Set(days)].sort();
}

/** The largest amount an admin may type: ₹1,00,00,000 (fits the integer paise columns). */
const MAX_RUPEES = 10_000_000;
const MAX_SHIPPING_RUPEES = 100_000;

const RUPEES = /^\d+(\.\d{1,2})?$/;
const cleanAmount = (value: string) => value.replace(/[\s,₹]/g, "");

/** "18.25" (percent) → 1825 basis points, exactly. */
export const percentTextToBasisPoints = rupeesTextToPaise;

/** Paise for the form: 999 → "9.99", 1000 → "10.00"; null → "". */
export function paiseToRupeesText(paise: number | null): string {
  return paise === null ? "" : moneyText(paise);
}

/** Basis points for the form: 800 → "8", 1850 → "18.5", 1825 → "18.25". */
export function basisPointsToPercentText(bp: number): string {
  const whole = Math.floor(bp / 100);
  const rest = bp % 100;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
}

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

const amount = (max: number, invalid: string) =>
  z
    .string({ error: invalid })
    .transform(cleanAmount)
    .refine((v) => RUPEES.test(v), invalid)
    .transform(rupeesTextToPaise)
    .refine((paise) => paise <= max * 100, settingsText.tooLarge);

const optionalPositiveAmount = z
  .string()
  .optional()
  .transform((v) => cleanAmount(v ?? ""))
  .refine((v) => v === "" || RUPEES.test(v), settingsText.amount)
  .transform((v) => (v === "" ? null : rupeesTextToPaise(v)))
  .refine((paise) => paise === null || paise > 0, settingsText.positive)
  .refine((paise) => paise === null || paise <= MAX_RUPEES * 100, settingsText.tooLarge);

/** A zone's rate (first or each further 500 g): rupees, up to ₹1,00,000. */
const rate = amount(MAX_SHIPPING_RUPEES, settingsText.rate);

/** A zone's cash-on-delivery fee: rupees, up to ₹10,000. */
const MAX_COD_FEE_RUPEES = 10_000;
const codFee = z
  .string({ error: settingsText.codFee })
  .transform(cleanAmount)
  .refine((v) => RUPEES.test(v), settingsText.codFee)
  .transform(rupeesTextToPaise)
  .refine((paise) => paise <= MAX_COD_FEE_RUPEES * 100, settingsText.codFee);

/** A zone's cash-on-delivery limit: empty for none, 0 for off in the zone, else up to ₹1 crore. */
const codLimit = z
  .string()
  .optional()
  .transform((v) => cleanAmount(v ?? ""))
  .refine((v) => v === "" || RUPEES.test(v), settingsText.codLimit)
  .transform((v) => (v === "" ? null : rupeesTextToPaise(v)))
  .refine((paise) => paise === null || paise <= MAX_RUPEES * 100, settingsText.tooLarge);

export const settingsSchema = z
  .object({
    shippingFee: amount(MAX_SHIPPING_RUPEES, settingsText.shippingFee),
    taxRate: z
      .string({ error: settingsText.taxRate })
      .transform((v) => v.replace(/[\s%]/g, ""))
      .refine((v) => RUPEES.test(v), settingsText.taxRate)
      .transform(percentTextToBasisPoints)
      .refine((bp) => bp <= 10_000, settingsText.taxRate),
    freeShippingThreshold: optionalPositiveAmount,
    // A checkbox: present ("on") when ticked, absent otherwise.
    codEnabled: z
      .string()
      .optional()
      .transform((v) => v === "on" || v === "true"),
    codMaxOrder: optionalPositiveAmount,
    shopName: z
      .string({ error: settingsText.shopName })
      .trim()
      .min(1, settingsText.shopName)
      .max(100, "At most 100 characters."),
    shopAddress: text(500).optional().default(""),
    shopPhone: text(20)
      .optional()
      .default("")
      .refine(
        (v) => v === "" || (/^[+0-9 ()-]+$/.test(v) && v.replace(/\D/g, "").length >= 10),
        settingsText.shopPhone,
      ),
    shopEmail: z
      .string()
      .optional()
      .default("")
      .transform((v) => v.trim().toLowerCase())
      .refine((v) => v === "" || z.email().safeParse(v).success, settingsText.shopEmail),
    gstin: z
      .string()
      .optional()
      .default("")
      .transform(normalizeGstin)
      .refine((v) => v === "" || isGstin(v), settingsText.gstin),
    shopState: z
      .string({ error: settingsText.state })
      .trim()
      .refine(isIndianState, settingsText.state),
    shipFromPin: z
      .string({ error: settingsText.shipFromPin })
      .trim()
      .regex(/^[1-9]\d{5}$/, settingsText.shipFromPin),
    dispatchDays: workingDays,
    printLeadDays: workingDays,
    printLeadDaysByCategory: z
      .string()
      .max(5_000, "At most 5000 characters.")
      .optional()
      .default("")
      .transform((v) => parseLeadDaysByCategory(v))
      .refine((v) => v !== null, settingsText.leadByCategory)
      .transform((v) => v as Record<string, number>),
    transitLocal: workingDays,
    transitState: workingDays,
    transitMetro: workingDays,
    transitRest: workingDays,
    transitSpecial: workingDays,
    holidays: z
      .string()
      .max(5_000, "At most 5000 characters.")
      .optional()
      .default("")
      .transform((v) => parseHolidays(v))
      .refine((v) => v !== null, settingsText.holidays)
      .transform((v) => v as string[]),
    rateLocalFirst: rate,
    rateLocalAdditional: rate,
    rateStateFirst: rate,
    rateStateAdditional: rate,
    rateMetroFirst: rate,
    rateMetroAdditional: rate,
    rateRestFirst: rate,
    rateRestAdditional: rate,
    rateSpecialFirst: rate,
    rateSpecialAdditional: rate,
    codFeeLocal: codFee,
    codFeeState: codFee,
    codFeeMetro: codFee,
    codFeeRest: codFee,
    codFeeSpecial: codFee,
    codLimitLocal: codLimit,
    codLimitState: codLimit,
    codLimitMetro: codLimit,
    codLimitRest: codLimit,
    codLimitSpecial: codLimit,
    courierRates: z.enum(COURIER_RATE_MODES, { error: settingsText.courierRates }).default("table"),
    preferredCourier: z
      .string()
      .optional()
      .default("")
      .transform((v) => v.trim().replace(/\s+/g, " "))
      .refine((v) => v.length <= 100, "At most 100 characters."),
  })
  .superRefine((v, ctx) => {
    if (v.courierRates === "preferred" && v.preferredCourier === "") {
      ctx.addIssue({
        code: "custom",
        path: ["preferredCourier"],
        message: settingsText.preferredCourier,
      });
    }
    // A GSTIN belongs to one state: its first two digits must be the shop state's GST code.
    if (!v.gstin || !isGstin(v.gstin)) return;
    const code = gstStateCode(v.shopState);
    if (code && v.gstin.slice(0, 2) !== code) {
      ctx.addIssue({
        code: "custom",
        path: ["gstin"],
        message: `This GSTIN is registered in state code ${v.gstin.slice(0, 2)}; ${v.shopState} is ${code}. Check the GSTIN or the shop state.`,
      });
    }
  })
  .transform((v) => ({
    shippingFeePaise: v.shippingFee,
    taxRateBasisPoints: v.taxRate,
    freeShippingThresholdPaise: v.freeShippingThreshold,
    codEnabled: v.codEnabled,
    codMaxOrderPaise: v.codMaxOrder,
    shopName: v.shopName,
    shopAddress: v.shopAddress,
    shopPhone: v.shopPhone,
    shopEmail: v.shopEmail,
    gstin: v.gstin,
    shopState: v.shopState,
    shipFromPin: v.shipFromPin,
    dispatchDays: v.dispatchDays,
    printLeadDays: v.printLeadDays,
    printLeadDaysByCategory: v.printLeadDaysByCategory,
    transitDays: {
      local: v.transitLocal,
      state: v.transitState,
      metro: v.transitMetro,
      rest: v.transitRest,
      special: v.transitSpecial,
    },
    holidays: v.holidays,
    shippingRates: {
      local: {
        firstPaise: v.rateLocalFirst,
        additionalPaise: v.rateLocalAdditional,
        codFeePaise: v.codFeeLocal,
        codLimitPaise: v.codLimitLocal,
      },
      state: {
        firstPaise: v.rateStateFirst,
        additionalPaise: v.rateStateAdditional,
        codFeePaise: v.codFeeState,
        codLimitPaise: v.codLimitState,
      },
      metro: {
        firstPaise: v.rateMetroFirst,
        additionalPaise: v.rateMetroAdditional,
        codFeePaise: v.codFeeMetro,
        codLimitPaise: v.codLimitMetro,
      },
      rest: {
        firstPaise: v.rateRestFirst,
        additionalPaise: v.rateRestAdditional,
        codFeePaise: v.codFeeRest,
        codLimitPaise: v.codLimitRest,
      },
      special: {
        firstPaise: v.rateSpecialFirst,
        additionalPaise: v.rateSpecialAdditional,
        codFeePaise: v.codFeeSpecial,
        codLimitPaise: v.codLimitSpecial,
      },
    },
    courierRates: v.courierRates,
    preferredCourier: v.preferredCourier,
  }));

/** What the form submits (all strings). */
export type SettingsForm = z.input<typeof settingsSchema>;
/** What the shop_settings row stores. */
export type SettingsValues = z.output<typeof settingsSchema>;

/** The stored settings as the form's initial values. */
export function settingsToForm(s: SettingsValues): Required<SettingsForm> {
  return {
    shippingFee: paiseToRupeesText(s.shippingFeePaise),
    taxRate: basisPointsToPercentText(s.taxRateBasisPoints),
    freeShippingThreshold: paiseToRupeesText(s.freeShippingThresholdPaise),
    codEnabled: s.codEnabled ? "on" : "",
    codMaxOrder: paiseToRupeesText(s.codMaxOrderPaise),
    shopName: s.shopName,
    shopAddress: s.shopAddress,
    shopPhone: s.shopPhone,
    shopEmail: s.shopEmail,
    gstin: s.gstin,
    shopState: s.shopState,
    shipFromPin: s.shipFromPin,
    dispatchDays: String(s.dispatchDays),
    printLeadDays: String(s.printLeadDays),
    printLeadDaysByCategory: leadDaysByCategoryText(s.printLeadDaysByCategory),
    transitLocal: String(s.transitDays.local),
    transitState: String(s.transitDays.state),
    transitMetro: String(s.transitDays.metro),
    transitRest: String(s.transitDays.rest),
    transitSpecial: String(s.transitDays.special),
    holidays: s.holidays.join("\n"),
    rateLocalFirst: paiseToRupeesText(s.shippingRates.local.firstPaise),
    rateLocalAdditional: paiseToRupeesText(s.shippingRates.local.additionalPaise),
    codFeeLocal: paiseToRupeesText(s.shippingRates.local.codFeePaise),
    codLimitLocal: paiseToRupeesText(s.shippingRates.local.codLimitPaise),
    rateStateFirst: paiseToRupeesText(s.shippingRates.state.firstPaise),
    rateStateAdditional: paiseToRupeesText(s.shippingRates.state.additionalPaise),
    codFeeState: paiseToRupeesText(s.shippingRates.state.codFeePaise),
    codLimitState: paiseToRupeesText(s.shippingRates.state.codLimitPaise),
    rateMetroFirst: paiseToRupeesText(s.shippingRates.metro.firstPaise),
    rateMetroAdditional: paiseToRupeesText(s.shippingRates.metro.additionalPaise),
    codFeeMetro: paiseToRupeesText(s.shippingRates.metro.codFeePaise),
    codLimitMetro: paiseToRupeesText(s.shippingRates.metro.codLimitPaise),
    rateRestFirst: paiseToRupeesText(s.shippingRates.rest.firstPaise),
    rateRestAdditional: paiseToRupeesText(s.shippingRates.rest.additionalPaise),
    codFeeRest: paiseToRupeesText(s.shippingRates.rest.codFeePaise),
    codLimitRest: paiseToRupeesText(s.shippingRates.rest.codLimitPaise),
    rateSpecialFirst: paiseToRupeesText(s.shippingRates.special.firstPaise),
    rateSpecialAdditional: paiseToRupeesText(s.shippingRates.special.additionalPaise),
    codFeeSpecial: paiseToRupeesText(s.shippingRates.special.codFeePaise),
    codLimitSpecial: paiseToRupeesText(s.shippingRates.special.codLimitPaise),
    courierRates: s.courierRates,
    preferredCourier: s.preferredCourier,
  };
}

/** Human labels for the audit summary and the form. */
export const settingsLabels: Record<keyof SettingsValues, string> = {
  shippingFeePaise: "Shipping fee",
  taxRateBasisPoints: "Tax rate",
  freeShippingThresholdPaise: "Free-shipping threshold",
  codEnabled: "Cash on delivery",
  codMaxOrderPaise: "COD maximum order value",
  shopName: "Shop name",
  shopAddress: "Address",
  shopPhone: "Phone",
  shopEmail: "Email",
  gstin: "GSTIN",
  shopState: "State",
  shipFromPin: "Ships from PIN code",
  dispatchDays: "Dispatch time (working days)",
  printLeadDays: "Print lead time (working days)",
  printLeadDaysByCategory: "Print lead time by category",
  transitDays: "Courier days by zone",
  holidays: "Holidays",
  shippingRates: "Shipping rates and cash on delivery by zone",
  courierRates: "Courier rates",
  preferredCourier: "Preferred courier",
};

export const SETTINGS_KEYS = Object.keys(settingsLabels) as (keyof SettingsValues)[];
