import { z } from "zod";
import type { PinPlace } from "./pin-directory.ts";
import { addWorkingDays, isIsoDay, shortDate } from "./working-days.ts";

/*
 * When an order reaches a PIN code (issue 24): the item's ready-by date (in stock: the shop's
 * dispatch time; printed to order or a custom part: the print lead time) plus the courier's days
 * for the zone between the shop's PIN and the customer's, counted in working days in India:
 * Sundays and the shop's holidays don't count. Pure: the server's estimate endpoint and the tests
 * use it; no I/O, no clock (today is passed in).
 */

/** Courier zones as Indian couriers rate them (A…E): within the city, the state, metro to metro,
 * the rest of India, and the special zones (North-East, J&K, Ladakh, A&N, Lakshadweep). */
export const ZONES = ["local", "state", "metro", "rest", "special"] as const;
export type Zone = (typeof ZONES)[number];

export const zoneLabels: Record<Zone, string> = {
  local: "Within the city",
  state: "Within the state",
  metro: "Metro to metro",
  rest: "Rest of India",
  special: "Special zone",
};

/** The courier's working days per zone (a simple table until real couriers quote them). */
export const TRANSIT_DAYS: Record<Zone, number> = {
  local: 1,
  state: 2,
  metro: 3,
  rest: 5,
  special: 7,
};

type Place = Pick<PinPlace, "district" | "state" | "metro" | "specialZone">;

const sameCity = (a: Place, b: Place) =>
  (a.metro !== null && a.metro === b.metro) ||
  (a.state === b.state && a.district.toLowerCase() === b.district.toLowerCase());

/**
 * The zone between two places: the same city (or metro area) first, then a special zone at either
 * end, the same state, two metros, and otherwise the rest of India.
 */
export function zoneBetween(from: Place, to: Place): Zone {
  if (sameCity(from, to)) return "local";
  if (from.specialZone !== null || to.specialZone !== null) return "special";
  if (from.state === to.state) return "state";
  if (from.metro !== null && to.metro !== null) return "metro";
  return "rest";
}

// ---- What is being sent ----

/** How an item becomes ready: from the shelf, printed to order, or a customer's own part. */
export type ItemKind = "in-stock" | "made-to-order" | "custom";

export type LeadTimes = {
  /** Working days to dispatch an item already on the shelf. */
  dispatchDays: number;
  /** Working days to print an item made to order (or a custom part) when its category has none. */
  printLeadDays: number;
  /** Print lead time per category name. */
  printLeadDaysByCategory: Record<string, number>;
};

/** The working days before the item can be handed to the courier. */
export function readyWorkingDays(kind: ItemKind, category: string | null, lead: LeadTimes): number {
  if (kind === "in-stock") return lead.dispatchDays;
  const byCategory = category ? lead.printLeadDaysByCategory[category] : undefined;
  return byCategory ?? lead.printLeadDays;
}

/**
 * A product's kind: a custom part is one; stock counted and above zero is on the shelf; stock not
 * counted is printed to order. (Stock counted at zero can't be bought; it is "made to order" here
 * only so the estimate still answers.)
 */
export function itemKindOf(product: {
  quoteId: string | null;
  stockCount: number | null;
}): ItemKind {
  if (product.quoteId) return "custom";
  return product.stockCount !== null && product.stockCount > 0 ? "in-stock" : "made-to-order";
}

export type DeliveryEstimate = {
  pin: string;
  district: string;
  state: string;
  zone: Zone;
  /** The day the item is ready to hand over (yyyy-mm-dd, India). */
  readyBy: string;
  /** The day it should arrive (yyyy-mm-dd, India). */
  deliverBy: string;
  cod: boolean;
};

/** The whole estimate: today (India) + ready days, then + the zone's courier days. */
export function estimateDelivery(input: {
  today: string;
  from: Place;
  to: PinPlace;
  readyDays: number;
  /** A ready-by date already known (a custom part's, from the print queue) replaces the lead time. */
  readyBy?: string;
  holidays: ReadonlySet<string>;
  transitDays?: Record<Zone, number>;
  cod: boolean;
}): DeliveryEstimate {
  const zone = zoneBetween(input.from, input.to);
  const counted = addWorkingDays(input.today, input.readyDays, input.holidays);
  const readyBy =
    input.readyBy !== undefined && input.readyBy > input.today
      ? addWorkingDays(input.readyBy, 0, input.holidays)
      : counted;
  const transit = (input.transitDays ?? TRANSIT_DAYS)[zone];
  // Handed over on readyBy; the courier's days count from the next working day.
  const deliverBy = addWorkingDays(readyBy, transit, input.holidays);
  return {
    pin: input.to.pin,
    district: input.to.district,
    state: input.to.state,
    zone,
    readyBy,
    deliverBy,
    cod: input.cod,
  };
}

export const deliveryText = {
  unknownPin: "We don't deliver to this PIN code yet",
  codAvailable: "Cash on delivery available",
  codUnavailable: "Cash on delivery not available",
  /** Refused when an address is saved with a well-formed PIN the directory doesn't know. */
  pinNotFound: "This PIN code doesn't exist. Please enter a valid 6-digit Indian PIN code.",
  busy: "Too many requests. Please wait a minute and try again.",
} as const;

/** "Delivers to 700016 (Kolkata, West Bengal) by Fri 4 Dec". */
export function deliveryLine(
  e: Pick<DeliveryEstimate, "pin" | "district" | "state" | "deliverBy">,
) {
  return `Delivers to ${e.pin} (${e.district}, ${e.state}) by ${shortDate(e.deliverBy)}`;
}

// ---- The estimate endpoint's contract (GET /api/delivery-estimate) ----

/** The query: a PIN, and a product id or what kind of item (a custom part, the cart). */
export const estimateQuerySchema = z
  .object({
    pin: z
      .string({ error: "Please enter a valid 6-digit Indian PIN code" })
      .trim()
      .regex(/^[1-9]\d{5}$/, "Please enter a valid 6-digit Indian PIN code"),
    product: z.uuid({ error: "Invalid product id" }).optional(),
    kind: z.enum(["custom", "cart"]).optional(),
    /** A custom part's ready-by day (the quote page's, from the print queue). */
    ready: z.string().refine(isIsoDay, "Invalid ready-by date").optional(),
  })
  .strict()
  .refine((q) => q.ready === undefined || q.kind === "custom", {
    message: "A ready-by date is for a custom part",
    path: ["ready"],
  });

/** What the endpoint answers (JSON). */
export type EstimateResponse =
  | {
      kind: "estimate";
      pin: string;
      district: string;
      state: string;
      zone: Zone;
      readyBy: string;
      deliverBy: string;
      cod: boolean;
      /** A product's shipping to this PIN on its own (0: free), in paise; null for the cart or a custom part. */
      shippingPaise: number | null;
      /**
       * The largest order paid on delivery to this PIN (null: no limit, or not offered): the cart
       * weighs its own total against it.
       */
      codLimitPaise: number | null;
    }
  | { kind: "unknown-pin"; pin: string }
  | { kind: "invalid"; message: string }
  | { kind: "unknown-product" }
  | { kind: "busy"; message: string };
