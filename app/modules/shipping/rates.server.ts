import { inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import { pinCodes, products } from "~/db/schema.ts";
import type { ShopSettings } from "~/modules/settings/settings.server.ts";
import { pickCourier } from "~/rules/courier-choice.ts";
import { type Zone, zoneBetween } from "~/rules/delivery.ts";
import type { PinPlace } from "~/rules/pin-directory.ts";
import { cartChargeableGrams, parcelOf, shippingRate } from "~/rules/shipping-rates.ts";
import type { CourierRates } from "./courier-rates.server.ts";

/*
 * The shipping a cart costs to a PIN code (issue 24, decision 0014): the zone between the shop's
 * PIN and the customer's, the cart's chargeable weight from each product's packed weight and box,
 * priced by the shop's rate table. Checkout calls it inside the order's transaction; the cart and
 * the checkout page call it to show the same figure.
 */

export type ShippingQuote =
  | {
      kind: "rated";
      /** The customer's place and zone, the chargeable weight and its price. */
      place: PinPlace;
      zone: Zone;
      grams: number;
      paise: number;
      /** The courier whose rate this is (decision 0019); absent: the shop's rate table. */
      courier?: { id: string; name: string; days: number | null };
    }
  | { kind: "unknown-pin"; pin: string }
  /** The directory was never loaded (a database the shop never started on): the flat fee. */
  | { kind: "flat"; paise: number };

export type ShippedLine = { productId: string; quantity: number };

/** The courier account's rates, and whether the order is paid on delivery (decision 0019). */
export type CourierPricing = { rates: CourierRates; cod: boolean };

type RateSettings = Pick<
  ShopSettings,
  | "shipFromPin"
  | "shopState"
  | "shippingFeePaise"
  | "shippingRates"
  | "courierRates"
  | "preferredCourier"
>;

/** The shipping for these lines to this PIN, from the shop's settings. */
export async function shippingFor(
  db: Database | Tx,
  settings: RateSettings,
  pin: string,
  lines: readonly ShippedLine[],
  courier?: CourierPricing,
): Promise<ShippingQuote> {
  const pins = [...new Set([pin, settings.shipFromPin])];
  // One query at a time: inside checkout's transaction they share one connection.
  const places = await db.select().from(pinCodes).where(inArray(pinCodes.pin, pins));
  const to = places.find((p) => p.pin === pin);
  if (!to) {
    const loaded = await db.execute(sql`select exists (select 1 from pin_directory) as loaded`);
    const [row] = (loaded as unknown as { rows: Array<{ loaded: boolean }> }).rows;
    return row.loaded
      ? { kind: "unknown-pin", pin }
      : { kind: "flat", paise: settings.shippingFeePaise };
  }
  // The shop's own PIN missing from the directory (mistyped in settings): counted from its state.
  const from = places.find((p) => p.pin === settings.shipFromPin) ?? {
    district: "",
    state: settings.shopState,
    metro: null,
    specialZone: null,
  };
  const zone = zoneBetween(from, to);
  const grams = await chargeableGramsOf(db, lines);
  const chosen = await courierFor(settings, pin, grams, courier);
  return {
    kind: "rated",
    place: to,
    zone,
    grams,
    paise: chosen ? chosen.paise : shippingRate(settings.shippingRates, zone, grams),
    ...(chosen
      ? { courier: { id: chosen.courierId, name: chosen.courierName, days: chosen.days } }
      : {}),
  };
}

/**
 * The courier whose rate is charged for a parcel to a PIN, per the shop's setting; null: the
 * rate table (the setting says so, no courier account, the carrier failed or serves no courier).
 */
export async function courierFor(
  settings: Pick<RateSettings, "shipFromPin" | "courierRates" | "preferredCourier">,
  pin: string,
  grams: number,
  courier: CourierPricing | undefined,
) {
  if (!courier || settings.courierRates === "table") return null;
  const offers = await courier.rates({
    pickupPin: settings.shipFromPin,
    deliveryPin: pin,
    grams,
    cod: courier.cod,
  });
  if (!offers) return null;
  return pickCourier(
    offers,
    { mode: settings.courierRates, preferred: settings.preferredCourier },
    courier.cod,
  );
}

/** The lines' chargeable weight, everything in one shipment (products unknown are left out). */
export async function chargeableGramsOf(
  db: Database | Tx,
  lines: readonly ShippedLine[],
): Promise<number> {
  const ids = [...new Set(lines.map((l) => l.productId))];
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({
            id: products.id,
            weightGrams: products.weightGrams,
            boxLengthCm: products.boxLengthCm,
            boxWidthCm: products.boxWidthCm,
            boxHeightCm: products.boxHeightCm,
          })
          .from(products)
          .where(inArray(products.id, ids));
  const byId = new Map(rows.map((r) => [r.id, parcelOf(r)]));
  return cartChargeableGrams(
    lines.flatMap((l) => {
      const parcel = byId.get(l.productId);
      return parcel ? [{ parcel, quantity: l.quantity }] : [];
    }),
  );
}
