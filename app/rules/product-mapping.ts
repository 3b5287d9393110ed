import { PLACEHOLDER_IMAGE } from "./images.ts";
import { rupeesToPaise } from "./money.ts";
import type { ProductImage, StaticReview } from "./stored-shapes.ts";

/**
 * Maps product documents in the old shop's shapes (SPEC.md §3 "Product") onto LayerKart's product
 * fields. Pure: no I/O, usable in the browser and on the server. Mapping never throws: a document
 * that cannot become a product is reported with a reason, and the caller logs and skips it.
 *
 * Lenient by design: every field falls back to its default when it is missing or unusable; only a
 * non-object document, a missing id or a missing/blank name fail.
 */

export type MappedProduct = {
  id: string;
  name: string;
  slug: string;
  description: string;
  pricePaise: number;
  currency: string;
  originalPricePaise: number | null;
  image: string;
  images: ProductImage[];
  category: string;
  subcategory: string | null;
  rating: number;
  reviewsCount: number;
  reviewsList: StaticReview[];
  features: string[];
  featuresKv: Record<string, string> | null;
  discount: number;
  inStock: boolean;
  stockCount: number | null;
  badge: string | null;
  isActive: boolean;
  createdAt: Date | null;
  updatedAt: Date | null;
};

export type MappingResult =
  | { ok: true; product: MappedProduct }
  | { ok: false; id: string; reason: string };

export type MappingOptions = {
  /** Gives the download URL of a stored file; used when an image has a storagePath but no URL. */
  resolveStorageUrl?: (storagePath: string) => string;
};

/** Largest value the database's integer columns hold (price in paise, counts). */
const MAX_INT = 2_147_483_647;
const DEFAULT_CURRENCY = "INR";

/** The product's slug: the name trimmed and lowercased, each run of whitespace made one hyphen. */
export const slugify = (name: string): string => name.trim().toLowerCase().replace(/\s+/g, "-");

type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Doc {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An own property only, so keys like `constructor` never come from the prototype. */
function field(doc: Doc, key: string): unknown {
  return Object.hasOwn(doc, key) ? doc[key] : undefined;
}

/** A trimmed, non-blank string, or null. */
function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const s = value.trim();
  return s === "" ? null : s;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A finite number, or a string holding a plain decimal number (no exponent, no separators). */
function numeric(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") {
    const s = value.trim();
    if (!DECIMAL.test(s)) return null;
    const n = Number(s);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Rupees (number or numeric string) to paise, rounded to the paisa; null if negative or too big. */
function paise(value: unknown): number | null {
  const rupees = numeric(value);
  if (rupees === null || rupees < 0) return null;
  const p = rupeesToPaise(rupees) + 0; // `+ 0` turns -0 into 0
  return Number.isSafeInteger(p) && p <= MAX_INT ? p : null;
}

function flag(value: unknown, fallback: boolean): boolean {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") {
    const s = value.trim().toLowerCase();
    if (s === "true") return true;
    if (s === "false") return false;
  }
  return fallback;
}

/** A count: non-negative whole number (fractions truncated, negatives 0), null if not numeric. */
function count(value: unknown): number | null {
  const n = numeric(value);
  if (n === null) return null;
  return clamp(Math.trunc(n), 0, MAX_INT) + 0;
}

const ISO_DATE =
  /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)([Zz]|[+-]\d{2}:?\d{2})?)?$/;

