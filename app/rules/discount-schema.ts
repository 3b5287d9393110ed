import { z } from "zod";
import {
  CODE_PATTERN,
  type DiscountKind,
  type DiscountTarget,
  discountKinds,
  discountTargets,
} from "./discounts.ts";
import { IST_OFFSET_MS } from "./india-time.ts";
import { paiseToRupeesText, rupeesTextToPaise } from "./money.ts";
import { basisPointsToPercentText } from "./settings-schema.ts";

/*
 * The admin's discount form (issue #23): one zod schema, parsed by the server action (and usable
 * by the browser). The form speaks rupees, percent and India time; the output is what the
 * discounts table stores: integer paise, basis points and instants.
 */

export const DISCOUNT_LIMITS = { name: 100, categories: 50, products: 100 } as const;

export const discountText = {
  name: "Please enter a name.",
  nameLong: `Name can be at most ${DISCOUNT_LIMITS.name} characters.`,
  method: "Choose how the discount applies.",
  code: "Enter a code of 3 to 32 letters, digits or dashes, e.g. DIWALI20.",
  kind: "Choose a kind of discount.",
  percent: "Enter a percentage from 0.01 to 100, with at most 2 decimals.",
  cap: "Enter the most it takes off in rupees, or leave it empty.",
  amount: "Enter the amount off in rupees, e.g. 200.",
  buy: "Enter how many items the customer buys (1 to 99).",
  get: "Enter how many of them are free (1 to 99).",
  appliesTo: "Choose what the discount applies to.",
  categories: "Choose at least one category.",
  products: "Choose at least one product.",
  minimum: "Enter the minimum in rupees, or leave it empty.",
  date: "Enter a date and time, e.g. 2026-12-31 23:59.",
  endBeforeStart: "The end must be after the start.",
  usageLimit: "Enter a whole number of uses from 1, or leave it empty.",
  perCustomer: "Enter a whole number of uses per customer from 1, or leave it empty.",
  tooLarge: "That amount is too large.",
} as const;

/** The largest amount an admin may type: ₹1,00,00,000 (fits the integer paise columns). */
const MAX_PAISE = 10_000_000 * 100;
const RUPEES = /^\d+(\.\d{1,2})?$/;
const WHOLE = /^\d{1,9}$/;
const cleanAmount = (value: string) => value.replace(/[\s,₹]/g, "");

const text = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? v.trim() : ""));

/** Rupees text → paise; "" → null (when optional). */
const rupees = (message: string) =>
  text
    .transform(cleanAmount)
    .refine((v) => v === "" || RUPEES.test(v), message)
    .transform((v) => (v === "" ? null : rupeesTextToPaise(v)))
    .refine((p) => p === null || p <= MAX_PAISE, discountText.tooLarge);

const count = (message: string, max = 1_000_000_000) =>
  text
    .refine((v) => v === "" || (WHOLE.test(v) && Number(v) >= 1 && Number(v) <= max), message)
    .transform((v) => (v === "" ? null : Number(v)));

const checkbox = z
  .unknown()
  .optional()
  .transform((v) => v === "on" || v === "true");

const istDateTime = text
  .refine((v) => v === "" || parseIstDateTime(v) !== null, discountText.date)
  .transform((v) => (v === "" ? null : parseIstDateTime(v)));

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** "2026-12-31T23:59" read as India time (what a datetime-local input sends); null if invalid. */
export function parseIstDateTime(value: string): Date | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((n) => Number(n ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || y < 2000 || y > 2999) {
    return null;
  }
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  // 31 February and the like roll over: refuse them.
  if (new Date(utc).getUTCDate() !== d) return null;
  return new Date(utc - IST_OFFSET_MS);
}

/** An instant as a datetime-local value in India time: "2026-12-31T23:59". */
export function istDateTimeText(date: Date | null): string {
  if (!date) return "";
  return new Date(date.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16);
}

