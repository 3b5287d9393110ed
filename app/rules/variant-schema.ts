import { z } from "zod";
import type { FieldErrors } from "./account-schemas.ts";
import { MAX_PRICE_PAISE } from "./admin-product-schema.ts";
import { rupeesToPaise } from "./money.ts";
import { cleanJson } from "./text.ts";
import { MAX_OPTIONS } from "./variants.ts";

/*
 * The admin's options and variant table (issue 22, docs/decisions/0015-variants.md): what staff
 * may send for a product's options and for its variants, parsed by the browser before it submits
 * and again by the server action. Pure. Errors name the row ("variants.2.price") so the table can
 * show each one beside its cell.
 */

export const MAX_VALUES_PER_OPTION = 30;
/** Combinations a product may have (the variant table stays usable). */
export const MAX_VARIANTS = 100;
/** ₹1: the lowest price a variant may have. */
export const MIN_VARIANT_PRICE_PAISE = 100;
const MAX_INT = 2_147_483_647;
/**
 * The admin's "Low stock" filter: a product shows when one of its active variants has a counted
 * stock of this many units or fewer.
 */
export const LOW_STOCK_UNITS = 5;

export const variantText = {
  tooManyOptions: `A product can have at most ${MAX_OPTIONS} options.`,
  optionName: "Please name each option.",
  optionNameTaken: "Each option needs its own name.",
  noValues: "Please give each option at least one value.",
  valueRequired: "Please fill in each value, or remove it.",
  valueTwice: (value: string, option: string) => `“${value}” is listed twice under ${option}.`,
  tooManyValues: `An option can have at most ${MAX_VALUES_PER_OPTION} values.`,
  tooManyVariants: `These options make more than ${MAX_VARIANTS} variants. Please use fewer values.`,
  swatch: "A swatch colour must look like #1e88e5.",
  price: "Price must be at least ₹1.",
  priceTooHigh: "Price must be at most ₹1,00,00,000.",
  originalBelowPrice: "The original price must be at least the price.",
  stockCount: "Stock must be a whole number, 0 or more (leave it empty to not track stock).",
  sku: "A SKU may use letters, digits, '-', '_', '.' and '/' (at most 64).",
  skuTwice: (sku: string) => `SKU ${sku} is used twice.`,
  skuTaken: (sku: string) => `SKU ${sku} is already used by another product's variant.`,
  skuJustTaken: "Another variant has just taken one of these SKUs. Please choose another.",
  image: "Please choose one of this product's images.",
  unknownVariant: "This variant no longer exists. Please reload the page.",
  badList: "Please reload the page and try again.",
  optionsSaved: "Options saved and variants generated",
  variantsSaved: "Variants saved",
  variantDeactivated: "Variant deactivated",
} as const;

// ---- Options -----------------------------------------------------------------------------------

const SWATCH = /^#[0-9a-f]{6}$/;
const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

const optionValueSchema = z.object({
  id: z.uuid({ error: variantText.badList }).optional(),
  value: z
    .string({ error: variantText.valueRequired })
    .transform(oneLine)
    .pipe(
      z.string().min(1, variantText.valueRequired).max(60, "Please use at most 60 characters."),
    ),
  swatch: z.preprocess(
    (v) => (typeof v === "string" ? blankToNull(v.trim().toLowerCase()) : (v ?? null)),
    z.string().regex(SWATCH, variantText.swatch).nullable(),
  ),
});

const optionSchema = z.object({
  id: z.uuid({ error: variantText.badList }).optional(),
  name: z
    .string({ error: variantText.optionName })
    .transform(oneLine)
    .pipe(z.string().min(1, variantText.optionName).max(40, "Please use at most 40 characters.")),
  values: z
    .array(optionValueSchema, { error: variantText.badList })
    .min(1, variantText.noValues)
    .max(MAX_VALUES_PER_OPTION, variantText.tooManyValues),
});

/** A product's options as staff left them: up to three, each with distinct values in order. */
export const productOptionsSchema = z
  .array(optionSchema, { error: variantText.badList })
  .max(MAX_OPTIONS, variantText.tooManyOptions)
  .superRefine((options, ctx) => {
    const names = new Set<string>();
    options.forEach((option, i) => {
      const key = option.name.toLowerCase();
      if (names.has(key)) {
        ctx.addIssue({ code: "custom", path: [i, "name"], message: variantText.optionNameTaken });
      }
      names.add(key);
      const values = new Set<string>();
      option.values.forEach((v, j) => {
        const k = v.value.toLowerCase();
        if (values.has(k)) {
          ctx.addIssue({
            code: "custom",
            path: [i, "values", j, "value"],
            message: variantText.valueTwice(v.value, option.name),
          });
        }
        values.add(k);
      });
    });
    const combinations = options.reduce((n, o) => n * o.values.length, 1);
    if (combinations > MAX_VARIANTS) {
      ctx.addIssue({ code: "custom", path: [], message: variantText.tooManyVariants });
    }
  });
export type OptionsInput = z.infer<typeof productOptionsSchema>;

// ---- Variant rows ------------------------------------------------------------------------------

const PRICE = /^(?:\d+(?:\.\d{0,2})?|\.\d{1,2})$/;

const variantPrice = z.string({ error: variantText.price }).transform((raw, ctx) => {
  const v = raw.replace(/^₹\s*/, "").replace(/,/g, "").trim();
  const paise = PRICE.test(v) ? rupeesToPaise(Number(v)) : 0;
  if (!(paise >= MIN_VARIANT_PRICE_PAISE)) {
    ctx.addIssue({ code: "custom", message: variantText.price });
    return z.NEVER;
  }
  if (paise > MAX_PRICE_PAISE) {
    ctx.addIssue({ code: "custom", message: variantText.priceTooHigh });
    return z.NEVER;
  }
  return paise;
});