function validDate(ms: number): Date | null {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A timestamp from an ISO 8601 string (a date-time without an offset is read as UTC), epoch
 * milliseconds, or a document-store timestamp object `{seconds, nanoseconds}` /
 * `{_seconds, _nanoseconds}`; otherwise null.
 */
function timestamp(value: unknown): Date | null {
  if (value instanceof Date) return validDate(value.getTime());
  if (typeof value === "number") return Number.isFinite(value) ? validDate(value) : null;
  if (typeof value === "string") {
    const m = ISO_DATE.exec(value.trim());
    if (!m) return null;
    const [, date, time, zone] = m;
    if (time === undefined) return validDate(Date.parse(date));
    let offset = zone === undefined || zone.toUpperCase() === "Z" ? "Z" : zone;
    if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
    const [hms, fraction = ""] = time.split(".");
    const millis = fraction === "" ? "" : `.${fraction.slice(0, 3).padEnd(3, "0")}`;
    return validDate(Date.parse(`${date}T${hms}${millis}${offset}`));
  }
  if (isRecord(value)) {
    const seconds = field(value, "seconds") ?? field(value, "_seconds");
    const nanos = field(value, "nanoseconds") ?? field(value, "_nanoseconds") ?? 0;
    if (typeof seconds !== "number" || !Number.isFinite(seconds)) return null;
    const n = typeof nanos === "number" && Number.isFinite(nanos) ? nanos : 0;
    return validDate(seconds * 1000 + Math.floor(n / 1e6));
  }
  return null;
}

function currency(value: unknown): string {
  const s = text(value)?.toUpperCase();
  return s !== undefined && /^[A-Z]{3}$/.test(s) ? s : DEFAULT_CURRENCY;
}

/**
 * `images` ({url, storagePath} objects, or plain URLs), else `image_urls` (URLs). An image without
 * a URL gets one from its storagePath when a resolver is given; without a resolver it keeps the
 * storagePath and an empty URL (SPEC.md §7: URLs are refreshed from storagePath when missing). An
 * image with neither is dropped, and so is a repeat of an earlier one.
 */
function images(doc: Doc, options: MappingOptions | undefined): ProductImage[] {
  const fromImages = imageList(field(doc, "images"), options);
  return fromImages.length > 0 ? fromImages : imageList(field(doc, "image_urls"), options);
}

function imageList(raw: unknown, options: MappingOptions | undefined): ProductImage[] {
  if (!Array.isArray(raw)) return [];
  const result: ProductImage[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    let url: string | null = null;
    let storagePath: string | null = null;
    if (typeof item === "string") {
      url = text(item);
    } else if (isRecord(item)) {
      url = text(field(item, "url"));
      storagePath = text(field(item, "storagePath"));
    }
    if (url === null && storagePath !== null) url = resolve(storagePath, options);
    if (url === null && storagePath === null) continue;
    const key = url === null ? `storage:${storagePath}` : `url:${url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ url: url ?? "", storagePath });
  }
  return result;
}

function resolve(storagePath: string, options: MappingOptions | undefined): string | null {
  if (!options?.resolveStorageUrl) return null;
  try {
    return text(options.resolveStorageUrl(storagePath));
  } catch {
    return null;
  }
}

function category(doc: Doc): string {
  const direct = text(field(doc, "category"));
  if (direct !== null) return direct;
  const list = field(doc, "categories");
  if (typeof list === "string") return text(list) ?? "";
  if (!Array.isArray(list)) return "";
  for (let i = list.length - 1; i >= 0; i--) {
    const c = text(list[i]);
    if (c !== null) return c;
  }
  return "";
}

function review(item: unknown): StaticReview | null {
  if (!isRecord(item)) return null;
  const rating = numeric(field(item, "rating"));
  if (rating === null) return null;
  const date = timestamp(field(item, "date") ?? field(item, "createdAt"));
  return {
    rating: clamp(rating, 1, 5),
    name: text(field(item, "name")) ?? "",
    title: text(field(item, "title")) ?? "",
    review: text(field(item, "review")) ?? "",
    date: date ? date.toISOString() : "",
  };
}

function reviews(doc: Doc): { reviewsCount: number; reviewsList: StaticReview[] } {
  const raw = field(doc, "reviews");
  const listField = field(doc, "reviewsList");
  const source = Array.isArray(listField) ? listField : Array.isArray(raw) ? raw : [];
  const reviewsList = source.map(review).filter((r): r is StaticReview => r !== null);
  const stated = Array.isArray(raw) ? null : count(raw);
  return { reviewsCount: Math.max(stated ?? 0, reviewsList.length), reviewsList };
}

/** A feature value as text: strings trimmed, numbers and booleans written out, others dropped. */
function featureValue(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return text(value);
}

function kvEntries(value: unknown): Array<[string, string]> {
  if (!isRecord(value)) return [];
  const entries: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value)) {
    const key = k.trim();
    const val = featureValue(v);
    if (key !== "" && val !== null) entries.push([key, val]);
  }
  return entries;
}

function features(doc: Doc): { features: string[]; featuresKv: Record<string, string> | null } {
  const raw = field(doc, "features");
  let list: string[] = [];
  if (Array.isArray(raw)) {
    list = raw.map(featureValue).filter((f): f is string => f !== null);
  } else if (typeof raw === "string") {
    list = raw
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "");
  }
  // A map in `features` and a `featuresKv` map are merged; `featuresKv` wins on a shared key.
  const entries = [...kvEntries(raw), ...kvEntries(field(doc, "featuresKv"))];
  const kv = entries.length > 0 ? Object.fromEntries(entries) : null;
  return { features: list, featuresKv: kv };
}

/** Maps one legacy product document. Never throws. */
export function mapLegacyProduct(
  id: string,
  doc: unknown,
  options?: MappingOptions,
): MappingResult {
  let docId = "";
  try {
    docId = typeof id === "string" ? id : String(id);
    return mapDocument(docId, doc, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, id: docId, reason: `unexpected error: ${message}` };
  }
}

function mapDocument(id: string, doc: unknown, options: MappingOptions | undefined): MappingResult {
  if (id.trim() === "") return { ok: false, id, reason: "missing document id" };
  if (!isRecord(doc)) return { ok: false, id, reason: "document is not an object" };
  const rawName = field(doc, "name");
  if (typeof rawName !== "string") return { ok: false, id, reason: "missing name" };
  const name = rawName.trim();
  if (name === "") return { ok: false, id, reason: "name is blank" };

  const productImages = images(doc, options);
  const image =
    text(field(doc, "image")) ?? productImages.find((i) => i.url !== "")?.url ?? PLACEHOLDER_IMAGE;
  const discount = numeric(field(doc, "discount"));
  const stockCount = count(field(doc, "stockCount"));

  return {
    ok: true,
    product: {
      id,
      name,
      slug: slugify(name),
      description: text(field(doc, "description")) ?? "",
      pricePaise: paise(field(doc, "price")) ?? paise(field(doc, "final_price")) ?? 0,
      currency: currency(field(doc, "currency")),
      // an original price of 0 means none
      originalPricePaise: paise(field(doc, "originalPrice")) || null,
      image,
      images: productImages,
      category: category(doc),
      subcategory: text(field(doc, "subcategory")),
      rating: clamp(numeric(field(doc, "rating")) ?? 0, 0, 5) + 0,
      ...reviews(doc),
      ...features(doc),
      discount: discount === null ? 0 : clamp(Math.round(discount), 0, 100) + 0,
      inStock: flag(field(doc, "inStock"), true),
      stockCount,
      badge: text(field(doc, "badge")),
      isActive: flag(field(doc, "isActive"), true),
      createdAt: timestamp(field(doc, "createdAt")),
      updatedAt: timestamp(field(doc, "updatedAt")),
    },
  };
}

/** Maps every document of a collection (keyed by document id), reporting the ones skipped. */
export function mapLegacyProducts(
  docs: Record<string, unknown>,
  options?: MappingOptions,
): { products: MappedProduct[]; skipped: Array<{ id: string; reason: string }> } {
  const products: MappedProduct[] = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  if (!isRecord(docs)) return { products, skipped };
  for (const [id, doc] of Object.entries(docs)) {
    const result = mapLegacyProduct(id, doc, options);
    if (result.ok) products.push(result.product);
    else skipped.push({ id: result.id, reason: result.reason });
  }
  return { products, skipped };
}
