import Papa from "papaparse";
import { PLACEHOLDER_IMAGE } from "./images.ts";
import { paiseToRupeesText, rupeesTextToPaise } from "./money.ts";
import { slugify } from "./product-mapping.ts";
import { MAX_SIDE_CM, MAX_WEIGHT_GRAMS } from "./shipping-rates.ts";

/*
 * Products as CSV, both ways (admin import and /admin/products.csv). Pure: no I/O.
 *
 * Import: a header row, then one product per row. Known columns (any case, spaces and
 * underscores ignored): name, price (rupees), category, subcategory, description, discount
 * (0–100), inStock, stockCount (or stock), isActive, badge, features (separated by '|'),
 * image URL (or image), and the export's id, slug (ignored: it follows the name), rating,
 * reviews and createdAt, and the parcel (weightGrams, boxLengthCm, boxWidthCm, boxHeightCm: the
 * packed weight in grams and the box in cm the shipping rate is worked out from). Unknown columns
 * are ignored. An empty cell means "not given": a new
 * product gets the default, an existing one keeps its value.
 *
 * Export: id, name, slug, price, category, subcategory, stockCount, inStock, isActive, rating,
 * reviews, createdAt, weightGrams, boxLengthCm, boxWidthCm, boxHeightCm: the same headers as the import where they overlap, so an export can be
 * edited and imported again. A cell that starts with = + - @ (or a tab or carriage return) gets
 * a leading apostrophe so a spreadsheet never runs it as a formula; the import takes it off again.
 */

export const MAX_IMPORT_ROWS = 5000;
/** The largest import file (JSON or CSV). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_LABEL = "10 MB";
const MAX_NAME = 200;
const MAX_TEXT = 5000;

export const EXPORT_COLUMNS = [
  "id",
  "name",
  "slug",
  "price",
  "category",
  "subcategory",
  "stockCount",
  "inStock",
  "isActive",
  "rating",
  "reviews",
  "createdAt",
  "weightGrams",
  "boxLengthCm",
  "boxWidthCm",
  "boxHeightCm",
] as const;

/**
 * A cell a spreadsheet shows as text, never evaluates. A value that already looks prefixed gets
 * one more apostrophe, so the import's unprefixing gives it back unchanged.
 */
