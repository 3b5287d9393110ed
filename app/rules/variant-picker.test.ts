import { describe, expect, it } from "vitest";
import {
  isColourOption,
  linePath,
  schemaPropertyOf,
  selectionFor,
  shownVariant,
  variantAfterPick,
  variantStock,
} from "./variant-picker.ts";
import type { ProductOption, Variant } from "./variants.ts";

const colour: ProductOption = {
  id: "colour",
  name: "Colour",
  position: 0,
  values: [
    { id: "red", value: "Red", position: 0, swatch: "#cc2222" },
    { id: "blue", value: "Blue", position: 1, swatch: "#2244cc" },
    { id: "green", value: "Green", position: 2, swatch: "#22aa44" },
    { id: "black", value: "Black", position: 3, swatch: "#111111" },
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
const redBig = variant(["red", "s7"], { stockCount: 0, inStock: false });
const blueSmall = variant(["blue", "s4"], { isActive: false });
const blueBig = variant(["blue", "s7"]);
const greenSmall = variant(["green", "s4"], { stockCount: 0, inStock: false });
const greenBig = variant(["green", "s7"]);
const blackSmall = variant(["black", "s4"], { isActive: false });
const variants = [redSmall, redBig, blueSmall, blueBig, greenSmall, greenBig, blackSmall];

describe("shownVariant", () => {
  it("shows the variant the URL names when it is the product's", () => {
    expect(shownVariant(variants, redBig.id)).toEqual({ variant: redBig, named: true });
    expect(shownVariant(variants, blueSmall.id)).toEqual({ variant: blueSmall, named: true });
  });

  it("shows the default variant for no id or another product's", () => {
    expect(shownVariant(variants, null)).toEqual({ variant: redSmall, named: false });
    expect(shownVariant(variants, "elsewhere")).toEqual({ variant: redSmall, named: false });
    expect(shownVariant([], "x")).toEqual({ variant: null, named: false });
  });
});

describe("variantAfterPick", () => {
  const at = (v: Variant) => selectionFor(options, v);

  it("leads to the chosen combination, even sold out", () => {
    expect(variantAfterPick(options, variants, at(redSmall), "size", "s7")).toBe(redBig);
    expect(variantAfterPick(options, variants, at(redBig), "colour", "blue")).toBe(blueBig);
    expect(variantAfterPick(options, variants, at(redSmall), "colour", "green")).toBe(greenSmall);
  });

  it("keeps the other values where it can when the combination doesn't exist", () => {
    // Blue 4 cm is inactive: blue's other size.
    expect(variantAfterPick(options, variants, at(redSmall), "colour", "blue")).toBe(blueBig);
  });

  it("prefers a sellable variant among those keeping as many values", () => {
    const sizeOnly = [size];
    const a = variant(["s4"], { stockCount: 0, inStock: false });
    const b = variant(["s7"]);
    expect(variantAfterPick(sizeOnly, [a, b], {}, "size", "s4")).toBe(a);
    const c1 = variant(["green", "s7"], { stockCount: 0, inStock: false });
    const c2 = variant(["green", "s4"]);
    // Green 7 cm exists but is sold out: still the exact combination, not green 4 cm.
    expect(variantAfterPick(options, [c1, c2], at(blueBig), "colour", "green")).toBe(c1);
  });

  it("has nothing for a value no active variant has", () => {
    expect(variantAfterPick(options, variants, at(redSmall), "colour", "black")).toBeNull();
  });
});

describe("variantStock", () => {
  it("is inactive when the product or the variant is", () => {
    expect(variantStock({ isActive: false }, redSmall).isActive).toBe(false);
    expect(variantStock({ isActive: true }, blueSmall).isActive).toBe(false);
    expect(variantStock({ isActive: true }, redBig)).toEqual({
      isActive: true,
      inStock: false,
      stockCount: 0,
    });
  });
});

describe("option kinds", () => {
  it("shows swatches for a colour option, by name or by its swatches", () => {
    expect(isColourOption(colour)).toBe(true);
    expect(isColourOption({ name: "Color", values: [] })).toBe(true);
    expect(isColourOption({ name: "Finish", values: colour.values })).toBe(true);
    expect(isColourOption(size)).toBe(false);
  });

  it("names the schema.org property of colours, sizes and materials only", () => {
    expect(schemaPropertyOf("Colour")).toBe("color");
    expect(schemaPropertyOf(" color ")).toBe("color");
    expect(schemaPropertyOf("Size")).toBe("size");
    expect(schemaPropertyOf("Material")).toBe("material");
    expect(schemaPropertyOf("Finish")).toBeNull();
  });
});

describe("where a cart line or an ordered item links", () => {
  it("opens a variant of a product with options on that variant", () => {
    const options = [{ name: "Colour", value: "Red" }];
    expect(linePath({ productId: "p1", variantId: "v1", options })).toBe("/product/p1?variant=v1");
    // An ordered item carries its options as their label.
    expect(linePath({ productId: "p1", variantId: "v1", options: "Colour: Red" })).toBe(
      "/product/p1?variant=v1",
    );
  });

  it("opens the product page for a product without options, as before", () => {
    expect(linePath({ productId: "p1", variantId: "v1", options: [] })).toBe("/product/p1");
    expect(linePath({ productId: "p1", variantId: "v1", options: "" })).toBe("/product/p1");
    expect(linePath({ productId: "p1" })).toBe("/product/p1");
    expect(linePath({ productId: "p1", variantId: null, options: "Colour: Red" })).toBe(
      "/product/p1",
    );
  });
});
