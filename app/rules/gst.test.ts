import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiscountRule, GUEST, priceOrder } from "./discounts.ts";
import {
  allocateProportionally,
  amountInWords,
  financialYear,
  formatIndianAmount,
  formatInvoiceDate,
  formatInvoiceNumber,
  formatPercent,
  formatRupees,
  type GstInput,
  gstBreakdown,
  gstStateCode,
  invoiceMismatches,
  isFinancialYear,
  isIntraStateSupply,
  parseInvoiceNumber,
  placeOfSupply,
  splitCentralState,
} from "./gst.ts";
import { discountTotals, orderDiscountRows } from "./order-discounts.ts";
import { DEFAULT_TOTALS_SETTINGS, orderTotals } from "./totals.ts";

describe("financialYear", () => {
  it("runs April to March", () => {
    expect(financialYear(new Date("2026-04-01T00:00:00+05:30"))).toBe("2026-27");
    expect(financialYear(new Date("2026-12-31T12:00:00Z"))).toBe("2026-27");
    expect(financialYear(new Date("2027-03-31T12:00:00Z"))).toBe("2026-27");
    expect(financialYear(new Date("2027-01-15T12:00:00Z"))).toBe("2026-27");
  });

  it("uses India's time zone at the year boundary", () => {
    // 20:00 UTC on 31 March is 01:30 on 1 April in India.
    expect(financialYear(new Date("2027-03-31T20:00:00Z"))).toBe("2027-28");
    expect(financialYear(new Date("2027-03-31T18:29:59.999Z"))).toBe("2026-27");
    expect(financialYear(new Date("2027-03-31T18:30:00Z"))).toBe("2027-28");
  });

  it("pads the closing year and wraps the century", () => {
    expect(financialYear(new Date("2009-06-01T00:00:00Z"))).toBe("2009-10");
    expect(financialYear(new Date("2099-06-01T00:00:00Z"))).toBe("2099-00");
    expect(financialYear(new Date("2100-02-01T00:00:00Z"))).toBe("2099-00");
  });

  it("rejects an invalid date", () => {
    expect(() => financialYear(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("always yields a well-formed year that contains the date (property)", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("2000-01-01Z"),
          max: new Date("2200-01-01Z"),
          noInvalidDate: true,
        }),
        (date) => {
          const fy = financialYear(date);
          expect(isFinancialYear(fy)).toBe(true);
          const start = Number(fy.slice(0, 4));
          const from = Date.parse(`${start}-04-01T00:00:00+05:30`);
          const to = Date.parse(`${start + 1}-04-01T00:00:00+05:30`);
          expect(date.getTime()).toBeGreaterThanOrEqual(from);
          expect(date.getTime()).toBeLessThan(to);
        },
      ),
    );
  });
});

describe("formatInvoiceDate", () => {
  it("prints the Indian calendar date", () => {
    expect(formatInvoiceDate(new Date("2027-03-31T20:00:00Z"))).toBe("01 Apr 2027");
    expect(formatInvoiceDate(new Date("2026-11-05T10:00:00Z"))).toBe("05 Nov 2026");
  });
});

