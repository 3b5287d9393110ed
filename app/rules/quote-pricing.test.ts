import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  customPartName,
  defaultQuoteOptions,
  defaultQuoteRates,
  discountPercentFor,
  duplicateTierText,
  priceQuote,
  printersThatFit,
  type QuoteOptions,
  type QuoteRates,
  quoteOptionsSchema,
  quoteRatesSchema,
  type RawGeometry,
  ratesProblemText,
  staffFindings,
  typedRupeesToPaise,
} from "./quote-pricing.ts";

const cube = (side: number, watertight = true): RawGeometry => ({
  volume: side ** 3,
  area: 6 * side ** 2,
  size: { x: side, y: side, z: side },
  watertight,
});

const rates: QuoteRates = {
  ...defaultQuoteRates,
  materials: [
    {
      id: "pla",
      name: "PLA",
      density: 1.25,
      pricePerGramPaise: 400,
      flowRate: 10,
      colours: ["Black", "White"],
      enabled: true,
      minWallMm: 0.8,
    },
    {
      id: "resin",
      name: "Resin",
      density: 1.1,
      pricePerGramPaise: 900,
      flowRate: 5,
      colours: ["Grey"],
      enabled: false,
      minWallMm: 0.8,
    },
  ],
  setupFeePaise: 10_000,
  hourlyRatePaise: 7_200,
  minimumPaise: 50_000,
  wallThicknessMm: 1,
  layerChangeSeconds: 2,
  discountTiers: [
    { minQuantity: 10, percent: 10 },
    { minQuantity: 50, percent: 20 },
  ],
  printers: [{ name: "P1", x: 250, y: 250, z: 300, count: 1 }],
};

const options = (o: Partial<QuoteOptions> = {}): QuoteOptions => ({
  materialId: "pla",
  colour: "Black",
  infillPercent: 20,
  layerHeight: 0.2,
  quantity: 1,
  unit: "mm",
  scalePercent: 100,
  ...o,
});

