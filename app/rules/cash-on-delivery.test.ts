import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codFee, codFor, codLimit, codRefusal, codText } from "./cash-on-delivery.ts";
import { ZONES, zoneBetween } from "./delivery.ts";
import { DEFAULT_RATE_TABLE, type RateTable, rateTableOf } from "./shipping-rates.ts";

const zone = fc.constantFrom(...ZONES);
const zoneRate = fc.record({
  firstPaise: fc.integer({ min: 0, max: 10_000_000 }),
  additionalPaise: fc.integer({ min: 0, max: 10_000_000 }),
  codFeePaise: fc.integer({ min: 0, max: 1_000_000 }),
  codLimitPaise: fc.option(fc.integer({ min: 0, max: 1_000_000_000 })),
});
const table = fc.record({
  local: zoneRate,
  state: zoneRate,
  metro: zoneRate,
  rest: zoneRate,
  special: zoneRate,
});
const shop = fc.record({
  enabled: fc.boolean(),
  maxOrderPaise: fc.option(fc.integer({ min: 1, max: 1_000_000_000 })),
});

/** The demo's terms: ₹49 fee, up to ₹5,000, not in the special zones. */
const demo: RateTable = {
  ...DEFAULT_RATE_TABLE,
  local: { ...DEFAULT_RATE_TABLE.local, codFeePaise: 4_900, codLimitPaise: 500_000 },
  rest: { ...DEFAULT_RATE_TABLE.rest, codFeePaise: 4_900, codLimitPaise: 500_000 },
  special: { ...DEFAULT_RATE_TABLE.special, codFeePaise: 4_900, codLimitPaise: 0 },
};
const on = { enabled: true, maxOrderPaise: null };