const listOf = (max: number) =>
  z
    .unknown()
    .optional()
    .transform((v) =>
      (Array.isArray(v) ? v : v === undefined ? [] : [v])
        .filter((x): x is string => typeof x === "string")
        .map((x) => x.trim())
        .filter((x) => x !== ""),
    )
    .transform((list) => [...new Set(list)])
    .refine((list) => list.length <= max, `At most ${max} can be chosen.`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const discountSchema = z
  .object({
    name: text
      .refine((v) => v !== "", discountText.name)
      .refine((v) => v.length <= DISCOUNT_LIMITS.name, discountText.nameLong)
      // Control characters don't belong in a name shown on receipts.
      .refine((v) => !/\p{Cc}/u.test(v), discountText.name),
    method: z.enum(["code", "automatic"], { error: discountText.method }),
    code: text,
    kind: z.enum(discountKinds, { error: discountText.kind }),
    percent: text,
    cap: rupees(discountText.cap),
    amount: rupees(discountText.amount),
    buyQuantity: count(discountText.buy, 99),
    getQuantity: count(discountText.get, 99),
    appliesTo: z.enum(discountTargets, { error: discountText.appliesTo }),
    categories: listOf(DISCOUNT_LIMITS.categories).refine(
      (list) => list.every((c) => c.length <= 100 && !/\p{Cc}/u.test(c)),
      discountText.categories,
    ),
    productIds: listOf(DISCOUNT_LIMITS.products).refine(
      (list) => list.every((id) => UUID.test(id)),
      discountText.products,
    ),
    minSubtotal: rupees(discountText.minimum),
    firstOrderOnly: checkbox,
    startsAt: istDateTime,
    endsAt: istDateTime,
    usageLimit: count(discountText.usageLimit),
    perCustomerLimit: count(discountText.perCustomer),
    combinesWithAutomatic: checkbox,
  })
  .superRefine(
    (v, ctx) => {
      // Runs even when a field above failed, so every mistake is named at once; a failed field's
      // value may be what was sent, hence the type checks.
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: "custom", path: [path], message });
      if (v.method === "code" && !CODE_PATTERN.test(String(v.code))) {
        issue("code", discountText.code);
      }
      if (v.kind === "percent") {
        const p = String(v.percent).replace(/[\s%]/g, "");
        if (!RUPEES.test(p) || rupeesTextToPaise(p) < 1 || rupeesTextToPaise(p) > 10_000) {
          issue("percent", discountText.percent);
        }
      }
      if (v.kind === "flat" && !(typeof v.amount === "number" && v.amount > 0)) {
        issue("amount", discountText.amount);
      }
      if (v.kind === "buy_get") {
        if (typeof v.buyQuantity !== "number") issue("buyQuantity", discountText.buy);
        if (typeof v.getQuantity !== "number") issue("getQuantity", discountText.get);
      }
      if (v.appliesTo === "categories" && !(Array.isArray(v.categories) && v.categories.length)) {
        issue("categories", discountText.categories);
      }
      if (v.appliesTo === "products" && !(Array.isArray(v.productIds) && v.productIds.length)) {
        issue("productIds", discountText.products);
      }
      if (v.startsAt instanceof Date && v.endsAt instanceof Date && v.endsAt <= v.startsAt) {
        issue("endsAt", discountText.endBeforeStart);
      }
    },
    { when: () => true },
  )
  .transform((v) => ({
    name: v.name,
    code: v.method === "code" ? v.code.toUpperCase() : null,
    kind: v.kind,
    percentBasisPoints:
      v.kind === "percent" ? rupeesTextToPaise(v.percent.replace(/[\s%]/g, "")) : null,
    capPaise: v.kind === "percent" && v.cap !== null && v.cap > 0 ? v.cap : null,
    amountPaise: v.kind === "flat" ? v.amount : null,
    buyQuantity: v.kind === "buy_get" ? v.buyQuantity : null,
    getQuantity: v.kind === "buy_get" ? v.getQuantity : null,
    appliesTo: v.appliesTo,
    categories: v.appliesTo === "categories" ? v.categories : [],
    productIds: v.appliesTo === "products" ? v.productIds : [],
    minSubtotalPaise: v.minSubtotal !== null && v.minSubtotal > 0 ? v.minSubtotal : null,
    firstOrderOnly: v.firstOrderOnly,
    startsAt: v.startsAt,
    endsAt: v.endsAt,
    usageLimit: v.usageLimit,
    perCustomerLimit: v.perCustomerLimit,
    // A code may be allowed to join the best automatic offer; an automatic offer never joins one.
    combinesWithAutomatic: v.method === "code" && v.combinesWithAutomatic,
  }));

/** What the discounts table stores for the form. */
export type DiscountInput = z.output<typeof discountSchema>;

/** The form's fields as strings (lists for categories and products). */
export type DiscountForm = {
  name: string;
  method: "code" | "automatic";
  code: string;
  kind: DiscountKind;
  percent: string;
  cap: string;
  amount: string;
  buyQuantity: string;
  getQuantity: string;
  appliesTo: DiscountTarget;
  categories: string[];
  productIds: string[];
  minSubtotal: string;
  firstOrderOnly: boolean;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  combinesWithAutomatic: boolean;
};