describe("priceQuote", () => {
  it("Express adds the rates' surcharge on the discounted piece price; Standard adds nothing", () => {
    const standard = priceQuote(cube(100), options({ quantity: 10 }), rates).breakdown;
    const express = priceQuote(cube(100), options({ quantity: 10, speed: "express" }), {
      ...rates,
      expressPercent: 40,
    }).breakdown;
    expect(standard.speed).toBe("standard");
    expect(standard.expressPaise).toBe(0);
    expect(express.speed).toBe("express");
    expect(express.unitPricePaise).toBe(Math.round(standard.unitPricePaise * 1.4));
    expect(express.expressPaise).toBe(express.unitPricePaise - standard.unitPricePaise);
    expect(express.totalPaise).toBe(express.unitPricePaise * 10);
    // A quote priced before Express (no speed kept) is Standard.
    expect(quoteOptionsSchema.parse({ ...options() }).speed).toBe("standard");
    expect(quoteOptionsSchema.safeParse({ ...options(), speed: "turbo" }).success).toBe(false);
    // Rates saved before Express parse with its defaults.
    const { expressPercent: _e, ...old } = defaultQuoteRates;
    expect(quoteRatesSchema.parse(old)).toMatchObject({ expressPercent: 40 });
    expect(customPartName("gear.stl", "PLA", "Black", "express")).toBe(
      "Custom print: gear (PLA, Black, Express)",
    );
  });

  it("follows the formula: shell + infilled interior, flow time, setup, max with the minimum", () => {
    // 100 mm cube: area 60,000 mm² × 1 mm wall = 60,000 mm³ shell; interior 940,000 × 20 %.
    const { breakdown, problems } = priceQuote(cube(100), options(), rates);
    expect(problems).toEqual([]);
    const extruded = 60_000 + 940_000 * 0.2;
    expect(breakdown.grams).toBeCloseTo((extruded / 1000) * 1.25, 6);
    const seconds = extruded / 10 + Math.ceil(100 / 0.2) * 2;
    expect(breakdown.printHours).toBeCloseTo(seconds / 3600, 9);
    expect(breakdown.materialPaise).toBe(Math.round(breakdown.grams * 400));
    expect(breakdown.machinePaise).toBe(Math.round((seconds / 3600) * 7_200));
    expect(breakdown.basePaise).toBe(10_000 + breakdown.materialPaise + breakdown.machinePaise);
    expect(breakdown.minimumApplied).toBe(false);
    expect(breakdown.unitPricePaise).toBe(breakdown.basePaise);
    expect(breakdown.totalPaise).toBe(breakdown.unitPricePaise);
  });

  it("charges the minimum per piece for a small part", () => {
    const { breakdown } = priceQuote(cube(10), options(), rates);
    expect(breakdown.basePaise).toBeLessThan(50_000);
    expect(breakdown.minimumApplied).toBe(true);
    expect(breakdown.unitPricePaise).toBe(50_000);
  });

  it("a thin part is all shell: the shell never exceeds the volume", () => {
    const plate: RawGeometry = {
      volume: 100 * 100 * 1,
      area: 2 * 100 * 100 + 4 * 100,
      size: { x: 100, y: 100, z: 1 },
      watertight: true,
    };
    const { breakdown } = priceQuote(plate, options({ infillPercent: 100 }), rates);
    const { breakdown: sparse } = priceQuote(plate, options({ infillPercent: 5 }), rates);
    expect(breakdown.grams).toBeCloseTo(10 * 1.25, 9);
    expect(sparse.grams).toBeCloseTo(breakdown.grams, 9);
  });

  it("gives the volume discount from 10 pieces, the higher tier from 50", () => {
    const one = priceQuote(cube(100), options(), rates).breakdown;
    const ten = priceQuote(cube(100), options({ quantity: 10 }), rates).breakdown;
    const fifty = priceQuote(cube(100), options({ quantity: 50 }), rates).breakdown;
    expect(ten.discountPercent).toBe(10);
    expect(ten.unitPricePaise).toBe(Math.round(one.unitPricePaise * 0.9));
    expect(ten.totalPaise).toBe(ten.unitPricePaise * 10);
    expect(fifty.discountPercent).toBe(20);
    expect(discountPercentFor(9, rates.discountTiers)).toBe(0);
  });

  it("applies units and scale to size, volume (k³) and area (k²)", () => {
    const inch = priceQuote(cube(1), options({ unit: "inch" }), rates).breakdown;
    expect(inch.size.x).toBeCloseTo(25.4, 9);
    expect(inch.volumeMm3).toBeCloseTo(16_387.064, 6);
    const half = priceQuote(cube(10), options({ unit: "cm", scalePercent: 50 }), rates).breakdown;
    expect(half.volumeMm3).toBeCloseTo(50 ** 3, 6);
    expect(half.areaMm2).toBeCloseTo(6 * 50 ** 2, 6);
  });

  it("reports what stops an instant order", () => {
    expect(priceQuote(cube(10, false), options(), rates).problems).toContain("not-watertight");
    expect(priceQuote(cube(290), options(), rates).problems).toContain("too-large");
    expect(priceQuote(cube(10), options({ materialId: "resin" }), rates).problems).toContain(
      "material-unavailable",
    );
    expect(priceQuote(cube(10), options({ colour: "Pink" }), rates).problems).toContain(
      "colour-unavailable",
    );
    expect(priceQuote({ ...cube(10), volume: 0 }, options(), rates).problems).toContain("empty");
  });

  it("property: the price never falls below the minimum and grows with the part", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 200, noNaN: true }),
        fc.double({ min: 1.01, max: 3, noNaN: true }),
        fc.integer({ min: 5, max: 100 }),
        (side, k, infill) => {
          const small = priceQuote(cube(side), options({ infillPercent: infill }), rates);
          const big = priceQuote(cube(side * k), options({ infillPercent: infill }), rates);
          expect(small.breakdown.unitPricePaise).toBeGreaterThanOrEqual(rates.minimumPaise);
          expect(big.breakdown.grams).toBeGreaterThan(small.breakdown.grams);
          expect(big.breakdown.unitPricePaise).toBeGreaterThanOrEqual(
            small.breakdown.unitPricePaise,
          );
          expect(Number.isInteger(big.breakdown.totalPaise)).toBe(true);
        },
      ),
    );
  });
});

describe("printersThatFit", () => {
  const printers = [
    { name: "Small", x: 256, y: 256, z: 256 },
    { name: "Tall", x: 350, y: 350, z: 320 },
  ];
  it("a part fits when some axis-aligned rotation fits", () => {
    expect(printersThatFit({ x: 300, y: 20, z: 20 }, printers)).toEqual(["Tall"]);
    expect(printersThatFit({ x: 200, y: 20, z: 300 }, printers)).toEqual(["Tall"]);
    expect(printersThatFit({ x: 10, y: 10, z: 10 }, printers)).toEqual(["Small", "Tall"]);
    expect(printersThatFit({ x: 400, y: 10, z: 10 }, printers)).toEqual([]);
  });
});

