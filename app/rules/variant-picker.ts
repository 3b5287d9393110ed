/**
 * The product page's option pickers (issue 22, docs/decisions/0015-variants.md): which variant a
 * page shows first, which one a pick leads to, what a variant's stock and price show, and what the
 * structured data says of an option. Pure: the server renders what the browser then changes.
 */
import type { StockFields } from "./product-display.ts";
import {
  defaultVariant,
  matchVariant,
  ordered,
  type ProductOption,
  type Selection,
  selectionOf,
  type Variant,
  variantSellable,
} from "./variants.ts";

/** The variant a URL names when it is one of the product's, else the product's default. */
export function shownVariant<T extends Variant>(
  variants: readonly T[],
  wanted: string | null | undefined,
): { variant: T | null; named: boolean } {
  const named = wanted ? variants.find((v) => v.id === wanted) : undefined;
  return named
    ? { variant: named, named: true }
    : { variant: defaultVariant(variants), named: false };
}

/**
 * The variant a pick of one value leads to. The chosen combination when an active variant has it
 * (even sold out: the page then says so); otherwise the active variant with that value that keeps
 * most of the other values, a sellable one first. Null when no active variant has the value (the
 * picker doesn't offer it).
 */
export function variantAfterPick<T extends Variant>(
  options: readonly ProductOption[],
  variants: readonly T[],
  current: Selection,
  optionId: string,
  valueId: string,
): T | null {
  const wanted: Selection = { ...current, [optionId]: valueId };
  const active = ordered(variants).filter((v) => v.isActive);
  const exact = matchVariant(options, active, wanted);
  if (exact) return exact;
  const withValue = active.filter((v) => v.valueIds.includes(valueId));
  if (withValue.length === 0) return null;
  const kept = (v: T) =>
    options.filter((o) => o.id !== optionId && v.valueIds.includes(wanted[o.id] ?? "")).length;
  // Stable: among equals, the first in the variants' order.
  return withValue.reduce((best, v) => {
    const score = (x: T) => kept(x) * 2 + (variantSellable(x) ? 1 : 0);
    return score(v) > score(best) ? v : best;
  });
}

/** The chosen value of each option, as the pickers show it. */
export const selectionFor = (options: readonly ProductOption[], variant: Variant | null) =>
  variant ? selectionOf(options, variant) : {};

/** What the stock badge and the cart button read for a variant of a product. */
export function variantStock(
  product: { isActive: boolean },
  variant: Pick<Variant, "isActive" | "inStock" | "stockCount">,
): StockFields {
  return {
    isActive: product.isActive && variant.isActive,
    inStock: variant.inStock,
    stockCount: variant.stockCount,
  };
}

/** A colour option: named so, or with a swatch on one of its values. Its picker shows swatches. */
export function isColourOption(option: Pick<ProductOption, "name" | "values">): boolean {
  return /^colou?rs?$/i.test(option.name.trim()) || option.values.some((v) => v.swatch !== null);
}

/**
 * The schema.org property an option varies (`variesBy`), for the options search engines know;
 * null for any other option (its values are still named in each variant's name).
 */
export function schemaPropertyOf(optionName: string): "color" | "size" | "material" | null {
  const name = optionName.trim().toLowerCase();
  if (/^colou?rs?$/.test(name)) return "color";
  if (/^sizes?$/.test(name)) return "size";
  if (/^materials?$/.test(name)) return "material";
  return null;
}

/** The product page's address for a variant (shareable; the server renders that variant). */
export function variantPath(productId: string, variantId: string): string {
  return `/product/${productId}?variant=${variantId}`;
}

/**
 * Where a cart line or an ordered item links: a variant of a product with options opens its
 * page on that variant (the options the customer chose); any other line opens the product page.
 */
export function linePath(line: {
  productId: string;
  variantId?: string | null;
  options?: readonly unknown[] | string | null;
}): string {
  return line.variantId && line.options && line.options.length > 0
    ? variantPath(line.productId, line.variantId)
    : `/product/${line.productId}`;
}
