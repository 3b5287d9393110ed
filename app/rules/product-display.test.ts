import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CartButtonState,
  cartButtonLabel,
  cartButtonState,
  featureRows,
  isPurchasable,
  percentOff,
  quantityLimit,
  type StockFields,
  stockLabel,
  summariseReviews,
} from "./product-display.ts";

describe("percentOff", () => {
  const off = (discount: number, pricePaise: number, originalPricePaise: number | null) =>
    percentOff({ discount, pricePaise, originalPricePaise });

  it("is the discount when positive, whatever the prices say", () => {
    expect(off(25, 89_900, 119_900)).toBe(25);
    expect(off(10, 1_000, null)).toBe(10);
    expect(off(10, 2_000, 1_000)).toBe(10);
  });

  it("keeps a discount within 0–100 and whole", () => {
    expect(off(140, 100, null)).toBe(100);
    expect(off(12.6, 100, null)).toBe(13);
  });

  it("is computed from the original price when the discount is 0 and the price is lower", () => {
    expect(off(0, 75_000, 100_000)).toBe(25);
    expect(off(0, 89_900, 119_900)).toBe(25); // 25.02 %
  });

  it("rounds the computed percent: 33.33 % → 33, 66.67 % → 67, 12.5 % → 13", () => {
    expect(off(0, 20_000, 30_000)).toBe(33);
    expect(off(0, 10_000, 30_000)).toBe(67);
    expect(off(0, 87_500, 100_000)).toBe(13);
  });

  it("a negative or fractional-below-half discount falls back to the computation", () => {
    expect(off(-5, 50, 100)).toBe(50);
    expect(off(0.4, 50, 100)).toBe(50);
    expect(off(Number.NaN, 50, 100)).toBe(50);
  });

  it("is 0 when the discount is 0 and the original price is lower than the price", () => {
    expect(off(0, 249_900, 199_900)).toBe(0);
  });

  it("is 0 when the prices are equal, the original price is missing, zero or not finite", () => {
    expect(off(0, 1_000, 1_000)).toBe(0);
    expect(off(0, 1_000, null)).toBe(0);
    expect(off(0, 0, 0)).toBe(0);
    expect(off(0, 1_000, Number.NaN)).toBe(0);
    expect(off(0, Number.NaN, 1_000)).toBe(0);
    expect(off(0, -100, 1_000)).toBe(0);
  });

  it("a tiny reduction rounds to 0; a free item with an original price is 100 % off", () => {
    expect(off(0, 99_900, 100_000)).toBe(0);
    expect(off(0, 0, 100_000)).toBe(100);
  });

  it("is always a whole number from 0 to 100", () => {
    fc.assert(
      fc.property(
        fc.double(),
        fc.double(),
        fc.option(fc.double(), { nil: null }),
        (discount, pricePaise, originalPricePaise) => {
          const r = percentOff({ discount, pricePaise, originalPricePaise });
          expect(Number.isInteger(r) && r >= 0 && r <= 100).toBe(true);
        },
      ),
    );
  });
});

const product = (over: Partial<StockFields> = {}): StockFields => ({
  inStock: true,
  isActive: true,
  stockCount: null,
  ...over,
});

describe("stockLabel and isPurchasable", () => {
  it("an active product in stock with untracked stock is In Stock and purchasable", () => {
    expect(stockLabel(product())).toBe("In Stock");
    expect(isPurchasable(product())).toBe(true);
  });

  it("a positive stock count is In Stock", () => {
    expect(stockLabel(product({ stockCount: 1 }))).toBe("In Stock");
    expect(isPurchasable(product({ stockCount: 5 }))).toBe(true);
  });

  it("stockCount 0 is Out of Stock even when inStock is true", () => {
    expect(stockLabel(product({ stockCount: 0 }))).toBe("Out of Stock");
    expect(isPurchasable(product({ stockCount: 0 }))).toBe(false);
  });

  it("a negative stock count is treated like 0", () => {
    expect(stockLabel(product({ stockCount: -1 }))).toBe("Out of Stock");
    expect(isPurchasable(product({ stockCount: -1 }))).toBe(false);
  });

  it("inStock false is Out of Stock even with units counted", () => {
    expect(stockLabel(product({ inStock: false }))).toBe("Out of Stock");
    expect(stockLabel(product({ inStock: false, stockCount: 10 }))).toBe("Out of Stock");
    expect(isPurchasable(product({ inStock: false, stockCount: 10 }))).toBe(false);
  });

  it("inactive wins over every stock state", () => {
    for (const inStock of [true, false]) {
      for (const stockCount of [null, 0, 3]) {
        const p = product({ isActive: false, inStock, stockCount });
        expect(stockLabel(p)).toBe("Inactive");
        expect(isPurchasable(p)).toBe(false);
      }
    }
  });

  it("purchasable exactly when the label is In Stock", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
        (inStock, isActive, stockCount) => {
          const p = { inStock, isActive, stockCount };
          expect(isPurchasable(p)).toBe(stockLabel(p) === "In Stock");
        },
      ),
    );
  });
});