describe("schemas", () => {
  it("the default rates are valid and default options pick an enabled material", () => {
    expect(quoteRatesSchema.parse(defaultQuoteRates)).toEqual(defaultQuoteRates);
    const o = defaultQuoteOptions(rates);
    expect(o.materialId).toBe("pla");
    expect(quoteOptionsSchema.parse(o)).toEqual(o);
  });
  it("rates must offer at least one material, each with its own code", () => {
    const off = defaultQuoteRates.materials.map((m) => ({ ...m, enabled: false }));
    const none = quoteRatesSchema.safeParse({ ...defaultQuoteRates, materials: off });
    expect(none.error?.issues[0].message).toBe("Offer at least one material");
    const twice = [defaultQuoteRates.materials[0], defaultQuoteRates.materials[0]];
    const dup = quoteRatesSchema.safeParse({ ...defaultQuoteRates, materials: twice });
    expect(dup.error?.issues[0].message).toBe("Each material needs its own code");
  });
  it("printers have their own names and counts; the shop's old printer count becomes the counts", () => {
    const same = defaultQuoteRates.printers.map((p) => ({ ...p, name: "X1" }));
    const dup = quoteRatesSchema.safeParse({ ...defaultQuoteRates, printers: same });
    expect(ratesProblemText(dup.error!)).toBe("Printer: Give each printer its own name.");
    const zero = defaultQuoteRates.printers.map((p) => ({ ...p, count: 0 }));
    expect(
      ratesProblemText(quoteRatesSchema.safeParse({ ...defaultQuoteRates, printers: zero }).error!),
    ).toBe("Printer 1, how many: at least 1. Printer 2, how many: at least 1.");
    // Saved with one count for the shop (5 printers, 2 kinds listed): 4 + 1, the same capacity.
    const legacyPrinters = defaultQuoteRates.printers.map(({ count: _c, ...p }) => p);
    const legacy = quoteRatesSchema.parse({
      ...defaultQuoteRates,
      printers: legacyPrinters,
      printerCount: 5,
    });
    expect(legacy.printers.map((p) => p.count)).toEqual([4, 1]);
    expect("printerCount" in legacy).toBe(false);
    // Fewer than listed, or never set: one of each.
    expect(
      quoteRatesSchema
        .parse({ ...defaultQuoteRates, printers: legacyPrinters, printerCount: 1 })
        .printers.map((p) => p.count),
    ).toEqual([1, 1]);
    expect(
      quoteRatesSchema
        .parse({ ...defaultQuoteRates, printers: legacyPrinters })
        .printers.map((p) => p.count),
    ).toEqual([1, 1]);
    // Two alike under one name, from before names had to differ: told apart, not refused (the
    // rates would otherwise fall back to the defaults).
    const twins = quoteRatesSchema.parse({
      ...defaultQuoteRates,
      printers: legacyPrinters.map((p) => ({ ...p, name: "Prusa MK4" })),
      printerCount: 3,
    });
    expect(twins.printers.map((p) => [p.name, p.count])).toEqual([
      ["Prusa MK4", 2],
      ["Prusa MK4 (2)", 1],
    ]);
    expect(
      quoteRatesSchema
        .parse({ ...defaultQuoteRates, printers: legacyPrinters.map((p) => ({ ...p, name: "A" })) })
        .printers.map((p) => p.name),
    ).toEqual(["A", "A (2)"]);
    // Counts already kept win over a stale printer count.
    expect(
      quoteRatesSchema
        .parse({ ...defaultQuoteRates, printerCount: 9 })
        .printers.map((p) => p.count),
    ).toEqual([1, 1]);
  });

  it("says what is wrong with rates in the settings page's words", () => {
    const problems = (over: Record<string, unknown>) => {
      const r = quoteRatesSchema.safeParse({ ...defaultQuoteRates, ...over });
      if (r.success) throw new Error("expected a problem");
      return ratesProblemText(r.error);
    };
    expect(problems({ setupFeePaise: null })).toBe("Setup fee: enter a number.");
    expect(problems({ minimumPaise: -500 })).toBe("Minimum price: at least ₹0.");
    expect(problems({ discountTiers: [{ minQuantity: 10, percent: 95 }] })).toBe(
      "Volume discount 1, discount: at most 90.",
    );
    const material = { ...defaultQuoteRates.materials[0], density: 50 };
    expect(problems({ materials: [material] })).toBe("Material 1, density: at most 10.");
    expect(problems({ holdDays: Number.NaN, wallThicknessMm: 50 })).toBe(
      "Wall thickness: at most 10. Price held for: enter a number.",
    );
    expect(problems({ holdDays: Number.NaN, wallThicknessMm: 50 })).not.toMatch(/Paise|›|expected/);
    expect(problems({ holdDays: 1.5 })).toBe("Price held for: enter a whole number.");
    const printer = { ...defaultQuoteRates.printers[0], x: 0 };
    expect(problems({ printers: [printer] })).toBe("Printer 1, X: more than 0.");
    const badCode = { ...defaultQuoteRates.materials[0], id: "PLA!" };
    expect(problems({ materials: [badCode] })).toBe(
      "Material 1, code: Use 2–24 lower-case letters, digits or dashes.",
    );
  });
  it("a negative amount typed on the settings page is told it must be ₹0 or more", () => {
    expect(typedRupeesToPaise("150")).toBe(15_000);
    expect(typedRupeesToPaise(" 2.50 ")).toBe(250);
    expect(typedRupeesToPaise("-10")).toBe(-1000);
    for (const typed of ["", "ten", "1e3", "₹10", "10.555"]) {
      expect(typedRupeesToPaise(typed), typed).toBeNaN();
    }
    const text = (minimum: string) => {
      const r = quoteRatesSchema.safeParse({
        ...defaultQuoteRates,
        minimumPaise: typedRupeesToPaise(minimum),
      });
      return r.success ? null : ratesProblemText(r.error);
    };
    // -10 was once "Minimum price: enter a number.", as if it were not one.
    expect(text("-10")).toBe("Minimum price: at least ₹0.");
    expect(text("ten")).toBe("Minimum price: enter a number.");
    expect(text("0")).toBeNull();
  });
  it("refuses two volume discounts from the same quantity", () => {
    expect(
      duplicateTierText([
        { minQuantity: 10, percent: 12 },
        { minQuantity: 10, percent: 15 },
      ]),
    ).toBe("Two volume discounts start at 10 pieces: keep one.");
    expect(duplicateTierText(defaultQuoteRates.discountTiers)).toBeNull();
  });
  it("an order too large for an instant price goes to staff", () => {
    const huge = priceQuote(cube(240), options({ infillPercent: 100, quantity: 99 }), {
      ...rates,
      materials: [{ ...rates.materials[0], pricePerGramPaise: 1_000_000 }],
    });
    expect(huge.problems).toContain("too-expensive");
  });
  it("refuses options outside their ranges with the customer's words", () => {
    const bad = quoteOptionsSchema.safeParse({ ...options(), infillPercent: 150, quantity: 0 });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message);
    expect(messages).toContain("Infill must be between 5% and 100%");
    expect(messages).toContain("Quantity must be at least 1");
    expect(quoteOptionsSchema.safeParse({ ...options(), layerHeight: 0.3 }).success).toBe(false);
  });
  it("names a custom part by file, material and colour", () => {
    expect(customPartName("bracket.v2.stl", "PLA", "Black")).toBe(
      "Custom print: bracket.v2 (PLA, Black)",
    );
  });
});

