import { z } from "zod";
import { MAX_PRODUCT_IMAGES } from "./admin-uploads.ts";
import { paiseToRupeesText, rupeesToPaise } from "./money.ts";
import { MAX_SIDE_CM, MAX_WEIGHT_GRAMS } from "./shipping-rates.ts";
import type { StaticReview } from "./stored-shapes.ts";

/*
 * The admin's product form (SPEC.md §5 "Admin product", §2 Admin screens): one schema for adding
 * an item and one for editing it, parsed by the browser before it submits and again by the server
 * action. The spec's messages are verbatim.
 *
 * Adding: name, price, category and description are required; everything else has a default.
 * Editing: nothing is required. A field that is left out or left blank keeps its current value,
 * except the optional ones (original price, subcategory, badge, stock count), which blank clears.
 */

export const productText = {
  /** Adding an item (the spec's alert). */
  pricePositive: "Price must be a positive number",
  /** Editing an item (the spec's toast). */
  invalidPriceTitle: "Invalid price",
  invalidPriceDescription: "Price must be a positive number.",
  priceTooHigh: "Price must be at most ₹1,00,00,000.",
  nameRequired: "Please enter the product name.",
  descriptionRequired: "Please enter a description.",
  discount: "Discount must be a number from 0 to 100.",
  rating: "Rating must be from 1 to 5.",
  reviewsCount: "Reviews count must be 0 or more.",
  stockCount: "Stock must be a whole number, 0 or more (leave it empty to not track stock).",
  weightGrams:
    "Packed weight must be a whole number of grams from 1 to 100000 (leave it empty for 250 g).",
  boxSide: "Box sides must be whole centimetres from 1 to 300 (leave them empty for 15 × 15 × 10).",
  reviewRating: "Review ratings must be from 0 to 5.",
  tooManyImages: `A product can have at most ${MAX_PRODUCT_IMAGES} images.`,
  badList: "Please reload the page and try again.",
  saveFailed: "Failed to save",
  loadFailed: "Failed to load",
  created: "Product created",
  saved: "Changes saved",
  categoryAdded: "Category added",
} as const;

/** The text shown while the chosen category is not one of the list (SPEC.md §5). */
export const categoryInvalidText = (current: string | null | undefined) =>
  `Current category is not valid (${current?.trim() || "NA"}). Please select or add a category.`;

export const BADGE_CHOICES = ["Best Seller", "New"] as const;
export const FIXED_CURRENCY = "INR";
/** ₹1,00,00,000: well inside the database's integer paise. */
export const MAX_PRICE_PAISE = 1_000_000_000;
const MAX_INT = 2_147_483_647;
export const MAX_FEATURES = 50;
export const MAX_REVIEWS = 200;

// ---- What the inputs keep as they are typed ----------------------------------------------------

/** Price as typed: digits and one decimal point, at most 2 decimals; anything else is dropped. */
export function sanitizePriceInput(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, "");
  const dot = cleaned.indexOf(".");
  if (dot === -1) return cleaned.slice(0, 9);
  const whole = cleaned.slice(0, dot).slice(0, 9);
  const decimals = cleaned
    .slice(dot + 1)
    .replace(/\./g, "")
    .slice(0, 2);
  return `${whole}.${decimals}`;
}

/** Digits only, at most `max` of them. */
export const digitsInput = (raw: string, max = 9) => raw.replace(/\D/g, "").slice(0, max);

/** Discount as typed: digits only, clamped to 0–100. */
export function discountInput(raw: string): string {
  const digits = digitsInput(raw, 3);
  return digits === "" ? "" : String(Math.min(100, Number(digits)));
}

/** Rating as typed: one digit, clamped to 1–5. */
export function ratingInput(raw: string): string {
  const digits = digitsInput(raw);
  if (digits === "") return "";
  const last = Number(digits.at(-1));
  return String(Math.min(5, Math.max(1, last)));
}

/** A static review's rating as typed: one digit, 0–5. */
export function reviewRatingInput(raw: string): string {
  const digits = digitsInput(raw);
  if (digits === "") return "";
  return String(Math.min(5, Number(digits.at(-1))));
}

/** Paise as the price input shows it ("349.00"). */
export const priceInputValue = (paise: number | null | undefined) =>
  paise === null || paise === undefined ? "" : paiseToRupeesText(paise);

