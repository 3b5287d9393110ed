import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DiscountLine,
  type DiscountRule,
  discountStatus,
  GUEST,
  type PricingSettings,
  priceOrder,
  refusal,
} from "./discounts.ts";
import { istDayEnd, istDayStart } from "./india-time.ts";

const settings: PricingSettings = {
  shippingFeePaise: 999,
  taxRateBasisPoints: 800,
  freeShippingThresholdPaise: null,
};

const rule = (over: Partial<DiscountRule> = {}): DiscountRule => ({
  id: "d1",
  name: "Test offer",
  code: "SAVE20",
  kind: "percent",
  percentBasisPoints: 2000,
  capPaise: null,
  amountPaise: null,
  buyQuantity: null,
  getQuantity: null,
  appliesTo: "order",
  categories: [],
  productIds: [],
  minSubtotalPaise: null,
  firstOrderOnly: false,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  perCustomerLimit: null,
  usesCount: 0,
  combinesWithAutomatic: false,
  state: "active",
  ...over,
});

const line = (over: Partial<DiscountLine> = {}): DiscountLine => ({
  productId: "p1",
  category: "3D Characters",
  subcategory: "Anime",
  custom: false,
  unitPricePaise: 100_000,
  quantity: 1,
  ...over,
});

const signedIn = {
  signedIn: true,
  hasEarlierOrders: false,
  usesByDiscount: new Map<string, number>(),
};
const now = new Date("2026-11-25T06:00:00Z");

const withCode = (r: DiscountRule, lines: DiscountLine[], customer = signedIn, at = now) =>
  priceOrder({
    lines,
    settings,
    code: { text: r.code ?? "", rule: r },
    automatic: [],
    customer,
    now: at,
  });