describe("what staff read about a part's walls", () => {
  // A 20 × 0.4 × 10 mm fin: its two large faces are 0.4 mm apart, printed lying flat.
  const fin: RawGeometry & { printability: { down: { z: number }; overhangArea: number } } = {
    volume: 20 * 0.4 * 10,
    area: 2 * (20 * 0.4 + 20 * 10 + 0.4 * 10),
    size: { x: 20, y: 0.4, z: 10 },
    watertight: true,
    printability: {
      supportVolume: 0,
      walls: [[0.4, 400]],
      wallArea: 2 * (20 * 0.4 + 20 * 10 + 0.4 * 10),
      down: { z: 0 },
      overhangArea: 0,
    },
  };
  const pla = (scalePercent: number) => ({
    ...defaultQuoteOptions(defaultQuoteRates),
    scalePercent,
  });

  it("a wall too thin, one printable but close to the material's minimum, and one well clear", () => {
    expect(staffFindings(fin, pla(100), defaultQuoteRates)[0]).toBe(
      "Walls as thin as 0.4 mm (PLA needs 0.8 mm)",
    );
    // Scaled to 200 % it passes at exactly 0.8 mm: staff still see how thin it is.
    expect(staffFindings(fin, pla(200), defaultQuoteRates)[0]).toBe(
      "Walls near the minimum: 0.8 mm at the thinnest (PLA needs 0.8 mm)",
    );
    expect(staffFindings(fin, pla(400), defaultQuoteRates)).toEqual([
      "Printed turned onto its largest flat face",
    ]);
  });
});
