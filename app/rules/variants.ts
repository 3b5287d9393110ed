/**
 * Options and variants (issue 22, docs/decisions/0015-variants.md): which variant a choice of
 * option values names, which choices are sold out or don't exist, the "from" price, the option
 * label an order line shows, and the summary the product row keeps. Pure: the product page's
 * pickers and the server share them.
 */
import type { OrderedOption, ProductImage } from "./stored-shapes.ts";

export const MAX_OPTIONS = 3;

export type OptionValue = {
  id: string;
  value: string;
  position: number;
  /** `#rrggbb` for a colour value with a swatch. */
  swatch: string | null;
};

export type ProductOption = {
  id: string;
  name: string;
  position: number;
  /** In their order (position). */
  values: OptionValue[];
};

export type Variant = {
  id: string;
  sku: string | null;
  pricePaise: number;
  originalPricePaise: number | null;
  /** null = not tracked. */
  stockCount: number | null;
  inStock: boolean;
  isActive: boolean;
  position: number;
  images: ProductImage[];
  /** The variant's value of each option (one per option; empty for a default variant). */
  valueIds: string[];
};

/** The fields of a variant that decide whether it sells. */
export type VariantStock = Pick<Variant, "isActive" | "inStock" | "stockCount">;

/** Chosen value per option id (options not chosen yet are absent). */
export type Selection = Readonly<Record<string, string>>;

/** A variant can be bought: active, in stock, and units left when counted. */
export function variantSellable(v: VariantStock): boolean {
  return v.isActive && v.inStock && (v.stockCount === null || v.stockCount > 0);
}