export function spreadsheetCell(value: string): string {
  return /^'*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Undoes spreadsheetCell on import. */
export function unspreadsheetCell(value: string): string {
  return /^'+[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

export type ExportProduct = {
  id: string;
  name: string;
  slug: string;
  pricePaise: number;
  category: string;
  subcategory: string | null;
  stockCount: number | null;
  inStock: boolean;
  isActive: boolean;
  rating: number;
  reviewsCount: number;
  createdAt: Date;
  weightGrams: number | null;
  boxLengthCm: number | null;
  boxWidthCm: number | null;
  boxHeightCm: number | null;
};

const optionalNumber = (n: number | null) => (n === null ? "" : String(n));

export function productsCsv(rows: readonly ExportProduct[]): string {
  const csv = Papa.unparse(
    {
      fields: [...EXPORT_COLUMNS],
      data: rows.map((p) =>
        [
          p.id,
          p.name,
          p.slug,
          paiseToRupeesText(p.pricePaise),
          p.category,
          p.subcategory ?? "",
          p.stockCount === null ? "" : String(p.stockCount),
          String(p.inStock),
          String(p.isActive),
          String(p.rating),
          String(p.reviewsCount),
          p.createdAt.toISOString(),
          optionalNumber(p.weightGrams),
          optionalNumber(p.boxLengthCm),
          optionalNumber(p.boxWidthCm),
          optionalNumber(p.boxHeightCm),
        ].map(spreadsheetCell),
      ),
    },
    { newline: "\r\n" },
  );
  return csv.endsWith("\r\n") ? csv : `${csv}\r\n`;
}

/** "products-2026-11-22.csv" (the India date of `now`). */
export function productsCsvFilename(now: Date): string {
  const ist = new Date(now.getTime() + (5 * 60 + 30) * 60 * 1000);
  return `products-${ist.toISOString().slice(0, 10)}.csv`;
}

// --- import ---

type Column =
  | "id"
  | "name"
  | "price"
  | "category"
  | "subcategory"
  | "description"
  | "discount"
  | "inStock"
  | "stockCount"
  | "isActive"
  | "badge"
  | "features"
  | "imageUrl"
  | "rating"
  | "reviews"
  | "createdAt"
  | "slug"
  | "weightGrams"
  | "boxLengthCm"
  | "boxWidthCm"
  | "boxHeightCm";

const HEADER_ALIASES: Record<string, Column> = {
  id: "id",
  productid: "id",
  name: "name",
  price: "price",
  category: "category",
  subcategory: "subcategory",
  description: "description",
  discount: "discount",
  instock: "inStock",
  stockcount: "stockCount",
  stock: "stockCount",
  isactive: "isActive",
  active: "isActive",
  badge: "badge",
  features: "features",
  imageurl: "imageUrl",
  image: "imageUrl",
  rating: "rating",
  reviews: "reviews",
  reviewscount: "reviews",
  createdat: "createdAt",
  slug: "slug",
  weightgrams: "weightGrams",
  weightg: "weightGrams",
  weight: "weightGrams",
  boxlengthcm: "boxLengthCm",
  boxlength: "boxLengthCm",
  boxwidthcm: "boxWidthCm",
  boxwidth: "boxWidthCm",
  boxheightcm: "boxHeightCm",
  boxheight: "boxHeightCm",
};

/** The column a header names, or null for columns the import doesn't read. */
export function columnOf(header: string): Column | null {
  const key = header
    .replace(/^\uFEFF/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  return HEADER_ALIASES[key] ?? null;
}

/** The fields a CSV row sets; absent = not given. */
export type CsvProductFields = {
  name: string;
  slug: string;
  pricePaise?: number;
  category?: string;
  subcategory?: string;
  description?: string;
  discount?: number;
  inStock?: boolean;
  stockCount?: number;
  isActive?: boolean;
  badge?: string;
  features?: string[];
  image?: string;
  rating?: number;
  reviewsCount?: number;
  createdAt?: Date;
  weightGrams?: number;
  boxLengthCm?: number;
  boxWidthCm?: number;
  boxHeightCm?: number;
};

export type CsvProductRow = {
  /** The row's line in a spreadsheet: the header is row 1, the first product row 2. */
  row: number;
  /** The id column as written (a LayerKart id, or another shop's document id), if given. */
  id: string | null;
  fields: CsvProductFields;
};

export type CsvFailure = { row: number; id: string | null; reason: string };

export type CsvParseResult =
  | { ok: true; rows: CsvProductRow[]; failures: CsvFailure[]; columns: Column[] }
  | { ok: false; error: string };

const PRICE = /^\d+(?:\.\d{1,2})?$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;
const WHOLE = /^\d+$/;
const TRUE = new Set(["true", "yes", "y", "1"]);
const FALSE = new Set(["false", "no", "n", "0"]);
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

class RowError extends Error {}

function price(value: string): number {
  const s = value.replace(/^₹\s*/, "").replace(/,/g, "");
  if (!PRICE.test(s)) {
    throw new RowError(`Invalid price "${value}": use rupees with at most 2 decimals.`);
  }
  const paise = rupeesTextToPaise(s);
  if (!Number.isSafeInteger(paise) || paise > 2_147_483_647) {
    throw new RowError(`Invalid price "${value}": too large.`);
  }
  return paise;
}

function flag(value: string, column: string): boolean {
  const s = value.toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  throw new RowError(`${column} must be true or false, not "${value}".`);
}

function whole(value: string, column: string, max = 2_147_483_647): number {
  if (!WHOLE.test(value) || Number(value) > max) {
    throw new RowError(`${column} must be a whole number from 0 to ${max}, not "${value}".`);
  }
  return Number(value);
}

function decimal(value: string, column: string, max: number): number {
  if (!DECIMAL.test(value) || Number(value) > max) {
    throw new RowError(`${column} must be a number from 0 to ${max}, not "${value}".`);
  }
  return Number(value);
}

function imageUrl(value: string): string {
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return url.toString();
  } catch {}
  throw new RowError(`image URL "${value}" must start with https://, http:// or /.`);
}

function text(value: string, column: string, max = MAX_TEXT): string {
  if (value.length > max) throw new RowError(`${column} is longer than ${max} characters.`);
  return value;
}

function rowFields(cells: Partial<Record<Column, string>>): CsvProductFields {
  const name = (cells.name ?? "").replace(/\s+/g, " ").trim();
  if (name === "") throw new RowError("missing name");
  if (name.length > MAX_NAME) throw new RowError(`name is longer than ${MAX_NAME} characters.`);
  const f: CsvProductFields = { name, slug: slugify(name) };
  const given = (c: Column) => (cells[c] ?? "") !== "";
  const cell = (c: Column) => cells[c] ?? "";
  if (given("price")) f.pricePaise = price(cell("price"));
  if (given("category")) f.category = text(cell("category"), "category", MAX_NAME);
  if (given("subcategory")) f.subcategory = text(cell("subcategory"), "subcategory", MAX_NAME);
  if (given("description")) f.description = text(cell("description"), "description");
  if (given("discount")) f.discount = Math.round(decimal(cell("discount"), "discount", 100));
  if (given("inStock")) f.inStock = flag(cell("inStock"), "inStock");
  if (given("stockCount")) f.stockCount = whole(cell("stockCount"), "stockCount");
  if (given("isActive")) f.isActive = flag(cell("isActive"), "isActive");
  if (given("badge")) f.badge = text(cell("badge"), "badge", 40);
  if (given("features")) {
    f.features = cell("features")
      .split("|")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  }
  if (given("imageUrl")) f.image = imageUrl(cell("imageUrl"));
  if (given("rating")) f.rating = decimal(cell("rating"), "rating", 5);
  if (given("reviews")) f.reviewsCount = whole(cell("reviews"), "reviews");
  for (const [column, max] of [
    ["weightGrams", MAX_WEIGHT_GRAMS],
    ["boxLengthCm", MAX_SIDE_CM],
    ["boxWidthCm", MAX_SIDE_CM],
    ["boxHeightCm", MAX_SIDE_CM],
  ] as const) {
    if (!given(column)) continue;
    const value = cell(column);
    if (!WHOLE.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new RowError(`${column} must be a whole number from 1 to ${max}, not "${value}".`);
    }
    f[column] = Number(value);
  }
  if (given("createdAt")) {
    const d = new Date(cell("createdAt"));
    if (!ISO_DATE.test(cell("createdAt")) || Number.isNaN(d.getTime())) {
      throw new RowError(`createdAt "${cell("createdAt")}" is not an ISO date.`);
    }
    f.createdAt = d;
  }
  return f;
}

/** Reads a products CSV. A bad row is listed as a failure; a file without the needed header fails. */
export function parseProductsCsv(input: string): CsvParseResult {
  const parsed = Papa.parse<string[]>(input.replace(/^\uFEFF/, ""), {
    skipEmptyLines: "greedy",
  });
  const [header, ...body] = parsed.data;
  if (!header) return { ok: false, error: "The file is empty." };
  const columns = header.map(columnOf);
  if (!columns.includes("name") || !columns.includes("price")) {
    return {
      ok: false,
      error: "The first row must be a header naming at least the name and price columns.",
    };
  }
  if (body.length > MAX_IMPORT_ROWS) {
    return { ok: false, error: `A file can hold at most ${MAX_IMPORT_ROWS} products.` };
  }
  const rows: CsvProductRow[] = [];
  const failures: CsvFailure[] = [];
  body.forEach((cells, i) => {
    const row = i + 2;
    const byColumn: Partial<Record<Column, string>> = {};
    columns.forEach((column, c) => {
      if (column && byColumn[column] === undefined) {
        byColumn[column] = unspreadsheetCell((cells[c] ?? "").trim());
      }
    });
    const id = byColumn.id ? byColumn.id : null;
    if (cells.length > header.length && cells.slice(header.length).some((c) => c.trim() !== "")) {
      failures.push({ row, id, reason: "more cells than the header has columns" });
      return;
    }
    try {
      rows.push({ row, id, fields: rowFields(byColumn) });
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      failures.push({ row, id, reason: error.message });
    }
  });
  return {
    ok: true,
    rows,
    failures,
    columns: columns.filter((c): c is Column => c !== null),
  };
}

/** The columns of a new product made from a CSV row (defaults where a cell was empty). */
export function newProductFromCsv(f: CsvProductFields) {
  return {
    name: f.name,
    slug: f.slug,
    description: f.description ?? "",
    pricePaise: f.pricePaise ?? 0,
    currency: "INR",
    image: f.image ?? PLACEHOLDER_IMAGE,
    images: f.image ? [{ url: f.image, storagePath: null }] : [],
    category: f.category ?? "",
    subcategory: f.subcategory ?? null,
    rating: f.rating ?? 0,
    reviewsCount: f.reviewsCount ?? 0,
    features: f.features ?? [],
    discount: f.discount ?? 0,
    inStock: f.inStock ?? true,
    stockCount: f.stockCount ?? null,
    badge: f.badge ?? null,
    isActive: f.isActive ?? true,
    weightGrams: f.weightGrams ?? null,
    boxLengthCm: f.boxLengthCm ?? null,
    boxWidthCm: f.boxWidthCm ?? null,
    boxHeightCm: f.boxHeightCm ?? null,
    ...(f.createdAt ? { createdAt: f.createdAt, updatedAt: f.createdAt } : {}),
  };
}