describe("priceOrder", () => {
  it("takes 20% capped at ₹300 off the eligible category only, and taxes what's left", () => {
    const r = rule({ capPaise: 30_000, appliesTo: "categories", categories: ["3d characters"] });
    const lines = [
      line({ productId: "a", unitPricePaise: 120_000, quantity: 2 }),
      line({
        productId: "b",
        category: "3D Prints",
        subcategory: "Home Decor",
        unitPricePaise: 50_000,
      }),
    ];
    const p = withCode(r, lines);
    expect(p.codeRefusal).toBeNull();
    expect(p.lineDiscounts).toEqual([30_000, 0]);
    expect(p.discountPaise).toBe(30_000);
    expect(p.subtotalPaise).toBe(290_000);
    expect(p.taxPaise).toBe(Math.round(260_000 * 0.08));
    expect(p.totalPaise).toBe(260_000 + 999 + 20_800);
    expect(p.applied).toEqual([
      expect.objectContaining({ code: "SAVE20", itemsPaise: 30_000, shippingPaise: 0 }),
    ]);
  });

  it("matches a subcategory, a product list and custom parts", () => {
    const lines = [
      line({ productId: "a", subcategory: "Fantasy" }),
      line({ productId: "b", custom: true, category: "Custom 3D Print", subcategory: null }),
    ];
    expect(
      withCode(rule({ appliesTo: "categories", categories: ["fantasy"] }), lines).lineDiscounts,
    ).toEqual([20_000, 0]);
    expect(
      withCode(rule({ appliesTo: "products", productIds: ["b"] }), lines).codeRefusal?.code,
    ).toBe("not-eligible");
    expect(withCode(rule({ appliesTo: "custom" }), lines).lineDiscounts).toEqual([0, 20_000]);
  });

  it("a flat discount never exceeds the eligible items", () => {
    const p = withCode(rule({ kind: "flat", amountPaise: 500_000, percentBasisPoints: null }), [
      line(),
    ]);
    expect(p.discountPaise).toBe(100_000);
    expect(p.taxPaise).toBe(0);
    expect(p.totalPaise).toBe(999);
  });

  it("free shipping takes off the shipping only", () => {
    const p = withCode(rule({ kind: "free_shipping", percentBasisPoints: null }), [line()]);
    expect(p.discountPaise).toBe(999);
    expect(p.shippingPaise).toBe(999);
    expect(p.taxPaise).toBe(8_000);
    expect(p.totalPaise).toBe(100_000 + 8_000);
  });

  it("refuses a code that would take nothing off, so a limited code's use isn't spent on nothing", () => {
    const free = rule({ code: "SHIPFREE", kind: "free_shipping", percentBasisPoints: null });
    // The items already ship free: the code is worth ₹0 here.
    const p = priceOrder({
      lines: [line({ unitPricePaise: 150_000 })],
      settings: { ...settings, freeShippingThresholdPaise: 99_900 },
      code: { text: "SHIPFREE", rule: free },
      automatic: [],
      customer: signedIn,
      now,
    });
    expect(p.applied).toEqual([]);
    expect(p.discountPaise).toBe(0);
    expect(p.codeRefusal).toEqual({
      code: "no-saving",
      message: "“SHIPFREE” doesn't lower this order's total.",
    });
    // Buy 2 get 1 with one unit in the cart: refused the same way; with three, applied.
    const b2g1 = rule({
      kind: "buy_get",
      buyQuantity: 2,
      getQuantity: 1,
      percentBasisPoints: null,
    });
    expect(withCode(b2g1, [line()]).codeRefusal?.code).toBe("no-saving");
    // ₹5 off ₹1,000 of items takes them under the ₹999 free-shipping threshold: ₹9.99 of
    // shipping makes the total higher (₹1,084.59 against ₹1,080), so the code is refused.
    const small = rule({ code: "TEN", kind: "flat", percentBasisPoints: null, amountPaise: 500 });
    const under = priceOrder({
      lines: [line({ unitPricePaise: 100_000 })],
      settings: { ...settings, freeShippingThresholdPaise: 99_900 },
      code: { text: "TEN", rule: small },
      automatic: [],
      customer: signedIn,
      now,
    });
    expect(under.codeRefusal?.code).toBe("no-saving");
    expect(under.shippingPaise).toBe(0);
    const three = withCode(b2g1, [line({ quantity: 3 })]);
    expect(three.codeRefusal).toBeNull();
    expect(three.applied.map((d) => d.code)).toEqual(["SAVE20"]);
  });

  it("buy 2 get 1 free gives the cheapest unit of each group of three", () => {
    const r = rule({ kind: "buy_get", buyQuantity: 2, getQuantity: 1, percentBasisPoints: null });
    const lines = [
      line({ productId: "a", unitPricePaise: 50_000, quantity: 2 }),
      line({ productId: "b", unitPricePaise: 30_000, quantity: 2 }),
      line({ productId: "c", unitPricePaise: 90_000, quantity: 2 }),
    ];
    // Six units: two groups, so the two cheapest (the ₹300 ones) are free.
    expect(withCode(r, lines).lineDiscounts).toEqual([0, 60_000, 0]);
    expect(withCode(r, lines.slice(0, 1)).discountPaise).toBe(0);
  });

  it("applies the free-shipping threshold to the items after discounts, and says what's missing", () => {
    const s = { ...settings, freeShippingThresholdPaise: 99_900 };
    const over = priceOrder({
      lines: [line({ unitPricePaise: 99_900 })],
      settings: s,
      automatic: [],
      customer: GUEST,
      now,
    });
    expect(over.shippingPaise).toBe(0);
    expect(over.freeShippingShortfallPaise).toBeNull();
    const under = priceOrder({
      lines: [line({ unitPricePaise: 87_900 })],
      settings: s,
      automatic: [],
      customer: GUEST,
      now,
    });
    expect(under.shippingPaise).toBe(999);
    expect(under.freeShippingShortfallPaise).toBe(12_000);
    const discounted = priceOrder({
      lines: [line({ unitPricePaise: 100_000 })],
      settings: s,
      code: { text: "SAVE20", rule: rule() },
      automatic: [],
      customer: signedIn,
      now,
    });
    expect(discounted.shippingPaise).toBe(999);
    expect(discounted.freeShippingShortfallPaise).toBe(19_900);
  });

  it("the best automatic offer wins and is named; a non-combining code is refused when the offer saves more", () => {
    const small = rule({ id: "a1", code: null, name: "5% off", percentBasisPoints: 500 });
    const big = rule({ id: "a2", code: null, name: "15% off", percentBasisPoints: 1500 });
    const lines = [line()];
    const auto = priceOrder({ lines, settings, automatic: [small, big], customer: GUEST, now });
    expect(auto.applied.map((a) => a.name)).toEqual(["15% off"]);
    expect(auto.discountPaise).toBe(15_000);

    const weakCode = rule({ id: "c1", code: "TEN", percentBasisPoints: 1000 });
    const refused = priceOrder({
      lines,
      settings,
      code: { text: "ten", rule: weakCode },
      automatic: [small, big],
      customer: GUEST,
      now,
    });
    expect(refused.codeRefusal?.code).toBe("not-combinable");
    expect(refused.codeRefusal?.message).toContain("15% off");
    expect(refused.discountPaise).toBe(15_000);

    const strongCode = rule({ id: "c2", code: "TWENTY", percentBasisPoints: 2000 });
    const alone = priceOrder({
      lines,
      settings,
      code: { text: "twenty", rule: strongCode },
      automatic: [big],
      customer: GUEST,
      now,
    });
    expect(alone.applied.map((a) => a.code)).toEqual(["TWENTY"]);
    expect(alone.discountPaise).toBe(20_000);

    const combining = rule({
      id: "c3",
      code: "PLUS10",
      percentBasisPoints: 1000,
      combinesWithAutomatic: true,
    });
    const both = priceOrder({
      lines,
      settings,
      code: { text: "plus10", rule: combining },
      automatic: [big],
      customer: GUEST,
      now,
    });
    // 15% of ₹1,000, then 10% of the ₹850 left.
    expect(both.applied.map((a) => a.itemsPaise)).toEqual([15_000, 8_500]);
    expect(both.discountPaise).toBe(23_500);
  });

  it("an automatic offer that would take the order under free shipping and cost more is not applied", () => {
    // ₹1,000 with free shipping from ₹999: ₹1,080 with tax. 5% off would make it ₹950 + ₹80
    // shipping + ₹76 tax = ₹1,106, more than without the offer.
    const s = { ...settings, shippingFeePaise: 8_000, freeShippingThresholdPaise: 99_900 };
    const small = rule({ id: "a1", code: null, name: "5% off", percentBasisPoints: 500 });
    const lines = [line({ unitPricePaise: 100_000 })];
    const none = priceOrder({ lines, settings: s, automatic: [], customer: GUEST, now });
    expect(none.totalPaise).toBe(108_000);
    const offered = priceOrder({ lines, settings: s, automatic: [small], customer: GUEST, now });
    expect(offered.applied).toEqual([]);
    expect(offered.totalPaise).toBe(108_000);

    // A bigger offer still lowers the total, shipping and all: it wins.
    const big = rule({ id: "a2", code: null, name: "20% off", percentBasisPoints: 2000 });
    const chosen = priceOrder({
      lines,
      settings: s,
      automatic: [small, big],
      customer: GUEST,
      now,
    });
    expect(chosen.applied.map((a) => a.name)).toEqual(["20% off"]);
    expect(chosen.totalPaise).toBe(80_000 + 8_000 + 6_400);

    // A code that doesn't combine is weighed against the offer by what the customer pays.
    const s2 = { ...s, shippingFeePaise: 30_000 };
    const offer = rule({ id: "a3", code: null, name: "Free shipping", kind: "free_shipping" });
    const code = rule({ id: "c1", code: "TEN", percentBasisPoints: 1000 });
    const lower = priceOrder({
      lines: [line({ unitPricePaise: 50_000 })],
      settings: { ...s2, freeShippingThresholdPaise: null },
      code: { text: "ten", rule: code },
      automatic: [offer],
      customer: GUEST,
      now,
    });
    // Free shipping saves ₹300; 10% of ₹500 saves ₹50 (and ₹4 of tax): the code is refused.
    expect(lower.codeRefusal?.code).toBe("not-combinable");
    expect(lower.applied.map((a) => a.name)).toEqual(["Free shipping"]);
  });

  it("refuses an unknown code with the customer's message", () => {
    const p = priceOrder({
      lines: [line()],
      settings,
      code: { text: " nope ", rule: null },
      automatic: [],
      customer: GUEST,
      now,
    });
    expect(p.codeRefusal).toEqual({
      code: "unknown",
      message: "“NOPE” isn't a valid code. Check it and try again.",
    });
    expect(p.discountPaise).toBe(0);
  });
});

