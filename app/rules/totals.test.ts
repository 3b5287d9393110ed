import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_TOTALS_SETTINGS, orderTotals } from "./totals.ts";

describe("order totals", () => {
  it("charges ₹9.99 shipping and 8% tax by default", () => {
    expect(orderTotals(100_000, DEFAULT_TOTALS_SETTINGS)).toEqual({
      subtotalPaise: 100_000,
      shippingPaise: 999,
      taxPaise: 8_000,
      discountPaise: 0,
      totalPaise: 108_999,
    });
  });

  it("rounds tax to the nearest paisa", () => {
    // 8% of ₹3.49 is 27.92 paise.
    expect(orderTotals(349, DEFAULT_TOTALS_SETTINGS).taxPaise).toBe(28);
    // 8% of 6.25 paise is 0.5: half rounds up.
    expect(orderTotals(625, { ...DEFAULT_TOTALS_SETTINGS, taxRateBasisPoints: 8 }).taxPaise).toBe(
      1,
    );
  });

  it("charges nothing for an empty cart", () => {
    expect(orderTotals(0, DEFAULT_TOTALS_SETTINGS).totalPaise).toBe(0);
  });

  it("applies free shipping only when the shop sets a threshold", () => {
    const settings = { ...DEFAULT_TOTALS_SETTINGS, freeShippingThresholdPaise: 50_000 };
    expect(orderTotals(49_999, settings).shippingPaise).toBe(999);
    expect(orderTotals(50_000, settings).shippingPaise).toBe(0);
    expect(orderTotals(5_000_000, DEFAULT_TOTALS_SETTINGS).shippingPaise).toBe(999);
  });

  it("property: total = subtotal + shipping + tax − discount, all integers", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (subtotal, bp) => {
          const t = orderTotals(subtotal, { ...DEFAULT_TOTALS_SETTINGS, taxRateBasisPoints: bp });
          expect(t.totalPaise).toBe(
            t.subtotalPaise + t.shippingPaise + t.taxPaise - t.discountPaise,
          );
          for (const v of Object.values(t)) expect(Number.isInteger(v)).toBe(true);
        },
      ),
    );
  });
});