const stock = z.string().transform((raw, ctx) => {
  const v = raw.trim();
  if (!/^\d+$/.test(v) || Number(v) > MAX_INT) {
    ctx.addIssue({ code: "custom", message: variantText.stockCount });
    return z.NEVER;
  }
  return Number(v);
});

const isBlank = (v: unknown) => v === null || (typeof v === "string" && v.trim() === "");

/** Absent → undefined (keep); blank → null (clear); otherwise the schema's value. */
const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (v) => (v === undefined ? undefined : isBlank(v) ? null : v),
    schema.nullable().optional(),
  );

export const SKU = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;

const variantRowSchema = z
  .object({
    id: z.uuid({ error: variantText.badList }),
    sku: clearable(z.string().trim().regex(SKU, variantText.sku)),
    price: variantPrice.optional(),
    originalPrice: clearable(variantPrice),
    stockCount: clearable(stock),
    isActive: z
      .union([z.boolean(), z.enum(["true", "false", "on", "off"])], { error: variantText.badList })
      .transform((v) => v === true || v === "true" || v === "on")
      .optional(),
    /** The url of one of the product's images; blank: the product's own pictures. */
    image: clearable(z.string().max(2000, variantText.image)),
  })
  .superRefine((row, ctx) => {
    if (
      row.price !== undefined &&
      row.originalPrice !== undefined &&
      row.originalPrice !== null &&
      row.originalPrice < row.price
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["originalPrice"],
        message: variantText.originalBelowPrice,
      });
    }
  });

/** Changes to some of a product's variants, as the table sends them (every field optional). */
export const variantRowsSchema = z
  .array(variantRowSchema, { error: variantText.badList })
  .min(1, variantText.badList)
  .max(MAX_VARIANTS, variantText.badList)
  .superRefine((rows, ctx) => {
    const ids = new Set<string>();
    const skus = new Map<string, number>();
    rows.forEach((row, i) => {
      if (ids.has(row.id.toLowerCase())) {
        ctx.addIssue({ code: "custom", path: [i, "id"], message: variantText.badList });
      }
      ids.add(row.id.toLowerCase());
      if (row.sku) {
        const key = row.sku.toLowerCase();
        if (skus.has(key)) {
          ctx.addIssue({
            code: "custom",
            path: [i, "sku"],
            message: variantText.skuTwice(row.sku),
          });
        }
        skus.set(key, i);
      }
    });
  });
export type VariantRowInput = z.infer<typeof variantRowSchema>;

/** After a row's changes are applied to what is stored: the original price covers the price. */
export function originalPriceProblem(
  pricePaise: number,
  originalPricePaise: number | null,
): string | null {
  return originalPricePaise !== null && originalPricePaise < pricePaise
    ? variantText.originalBelowPrice
    : null;
}

// ---- Form data -> input ------------------------------------------------------------------------

/**
 * A JSON form field decoded, its strings cleaned as every form's are (no control characters,
 * composed Unicode); a field that isn't JSON, or has such a character, gives a value every schema
 * refuses.
 */
export function jsonField(form: FormData, name: string): unknown {
  const raw = form.get(name);
  if (typeof raw !== "string") return undefined;
  try {
    return cleanJson(JSON.parse(raw))?.value ?? INVALID;
  } catch {
    return INVALID;
  }
}
const INVALID = Symbol("invalid json");

/**
 * Errors keyed by their path ("options.0.values.1.value", "variants.2.price"), the first message
 * per path; an error of the whole list under the list's name.
 */
export function pathErrors(prefix: string, error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].join(".");
    out[key] ??= issue.message;
  }
  return out;
}

// ---- Combinations ------------------------------------------------------------------------------

/**
 * Every combination of the options' values, in order (the first option varies slowest): the
 * variants "Generate variants" makes. No options: one empty combination (the default variant).
 */
export function combinations<T>(options: readonly (readonly T[])[]): T[][] {
  return options.reduce<T[][]>(
    (acc, values) => acc.flatMap((combo) => values.map((v) => [...combo, v])),
    [[]],
  );
}

/**
 * Which combination each existing variant becomes (by index into `combinations` of the options'
 * value ids), keeping what staff set on it. A variant keeps its place when each of its values
 * still exists; a value of an option that was removed no longer counts, and a new option takes
 * its first free value. A variant whose value was removed from a remaining option, or whose
 * combination another variant (earlier in order) already has, has disappeared: it is not in the
 * map.
 */
export function matchCombinations(
  variants: readonly { id: string; values: Readonly<Record<string, string>> }[],
  options: readonly { id: string; valueIds: readonly string[] }[],
): Map<string, number> {
  const combos = combinations(options.map((o) => o.valueIds));
  const taken = new Set<number>();
  const out = new Map<string, number>();
  const wanted = variants.flatMap((variant) => {
    const kept: string[] = [];
    for (const option of options) {
      const value = variant.values[option.id];
      if (value === undefined) continue;
      if (!option.valueIds.includes(value)) return [];
      kept.push(value);
    }
    return [{ id: variant.id, kept, whole: kept.length === options.length }];
  });
  // Variants that already name a whole combination choose first, so adding an option's value or
  // an option never moves them.
  const ranked = [...wanted.filter((w) => w.whole), ...wanted.filter((w) => !w.whole)];
  for (const { id, kept } of ranked) {
    const index = combos.findIndex((c, i) => !taken.has(i) && kept.every((v) => c.includes(v)));
    if (index === -1) continue;
    taken.add(index);
    out.set(id, index);
  }
  return out;
}