describe("quantityLimit", () => {
  const p = (over: Partial<StockFields>): StockFields => ({
    inStock: true,
    isActive: true,
    stockCount: null,
    ...over,
  });
  it("is the units left, at most a line's maximum; none when the product can't be bought", () => {
    expect(quantityLimit(p({ stockCount: 1 }))).toBe(1);
    expect(quantityLimit(p({ stockCount: 40 }))).toBe(40);
    expect(quantityLimit(p({ stockCount: 500 }))).toBe(99);
    expect(quantityLimit(p({}))).toBe(99);
    expect(quantityLimit(p({ stockCount: 0 }))).toBe(0);
    expect(quantityLimit(p({ inStock: false }))).toBe(0);
    expect(quantityLimit(p({ isActive: false, stockCount: 5 }))).toBe(0);
  });
});

describe("cartButtonState", () => {
  it("is 'add' when purchasable, whether or not it is already in the cart", () => {
    expect(cartButtonState(product(), false)).toBe("add");
    expect(cartButtonState(product(), true)).toBe("add");
  });

  it("is 'in-cart' when unavailable but already in the cart", () => {
    expect(cartButtonState(product({ inStock: false }), true)).toBe("in-cart");
    expect(cartButtonState(product({ stockCount: 0 }), true)).toBe("in-cart");
    expect(cartButtonState(product({ isActive: false }), true)).toBe("in-cart");
  });

  it("is 'unavailable' when unavailable and not in the cart", () => {
    expect(cartButtonState(product({ inStock: false }), false)).toBe("unavailable");
    expect(cartButtonState(product({ stockCount: 0 }), false)).toBe("unavailable");
    expect(cartButtonState(product({ isActive: false }), false)).toBe("unavailable");
  });

  it("has the spec's label for every state", () => {
    expect(cartButtonLabel).toEqual({
      add: "Add to Cart",
      "in-cart": "In Cart • Proceed to Checkout",
      unavailable: "Unavailable",
    } satisfies Record<CartButtonState, string>);
    expect(cartButtonLabel[cartButtonState(product({ stockCount: 0 }), true)]).toBe(
      "In Cart • Proceed to Checkout",
    );
  });
});

describe("featureRows", () => {
  it("plain strings have no key", () => {
    expect(featureRows(["PLA+", "30 cm long"], null)).toEqual([
      { key: null, value: "PLA+" },
      { key: null, value: "30 cm long" },
    ]);
  });

  it("splits 'key: value' strings at the first colon and trims both sides", () => {
    expect(featureRows(["Capacity: 1 L", " Material :PETG ", "Time: 10:30 am"], null)).toEqual([
      { key: "Capacity", value: "1 L" },
      { key: "Material", value: "PETG" },
      { key: "Time", value: "10:30 am" },
    ]);
  });

  it("a string whose part before the colon is blank stays one plain row", () => {
    expect(featureRows([": 1 L", "  :x"], null)).toEqual([
      { key: null, value: ": 1 L" },
      { key: null, value: ":x" },
    ]);
  });

  it("drops blank strings and keyed rows whose value is blank", () => {
    expect(featureRows(["", "   ", "Colour:", "Size:   ", "PLA"], null)).toEqual([
      { key: null, value: "PLA" },
    ]);
  });

  it("adds the map's entries after the list, in order, trimmed", () => {
    expect(
      featureRows(["PLA+"], {
        Diameter: "15 cm",
        Power: " USB-C ",
        Empty: "  ",
        " Scale ": "28 mm",
      }),
    ).toEqual([
      { key: null, value: "PLA+" },
      { key: "Diameter", value: "15 cm" },
      { key: "Power", value: "USB-C" },
      { key: "Scale", value: "28 mm" },
    ]);
  });

  it("a map entry with a blank key is a plain row; non-text values are tolerated", () => {
    const kv = { " ": "Hand finished", Weight: 120, Bad: null } as unknown as Record<
      string,
      string
    >;
    expect(featureRows([], kv)).toEqual([
      { key: null, value: "Hand finished" },
      { key: "Weight", value: "120" },
    ]);
  });

  it("is empty with nothing to show", () => {
    expect(featureRows([], null)).toEqual([]);
    expect(featureRows([], {})).toEqual([]);
  });

  it("never yields a blank key or value", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string()),
        fc.option(fc.dictionary(fc.string(), fc.string()), { nil: null }),
        (features, kv) => {
          for (const row of featureRows(features, kv)) {
            expect(row.value.trim()).toBe(row.value);
            expect(row.value).not.toBe("");
            if (row.key !== null) {
              expect(row.key.trim()).toBe(row.key);
              expect(row.key).not.toBe("");
            }
          }
        },
      ),
    );
  });
});

