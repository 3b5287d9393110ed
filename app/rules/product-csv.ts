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
 * edited and imported again. A product with options (issue 22) has one row per variant, grouped
 * by its id (else its slug), with Option1 Name/Value … Option3, Variant SKU, Variant Price,
 * Variant Compare At Price, Variant Stock and Variant Active, as the common shop-platform format
 * has them; those columns are written only when some product has options. A cell that starts with = + - @ (or a tab or carriage return) gets
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

/** One variant of a product with options, as the export writes it (one row each). */
export type ExportVariant = {
  options: { name: string; value: string }[];
  sku: string | null;
  pricePaise: number;
  originalPricePaise: number | null;
  stockCount: number | null;
  isActive: boolean;
};

/**
 * The variant columns (issue 22), like the common shop-platform format: written only when a
 * product has options, so a shop without them exports exactly the columns it always did.
 */
export const VARIANT_COLUMNS = [
  "Option1 Name",
  "Option1 Value",
  "Option2 Name",
  "Option2 Value",
  "Option3 Name",
  "Option3 Value",
  "Variant SKU",
  "Variant Price",
  "Variant Compare At Price",
  "Variant Stock",
  "Variant Active",
] as const;

export type ExportProduct = {
  /** A product with options: its variants with a combination, in order. */
  variants?: ExportVariant[];
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

function variantCells(v: ExportVariant | null): string[] {
  if (!v) return VARIANT_COLUMNS.map(() => "");
  const options = [0, 1, 2].flatMap((i) => [v.options[i]?.name ?? "", v.options[i]?.value ?? ""]);
  return [
    ...options,
    v.sku ?? "",
    paiseToRupeesText(v.pricePaise),
    v.originalPricePaise === null ? "" : paiseToRupeesText(v.originalPricePaise),
    v.stockCount === null ? "" : String(v.stockCount),
    String(v.isActive),
  ];
}

/**
 * The products CSV: one row per product; a product with options has one row per variant, each
 * with the product's columns (its row's summary) and the variant's, grouped by its slug.
 */
export function productsCsv(rows: readonly ExportProduct[]): string {
  const withVariants = rows.some((p) => (p.variants?.length ?? 0) > 0);
  const lines = rows.flatMap((p) => {
    const base = productCells(p);
    if (!withVariants) return [base];
    const variants = p.variants ?? [];
    if (variants.length === 0) return [[...base, ...variantCells(null)]];
    return variants.map((v) => [...base, ...variantCells(v)]);
  });
  const csv = Papa.unparse(
    {
      fields: [...EXPORT_COLUMNS, ...(withVariants ? VARIANT_COLUMNS : [])],
      data: lines.map((cells) => cells.map(spreadsheetCell)),
    },
    { newline: "\r\n" },
  );
  return csv.endsWith("\r\n") ? csv : `${csv}\r\n`;
}

function productCells(p: ExportProduct): string[] {
  return [
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
  ];
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
  | "boxHeightCm"
  | "option1Name"
  | "option1Value"
  | "option2Name"
  | "option2Value"
  | "option3Name"
  | "option3Value"
  | "variantSku"
  | "variantPrice"
  | "variantCompareAtPrice"
  | "variantStock"
  | "variantActive";

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
  option1name: "option1Name",
  option1value: "option1Value",
  option2name: "option2Name",
  option2value: "option2Value",
  option3name: "option3Name",
  option3value: "option3Value",
  variantsku: "variantSku",
  variantprice: "variantPrice",
  variantcompareatprice: "variantCompareAtPrice",
  variantstock: "variantStock",
  variantinventoryqty: "variantStock",
  variantactive: "variantActive",
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

/** A variant row's own cells (issue 22); absent = not given. */
export type CsvVariant = {
  /** The row it came from. */
  row: number;
  /** Its option values, in the options' order (Option1 … Option3). */
  options: { name: string; value: string }[];
  sku?: string | null;
  pricePaise?: number;
  originalPricePaise?: number | null;
  stockCount?: number | null;
  isActive?: boolean;
};

export type CsvProductRow = {
  /** The row's line in a spreadsheet: the header is row 1, the first product row 2. */
  row: number;
  /** The id column as written (a LayerKart id, or another shop's document id), if given. */
  id: string | null;
  fields: CsvProductFields;
  /** Set when the row names option values: one variant of its product. */
  variant?: CsvVariant;
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

const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;

/** A row's variant cells, or undefined when it names no option (a product without options). */
function variantFields(
  cells: Partial<Record<Column, string>>,
  row: number,
): CsvVariant | undefined {
  const options: { name: string; value: string }[] = [];
  for (const n of [1, 2, 3] as const) {
    const name = (cells[`option${n}Name`] ?? "").replace(/\s+/g, " ").trim();
    const value = (cells[`option${n}Value`] ?? "").replace(/\s+/g, " ").trim();
    if (name === "" && value === "") continue;
    if (name === "" || value === "") {
      throw new RowError(`Option${n} needs both a name and a value.`);
    }
    if (name.length > 40) throw new RowError(`Option${n} Name is longer than 40 characters.`);
    if (value.length > 60) throw new RowError(`Option${n} Value is longer than 60 characters.`);
    options.push({ name, value });
  }
  const given = (c: Column) => (cells[c] ?? "") !== "";
  if (options.length === 0) {
    if (given("variantSku") || given("variantPrice") || given("variantCompareAtPrice")) {
      throw new RowError("a variant's cells need its option values (Option1 Name and Value).");
    }
    return undefined;
  }
  const v: CsvVariant = { row, options };
  if (given("variantSku")) {
    const sku = cells.variantSku!;
    if (!SKU_PATTERN.test(sku)) {
      throw new RowError(`Variant SKU "${sku}" may use letters, digits, '-', '_', '.' and '/'.`);
    }
    v.sku = sku;
  } else if (cells.variantSku !== undefined) v.sku = null;
  if (given("variantPrice")) {
    v.pricePaise = price(cells.variantPrice!);
    if (v.pricePaise < 100) throw new RowError("Variant Price must be at least ₹1.");
  }
  if (given("variantCompareAtPrice")) {
    v.originalPricePaise = price(cells.variantCompareAtPrice!);
    if (v.pricePaise !== undefined && v.originalPricePaise < v.pricePaise) {
      throw new RowError("Variant Compare At Price must be at least the Variant Price.");
    }
  } else if (cells.variantCompareAtPrice !== undefined) v.originalPricePaise = null;
  if (given("variantStock")) v.stockCount = whole(cells.variantStock!, "Variant Stock");
  else if (cells.variantStock !== undefined) v.stockCount = null;
  if (given("variantActive")) v.isActive = flag(cells.variantActive!, "Variant Active");
  return v;
}

/**
 * A product's options as its variant rows name them: the option names of its first row, each
 * option's values in the order they first appear. A problem (rows naming different options, the
 * same combination twice, a SKU twice) is returned as the reason the product is refused.
 */
export function optionsOfVariants(
  variants: readonly CsvVariant[],
): { ok: true; options: { name: string; values: string[] }[] } | { ok: false; reason: string } {
  const first = variants[0];
  const names = first.options.map((o) => o.name);
  const options = names.map((name) => ({ name, values: [] as string[] }));
  const combos = new Set<string>();
  const skus = new Set<string>();
  for (const v of variants) {
    const same =
      v.options.length === names.length &&
      v.options.every((o, i) => o.name.toLowerCase() === names[i].toLowerCase());
    if (!same) {
      return {
        ok: false,
        reason: `row ${v.row} names other options than row ${first.row} (${names.join(", ")})`,
      };
    }
    const key = v.options.map((o) => o.value.toLowerCase()).join("\u0001");
    if (combos.has(key)) {
      return { ok: false, reason: `row ${v.row} repeats the combination of an earlier row` };
    }
    combos.add(key);
    if (v.sku) {
      if (skus.has(v.sku.toLowerCase())) {
        return { ok: false, reason: `row ${v.row} repeats the Variant SKU ${v.sku}` };
      }
      skus.add(v.sku.toLowerCase());
    }
    v.options.forEach((o, i) => {
      if (!options[i].values.some((x) => x.toLowerCase() === o.value.toLowerCase())) {
        options[i].values.push(o.value);
      }
    });
  }
  return { ok: true, options };
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
      const variant = variantFields(byColumn, row);
      rows.push({ row, id, fields: rowFields(byColumn), ...(variant ? { variant } : {}) });
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