/** The variants in their order (position, then id). */
export function ordered<T extends { position: number; id: string }>(variants: readonly T[]): T[] {
  return [...variants].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

/**
 * The variant a line without one means, and the one the product page shows first: the first
 * sellable variant, else the first active one, else the first.
 */
export function defaultVariant<T extends Variant>(variants: readonly T[]): T | null {
  const list = ordered(variants);
  return list.find(variantSellable) ?? list.find((v) => v.isActive) ?? list[0] ?? null;
}

/** A variant's values as a selection. */
export function selectionOf(options: readonly ProductOption[], variant: Variant): Selection {
  const selection: Record<string, string> = {};
  for (const option of options) {
    const value = option.values.find((v) => variant.valueIds.includes(v.id));
    if (value) selection[option.id] = value.id;
  }
  return selection;
}

const matches = (variant: Variant, selection: Selection, options: readonly ProductOption[]) =>
  options.every((o) => selection[o.id] === undefined || variant.valueIds.includes(selection[o.id]));

/**
 * The variant a complete choice names (one value of every option), or null when the choice is
 * incomplete or no variant has that combination. A product without options: its one variant.
 */
export function matchVariant<T extends Variant>(
  options: readonly ProductOption[],
  variants: readonly T[],
  selection: Selection,
): T | null {
  if (options.some((o) => selection[o.id] === undefined)) return null;
  return ordered(variants).find((v) => matches(v, selection, options)) ?? null;
}

export type ValueState = "available" | "sold-out" | "unavailable";

/**
 * What each value of one option would give, with the other options as chosen: "available" when a
 * sellable variant has it, "sold-out" when its variants are all sold out, "unavailable" when no
 * active variant has that combination.
 */
export function valueStates(
  options: readonly ProductOption[],
  variants: readonly Variant[],
  selection: Selection,
  optionId: string,
): Record<string, ValueState> {
  const option = options.find((o) => o.id === optionId);
  const states: Record<string, ValueState> = {};
  if (!option) return states;
  for (const value of option.values) {
    const wanted = { ...selection, [optionId]: value.id };
    const candidates = variants.filter((v) => v.isActive && matches(v, wanted, options));
    states[value.id] =
      candidates.length === 0
        ? "unavailable"
        : candidates.some(variantSellable)
          ? "available"
          : "sold-out";
  }
  return states;
}

/**
 * The price a card shows: the lowest price of the active variants (all variants when none is
 * active), and whether the prices differ (the card says "from ₹X").
 */
export function fromPrice(variants: readonly Pick<Variant, "pricePaise" | "isActive">[]): {
  pricePaise: number;
  varies: boolean;
} {
  const active = variants.filter((v) => v.isActive);
  const pool = active.length > 0 ? active : variants;
  if (pool.length === 0) return { pricePaise: 0, varies: false };
  const prices = pool.map((v) => v.pricePaise);
  const low = Math.min(...prices);
  return { pricePaise: low, varies: prices.some((p) => p !== low) };
}

/** The option name and value of each of a variant's values, in the options' order. */
export function orderedOptions(
  options: readonly ProductOption[],
  variant: Pick<Variant, "valueIds">,
): OrderedOption[] {
  return ordered(options).flatMap((o) => {
    const value = o.values.find((v) => variant.valueIds.includes(v.id));
    return value ? [{ name: o.name, value: value.value }] : [];
  });
}

/** "Colour: Red · Size: 7 cm"; empty for a default variant. */
export function optionLabel(options: readonly OrderedOption[] | null | undefined): string {
  return (options ?? []).map((o) => `${o.name}: ${o.value}`).join(" · ");
}

/** What the product row keeps of its variants (listings, search and the page cache read it). */
export type ProductSummary = {
  pricePaise: number;
  originalPricePaise: number | null;
  stockCount: number | null;
  inStock: boolean;
};

/**
 * The product row's summary of its variants. A product without options is its one variant, copied
 * as it is. Otherwise: the lowest active price and that variant's original price; the sum of the
 * active variants' counts (null when one of them isn't counted); in stock when one of them sells.
 * A product whose variants are all inactive shows out of stock.
 */
export function productSummary(
  variants: readonly Omit<Variant, "valueIds" | "images" | "sku">[],
  hasOptions: boolean,
): ProductSummary | null {
  if (variants.length === 0) return null;
  const list = ordered(variants);
  if (!hasOptions) {
    const v = list[0];
    return {
      pricePaise: v.pricePaise,
      originalPricePaise: v.originalPricePaise,
      stockCount: v.stockCount,
      inStock: v.inStock,
    };
  }
  const active = list.filter((v) => v.isActive);
  if (active.length === 0) {
    const cheapest = list.reduce((a, b) => (b.pricePaise < a.pricePaise ? b : a));
    return {
      pricePaise: cheapest.pricePaise,
      originalPricePaise: cheapest.originalPricePaise,
      stockCount: 0,
      inStock: false,
    };
  }
  // The same lowest price as fromPrice: the card and the product page agree.
  const cheapest = active.reduce((a, b) => (b.pricePaise < a.pricePaise ? b : a));
  const counted = active.every((v) => v.stockCount !== null);
  return {
    pricePaise: cheapest.pricePaise,
    originalPricePaise: cheapest.originalPricePaise,
    stockCount: counted ? active.reduce((sum, v) => sum + (v.stockCount ?? 0), 0) : null,
    inStock: active.some(variantSellable),
  };
}

/** A line's name with its options, as messages and lists show it: "Dragon (Colour: Red)". */
export function lineName(name: string, options: readonly OrderedOption[] | null | undefined) {
  const label = optionLabel(options);
  return label ? `${name} (${label})` : name;
}

/** A variant as a cart prices it: its own price and stock (the product's active flag aside). */
export type VariantOffer = {
  id: string;
  productId: string;
  pricePaise: number;
  originalPricePaise: number | null;
  stockCount: number | null;
  inStock: boolean;
  isActive: boolean;
  options: OrderedOption[];
};

/** A product's options and variants as given (the demo seed, tests; the admin builds on it). */
export type VariantsInput = {
  options: { name: string; values: { value: string; swatch?: string | null }[] }[];
  variants: {
    /** One value per option, in the options' order. */
    values: string[];
    sku?: string | null;
    pricePaise: number;
    originalPricePaise?: number | null;
    stockCount: number | null;
    isActive?: boolean;
    images?: ProductImage[];
  }[];
};

/** Options and variants that don't make sense together, with what is wrong. */
export class VariantsError extends Error {
  override name = "VariantsError";
}

const SWATCH = /^#[0-9a-f]{6}$/;

/** Checks the options and variants given (pure), throwing VariantsError with the first problem. */
export function checkVariantsInput(input: VariantsInput): void {
  if (input.options.length === 0 || input.options.length > MAX_OPTIONS) {
    throw new VariantsError(`A product has one to ${MAX_OPTIONS} options`);
  }
  const names = new Set(input.options.map((o) => o.name.trim().toLowerCase()));
  if (names.size !== input.options.length) throw new VariantsError("Option names must differ");
  for (const o of input.options) {
    const values = new Set(o.values.map((v) => v.value.trim().toLowerCase()));
    if (o.values.length === 0 || values.size !== o.values.length) {
      throw new VariantsError(`“${o.name}” needs values that differ`);
    }
    for (const v of o.values) {
      if (v.swatch && !SWATCH.test(v.swatch)) {
        throw new VariantsError(`The swatch of “${v.value}” must look like #a1b2c3`);
      }
    }
  }
  if (input.variants.length === 0) throw new VariantsError("A product needs a variant");
  const seen = new Set<string>();
  for (const v of input.variants) {
    if (v.values.length !== input.options.length) {
      throw new VariantsError("Each variant has one value of every option");
    }
    v.values.forEach((value, i) => {
      if (!input.options[i].values.some((o) => o.value === value)) {
        throw new VariantsError(`“${value}” isn't a value of “${input.options[i].name}”`);
      }
    });
    const key = v.values.join("\u0000");
    if (seen.has(key)) throw new VariantsError(`${v.values.join(" / ")} is listed twice`);
    seen.add(key);
  }
}
