/*
 * Which courier's rate checkout charges when the shop has a courier account (issue 24; decision
 * 0019): the rate table (no courier), the cheapest serviceable courier, or the shop's preferred
 * courier, the cheapest where the preferred one doesn't serve the PIN. Pure; no I/O.
 */
import type { CourierRateMode } from "./settings-schema.ts";

/** One courier the carrier offers for a parcel (its price in paise, its transit days). */
export type CourierOffer = {
  courierId: string;
  courierName: string;
  paise: number;
  days: number | null;
  codAvailable: boolean;
};

/** Courier names compare without case, spacing or punctuation ("Delhivery  surface" = "Delhivery Surface"). */
export const courierKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "");

/**
 * The courier whose rate is charged, or null for the rate table (the table mode, or no courier
 * that can take the parcel, or none that collects cash for a COD order).
 */
export function pickCourier(
  offers: readonly CourierOffer[],
  setting: { mode: CourierRateMode; preferred: string },
  cod: boolean,
): CourierOffer | null {
  if (setting.mode === "table") return null;
  const usable = offers.filter((o) => o.paise >= 0 && (!cod || o.codAvailable));
  if (usable.length === 0) return null;
  if (setting.mode === "preferred") {
    const wanted = courierKey(setting.preferred);
    const preferred = usable.find((o) => wanted !== "" && courierKey(o.courierName) === wanted);
    if (preferred) return preferred;
  }
  // The cheapest; the quicker of two at one price, then the carrier's order.
  return usable.reduce((best, o) =>
    o.paise < best.paise || (o.paise === best.paise && (o.days ?? 99) < (best.days ?? 99))
      ? o
      : best,
  );
}