describe("cash on delivery by zone", () => {
  it("is offered up to the zone's limit, with the zone's fee", () => {
    expect(codFor(on, demo, "local", 500_000)).toEqual({
      kind: "available",
      feePaise: 4_900,
      limitPaise: 500_000,
    });
    expect(codFor(on, demo, "local", 500_001)).toEqual({ kind: "over-limit", limitPaise: 500_000 });
    // No amount yet (a page without a price): only the switch and the zone decide.
    expect(codFor(on, demo, "local", null).kind).toBe("available");
  });

  it("is off everywhere when the shop's switch is off, and in a zone whose limit is ₹0", () => {
    expect(codFor({ enabled: false, maxOrderPaise: null }, demo, "local", 100)).toEqual({
      kind: "off",
    });
    expect(codFor(on, demo, "special", 100)).toEqual({ kind: "zone-off", zone: "special" });
    expect(codFor(on, demo, "special", null).kind).toBe("zone-off");
  });

  it("the smaller of the zone's and the shop's limits applies", () => {
    expect(codLimit({ enabled: true, maxOrderPaise: 300_000 }, demo, "local")).toBe(300_000);
    expect(codLimit({ enabled: true, maxOrderPaise: 900_000 }, demo, "local")).toBe(500_000);
    expect(codLimit({ enabled: true, maxOrderPaise: 900_000 }, demo, "metro")).toBe(900_000);
    expect(codLimit(on, demo, "metro")).toBeNull();
    // No zone known (the PIN directory never loaded): the shop's limit alone, and no fee.
    expect(codLimit({ enabled: true, maxOrderPaise: 900_000 }, demo, null)).toBe(900_000);
    expect(codFor(on, demo, null, 10_000_000)).toEqual({
      kind: "available",
      feePaise: 0,
      limitPaise: null,
    });
  });

  it("an older stored table (no COD fields) keeps today's behaviour: no fee, no zone limit", () => {
    const old = {
      local: { firstPaise: 4_000, additionalPaise: 3_000 },
      state: { firstPaise: 5_000, additionalPaise: 4_000 },
      metro: { firstPaise: 6_500, additionalPaise: 5_500 },
      rest: { firstPaise: 8_000, additionalPaise: 7_000 },
      special: { firstPaise: 12_000, additionalPaise: 10_000 },
    };
    const read = rateTableOf(old);
    expect(read).toEqual(DEFAULT_RATE_TABLE);
    for (const z of ZONES) {
      expect(codFor({ enabled: true, maxOrderPaise: 50_000 }, read, z, 50_000)).toEqual({
        kind: "available",
        feePaise: 0,
        limitPaise: 50_000,
      });
    }
    // Nothing stored at all, or nonsense in a field: the defaults.
    expect(rateTableOf(null)).toEqual(DEFAULT_RATE_TABLE);
    expect(rateTableOf({ local: { codFeePaise: -5, codLimitPaise: "x" } }).local).toEqual(
      DEFAULT_RATE_TABLE.local,
    );
    // A stored limit of 0 (COD off in the zone) stays 0.
    expect(rateTableOf({ special: { codLimitPaise: 0 } }).special.codLimitPaise).toBe(0);
  });

  it("says why in the shop's words", () => {
    expect(codRefusal({ kind: "off" }, "700016")).toBe(codText.off);
    expect(codRefusal({ kind: "zone-off", zone: "special" }, "744101")).toBe(
      "Cash on Delivery isn't available for PIN code 744101. Please pay online.",
    );
    expect(codRefusal({ kind: "over-limit", limitPaise: 500_000 }, "700016")).toBe(
      "Cash on Delivery is available for orders up to ₹5,000.00. Please pay online.",
    );
    expect(codRefusal({ kind: "available", feePaise: 0, limitPaise: null }, "700016")).toBeNull();
  });

  it("zone lookup: Kolkata from Kolkata is local, Andaman from anywhere is special", () => {
    const kolkata = {
      district: "Kolkata",
      state: "West Bengal",
      metro: "Kolkata",
      specialZone: null,
    };
    const andaman = {
      district: "South Andaman",
      state: "Andaman and Nicobar Islands",
      metro: null,
      specialZone: "andaman-nicobar" as const,
    };
    expect(codFor(on, demo, zoneBetween(kolkata, kolkata), 100_000).kind).toBe("available");
    expect(codFor(on, demo, zoneBetween(kolkata, andaman), 100_000).kind).toBe("zone-off");
  });

  it("property: the fee is never negative, and an offered order never exceeds the limit", () => {
    fc.assert(
      fc.property(
        shop,
        table,
        zone,
        fc.option(fc.integer({ min: 0, max: 2_000_000_000 })),
        (s, t, z, amount) => {
          expect(codFee(t, z)).toBeGreaterThanOrEqual(0);
          const v = codFor(s, t, z, amount);
          if (v.kind === "available") {
            expect(s.enabled).toBe(true);
            expect(v.feePaise).toBeGreaterThanOrEqual(0);
            expect(t[z].codLimitPaise).not.toBe(0);
            if (amount !== null && v.limitPaise !== null)
              expect(amount).toBeLessThanOrEqual(v.limitPaise);
            if (amount !== null && t[z].codLimitPaise !== null) {
              expect(amount).toBeLessThanOrEqual(t[z].codLimitPaise as number);
            }
            if (amount !== null && s.maxOrderPaise !== null) {
              expect(amount).toBeLessThanOrEqual(s.maxOrderPaise);
            }
          }
          // Raising the limit never takes COD away; a smaller order is never refused for its size.
          if (v.kind === "over-limit" && amount !== null) {
            expect(codFor(s, t, z, v.limitPaise).kind).toBe("available");
          }
        },
      ),
    );
  });

  it("property: a table read back from storage is whole and never negative", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (stored) => {
        const read = rateTableOf(stored);
        for (const z of ZONES) {
          for (const v of [read[z].firstPaise, read[z].additionalPaise, read[z].codFeePaise]) {
            expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
          }
          const l = read[z].codLimitPaise;
          expect(l === null || (Number.isSafeInteger(l) && l >= 0)).toBe(true);
        }
      }),
    );
  });
});
