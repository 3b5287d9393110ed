import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { products } from "~/db/schema.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { codFor } from "~/rules/cash-on-delivery.ts";
import { CUSTOM_PART_CATEGORY } from "~/rules/custom-part.ts";
import {
  type DeliveryEstimate,
  estimateDelivery,
  type ItemKind,
  itemKindOf,
  readyWorkingDays,
  ZONES,
  zoneBetween,
} from "~/rules/delivery.ts";
import { istToday } from "~/rules/india-time.ts";
import { chargeableGrams, type Parcel, parcelOf, shippingRate } from "~/rules/shipping-rates.ts";
import type { CourierRates } from "./courier-rates.server.ts";
import { findPin } from "./pin-directory.server.ts";
import { courierFor } from "./rates.server.ts";

/*
 * The delivery estimate a visitor asks for with a PIN code (issue 24): where (the directory),
 * when (the shop's lead times and holidays, the zone from the shop's PIN) and whether cash on
 * delivery is offered (the shop's switch and the zone's COD limit, against the product's price or
 * the cart's total when there is one).
 */

export type EstimateRequest = {
  pin: string;
  /** A catalogue product (its stock and category choose the lead time). */
  productId?: string;
  /** What is being estimated when there is no product: a custom part, or the cart in general. */
  kind?: "custom" | "cart";
  /** A custom part's ready-by day from the print queue (yyyy-mm-dd), when the page knows it. */
  readyBy?: string;
  /** The courier account's rates: a product's parcel is priced and timed by its courier. */
  courierRates?: CourierRates;
};

export type EstimateAnswer =
  | ({
      kind: "estimate";
      shippingPaise: number | null;
      /** The largest order paid on delivery to this PIN (null: no limit, or not offered). */
      codLimitPaise: number | null;
    } & DeliveryEstimate)
  | { kind: "unknown-pin"; pin: string }
  | { kind: "unknown-product" };

export async function deliveryEstimate(
  db: Database,
  request: EstimateRequest,
  now: Date = new Date(),
): Promise<EstimateAnswer> {
  const to = await findPin(db, request.pin);
  if (!to) return { kind: "unknown-pin", pin: request.pin };
  const settings = await getShopSettings(db);

  let kind: ItemKind;
  let category: string | null = null;
  let pricePaise: number | null = null;
  // What cash on delivery is weighed on: the product's price (the cart's page weighs its own
  // total against the limit answered).
  let amountPaise: number | null = null;
  let parcel: Parcel | null = null;
  if (request.productId) {
    const [product] = await db
      .select({
        quoteId: products.quoteId,
        stockCount: products.stockCount,
        category: products.category,
        pricePaise: products.pricePaise,
        isActive: products.isActive,
        weightGrams: products.weightGrams,
        boxLengthCm: products.boxLengthCm,
        boxWidthCm: products.boxWidthCm,
        boxHeightCm: products.boxHeightCm,
      })
      .from(products)
      .where(eq(products.id, request.productId));
    // A custom part belongs to one customer: the public estimate knows only catalogue products.
    if (!product?.isActive || product.quoteId) return { kind: "unknown-product" };
    kind = itemKindOf(product);
    category = product.category;
    pricePaise = product.pricePaise;
    amountPaise = product.pricePaise;
    parcel = parcelOf(product);
  } else if (request.kind === "custom") {
    kind = "custom";
    category = CUSTOM_PART_CATEGORY;
  } else {
    // The cart as a whole: the longest of what a cart may hold, printed to order.
    kind = "made-to-order";
  }

  const lead = {
    dispatchDays: settings.dispatchDays,
    printLeadDays: settings.printLeadDays,
    printLeadDaysByCategory: settings.printLeadDaysByCategory,
  };
  // The shop's own PIN missing from the directory (mistyped in settings): count from its state.
  const from = (await findPin(db, settings.shipFromPin)) ?? {
    district: "",
    state: settings.shopState,
    metro: null,
    specialZone: null,
  };
  const zone = zoneBetween(from, to);
  // A product's parcel with a courier account: its courier's rate and days (decision 0019).
  const courier =
    parcel === null
      ? null
      : await courierFor(
          settings,
          request.pin,
          chargeableGrams(parcel),
          request.courierRates ? { rates: request.courierRates, cod: false } : undefined,
        );
  const cod = codFor(
    { enabled: settings.codEnabled, maxOrderPaise: settings.codMaxOrderPaise },
    settings.shippingRates,
    zone,
    amountPaise,
  );
  const estimate = estimateDelivery({
    today: istToday(now),
    from,
    to,
    readyDays: readyWorkingDays(kind, category, lead),
    // The print queue's date for a custom part, at most a year ahead.
    readyBy:
      kind === "custom" && request.readyBy && request.readyBy <= addDays(istToday(now), 366)
        ? request.readyBy
        : undefined,
    holidays: new Set(settings.holidays),
    transitDays:
      courier?.days != null
        ? (Object.fromEntries(ZONES.map((z) => [z, courier.days])) as Record<
            (typeof ZONES)[number],
            number
          >)
        : settings.transitDays,
    cod: cod.kind === "available",
  });
  // A product on its own: the rate for its parcel, or free at the shop's free-shipping threshold.
  const free =
    settings.freeShippingThresholdPaise !== null &&
    pricePaise !== null &&
    pricePaise >= settings.freeShippingThresholdPaise;
  const shippingPaise =
    parcel === null
      ? null
      : free
        ? 0
        : courier
          ? courier.paise
          : shippingRate(settings.shippingRates, estimate.zone, chargeableGrams(parcel));
  const codLimitPaise =
    cod.kind === "available" || cod.kind === "over-limit" ? cod.limitPaise : null;
  return { kind: "estimate", ...estimate, shippingPaise, codLimitPaise };
}

/** `day` + n calendar days (none skipped), for the one-year bound. */
function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
