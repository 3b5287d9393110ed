import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZONES, zoneBetween } from "./delivery.ts";
import {
  cartChargeableGrams,
  chargeableGrams,
  customPartParcel,
  DEFAULT_PARCEL,
  DEFAULT_RATE_TABLE,
  type Parcel,
  parcelOf,
  shippingRate,
  volumetricGrams,
} from "./shipping-rates.ts";

const parcel = fc.record({
  weightGrams: fc.integer({ min: 0, max: 100_000 }),
  lengthCm: fc.integer({ min: 0, max: 300 }),
  widthCm: fc.integer({ min: 0, max: 300 }),
  heightCm: fc.integer({ min: 0, max: 300 }),
});
const zone = fc.constantFrom(...ZONES);
const rate = fc.record({
  firstPaise: fc.integer({ min: 0, max: 10_000_000 }),
  additionalPaise: fc.integer({ min: 0, max: 10_000_000 }),
  codFeePaise: fc.integer({ min: 0, max: 1_000_000 }),
  codLimitPaise: fc.option(fc.integer({ min: 0, max: 1_000_000_000 })),
});
const table = fc.record({ local: rate, state: rate, metro: rate, rest: rate, special: rate });

describe("chargeable weight", () => {
  it("is the packed weight when the box is small, rounded up to the next 500 g", () => {
    const box = { lengthCm: 10, widthCm: 10, heightCm: 10 }; // 200 g volumetric
    expect(chargeableGrams({ ...box, weightGrams: 120 })).toBe(500);
    expect(chargeableGrams({ ...box, weightGrams: 500 })).toBe(500);
    expect(chargeableGrams({ ...box, weightGrams: 501 })).toBe(1000);
    expect(chargeableGrams({ ...box, weightGrams: 1250 })).toBe(1500);
  });

  it("is the volumetric weight when the box is large and light (L×B×H / 5000 kg)", () => {
    const box = { lengthCm: 40, widthCm: 30, heightCm: 20, weightGrams: 300 };
    expect(volumetricGrams(box)).toBe(4800);
    expect(chargeableGrams(box)).toBe(5000);
  });

  it("charges an empty parcel the first 500 g", () => {
    expect(chargeableGrams({ weightGrams: 0, lengthCm: 0, widthCm: 0, heightCm: 0 })).toBe(500);
  });

  it("adds a cart's weights and volumes before rounding once", () => {
    const small: Parcel = { weightGrams: 200, lengthCm: 10, widthCm: 10, heightCm: 10 };
    expect(cartChargeableGrams([{ parcel: small, quantity: 2 }])).toBe(500);
    expect(cartChargeableGrams([{ parcel: small, quantity: 3 }])).toBe(1000);
    const big: Parcel = { weightGrams: 100, lengthCm: 50, widthCm: 10, heightCm: 10 };
    expect(cartChargeableGrams([{ parcel: big, quantity: 1 }])).toBe(1000);
  });

  it("is a multiple of 500 g, at least the packed and the volumetric weight", () => {
    fc.assert(
      fc.property(parcel, (p) => {
        const g = chargeableGrams(p);
        expect(g % 500).toBe(0);
        expect(g).toBeGreaterThanOrEqual(p.weightGrams);
        expect(g).toBeGreaterThanOrEqual(volumetricGrams(p));
        expect(g - Math.max(p.weightGrams, volumetricGrams(p))).toBeLessThanOrEqual(500);
      }),
    );
  });

  it("never falls when a parcel gets heavier or its box bigger", () => {
    fc.assert(
      fc.property(
        parcel,
        fc.nat(5_000),
        fc.nat(50),
        fc.nat(50),
        fc.nat(50),
        (p, dw, dl, db, dh) => {
          const bigger = {
            weightGrams: p.weightGrams + dw,
            lengthCm: p.lengthCm + dl,
            widthCm: p.widthCm + db,
            heightCm: p.heightCm + dh,
          };
          expect(chargeableGrams(bigger)).toBeGreaterThanOrEqual(chargeableGrams(p));
        },
      ),
    );
  });

  it("never falls when a cart gets another unit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ parcel, quantity: fc.integer({ min: 1, max: 5 }) })),
        (lines) => {
          if (lines.length === 0) return;
          const more = lines.map((l, i) => (i === 0 ? { ...l, quantity: l.quantity + 1 } : l));
          expect(cartChargeableGrams(more)).toBeGreaterThanOrEqual(cartChargeableGrams(lines));
        },
      ),
    );
  });
});

