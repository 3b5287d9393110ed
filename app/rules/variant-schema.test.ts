import { describe, expect, it } from "vitest";
import {
  combinations,
  matchCombinations,
  pathErrors,
  productOptionsSchema,
  variantRowsSchema,
  variantText,
} from "./variant-schema.ts";

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("productOptionsSchema", () => {
  it("takes up to three options with trimmed, distinct values and lower-case swatches", () => {
    const parsed = productOptionsSchema.parse([
      {
        name: " Colour ",
        values: [
          { value: "Red", swatch: "#E11D48" },
          { value: " Deep  blue ", swatch: "" },
        ],
      },
      { name: "Size", values: [{ value: "4 cm" }] },
    ]);
    expect(parsed[0].name).toBe("Colour");
    expect(parsed[0].values).toEqual([
      { value: "Red", swatch: "#e11d48" },
      { value: "Deep blue", swatch: null },
    ]);
    expect(parsed[1].values[0].swatch).toBeNull();
  });

  it("refuses a fourth option, an unnamed one, repeated names and values, empty lists", () => {
    const four = productOptionsSchema.safeParse(
      ["A", "B", "C", "D"].map((name) => ({ name, values: [{ value: "x" }] })),
    );
    expect(four.success).toBe(false);
    expect(four.error?.issues[0].message).toBe(variantText.tooManyOptions);

    const bad = productOptionsSchema.safeParse([
      { name: "Colour", values: [{ value: "Red" }, { value: "red" }] },
      { name: "colour", values: [{ value: "x" }] },
      { name: " ", values: [] },
    ]);
    expect(bad.success).toBe(false);
    const errors = pathErrors("options", bad.error!);
    expect(errors["options.0.values.1.value"]).toBe(variantText.valueTwice("red", "Colour"));
    expect(errors["options.1.name"]).toBe(variantText.optionNameTaken);
    expect(errors["options.2.name"]).toBe(variantText.optionName);
    expect(errors["options.2.values"]).toBe(variantText.noValues);
  });

  it("refuses a swatch that is not #rrggbb and more than 100 combinations", () => {
    const swatch = productOptionsSchema.safeParse([
      { name: "Colour", values: [{ value: "Red", swatch: "red" }] },
    ]);
    expect(swatch.error?.issues[0].message).toBe(variantText.swatch);
    const many = productOptionsSchema.safeParse(
      ["A", "B"].map((name) => ({
        name,
        values: Array.from({ length: 11 }, (_, i) => ({ value: `v${i}` })),
      })),
    );
    expect(many.error?.issues[0].message).toBe(variantText.tooManyVariants);
  });
});

describe("variantRowsSchema", () => {
  it("reads the table's cells: prices in rupees, blank clears, flags", () => {
    const [row] = variantRowsSchema.parse([
      {
        id: ID(1),
        sku: " DRG-RED-S ",
        price: "₹1,299.50",
        originalPrice: "",
        stockCount: "12",
        isActive: "false",
        image: "",
      },
    ]);
    expect(row).toEqual({
      id: ID(1),
      sku: "DRG-RED-S",
      price: 129_950,
      originalPrice: null,
      stockCount: 12,
      isActive: false,
      image: null,
    });
  });

  it("refuses a price under ₹1, an original price below the price, a SKU used twice", () => {
    const result = variantRowsSchema.safeParse([
      { id: ID(1), price: "0.99", sku: "A-1" },
      { id: ID(2), price: "500", originalPrice: "499", sku: "a-1" },
      { id: ID(3), stockCount: "-1", sku: "bad sku" },
    ]);
    expect(result.success).toBe(false);
    const errors = pathErrors("variants", result.error!);
    expect(errors["variants.0.price"]).toBe(variantText.price);
    expect(errors["variants.1.originalPrice"]).toBe(variantText.originalBelowPrice);
    expect(errors["variants.2.stockCount"]).toBe(variantText.stockCount);
    expect(errors["variants.2.sku"]).toBe(variantText.sku);
    // The list's own checks run once every row reads.
    const twice = variantRowsSchema.safeParse([
      { id: ID(1), sku: "A-1" },
      { id: ID(2), sku: "a-1" },
    ]);
    expect(pathErrors("variants", twice.error!)["variants.1.sku"]).toBe(
      variantText.skuTwice("a-1"),
    );
  });

  it("refuses an empty list, a row without an id and the same row twice", () => {
    expect(variantRowsSchema.safeParse([]).success).toBe(false);
    expect(variantRowsSchema.safeParse([{ price: "10" }]).success).toBe(false);
    expect(variantRowsSchema.safeParse([{ id: ID(1) }, { id: ID(1) }]).success).toBe(false);
  });
});

describe("combinations and matchCombinations", () => {
  it("lists every combination, the first option varying slowest", () => {
    expect(combinations([])).toEqual([[]]);
    expect(
      combinations([
        ["r", "b"],
        ["s", "m", "l"],
      ]),
    ).toEqual([
      ["r", "s"],
      ["r", "m"],
      ["r", "l"],
      ["b", "s"],
      ["b", "m"],
      ["b", "l"],
    ]);
  });

  it("the default variant becomes the first combination when options are added", () => {
    const place = matchCombinations(
      [{ id: "default", values: {} }],
      [{ id: "colour", valueIds: ["r", "b"] }],
    );
    expect(place).toEqual(new Map([["default", 0]]));
  });

  it("variants keep their combination when a value or an option is added", () => {
    const options = [
      { id: "colour", valueIds: ["g", "r", "b"] },
      { id: "size", valueIds: ["s"] },
    ];
    const place = matchCombinations(
      [
        { id: "red", values: { colour: "r" } },
        { id: "blue", values: { colour: "b" } },
      ],
      options,
    );
    expect(place.get("red")).toBe(1);
    expect(place.get("blue")).toBe(2);
  });

  it("a variant whose value was removed disappears; one of a removed option merges", () => {
    const place = matchCombinations(
      [
        { id: "red-s", values: { colour: "r", size: "s" } },
        { id: "red-m", values: { colour: "r", size: "m" } },
        { id: "blue-s", values: { colour: "b", size: "s" } },
      ],
      [{ id: "colour", valueIds: ["r"] }],
    );
    expect(place).toEqual(new Map([["red-s", 0]]));
  });
});