export const EMPTY_DISCOUNT_FORM: DiscountForm = {
  name: "",
  method: "code",
  code: "",
  kind: "percent",
  percent: "",
  cap: "",
  amount: "",
  buyQuantity: "",
  getQuantity: "",
  appliesTo: "order",
  categories: [],
  productIds: [],
  minSubtotal: "",
  firstOrderOnly: false,
  startsAt: "",
  endsAt: "",
  usageLimit: "",
  perCustomerLimit: "",
  combinesWithAutomatic: false,
};

const LIST_FIELDS = new Set(["categories", "productIds"]);

/** A submitted form as the schema reads it: the lists in full, every other field once. */
export function discountFormInput(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    if (LIST_FIELDS.has(key)) out[key] = [...((out[key] as string[]) ?? []), value];
    else out[key] ??= value;
  }
  return out;
}

/** What the admin typed, to show again beside the errors. */
export function submittedDiscountForm(input: Record<string, unknown>): DiscountForm {
  const str = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  const list = (k: string) => (Array.isArray(input[k]) ? (input[k] as string[]) : []);
  const oneOf = <T extends string>(k: string, values: readonly T[], fallback: T): T =>
    (values as readonly string[]).includes(str(k)) ? (str(k) as T) : fallback;
  return {
    name: str("name"),
    method: oneOf("method", ["code", "automatic"] as const, "code"),
    code: str("code"),
    kind: oneOf("kind", discountKinds, "percent"),
    percent: str("percent"),
    cap: str("cap"),
    amount: str("amount"),
    buyQuantity: str("buyQuantity"),
    getQuantity: str("getQuantity"),
    appliesTo: oneOf("appliesTo", discountTargets, "order"),
    categories: list("categories"),
    productIds: list("productIds"),
    minSubtotal: str("minSubtotal"),
    firstOrderOnly: input.firstOrderOnly === "on",
    startsAt: str("startsAt"),
    endsAt: str("endsAt"),
    usageLimit: str("usageLimit"),
    perCustomerLimit: str("perCustomerLimit"),
    combinesWithAutomatic: input.combinesWithAutomatic === "on",
  };
}

type StoredDiscount = Omit<DiscountInput, "code"> & { code: string | null };

/** A stored discount as the form's initial values. */
export function discountToForm(d: StoredDiscount): DiscountForm {
  const money = (p: number | null) => (p === null ? "" : paiseToRupeesText(p));
  const num = (n: number | null) => (n === null ? "" : String(n));
  return {
    name: d.name,
    method: d.code ? "code" : "automatic",
    code: d.code ?? "",
    kind: d.kind,
    percent: d.percentBasisPoints === null ? "" : basisPointsToPercentText(d.percentBasisPoints),
    cap: money(d.capPaise),
    amount: money(d.amountPaise),
    buyQuantity: num(d.buyQuantity),
    getQuantity: num(d.getQuantity),
    appliesTo: d.appliesTo,
    categories: d.categories,
    productIds: d.productIds,
    minSubtotal: money(d.minSubtotalPaise),
    firstOrderOnly: d.firstOrderOnly,
    startsAt: istDateTimeText(d.startsAt),
    endsAt: istDateTimeText(d.endsAt),
    usageLimit: num(d.usageLimit),
    perCustomerLimit: num(d.perCustomerLimit),
    combinesWithAutomatic: d.combinesWithAutomatic,
  };
}

const SHORT_MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];

/**
 * "31 Dec", the India calendar day an offer's last moment falls on (an end at midnight ends the
 * day before). A year is added when it isn't `now`'s year.
 */
export function offerEndDay(endsAt: Date, now: Date = new Date()): string {
  const last = new Date(endsAt.getTime() - 1 + IST_OFFSET_MS);
  const thisYear = new Date(now.getTime() + IST_OFFSET_MS).getUTCFullYear();
  const day = `${last.getUTCDate()} ${SHORT_MONTHS[last.getUTCMonth()]}`;
  return last.getUTCFullYear() === thisYear ? day : `${day} ${last.getUTCFullYear()}`;
}

/** "1 Dec", the India calendar day an offer starts on (a year added when it isn't `now`'s). */
export function offerStartDay(startsAt: Date, now: Date = new Date()): string {
  return offerEndDay(new Date(startsAt.getTime() + 1), now);
}