describe("invoice numbers", () => {
  it("pads the sequence to six digits", () => {
    expect(formatInvoiceNumber("2026-27", 42)).toBe("INV/2026-27/000042");
    expect(formatInvoiceNumber("2026-27", 1)).toBe("INV/2026-27/000001");
    expect(formatInvoiceNumber("2026-27", 999_999)).toBe("INV/2026-27/999999");
  });

  it("grows past six digits when it must", () => {
    expect(formatInvoiceNumber("2026-27", 1_234_567)).toBe("INV/2026-27/1234567");
  });

  it("rejects a bad year or sequence", () => {
    expect(() => formatInvoiceNumber("2026-28", 1)).toThrow(RangeError);
    expect(() => formatInvoiceNumber("26-27", 1)).toThrow(RangeError);
    expect(() => formatInvoiceNumber("2026-27", 0)).toThrow(RangeError);
    expect(() => formatInvoiceNumber("2026-27", 1.5)).toThrow(RangeError);
  });

  it("parses what it formats and nothing else", () => {
    expect(parseInvoiceNumber("INV/2026-27/000042")).toEqual({
      financialYear: "2026-27",
      sequence: 42,
    });
    expect(parseInvoiceNumber("INV/2026-27/1234567")).toEqual({
      financialYear: "2026-27",
      sequence: 1_234_567,
    });
    for (const bad of [
      "INV/2026-27/42",
      "INV/2026-27/0000042",
      "INV/2026-27/000000",
      "INV/2026-28/000042",
      "inv/2026-27/000042",
      "INV/2026-27/000042 ",
      "ORD-20261121-0001",
      "",
    ]) {
      expect(parseInvoiceNumber(bad)).toBeNull();
    }
  });

  it("round-trips (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1990, max: 2999 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (start, sequence) => {
          const fy = `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
          expect(parseInvoiceNumber(formatInvoiceNumber(fy, sequence))).toEqual({
            financialYear: fy,
            sequence,
          });
        },
      ),
    );
  });
});

describe("states", () => {
  it("compares states trimmed and case-insensitively", () => {
    expect(isIntraStateSupply("Karnataka", "  karnataka ")).toBe(true);
    expect(isIntraStateSupply("Tamil Nadu", "TAMIL  NADU")).toBe(true);
    expect(isIntraStateSupply("Karnataka", "Kerala")).toBe(false);
  });

  it("knows GST state codes", () => {
    expect(gstStateCode("Karnataka")).toBe("29");
    expect(gstStateCode(" tamil nadu ")).toBe("33");
    expect(gstStateCode("Jammu & Kashmir")).toBe("01");
    expect(gstStateCode("Atlantis")).toBeNull();
    expect(placeOfSupply(" Maharashtra ")).toBe("Maharashtra (27)");
    expect(placeOfSupply("Atlantis")).toBe("Atlantis");
  });
});

describe("allocateProportionally", () => {
  it("shares by weight with the largest remainder", () => {
    expect(allocateProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateProportionally(10, [3, 7])).toEqual([3, 7]);
    expect(allocateProportionally(1, [1, 2])).toEqual([0, 1]);
    expect(allocateProportionally(5, [0, 0])).toEqual([3, 2]);
    expect(allocateProportionally(0, [])).toEqual([]);
    expect(() => allocateProportionally(1, [])).toThrow(RangeError);
  });

  it("stays exact for amounts beyond float precision", () => {
    const shares = allocateProportionally(900_000_000_000, [3_000_000_000_001, 6_000_000_000_002]);
    expect(shares[0] + shares[1]).toBe(900_000_000_000);
    expect(shares).toEqual([300_000_000_000, 600_000_000_000]);
  });

  it("sums exactly and stays within a paisa of the exact share (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 30 }),
        (total, weights) => {
          const shares = allocateProportionally(total, weights);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          shares.forEach((share, i) => {
            expect(Number.isInteger(share)).toBe(true);
            const exact = sum === 0 ? total / weights.length : (total * weights[i]) / sum;
            expect(Math.abs(share - exact)).toBeLessThan(1);
          });
        },
      ),
    );
  });
});

describe("splitCentralState", () => {
  it("halves with the odd paisa to SGST", () => {
    expect(splitCentralState(101)).toEqual({ cgstPaise: 50, sgstPaise: 51 });
    expect(splitCentralState(100)).toEqual({ cgstPaise: 50, sgstPaise: 50 });
    expect(splitCentralState(0)).toEqual({ cgstPaise: 0, sgstPaise: 0 });
  });
});

const sample = (deliveryState: string): GstInput => ({
  lines: [
    { name: "Dragon", hsnCode: "3926", quantity: 2, unitPricePaise: 49_900 },
    { name: "Vase", hsnCode: "3924", quantity: 1, unitPricePaise: 129_900 },
    { name: "Keychain", hsnCode: "3926", quantity: 3, unitPricePaise: 9_900 },
  ],
  shippingPaise: 999,
  // 8% of 259_400
  taxPaise: 20_752,
  taxRateBasisPoints: 800,
  shopState: "Karnataka",
  deliveryState,
});

describe("gstBreakdown", () => {
  it("splits intra-state tax into CGST and SGST at half the rate", () => {
    const b = gstBreakdown(sample(" karnataka"));
    expect(b.supply).toBe("intra-state");
    expect(b.rates).toEqual({ kind: "cgst-sgst", ratePercent: 8, cgstPercent: 4, sgstPercent: 4 });
    expect(b.lines.map((l) => l.taxableValuePaise)).toEqual([99_800, 129_900, 29_700]);
    expect(b.lines.map((l) => l.taxPaise)).toEqual([7_984, 10_392, 2_376]);
    expect(b.lines[0]).toMatchObject({ kind: "cgst-sgst", cgstPaise: 3_992, sgstPaise: 3_992 });
    expect(b.lines[2]).toMatchObject({ position: 3, amountPaise: 29_700 + 2_376 });
    expect(b.lines[0]).toMatchObject({ grossValuePaise: 99_800, discountPaise: 0 });
    expect(b.shipping).toEqual({
      name: "Shipping",
      hsnCode: "9965",
      valuePaise: 999,
      discountPaise: 0,
      taxPaise: 0,
      amountPaise: 999,
    });
    expect(b.totals).toEqual({
      grossValuePaise: 259_400,
      itemDiscountPaise: 0,
      taxableValuePaise: 259_400,
      cgstPaise: 10_376,
      sgstPaise: 10_376,
      igstPaise: 0,
      taxPaise: 20_752,
      shippingPaise: 999,
      shippingDiscountPaise: 0,
      codFeePaise: 0,
      discountPaise: 0,
      grandTotalPaise: 259_400 + 999 + 20_752,
    });
    expect(b.codFee).toBeNull();
  });

  it("adds a cash-on-delivery fee as its own untaxed line, in the grand total", () => {
    const b = gstBreakdown({ ...sample("Karnataka"), codFeePaise: 4_900 });
    expect(b.codFee).toEqual({
      name: "Cash on delivery fee",
      hsnCode: "9965",
      valuePaise: 4_900,
      taxPaise: 0,
      amountPaise: 4_900,
    });
    expect(b.totals.taxPaise).toBe(20_752);
    expect(b.totals.grandTotalPaise).toBe(259_400 + 999 + 20_752 + 4_900);
    expect(
      invoiceMismatches(b, { subtotalPaise: 259_400, totalPaise: 259_400 + 999 + 20_752 }),
    ).toHaveLength(1);
    expect(() => gstBreakdown({ ...sample("Karnataka"), codFeePaise: -1 })).toThrow(RangeError);
  });

  it("charges IGST at the full rate between states", () => {
    const b = gstBreakdown(sample("Maharashtra"));
    expect(b.supply).toBe("inter-state");
    expect(b.rates).toEqual({ kind: "igst", ratePercent: 8, igstPercent: 8 });
    expect(b.lines[1]).toMatchObject({ kind: "igst", igstPaise: 10_392 });
    expect(b.lines[1]).not.toHaveProperty("cgstPaise");
    expect(b.totals).toMatchObject({ cgstPaise: 0, sgstPaise: 0, igstPaise: 20_752 });
  });

  it("shares an odd tax so that it sums exactly", () => {
    const b = gstBreakdown({
      lines: [
        { name: "A", hsnCode: "3926", quantity: 1, unitPricePaise: 1 },
        { name: "B", hsnCode: "3926", quantity: 1, unitPricePaise: 1 },
        { name: "C", hsnCode: "3926", quantity: 1, unitPricePaise: 1 },
      ],
      shippingPaise: 0,
      taxPaise: 7,
      taxRateBasisPoints: 800,
      shopState: "Goa",
      deliveryState: "Goa",
    });
    expect(b.lines.map((l) => l.taxPaise)).toEqual([3, 2, 2]);
    expect(b.lines[0]).toMatchObject({ cgstPaise: 1, sgstPaise: 2 });
    expect(b.totals.cgstPaise + b.totals.sgstPaise).toBe(7);
  });

  it("shows half-percent rates", () => {
    const b = gstBreakdown({ ...sample("Karnataka"), taxRateBasisPoints: 500 });
    expect(b.rates).toMatchObject({ cgstPercent: 2.5, sgstPercent: 2.5 });
  });

  it("rejects malformed amounts", () => {
    expect(() => gstBreakdown({ ...sample("Goa"), taxPaise: -1 })).toThrow(RangeError);
    expect(() => gstBreakdown({ ...sample("Goa"), shippingPaise: 1.5 })).toThrow(RangeError);
    expect(() =>
      gstBreakdown({
        ...sample("Goa"),
        lines: [{ name: "A", hsnCode: "3926", quantity: 0, unitPricePaise: 100 }],
      }),
    ).toThrow(RangeError);
  });

  it("agrees with the checkout's totals", () => {
    const input = sample("Kerala");
    const subtotal = input.lines.reduce((s, l) => s + l.quantity * l.unitPricePaise, 0);
    const order = orderTotals(subtotal, DEFAULT_TOTALS_SETTINGS);
    const b = gstBreakdown({
      ...input,
      taxPaise: order.taxPaise,
      shippingPaise: order.shippingPaise,
    });
    expect(invoiceMismatches(b, order)).toEqual([]);
    expect(invoiceMismatches(b, { ...order, totalPaise: order.totalPaise + 1 })).toHaveLength(1);
    expect(invoiceMismatches(b, { ...order, subtotalPaise: 0 })).toHaveLength(1);
  });
});

describe("gstBreakdown properties", () => {
  const stateArb = fc.constantFrom(
    "Karnataka",
    "karnataka ",
    " KARNATAKA",
    "Kerala",
    "Goa",
    "Delhi",
  );
  const inputArb = fc
    .record({
      lines: fc.array(
        fc.record({
          name: fc.string({ maxLength: 20 }),
          hsnCode: fc.constantFrom("3926", "3924", "9503"),
          quantity: fc.integer({ min: 1, max: 50 }),
          unitPricePaise: fc.integer({ min: 0, max: 5_000_000 }),
        }),
        { minLength: 1, maxLength: 25 },
      ),
      shippingPaise: fc.integer({ min: 0, max: 50_000 }),
      taxRateBasisPoints: fc.integer({ min: 0, max: 2_800 }),
      shopState: stateArb,
      deliveryState: stateArb,
      extraTax: fc.integer({ min: -3, max: 3 }),
    })
    .map(({ extraTax, ...rest }) => {
      // The order's tax as checkout computes it, sometimes off by a few paise to stress allocation.
      const subtotal = rest.lines.reduce((s, l) => s + l.quantity * l.unitPricePaise, 0);
      const taxPaise = Math.max(
        0,
        Math.round((subtotal * rest.taxRateBasisPoints) / 10_000) + extraTax,
      );
      return { ...rest, taxPaise } satisfies GstInput;
    });

  it("shares always sum to the order's tax, and CGST + SGST + IGST equals it", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const b = gstBreakdown(input);
        expect(b.lines.reduce((s, l) => s + l.taxPaise, 0)).toBe(input.taxPaise);
        expect(b.totals.cgstPaise + b.totals.sgstPaise + b.totals.igstPaise).toBe(input.taxPaise);
        for (const line of b.lines) {
          expect(line.taxPaise).toBeGreaterThanOrEqual(0);
          if (line.kind === "cgst-sgst") {
            expect(line.cgstPaise + line.sgstPaise).toBe(line.taxPaise);
            expect(line.sgstPaise - line.cgstPaise).toBeGreaterThanOrEqual(0);
            expect(line.sgstPaise - line.cgstPaise).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });

  it("intra-state never has IGST, inter-state never CGST or SGST", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const b = gstBreakdown(input);
        const intra =
          input.shopState.trim().toLowerCase() === input.deliveryState.trim().toLowerCase();
        expect(b.supply).toBe(intra ? "intra-state" : "inter-state");
        for (const line of b.lines) {
          if (intra) {
            expect(line.kind).toBe("cgst-sgst");
            expect(line).not.toHaveProperty("igstPaise");
          } else {
            expect(line.kind).toBe("igst");
            expect(line).not.toHaveProperty("cgstPaise");
            expect(line).not.toHaveProperty("sgstPaise");
          }
        }
        if (intra) expect(b.totals.igstPaise).toBe(0);
        else expect(b.totals.cgstPaise + b.totals.sgstPaise).toBe(0);
      }),
    );
  });

  it("grand total = subtotal + shipping + tax, matching the checkout's total", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const b = gstBreakdown(input);
        const subtotal = input.lines.reduce((s, l) => s + l.quantity * l.unitPricePaise, 0);
        expect(b.totals.taxableValuePaise).toBe(subtotal);
        expect(b.totals.grandTotalPaise).toBe(subtotal + input.shippingPaise + input.taxPaise);
        expect(b.lines.reduce((s, l) => s + l.amountPaise, 0) + b.shipping.amountPaise).toBe(
          b.totals.grandTotalPaise,
        );
        const order = orderTotals(subtotal, {
          ...DEFAULT_TOTALS_SETTINGS,
          taxRateBasisPoints: input.taxRateBasisPoints,
        });
        const fromOrder = gstBreakdown({
          ...input,
          taxPaise: order.taxPaise,
          shippingPaise: order.shippingPaise,
        });
        expect(invoiceMismatches(fromOrder, order)).toEqual([]);
      }),
    );
  });
});

describe("gstBreakdown with discounts", () => {
  // DIWALI20 (20% capped at ₹300) on ₹2,594 of goods: ₹300 shared by value, largest remainder.
  const discounted = (deliveryState: string): GstInput => {
    const base = sample(deliveryState);
    const shares = [11_542, 15_023, 3_435];
    return {
      ...base,
      lines: base.lines.map((l, i) => ({ ...l, discountPaise: shares[i] })),
      // 8% of 259_400 − 30_000
      taxPaise: 18_352,
    };
  };

  it("taxes each line on its value less its share of the discount", () => {
    const b = gstBreakdown(discounted("Karnataka"));
    expect(b.lines.map((l) => l.grossValuePaise)).toEqual([99_800, 129_900, 29_700]);
    expect(b.lines.map((l) => l.discountPaise)).toEqual([11_542, 15_023, 3_435]);
    expect(b.lines.map((l) => l.taxableValuePaise)).toEqual([88_258, 114_877, 26_265]);
    // 18_352 shared by 88_258 : 114_877 : 26_265 (exactly 7_060.6…, 9_190.1…, 2_101.2…)
    expect(b.lines.map((l) => l.taxPaise)).toEqual([7_061, 9_190, 2_101]);
    expect(b.lines[0]).toMatchObject({ cgstPaise: 3_530, sgstPaise: 3_531 });
    expect(b.totals).toEqual({
      grossValuePaise: 259_400,
      itemDiscountPaise: 30_000,
      taxableValuePaise: 229_400,
      cgstPaise: 9_175,
      sgstPaise: 9_177,
      igstPaise: 0,
      taxPaise: 18_352,
      shippingPaise: 999,
      shippingDiscountPaise: 0,
      codFeePaise: 0,
      discountPaise: 30_000,
      grandTotalPaise: 229_400 + 18_352 + 999,
    });
    expect(
      invoiceMismatches(b, {
        subtotalPaise: 259_400,
        discountPaise: 30_000,
        shippingPaise: 999,
        totalPaise: 248_751,
      }),
    ).toEqual([]);
  });

  it("a free-shipping discount lowers the shipping line, not the tax", () => {
    const b = gstBreakdown({ ...sample("Goa"), shippingDiscountPaise: 999 });
    expect(b.shipping).toMatchObject({ valuePaise: 999, discountPaise: 999, amountPaise: 0 });
    expect(b.lines.map((l) => l.taxPaise)).toEqual([7_984, 10_392, 2_376]);
    expect(b.totals).toMatchObject({
      shippingPaise: 999,
      shippingDiscountPaise: 999,
      itemDiscountPaise: 0,
      discountPaise: 999,
      grandTotalPaise: 259_400 + 20_752,
    });
  });

  it("a line given away whole has no taxable value and no tax", () => {
    const b = gstBreakdown({
      ...sample("Kerala"),
      lines: [
        { name: "Dragon", hsnCode: "3926", quantity: 2, unitPricePaise: 49_900 },
        {
          name: "Free keychain",
          hsnCode: "3926",
          quantity: 1,
          unitPricePaise: 9_900,
          discountPaise: 9_900,
        },
      ],
      taxPaise: 7_984,
    });
    expect(b.lines[1]).toMatchObject({ taxableValuePaise: 0, taxPaise: 0, amountPaise: 0 });
    expect(b.lines[0]).toMatchObject({ taxableValuePaise: 99_800, taxPaise: 7_984 });
  });

  it("refuses a discount larger than its line or the shipping", () => {
    const one = { name: "A", hsnCode: "3926", quantity: 2, unitPricePaise: 100 };
    const base = { ...sample("Goa"), lines: [one], taxPaise: 0 };
    expect(() => gstBreakdown({ ...base, lines: [{ ...one, discountPaise: 201 }] })).toThrow(
      RangeError,
    );
    expect(() => gstBreakdown({ ...base, lines: [{ ...one, discountPaise: -1 }] })).toThrow(
      RangeError,
    );
    expect(() => gstBreakdown({ ...base, shippingDiscountPaise: 1_000 })).toThrow(RangeError);
    expect(() => gstBreakdown({ ...base, lines: [{ ...one, discountPaise: 200 }] })).not.toThrow();
  });

  it("names a discount or shipping that disagrees with the order", () => {
    const b = gstBreakdown(discounted("Karnataka"));
    const order = {
      subtotalPaise: 259_400,
      discountPaise: 30_000,
      shippingPaise: 999,
      totalPaise: 248_751,
    };
    expect(invoiceMismatches(b, { ...order, discountPaise: 29_999 })).toEqual([
      "discounts 30000 ≠ order discount 29999",
    ]);
    expect(invoiceMismatches(b, { ...order, shippingPaise: 0 })).toHaveLength(1);
    expect(invoiceMismatches(b, { ...order, totalPaise: 248_752 })).toHaveLength(1);
  });
});

describe("gstBreakdown of orders priced with discounts (property)", () => {
  const categories = ["3D Characters", "Home Decor", "Keychains"] as const;
  const lineArb = fc.record({
    productId: fc.constantFrom("p1", "p2", "p3", "p4"),
    category: fc.constantFrom(...categories),
    subcategory: fc.constant(null),
    custom: fc.boolean(),
    unitPricePaise: fc.integer({ min: 0, max: 2_000_000 }),
    quantity: fc.integer({ min: 1, max: 30 }),
  });
  const ruleArb = (id: string, code: string | null) =>
    fc
      .record({
        kind: fc.constantFrom("percent", "flat", "free_shipping", "buy_get"),
        percentBasisPoints: fc.integer({ min: 1, max: 10_000 }),
        capPaise: fc.option(fc.integer({ min: 0, max: 500_000 }), { nil: null }),
        amountPaise: fc.integer({ min: 0, max: 5_000_000 }),
        buyQuantity: fc.integer({ min: 1, max: 4 }),
        getQuantity: fc.integer({ min: 1, max: 3 }),
        appliesTo: fc.constantFrom("order", "categories", "products", "custom"),
        categories: fc.subarray([...categories]),
        productIds: fc.subarray(["p1", "p2", "p3", "p4"]),
        combinesWithAutomatic: fc.boolean(),
      })
      .map(
        (r): DiscountRule => ({
          ...r,
          id,
          name: code ? `${code} offer` : "Automatic offer",
          code,
          minSubtotalPaise: null,
          firstOrderOnly: false,
          startsAt: null,
          endsAt: null,
          usageLimit: null,
          perCustomerLimit: null,
          usesCount: 0,
          state: "active",
        }),
      );
  const orderArb = fc.record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 12 }),
    code: fc.option(ruleArb("code-1", "DIWALI20"), { nil: undefined }),
    automatic: fc.array(ruleArb("auto-1", null), { maxLength: 2 }),
    settings: fc.record({
      shippingFeePaise: fc.integer({ min: 0, max: 50_000 }),
      taxRateBasisPoints: fc.integer({ min: 0, max: 2_800 }),
      freeShippingThresholdPaise: fc.option(fc.integer({ min: 0, max: 5_000_000 }), {
        nil: null,
      }),
    }),
    deliveryState: fc.constantFrom("Karnataka", "Maharashtra"),
  });

  it("the invoice of any discounted order adds up to the paisa with what was stored", () => {
    fc.assert(
      fc.property(orderArb, ({ lines, code, automatic, settings, deliveryState }) => {
        const priced = priceOrder({
          lines,
          settings,
          code: code ? { text: "DIWALI20", rule: code } : undefined,
          automatic,
          customer: GUEST,
          now: new Date("2026-11-01T00:00:00Z"),
        });
        // What checkout stores, and the invoice reads back.
        const rows = orderDiscountRows({
          appliedDiscounts: priced.applied,
          discountPaise: priced.discountPaise,
          lineDiscountPaise: priced.lineDiscounts.reduce((a, b) => a + b, 0),
        });
        const b = gstBreakdown({
          lines: lines.map((l, i) => ({
            name: `Line ${i + 1}`,
            hsnCode: "3926",
            quantity: l.quantity,
            unitPricePaise: l.unitPricePaise,
            discountPaise: priced.lineDiscounts[i],
          })),
          shippingPaise: priced.shippingPaise,
          shippingDiscountPaise: discountTotals(rows).shippingPaise,
          taxPaise: priced.taxPaise,
          taxRateBasisPoints: settings.taxRateBasisPoints,
          shopState: "Karnataka",
          deliveryState,
        });
        expect(invoiceMismatches(b, priced)).toEqual([]);
        expect(rows.reduce((s, r) => s + r.amountPaise, 0)).toBe(priced.discountPaise);
        expect(b.lines.reduce((s, l) => s + l.taxableValuePaise, 0)).toBe(
          priced.subtotalPaise - b.totals.itemDiscountPaise,
        );
        expect(b.lines.reduce((s, l) => s + l.taxPaise, 0)).toBe(priced.taxPaise);
        expect(b.totals.cgstPaise + b.totals.sgstPaise + b.totals.igstPaise).toBe(priced.taxPaise);
        expect(b.lines.reduce((s, l) => s + l.amountPaise, 0) + b.shipping.amountPaise).toBe(
          priced.totalPaise,
        );
        const taxable = b.totals.taxableValuePaise;
        for (const line of b.lines) {
          expect(line.taxableValuePaise).toBeGreaterThanOrEqual(0);
          expect(line.taxableValuePaise).toBe(line.grossValuePaise - line.discountPaise);
          // Each line's tax is its exact share of the order's, rounded by less than a paisa.
          if (taxable > 0) {
            const exact = (priced.taxPaise * line.taxableValuePaise) / taxable;
            expect(Math.abs(line.taxPaise - exact)).toBeLessThan(1);
          }
        }
        expect(b.shipping.amountPaise).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });

  it("random line shares and a shipping discount: the breakdown sums exactly", () => {
    const arb = fc
      .array(
        fc.record({
          quantity: fc.integer({ min: 1, max: 50 }),
          unitPricePaise: fc.integer({ min: 0, max: 5_000_000 }),
          off: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        { minLength: 1, maxLength: 25 },
      )
      .chain((lines) =>
        fc.record({
          lines: fc.constant(lines),
          shippingPaise: fc.integer({ min: 0, max: 50_000 }),
          shippingOff: fc.boolean(),
          taxRateBasisPoints: fc.integer({ min: 0, max: 2_800 }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ lines, shippingPaise, shippingOff, taxRateBasisPoints }) => {
        const input = lines.map((l, i) => ({
          name: `Line ${i + 1}`,
          hsnCode: "3926",
          quantity: l.quantity,
          unitPricePaise: l.unitPricePaise,
          discountPaise: Math.floor(l.quantity * l.unitPricePaise * l.off),
        }));
        const subtotal = input.reduce((s, l) => s + l.quantity * l.unitPricePaise, 0);
        const itemsOff = input.reduce((s, l) => s + l.discountPaise, 0);
        const shippingDiscountPaise = shippingOff ? shippingPaise : 0;
        const taxPaise = Math.round(((subtotal - itemsOff) * taxRateBasisPoints) / 10_000);
        const order = {
          subtotalPaise: subtotal,
          discountPaise: itemsOff + shippingDiscountPaise,
          shippingPaise,
          totalPaise: subtotal - itemsOff + shippingPaise - shippingDiscountPaise + taxPaise,
        };
        const b = gstBreakdown({
          lines: input,
          shippingPaise,
          shippingDiscountPaise,
          taxPaise,
          taxRateBasisPoints,
          shopState: "Karnataka",
          deliveryState: "karnataka",
        });
        expect(invoiceMismatches(b, order)).toEqual([]);
        expect(b.totals.cgstPaise + b.totals.sgstPaise).toBe(taxPaise);
      }),
    );
  });
});

describe("print formatting", () => {
  it("groups rupees the Indian way", () => {
    expect(formatRupees(12_345_678)).toBe("Rs. 1,23,456.78");
    expect(formatRupees(0)).toBe("Rs. 0.00");
    expect(formatRupees(5)).toBe("Rs. 0.05");
    expect(formatRupees(99_999)).toBe("Rs. 999.99");
    expect(formatRupees(100_000)).toBe("Rs. 1,000.00");
    expect(formatRupees(1_000_000_000)).toBe("Rs. 1,00,00,000.00");
    expect(formatRupees(-500)).toBe("-Rs. 5.00");
    expect(formatIndianAmount(123_456_789_012)).toBe("1,23,45,67,890.12");
    expect(formatIndianAmount(Number.NaN)).toBe("0.00");
  });

  it("agrees with the en-IN locale (property)", () => {
    const inr = new Intl.NumberFormat("en-IN", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (paise) => {
        expect(formatIndianAmount(paise)).toBe(inr.format(paise / 100));
      }),
    );
  });

  it("prints percentages without trailing zeros", () => {
    expect(formatPercent(4)).toBe("4%");
    expect(formatPercent(2.5)).toBe("2.5%");
    expect(formatPercent(0.005)).toBe("0.005%");
  });
});

describe("amountInWords", () => {
  it("reads rupees and paise", () => {
    expect(amountInWords(120_345)).toBe(
      "Rupees One Thousand Two Hundred Three and Forty Five Paise Only",
    );
    expect(amountInWords(100)).toBe("Rupees One Only");
    expect(amountInWords(1_100)).toBe("Rupees Eleven Only");
    expect(amountInWords(2_000)).toBe("Rupees Twenty Only");
    expect(amountInWords(10_001)).toBe("Rupees One Hundred and One Paisa Only");
    expect(amountInWords(0)).toBe("Rupees Zero Only");
    expect(amountInWords(50)).toBe("Fifty Paise Only");
    expect(amountInWords(-100)).toBe("Minus Rupees One Only");
  });

  it("uses lakh and crore", () => {
    expect(amountInWords(10_000_000)).toBe("Rupees One Lakh Only");
    expect(amountInWords(12_345_678)).toBe(
      "Rupees One Lakh Twenty Three Thousand Four Hundred Fifty Six and Seventy Eight Paise Only",
    );
    expect(amountInWords(1_000_000_000)).toBe("Rupees One Crore Only");
    expect(amountInWords(123_456_789_00)).toBe(
      "Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine Only",
    );
    expect(amountInWords(10_500_000_000)).toBe("Rupees Ten Crore Fifty Lakh Only");
    // A thousand crore and beyond reads the crores in the same system.
    expect(amountInWords(1_234_500_000_000_00)).toBe(
      "Rupees One Lakh Twenty Three Thousand Four Hundred Fifty Crore Only",
    );
    expect(amountInWords(99_99_99_999_99)).toBe(
      "Rupees Ninety Nine Crore Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Ninety Nine Paise Only",
    );
  });

  it("rejects non-integers", () => {
    expect(() => amountInWords(1.5)).toThrow(RangeError);
    expect(() => amountInWords(Number.NaN)).toThrow(RangeError);
  });

  it("always reads as words with the right ending (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (paise) => {
        const words = amountInWords(paise);
        expect(words).toMatch(/^[A-Z][A-Za-z ]+ Only$/);
        expect(words).not.toMatch(/ {2}/);
        expect(words.includes("Paise") || words.includes("Paisa")).toBe(paise % 100 !== 0);
      }),
    );
  });
});
