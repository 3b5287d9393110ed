import { describe, expect, it } from "vitest";
import {
  defaultVariant,
  fromPrice,
  lineName,
  matchVariant,
  optionLabel,
  orderedOptions,
  type ProductOption,
  productSummary,
  selectionOf,
  type Variant,
  valueStates,
  variantSellable,
} from "./variants.ts";

const colour: ProductOption = {
  id: "colour",
  name: "Colour",
  position: 0,
  values: [
    { id: "red", value: "Red", position: 0, swatch: "#cc2222" },
    { id: "blue", value: "Blue", position: 1, swatch: "#2244cc" },
    { id: "green", value: "Green", position: 2, swatch: "#22aa44" },
  ],
};
const size: ProductOption = {
  id: "size",
  name: "Size",
  position: 1,
  values: [
    { id: "s4", value: "4 cm", position: 0, swatch: null },
    { id: "s7", value: "7 cm", position: 1, swatch: null },
  ],
};
const options = [colour, size];

let n = 0;
const variant = (valueIds: string[], over: Partial<Variant> = {}): Variant => ({
  id: `v${++n}`,
  sku: null,
  pricePaise: 49_900,
  originalPricePaise: null,
  stockCount: null,
  inStock: true,
  isActive: true,
  position: n,
  images: [],
  valueIds,
  ...over,
});

const redSmall = variant(["red", "s4"], { stockCount: 2 });
const redBig = variant(["red", "s7"], { pricePaise: 69_900, stockCount: 0, inStock: false });
const blueSmall = variant(["blue", "s4"], { isActive: false });
const blueBig = variant(["blue", "s7"], { pricePaise: 69_900 });
const greenSmall = variant(["green", "s4"], { pricePaise: 44_900, stockCount: 1 });
const variants = [redSmall, redBig, blueSmall, blueBig, greenSmall];

describe("variantSellable", () => {
  it("sells an active, in-stock variant with units left or not counted", () => {
    expect(variantSellable(redSmall)).toBe(true);
    expect(variantSellable(blueBig)).toBe(true);
    expect(variantSellable(redBig)).toBe(false);
    expect(variantSellable(blueSmall)).toBe(false);
    expect(variantSellable({ isActive: true, inStock: true, stockCount: 0 })).toBe(false);
    expect(variantSellable({ isActive: true, inStock: false, stockCount: null })).toBe(false);
  });
});

describe("matchVariant", () => {
  it("finds the variant of a complete choice", () => {
    expect(matchVariant(options, variants, { colour: "red", size: "s7" })).toBe(redBig);
    expect(matchVariant(options, variants, { size: "s4", colour: "green" })).toBe(greenSmall);
  });
  it("finds nothing for an incomplete choice or a combination no variant has", () => {
    expect(matchVariant(options, variants, { colour: "red" })).toBeNull();
    expect(matchVariant(options, variants, { colour: "green", size: "s7" })).toBeNull();
    expect(matchVariant(options, variants, { colour: "purple", size: "s4" })).toBeNull();
  });
  it("gives a product without options its one variant", () => {
    const only = variant([]);
    expect(matchVariant([], [only], {})).toBe(only);
  });
});

describe("valueStates", () => {
  it("says which sizes the chosen colour has, sells or doesn't", () => {
    expect(valueStates(options, variants, { colour: "red" }, "size")).toEqual({
      s4: "available",
      s7: "sold-out",
    });
    // Blue 4 cm is inactive: not offered at all.
    expect(valueStates(options, variants, { colour: "blue" }, "size")).toEqual({
      s4: "unavailable",
      s7: "available",
    });
    expect(valueStates(options, variants, { colour: "green" }, "size")).toEqual({
      s4: "available",
      s7: "unavailable",
    });
  });
  it("looks at every variant with that value while the other option isn't chosen", () => {
    expect(valueStates(options, variants, {}, "colour")).toEqual({
      red: "available",
      blue: "available",
      green: "available",
    });
    expect(valueStates(options, variants, { size: "s7" }, "colour")).toEqual({
      red: "sold-out",
      blue: "available",
      green: "unavailable",
    });
  });
  it("knows no states for an option the product doesn't have", () => {
    expect(valueStates(options, variants, {}, "material")).toEqual({});
  });
});

describe("defaultVariant and selectionOf", () => {
  it("starts on the first variant that sells", () => {
    const first = variant(["red", "s4"], { position: -1, stockCount: 0 });
    expect(defaultVariant([...variants, first])).toBe(redSmall);
    expect(selectionOf(options, redSmall)).toEqual({ colour: "red", size: "s4" });
  });
  it("falls back to the first active variant, then the first", () => {
    const a = variant([], { position: 1, isActive: false });
    const b = variant([], { position: 2, inStock: false });
    expect(defaultVariant([b, a])).toBe(b);
    expect(defaultVariant([a])).toBe(a);
    expect(defaultVariant([])).toBeNull();
  });
});

describe("fromPrice", () => {
  it("is the lowest active price and says whether prices differ", () => {
    expect(fromPrice(variants)).toEqual({ pricePaise: 44_900, varies: true });
    expect(fromPrice([redSmall])).toEqual({ pricePaise: 49_900, varies: false });
    // An inactive cheaper variant doesn't count.
    expect(fromPrice([redSmall, { pricePaise: 100, isActive: false }])).toEqual({
      pricePaise: 49_900,
      varies: false,
    });
    expect(fromPrice([])).toEqual({ pricePaise: 0, varies: false });
  });
});

describe("option labels", () => {
  it("names each value with its option, in the options' order", () => {
    const picked = orderedOptions([size, colour], redBig);
    expect(picked).toEqual([
      { name: "Colour", value: "Red" },
      { name: "Size", value: "7 cm" },
    ]);
    expect(optionLabel(picked)).toBe("Colour: Red · Size: 7 cm");
  });
  it("names a line with its options, and a default variant's line as it always was", () => {
    expect(lineName("Kiko", [{ name: "Size", value: "4 cm" }])).toBe("Kiko (Size: 4 cm)");
    expect(lineName("Lotus Tealight Holder", [])).toBe("Lotus Tealight Holder");
  });
  it("is empty for a default variant", () => {
    expect(orderedOptions([], variant([]))).toEqual([]);
    expect(optionLabel([])).toBe("");
    expect(optionLabel(null)).toBe("");
  });
});

describe("productSummary", () => {
  it("copies a product's one default variant as it is", () => {
    const only = variant([], { pricePaise: 34_900, originalPricePaise: 39_900, stockCount: 0 });
    expect(productSummary([only], false)).toEqual({
      pricePaise: 34_900,
      originalPricePaise: 39_900,
      stockCount: 0,
      inStock: true,
    });
  });
  it("keeps the lowest active price, the counted units and whether any variant sells", () => {
    expect(productSummary([redSmall, redBig, greenSmall], true)).toEqual({
      pricePaise: 44_900,
      originalPricePaise: null,
      stockCount: 3,
      inStock: true,
    });
    // One active variant not counted: the product's count isn't either.
    expect(productSummary(variants, true)?.stockCount).toBeNull();
    expect(productSummary([redBig], true)?.inStock).toBe(false);
  });
  it("shows a product whose variants are all inactive as out of stock", () => {
    expect(productSummary([blueSmall], true)).toEqual({
      pricePaise: 49_900,
      originalPricePaise: null,
      stockCount: 0,
      inStock: false,
    });
    expect(productSummary([], true)).toBeNull();
  });
});