/** Features as typed, one per line ("text" or "key: value"); blank lines dropped. */
export function featureLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The lines the features editor starts from: the list, then any key-value map as "key: value". */
export function featuresText(
  features: string[],
  featuresKv: Record<string, string> | null | undefined,
): string {
  const lines = features.filter((f) => typeof f === "string" && f.trim() !== "");
  for (const [k, v] of Object.entries(featuresKv ?? {})) lines.push(`${k}: ${v}`);
  return lines.join("\n");
}

// ---- Form data → plain input -------------------------------------------------------------------

const JSON_FIELDS = ["images", "removeImages", "reviewsList"] as const;
const INVALID_JSON = Symbol("invalid json");

/**
 * A product form's fields as a plain object: strings as sent, and the JSON list fields (new image
 * storage paths, images to delete, static reviews) decoded.
 */
export function productFormInput(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string" || key in out) continue;
    out[key] = value;
  }
  for (const key of JSON_FIELDS) {
    const raw = out[key];
    if (typeof raw !== "string") continue;
    try {
      out[key] = raw.trim() === "" ? [] : JSON.parse(raw);
    } catch {
      out[key] = INVALID_JSON;
    }
  }
  return out;
}

// ---- Field schemas -----------------------------------------------------------------------------

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** Absent or blank → undefined; otherwise the schema's value. */
const keep = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (isBlank(v) ? undefined : v), schema.optional());

/** Absent → undefined (keep); blank → null (clear); otherwise the schema's value. */
const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (v) => (v === undefined ? undefined : isBlank(v) ? null : v),
    schema.nullable().optional(),
  );