describe("refusal", () => {
  const lines = [line({ unitPricePaise: 40_000 })];
  it.each([
    ["paused", rule({ state: "paused" }), signedIn, "paused"],
    ["archived", rule({ state: "archived" }), signedIn, "unknown"],
    ["not started", rule({ startsAt: new Date("2026-12-01T00:00:00Z") }), signedIn, "not-started"],
    ["expired", rule({ endsAt: new Date("2026-11-01T00:00:00Z") }), signedIn, "expired"],
    ["used up", rule({ usageLimit: 5, usesCount: 5 }), signedIn, "used-up"],
    ["guest on a first-order code", rule({ firstOrderOnly: true }), GUEST, "sign-in"],
    ["guest on a per-customer code", rule({ perCustomerLimit: 1 }), GUEST, "sign-in"],
    [
      "not the first order",
      rule({ firstOrderOnly: true }),
      { ...signedIn, hasEarlierOrders: true },
      "first-order",
    ],
    [
      "already used",
      rule({ perCustomerLimit: 1 }),
      { ...signedIn, usesByDiscount: new Map([["d1", 1]]) },
      "used-by-you",
    ],
    ["nothing eligible", rule({ appliesTo: "custom" }), signedIn, "not-eligible"],
  ] as const)("%s", (_name, r, customer, code) => {
    expect(refusal(r, lines, customer, now)?.code).toBe(code);
  });

  it("says how much more the minimum needs", () => {
    expect(refusal(rule({ minSubtotalPaise: 50_000 }), lines, signedIn, now)?.message).toBe(
      "“SAVE20” needs ₹500.00 of eligible items. Add ₹100.00 more to use it.",
    );
  });

  it("starts and ends on the IST day boundaries staff enter", () => {
    const r = rule({ startsAt: istDayStart("2026-12-01"), endsAt: istDayEnd("2026-12-31") });
    // 30 Nov 23:59 IST is 18:29 UTC: not yet; 1 Dec 00:00 IST is 30 Nov 18:30 UTC: live.
    expect(refusal(r, lines, signedIn, new Date("2026-11-30T18:29:59Z"))?.code).toBe("not-started");
    expect(refusal(r, lines, signedIn, new Date("2026-11-30T18:30:00Z"))).toBeNull();
    expect(discountStatus(r, new Date("2026-11-30T18:29:59Z"))).toBe("scheduled");
    // The last moment of 31 Dec IST is still live; the next is not.
    expect(refusal(r, lines, signedIn, new Date(istDayEnd("2026-12-31").getTime() - 1))).toBeNull();
    expect(refusal(r, lines, signedIn, istDayEnd("2026-12-31"))?.code).toBe("expired");
    expect(discountStatus(r, istDayEnd("2026-12-31"))).toBe("expired");
  });

  it("reports the list's statuses", () => {
    expect(discountStatus(rule(), now)).toBe("live");
    expect(discountStatus(rule({ state: "paused" }), now)).toBe("paused");
    expect(discountStatus(rule({ usageLimit: 1, usesCount: 1 }), now)).toBe("used-up");
    expect(discountStatus(rule({ state: "archived" }), now)).toBe("archived");
  });
});

