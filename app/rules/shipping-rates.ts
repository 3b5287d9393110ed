import type { Zone } from "./delivery.ts";

/*
 * What the courier charges for a parcel (issue 24), pure: the parcel's chargeable weight (the
 * greater of its packed weight and its volumetric weight, L×B×H in cm / 5000 in kg, rounded up to
 * the next 500 g) priced by the zone between the shop's PIN and the customer's (app/rules/
 * delivery.ts `zoneBetween`): a price for the first 500 g and one for each further 500 g. The shop
 * keeps the table in its settings; checkout charges what `shippingRate` says (decision 0014).
 */

/** Couriers bill in steps of half a kilo. */
export const WEIGHT_STEP_GRAMS = 500;
/** cm³ per kg: the volumetric divisor Indian couriers use for surface parcels. */
export const VOLUMETRIC_DIVISOR = 5000;

/** What a product weighs packed and the box it ships in, when the shop hasn't said. */
export const DEFAULT_PARCEL = {
  weightGrams: 250,
  lengthCm: 15,
  widthCm: 15,
  heightCm: 10,
} as const;

/** The largest parcel a shop can describe: 100 kg, sides of 3 m. */
export const MAX_WEIGHT_GRAMS = 100_000;
export const MAX_SIDE_CM = 300;

export type Parcel = {
  /** Packed weight in grams. */
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
};

/** A product's stored fields (null: not set) as a parcel, with the defaults filled in. */
export function parcelOf(p: {
  weightGrams: number | null;
  boxLengthCm: number | null;
  boxWidthCm: number | null;
  boxHeightCm: number | null;
}): Parcel {
  return {
    weightGrams: p.weightGrams ?? DEFAULT_PARCEL.weightGrams,
    lengthCm: p.boxLengthCm ?? DEFAULT_PARCEL.lengthCm,
    widthCm: p.boxWidthCm ?? DEFAULT_PARCEL.widthCm,
    heightCm: p.boxHeightCm ?? DEFAULT_PARCEL.heightCm,
  };
}

/** Packing room around a custom printed part, each side, and the packing's own weight. */
const CUSTOM_PADDING_CM = 2;
const CUSTOM_PACKING_GRAMS = 100;

/** A custom printed part's parcel from its quote: the part's grams and size (mm) plus packing. */
export function customPartParcel(grams: number, sizeMm: { x: number; y: number; z: number }) {
  const side = (mm: number) =>
    Math.min(MAX_SIDE_CM, Math.ceil(Math.max(0, mm) / 10) + 2 * CUSTOM_PADDING_CM);
  return {
    weightGrams: Math.min(MAX_WEIGHT_GRAMS, Math.ceil(Math.max(0, grams)) + CUSTOM_PACKING_GRAMS),
    boxLengthCm: side(sizeMm.x),
    boxWidthCm: side(sizeMm.y),
    boxHeightCm: side(sizeMm.z),
  };
}

/** Volumetric weight in grams: L×B×H (cm) / 5000 kg. */
export function volumetricGrams(p: Pick<Parcel, "lengthCm" | "widthCm" | "heightCm">): number {
  const cm3 = Math.max(0, p.lengthCm) * Math.max(0, p.widthCm) * Math.max(0, p.heightCm);
  return (cm3 * 1000) / VOLUMETRIC_DIVISOR;
}

/** Rounded up to the next 500 g; at least one step (an empty parcel still costs the first). */
export function roundUpToStep(grams: number): number {
  return Math.max(1, Math.ceil(grams / WEIGHT_STEP_GRAMS)) * WEIGHT_STEP_GRAMS;
}

/** One parcel's chargeable weight: the greater of its packed and volumetric weights, rounded up. */
export function chargeableGrams(p: Parcel): number {
  return roundUpToStep(Math.max(Math.max(0, p.weightGrams), volumetricGrams(p)));
}

/**
 * A cart's chargeable weight, everything packed in one shipment: the packed weights add up, and
 * so do the boxes' volumes (the volumetric weight of the sum); the greater, rounded up once.
 */
export function cartChargeableGrams(lines: ReadonlyArray<{ parcel: Parcel; quantity: number }>) {
  let actual = 0;
  let volumetric = 0;
  for (const { parcel, quantity } of lines) {
    const n = Math.max(0, Math.floor(quantity));
    actual += Math.max(0, parcel.weightGrams) * n;
    volumetric += volumetricGrams(parcel) * n;
  }
  return roundUpToStep(Math.max(actual, volumetric));
}

/**
 * A zone's price: the first 500 g, and each further 500 g (paise); and its cash on delivery: the
 * fee added to an order paid on delivery, and the largest order it is offered for (null: no limit
 * of the zone's own; 0: not offered in the zone).
 */
export type ZoneRate = {
  firstPaise: number;
  additionalPaise: number;
  codFeePaise: number;
  codLimitPaise: number | null;
};
export type RateTable = Record<Zone, ZoneRate>;

/** COD as shops had it before it was set per zone: no fee, only the shop-wide switch and limit. */
export const DEFAULT_ZONE_COD = { codFeePaise: 0, codLimitPaise: null } as const;

/** Indian couriers' surface rates as a small shop pays them (2026), rounded. */
export const DEFAULT_RATE_TABLE: RateTable = {
  local: { firstPaise: 4_000, additionalPaise: 3_000, ...DEFAULT_ZONE_COD },
  state: { firstPaise: 5_000, additionalPaise: 4_000, ...DEFAULT_ZONE_COD },
  metro: { firstPaise: 6_500, additionalPaise: 5_500, ...DEFAULT_ZONE_COD },
  rest: { firstPaise: 8_000, additionalPaise: 7_000, ...DEFAULT_ZONE_COD },
  special: { firstPaise: 12_000, additionalPaise: 10_000, ...DEFAULT_ZONE_COD },
};

/** What a shop's stored table may hold: tables saved before COD was set per zone lack its fields. */
export type StoredRateTable = Record<Zone, Partial<ZoneRate>>;

const paise = (value: unknown): number | null =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;

/** A stored table read whole: a zone or field missing (an older table) takes its default. */
export function rateTableOf(stored: unknown): RateTable {
  const zones = (stored && typeof stored === "object" ? stored : {}) as Partial<StoredRateTable>;
  const out = {} as RateTable;
  for (const zone of Object.keys(DEFAULT_RATE_TABLE) as Zone[]) {
    const d = DEFAULT_RATE_TABLE[zone];
    const z: Partial<ZoneRate> = zones[zone] && typeof zones[zone] === "object" ? zones[zone] : {};
    out[zone] = {
      firstPaise: paise(z.firstPaise) ?? d.firstPaise,
      additionalPaise: paise(z.additionalPaise) ?? d.additionalPaise,
      codFeePaise: paise(z.codFeePaise) ?? d.codFeePaise,
      codLimitPaise: paise(z.codLimitPaise) ?? d.codLimitPaise,
    };
  }
  return out;
}

/** The rate for a chargeable weight in a zone: the first step, then each further step. Never below 0. */
export function shippingRate(table: RateTable, zone: Zone, grams: number): number {
  const rate = table[zone];
  const steps = roundUpToStep(grams) / WEIGHT_STEP_GRAMS;
  return Math.max(0, rate.firstPaise) + Math.max(0, rate.additionalPaise) * (steps - 1);
}