const text = (max: number) => z.string().trim().max(max, `Please use at most ${max} characters.`);

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Please use at most ${max} characters.`);

const PRICE = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

const price = (message: string) =>
  z.string({ error: message }).transform((raw, ctx) => {
    const v = raw.trim();
    const paise = PRICE.test(v) ? rupeesToPaise(Number(v)) : 0;
    if (!(paise > 0)) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    if (paise > MAX_PRICE_PAISE) {
      ctx.addIssue({ code: "custom", message: productText.priceTooHigh });
      return z.NEVER;
    }
    return paise;
  });

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Any number, clamped to 0–100 and rounded (SPEC.md §5: discount clamped 0 to 100). */
const discount = z.string().transform((raw, ctx) => {
  const v = raw.trim();
  if (!NUMBER.test(v)) {
    ctx.addIssue({ code: "custom", message: productText.discount });
    return z.NEVER;
  }
  return Math.min(100, Math.max(0, Math.round(Number(v)))) + 0;
});

/** 1 to 5; a stored average such as 4.3 is kept to one decimal. */
const rating = z.string().transform((raw, ctx) => {
  const v = raw.trim();
  const n = Number(v);
  if (!/^\d+(?:\.\d+)?$/.test(v) || n < 1 || n > 5) {
    ctx.addIssue({ code: "custom", message: productText.rating });
    return z.NEVER;
  }
  return Math.round(n * 10) / 10;
});

const wholeNumber = (message: string) =>
  z.string().transform((raw, ctx) => {
    const v = raw.trim();
    if (!/^\d+$/.test(v) || Number(v) > MAX_INT) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return Number(v);
  });

/** A whole number from 1 to max (a packed weight, a box side). */
const positiveUpTo = (max: number, message: string) =>
  z.string().transform((raw, ctx) => {
    const v = raw.trim();
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return Number(v);
  });

/** The packed weight and box (issue 24): blank clears to the shop's defaults. */
const parcelFields = {
  weightGrams: clearable(positiveUpTo(MAX_WEIGHT_GRAMS, productText.weightGrams)),
  boxLengthCm: clearable(positiveUpTo(MAX_SIDE_CM, productText.boxSide)),
  boxWidthCm: clearable(positiveUpTo(MAX_SIDE_CM, productText.boxSide)),
  boxHeightCm: clearable(positiveUpTo(MAX_SIDE_CM, productText.boxSide)),
};

const flag = z
  .enum(["true", "false", "on", "off"], { error: productText.badList })
  .transform((v) => v === "true" || v === "on");

const features = z.string().transform((raw, ctx) => {
  const lines = featureLines(raw);
  if (lines.length > MAX_FEATURES) {
    ctx.addIssue({ code: "custom", message: `Please list at most ${MAX_FEATURES} features.` });
    return z.NEVER;
  }
  if (lines.some((l) => l.length > 300)) {
    ctx.addIssue({ code: "custom", message: "Please keep each feature under 300 characters." });
    return z.NEVER;
  }
  return lines;
});

const list = (message = productText.badList) =>
  z.array(z.string({ error: message }).max(500, message), { error: message });

const newImages = list().max(MAX_PRODUCT_IMAGES, productText.tooManyImages);

const reviewText = (max: number) =>
  z.preprocess((v) => (v === undefined || v === null ? "" : v), text(max));

/** A static review as edited: rating 0–5; blank fields dropped; a review with no text at all dropped. */
const reviewRow = z.object({
  rating: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z
      .number({ error: productText.reviewRating })
      .min(0, productText.reviewRating)
      .max(5, productText.reviewRating),
  ),
  name: reviewText(100),
  title: reviewText(100),
  review: reviewText(1000),
  date: z.string().max(40).optional(),
});

export type EditedReview = {
  rating: number;
  name?: string;
  title?: string;
  review?: string;
  date: string;
};

const reviewsList = z
  .array(reviewRow, { error: productText.badList })
  .max(MAX_REVIEWS, `At most ${MAX_REVIEWS} reviews.`)
  .transform((rows) =>
    rows
      .filter((r) => r.name !== "" || r.title !== "" || r.review !== "")
      .map((r) => {
        const out: EditedReview = { rating: Math.round(r.rating * 10) / 10, date: r.date ?? "" };
        if (r.name !== "") out.name = r.name;
        if (r.title !== "") out.title = r.title;
        if (r.review !== "") out.review = r.review;
        return out;
      }),
  );

// ---- The two forms -----------------------------------------------------------------------------

export const createProductSchema = z.object({
  productId: z.uuid({ error: productText.badList }),
  name: required(productText.nameRequired, 200),
  price: price(productText.pricePositive),
  originalPrice: clearable(price(productText.pricePositive)),
  category: required(categoryInvalidText(""), 100),
  subcategory: clearable(text(100)),
  description: required(productText.descriptionRequired, 5000),
  discount: keep(discount).transform((v) => v ?? 0),
  rating: keep(rating).transform((v) => v ?? 0),
  reviewsCount: keep(wholeNumber(productText.reviewsCount)).transform((v) => v ?? 0),
  features: keep(features).transform((v) => v ?? []),
  badge: clearable(text(40)),
  stockCount: clearable(wholeNumber(productText.stockCount)),
  ...parcelFields,
  isActive: keep(flag).transform((v) => v ?? true),
  inStock: keep(flag).transform((v) => v ?? true),
  images: keep(newImages).transform((v) => v ?? []),
});
export type CreateProductInput = z.infer<typeof createProductSchema>;

export const updateProductSchema = z.object({
  name: keep(text(200)),
  price: keep(price(productText.invalidPriceDescription)),
  originalPrice: clearable(price(productText.invalidPriceDescription)),
  category: keep(text(100)),
  subcategory: clearable(text(100)),
  description: keep(text(5000)),
  discount: keep(discount),
  rating: keep(rating),
  reviewsCount: keep(wholeNumber(productText.reviewsCount)),
  features: z.preprocess((v) => (v === undefined ? undefined : v), features.optional()),
  badge: clearable(text(40)),
  stockCount: clearable(wholeNumber(productText.stockCount)),
  ...parcelFields,
  isActive: keep(flag),
  inStock: keep(flag),
  images: keep(newImages).transform((v) => v ?? []),
  removeImages: keep(list().max(100)).transform((v) => v ?? []),
  reviewsList: z.preprocess((v) => (v === undefined ? undefined : v), reviewsList.optional()),
});
export type UpdateProductInput = z.infer<typeof updateProductSchema>;

/** The key an existing image is marked for deletion by: its storage path, else its URL. */
export const imageKey = (image: { url: string; storagePath: string | null }) =>
  image.storagePath ?? image.url;

/** Reviews as stored (blank fields left out; see reviewsList above). */
export const storedReviews = (rows: EditedReview[], now = new Date()): StaticReview[] =>
  rows.map((r) => ({ ...r, date: r.date || now.toISOString() }) as StaticReview);

export const categoryNameSchema = z
  .string()
  .trim()
  .min(1, "Please enter a category name.")
  .max(100, "Please use at most 100 characters.");