describe("properties", () => {
  const lineArb = fc.record({
    productId: fc.constantFrom("a", "b", "c", "d"),
    category: fc.constantFrom("3D Prints", "3D Characters"),
    subcategory: fc.constantFrom("Anime", "Home Decor", null),
    custom: fc.boolean(),
    unitPricePaise: fc.integer({ min: 0, max: 5_000_000 }),
    quantity: fc.integer({ min: 1, max: 20 }),
  });
  const ruleArb = fc
    .record({
      kind: fc.constantFrom("percent", "flat", "free_shipping", "buy_get"),
      percentBasisPoints: fc.integer({ min: 1, max: 10_000 }),
      capPaise: fc.option(fc.integer({ min: 0, max: 1_000_000 })),
      amountPaise: fc.integer({ min: 0, max: 10_000_000 }),
      buyQuantity: fc.integer({ min: 1, max: 4 }),
      getQuantity: fc.integer({ min: 1, max: 3 }),
      appliesTo: fc.constantFrom("order", "categories", "products", "custom"),
      categories: fc.subarray(["3D Prints", "Anime", "Home Decor"]),
      productIds: fc.subarray(["a", "b", "c"]),
      combinesWithAutomatic: fc.boolean(),
    })
    .map((r) => rule(r as Partial<DiscountRule>));

  it("never gives more than the eligible items (or the cap), never goes negative, and allocates exactly", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        ruleArb,
        fc.option(ruleArb),
        fc.option(fc.integer({ min: 0, max: 2_000_000 })),
        (lines, code, auto, threshold) => {
          const p = priceOrder({
            lines,
            settings: { ...settings, freeShippingThresholdPaise: threshold },
            code: { text: "SAVE20", rule: code },
            automatic: auto ? [{ ...auto, id: "auto", code: null }] : [],
            customer: signedIn,
            now,
          });
          const gross = lines.map((l) => l.unitPricePaise * l.quantity);
          const itemsOff = p.lineDiscounts.reduce((a, b) => a + b, 0);
          p.lineDiscounts.forEach((d, i) => {
            expect(Number.isInteger(d)).toBe(true);
            expect(d).toBeGreaterThanOrEqual(0);
            expect(d).toBeLessThanOrEqual(gross[i]);
          });
          const appliedItems = p.applied.reduce((a, d) => a + d.itemsPaise, 0);
          const appliedShipping = p.applied.reduce((a, d) => a + d.shippingPaise, 0);
          expect(itemsOff).toBe(appliedItems);
          expect(p.discountPaise).toBe(appliedItems + appliedShipping);
          expect(appliedShipping).toBeLessThanOrEqual(p.shippingPaise);
          for (const d of p.applied) {
            if (d.code && code.kind === "percent" && code.capPaise !== null) {
              expect(d.itemsPaise).toBeLessThanOrEqual(code.capPaise);
            }
          }
          expect(p.taxPaise).toBeGreaterThanOrEqual(0);
          expect(p.totalPaise).toBeGreaterThanOrEqual(0);
          expect(p.totalPaise).toBe(
            p.subtotalPaise - itemsOff + p.shippingPaise - appliedShipping + p.taxPaise,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
