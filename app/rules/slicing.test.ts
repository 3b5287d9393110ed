import { describe, expect, it } from "vitest";
import { defaultQuoteOptions, defaultQuoteRates, priceQuote } from "./quote-pricing.ts";
import { sliceFigures, slicerPriceOutcome, slicingText } from "./slicing.ts";

const cube20 = {
  volume: 8000,
  area: 2400,
  size: { x: 20, y: 20, z: 20 },
  watertight: true,
};

describe("the slicer's price against the instant one", () => {
  const at = (slicedUnitPaise: number, state = "in-cart" as const) =>
    slicerPriceOutcome({ instantUnitPaise: 100_000, slicedUnitPaise, tolerancePercent: 10, state });

  it("replaces the price only beyond the tolerance, up or down", () => {
    expect(at(110_000)).toBe("within-tolerance");
    expect(at(90_000)).toBe("within-tolerance");
    expect(at(110_001)).toBe("updated");
    expect(at(89_999)).toBe("updated");
    expect(
      slicerPriceOutcome({
        instantUnitPaise: 100_000,
        slicedUnitPaise: 100_001,
        tolerancePercent: 0,
        state: "in-cart",
      }),
    ).toBe("updated");
  });

  it("never changes a price once paid, waiting for payment, priced by staff or out of the cart", () => {
    for (const state of ["paid", "awaiting-payment", "staff-priced", "not-in-cart"] as const) {
      expect(
        slicerPriceOutcome({
          instantUnitPaise: 100_000,
          slicedUnitPaise: 300_000,
          tolerancePercent: 10,
          state,
        }),
      ).toBe(state);
    }
  });
});

describe("pricing from the slicer's figures", () => {
  const options = { ...defaultQuoteOptions(defaultQuoteRates), quantity: 1 };

  it("uses its grams, support and time in place of the estimate, the rest unchanged", () => {
    const instant = priceQuote(cube20, options, defaultQuoteRates).breakdown;
    const sliced = priceQuote(cube20, options, defaultQuoteRates, {
      grams: 400,
      supportGrams: 30,
      printMinutes: 600,
    }).breakdown;
    expect(sliced.grams).toBe(400);
    expect(sliced.supportGrams).toBe(30);
    expect(sliced.printHours).toBe(10);
    const pla = defaultQuoteRates.materials[0];
    expect(sliced.materialPaise).toBe(Math.round(400 * pla.pricePerGramPaise));
    expect(sliced.machinePaise).toBe(Math.round(10 * defaultQuoteRates.hourlyRatePaise));
    expect(sliced.setupPaise).toBe(instant.setupPaise);
    expect(sliced.unitPricePaise).toBeGreaterThan(instant.unitPricePaise);
  });

  it("keeps the engine's support figure when the slicer can't tell", () => {
    const t = { ...cube20, printability: { supportVolume: 1000, walls: [], wallArea: 0 } };
    const instant = priceQuote(t, options, defaultQuoteRates).breakdown;
    const sliced = priceQuote(t, options, defaultQuoteRates, {
      grams: 9,
      supportGrams: null,
      printMinutes: 30,
    }).breakdown;
    expect(sliced.supportGrams).toBeCloseTo(instant.supportGrams, 9);
    expect(sliced.supportGrams).toBeGreaterThan(0);
  });
});

describe("the figures staff see", () => {
  it("sets the instant figures beside the slicer's", () => {
    const figures = sliceFigures({
      key: "k",
      status: "done",
      instant: { grams: 4.1, supportGrams: 0, printMinutes: 20, unitPricePaise: 50_000 },
      grams: 4.66,
      supportGrams: null,
      printMinutes: 82.5,
      slicedUnitPricePaise: 61_000,
      outcome: "updated",
    })!;
    expect(figures.status).toBe(slicingText.outcome.updated);
    expect(figures.rows.map((r) => [r.label, r.instant, r.sliced])).toEqual([
      ["Material", "4.1 g", "4.7 g"],
      ["Support", "0 g", "not reported"],
      ["Print time", "20 min", "1 h 23 min"],
      ["Price per piece", "₹500.00", "₹610.00"],
    ]);
    expect(sliceFigures(null)).toBeNull();
  });

  it("says why the estimate stands after a failure", () => {
    const figures = sliceFigures({
      key: "k",
      status: "failed",
      instant: { grams: 4, supportGrams: 0, printMinutes: 20, unitPricePaise: 50_000 },
      error: "slicing took longer than 120 s",
    })!;
    expect(figures.status).toMatch(/instant estimate stands \(slicing took longer than 120 s\)/);
    expect(figures.rows.every((r) => r.sliced === null)).toBe(true);
  });
});