describe("parcels", () => {
  it("fills a product's missing weight and box with the defaults", () => {
    expect(
      parcelOf({ weightGrams: null, boxLengthCm: null, boxWidthCm: null, boxHeightCm: null }),
    ).toEqual({
      weightGrams: DEFAULT_PARCEL.weightGrams,
      lengthCm: DEFAULT_PARCEL.lengthCm,
      widthCm: DEFAULT_PARCEL.widthCm,
      heightCm: DEFAULT_PARCEL.heightCm,
    });
    expect(parcelOf({ weightGrams: 900, boxLengthCm: 30, boxWidthCm: 20, boxHeightCm: 5 })).toEqual(
      { weightGrams: 900, lengthCm: 30, widthCm: 20, heightCm: 5 },
    );
  });

  it("packs a custom part in its size plus 2 cm each side, its grams plus 100 g", () => {
    expect(customPartParcel(84.2, { x: 120, y: 45.5, z: 30 })).toEqual({
      weightGrams: 185,
      boxLengthCm: 16,
      boxWidthCm: 9,
      boxHeightCm: 7,
    });
  });
});

describe("shipping rate", () => {
  it("charges the zone's first 500 g and each further 500 g", () => {
    expect(shippingRate(DEFAULT_RATE_TABLE, "local", 500)).toBe(4_000);
    expect(shippingRate(DEFAULT_RATE_TABLE, "local", 1_500)).toBe(4_000 + 2 * 3_000);
    expect(shippingRate(DEFAULT_RATE_TABLE, "special", 1_000)).toBe(12_000 + 10_000);
    expect(shippingRate(DEFAULT_RATE_TABLE, "rest", 501)).toBe(8_000 + 7_000);
  });

  it("costs more the further the zone in the default table", () => {
    for (const g of [500, 2_000, 10_000]) {
      const rates = ZONES.map((z) => shippingRate(DEFAULT_RATE_TABLE, z, g));
      expect([...rates].sort((a, b) => a - b)).toEqual(rates);
    }
  });

  it("is never negative, whole paise, and never falls as the weight grows", () => {
    fc.assert(
      fc.property(table, zone, fc.nat(200_000), fc.nat(10_000), (t, z, g, more) => {
        const r = shippingRate(t, z, g);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(r)).toBe(true);
        expect(shippingRate(t, z, g + more)).toBeGreaterThanOrEqual(r);
      }),
    );
  });
});

describe("zone from two PINs' places", () => {
  const bengaluru = {
    district: "Bengaluru",
    state: "Karnataka",
    metro: "Bengaluru",
    specialZone: null,
  };
  const mysuru = { district: "Mysuru", state: "Karnataka", metro: null, specialZone: null };
  const kolkata = {
    district: "Kolkata",
    state: "West Bengal",
    metro: "Kolkata",
    specialZone: null,
  };
  const bhopal = { district: "Bhopal", state: "Madhya Pradesh", metro: null, specialZone: null };
  const guwahati = {
    district: "Kamrup Metropolitan",
    state: "Assam",
    metro: null,
    specialZone: "north-east" as const,
  };

  it("names each zone and prices it from the table", () => {
    const cases = [
      [bengaluru, bengaluru, "local"],
      [bengaluru, mysuru, "state"],
      [bengaluru, kolkata, "metro"],
      [bengaluru, bhopal, "rest"],
      [bengaluru, guwahati, "special"],
    ] as const;
    for (const [from, to, expected] of cases) {
      const z = zoneBetween(from, to);
      expect(z, `${from.district} → ${to.district}`).toBe(expected);
      expect(shippingRate(DEFAULT_RATE_TABLE, z, 500)).toBe(
        DEFAULT_RATE_TABLE[expected].firstPaise,
      );
    }
  });

  it("is the same zone either way round", () => {
    const places = [bengaluru, mysuru, kolkata, bhopal, guwahati];
    for (const a of places)
      for (const b of places) expect(zoneBetween(a, b)).toBe(zoneBetween(b, a));
  });
});