describe("summariseReviews", () => {
  const noStored = null;
  const stats = (over: Partial<Parameters<typeof summariseReviews>[1] & object> = {}) => ({
    totalReviews: 0,
    ratingSum: 0,
    rating1: 0,
    rating2: 0,
    rating3: 0,
    rating4: 0,
    rating5: 0,
    ...over,
  });

  it("is all zeros without reviews", () => {
    const empty = {
      averageRating: 0,
      totalReviews: 0,
      ratingDistribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
    };
    expect(summariseReviews([], noStored)).toEqual(empty);
    expect(summariseReviews([], stats())).toEqual(empty);
  });

  it("summarises static reviews alone", () => {
    expect(summariseReviews([{ rating: 5 }, { rating: 4 }, { rating: 4 }], noStored)).toEqual({
      averageRating: 4.3, // 13 / 3
      totalReviews: 3,
      ratingDistribution: { 1: 0, 2: 0, 3: 0, 4: 2, 5: 1 },
    });
  });

  it("summarises stored stats alone", () => {
    expect(
      summariseReviews([], stats({ totalReviews: 4, ratingSum: 14, rating3: 2, rating4: 2 })),
    ).toEqual({
      averageRating: 3.5,
      totalReviews: 4,
      ratingDistribution: { 1: 0, 2: 0, 3: 2, 4: 2, 5: 0 },
    });
  });

  it("merges static reviews with stored stats", () => {
    const summary = summariseReviews(
      [{ rating: 5 }, { rating: 1 }],
      stats({ totalReviews: 3, ratingSum: 12, rating4: 3 }),
    );
    expect(summary).toEqual({
      averageRating: 3.6, // (6 + 12) / 5
      totalReviews: 5,
      ratingDistribution: { 1: 1, 2: 0, 3: 0, 4: 3, 5: 1 },
    });
  });

  it("rounds the average to one decimal", () => {
    expect(summariseReviews([{ rating: 5 }, { rating: 4 }], noStored).averageRating).toBe(4.5);
    expect(
      summariseReviews(
        [{ rating: 4 }, { rating: 4 }, { rating: 5 }, { rating: 5 }, { rating: 5 }, { rating: 5 }],
        noStored,
      ).averageRating,
    ).toBe(4.7); // 4.666…
    expect(
      summariseReviews([], stats({ totalReviews: 3, ratingSum: 10, rating3: 2, rating4: 1 }))
        .averageRating,
    ).toBe(3.3);
  });

  it("rounds and clamps static ratings to 1–5 for the distribution", () => {
    const summary = summariseReviews(
      [
        { rating: 4.5 },
        { rating: 4.4 },
        { rating: 0 },
        { rating: 9 },
        { rating: -3 },
        { rating: 1.49 },
      ],
      noStored,
    );
    expect(summary.ratingDistribution).toEqual({ 1: 3, 2: 0, 3: 0, 4: 1, 5: 2 });
    expect(summary.totalReviews).toBe(6);
    // the average uses the clamped values: 4.5 + 4.4 + 1 + 5 + 1 + 1.49 = 17.39 → 2.898…
    expect(summary.averageRating).toBe(2.9);
  });

  it("ignores static reviews without a finite rating", () => {
    const bad = [{ rating: Number.NaN }, { rating: Number.POSITIVE_INFINITY }, {}, null] as Array<{
      rating: number;
    }>;
    expect(summariseReviews([...bad, { rating: 3 }], noStored)).toEqual({
      averageRating: 3,
      totalReviews: 1,
      ratingDistribution: { 1: 0, 2: 0, 3: 1, 4: 0, 5: 0 },
    });
  });

  it("treats negative or non-finite stored counters as 0", () => {
    expect(
      summariseReviews(
        [{ rating: 4 }],
        stats({
          totalReviews: -2,
          ratingSum: Number.NaN,
          rating1: -1,
          rating5: Number.POSITIVE_INFINITY,
        }),
      ),
    ).toEqual({
      averageRating: 4,
      totalReviews: 1,
      ratingDistribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 },
    });
  });

  it("keeps the average within 0–5 even for inconsistent stored stats", () => {
    expect(summariseReviews([], stats({ totalReviews: 1, ratingSum: 50 })).averageRating).toBe(5);
    expect(summariseReviews([], stats({ totalReviews: 0, ratingSum: 50 })).averageRating).toBe(0);
  });

  it("for consistent inputs, the distribution adds up to the total and the average is in range", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true })),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 5, maxLength: 5 }),
        (ratings, counts) => {
          const [r1, r2, r3, r4, r5] = counts;
          const stored = {
            totalReviews: r1 + r2 + r3 + r4 + r5,
            ratingSum: r1 + 2 * r2 + 3 * r3 + 4 * r4 + 5 * r5,
            rating1: r1,
            rating2: r2,
            rating3: r3,
            rating4: r4,
            rating5: r5,
          };
          const s = summariseReviews(
            ratings.map((rating) => ({ rating })),
            stored,
          );
          const d = s.ratingDistribution;
          expect(d[1] + d[2] + d[3] + d[4] + d[5]).toBe(s.totalReviews);
          expect(s.totalReviews).toBe(ratings.length + stored.totalReviews);
          if (s.totalReviews === 0) expect(s.averageRating).toBe(0);
          else {
            expect(s.averageRating).toBeGreaterThanOrEqual(1);
            expect(s.averageRating).toBeLessThanOrEqual(5);
          }
          expect(Math.round(s.averageRating * 10)).toBeCloseTo(s.averageRating * 10, 9);
        },
      ),
    );
  });
});
