import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppliedDiscount } from "./discounts.ts";
import { discountRowLabel, discountTotals, orderDiscountRows } from "./order-discounts.ts";

const diwali: AppliedDiscount = {
  discountId: "d-1",
  code: "DIWALI20",
  name: "Diwali 20% off",
  kind: "percent",
  itemsPaise: 30_000,
  shippingPaise: 0,
};
const freeShip: AppliedDiscount = {
  discountId: "d-2",
  code: null,
  name: "Free shipping over ₹999",
  kind: "free_shipping",
  itemsPaise: 0,
  shippingPaise: 9_900,
};

describe("orderDiscountRows", () => {
  it("names each code and offer with what it took off", () => {
    const rows = orderDiscountRows({
      appliedDiscounts: [freeShip, diwali],
      discountPaise: 39_900,
      lineDiscountPaise: 30_000,
    });
    expect(rows).toEqual([
      {
        discountId: "d-2",
        code: null,
        name: "Free shipping over ₹999",
        on: "shipping",
        label: "Free shipping over ₹999",
        amountPaise: 9_900,
      },
      {
        discountId: "d-1",
        code: "DIWALI20",
        name: "Diwali 20% off",
        on: "items",
        label: "Discount (DIWALI20)",
        amountPaise: 30_000,
      },
    ]);
    expect(discountTotals(rows)).toEqual({ itemsPaise: 30_000, shippingPaise: 9_900 });
  });

  it("an order without discounts has no rows", () => {
    expect(
      orderDiscountRows({ appliedDiscounts: [], discountPaise: 0, lineDiscountPaise: 0 }),
    ).toEqual([]);
    expect(
      orderDiscountRows({ appliedDiscounts: null, discountPaise: 0, lineDiscountPaise: 0 }),
    ).toEqual([]);
  });

  it("leaves out a code that took nothing off", () => {
    const rows = orderDiscountRows({
      appliedDiscounts: [{ ...diwali, itemsPaise: 0 }],
      discountPaise: 0,
      lineDiscountPaise: 0,
    });
    expect(rows).toEqual([]);
  });

  it("follows the stored figures when the applied list says more or less", () => {
    // Two free-shipping discounts each claim the whole shipping; it was taken off once.
    const twice = orderDiscountRows({
      appliedDiscounts: [freeShip, { ...freeShip, discountId: "d-3", code: "SHIPFREE" }],
      discountPaise: 9_900,
      lineDiscountPaise: 0,
    });
    expect(twice.map((r) => [r.label, r.amountPaise])).toEqual([
      ["Free shipping over ₹999", 9_900],
    ]);
    // A stored discount no applied discount names still shows, as a plain row.
    const unnamed = orderDiscountRows({
      appliedDiscounts: [],
      discountPaise: 1_500,
      lineDiscountPaise: 1_000,
    });
    expect(unnamed.map((r) => [r.label, r.on, r.amountPaise, r.discountId])).toEqual([
      ["Discount", "items", 1_000, null],
      ["Shipping discount", "shipping", 500, null],
    ]);
  });

  it("labels by code, else by name", () => {
    expect(discountRowLabel({ code: "FIRST200", name: "First order" }, "items")).toBe(
      "Discount (FIRST200)",
    );
    expect(discountRowLabel({ code: null, name: "Festive offer" }, "items")).toBe(
      "Discount (Festive offer)",
    );
    expect(discountRowLabel({ code: "FREESHIP", name: "Free shipping" }, "shipping")).toBe(
      "Free shipping (FREESHIP)",
    );
    expect(discountRowLabel({ code: null, name: "Diwali gift" }, "shipping")).toBe(
      "Free shipping (Diwali gift)",
    );
    expect(discountRowLabel({ code: null, name: "Free shipping over ₹999" }, "shipping")).toBe(
      "Free shipping over ₹999",
    );
    expect(discountRowLabel(null, "items")).toBe("Discount");
    expect(discountRowLabel(null, "shipping")).toBe("Shipping discount");
  });

  it("rows always sum to the stored discount, split as stored (property)", () => {
    const applied = fc.record({
      discountId: fc.uuid(),
      code: fc.option(fc.constantFrom("DIWALI20", "FIRST200", "FREESHIP"), { nil: null }),
      name: fc.string({ maxLength: 30 }),
      kind: fc.constantFrom("percent", "flat", "free_shipping", "buy_get" as const),
      itemsPaise: fc.integer({ min: 0, max: 1_000_000 }),
      shippingPaise: fc.integer({ min: 0, max: 10_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(applied, { maxLength: 3 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (list, lineDiscountPaise, extra) => {
          const discountPaise = lineDiscountPaise + extra;
          const rows = orderDiscountRows({
            appliedDiscounts: list,
            discountPaise,
            lineDiscountPaise,
          });
          expect(discountTotals(rows)).toEqual({
            itemsPaise: lineDiscountPaise,
            shippingPaise: extra,
          });
          for (const row of rows) expect(row.amountPaise).toBeGreaterThan(0);
        },
      ),
    );
  });
});
