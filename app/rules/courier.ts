/*
 * Where a courier shipment stands (issue 24; docs/decisions/0016-courier-adapter.md): the stages
 * every carrier's statuses are read into, the order they move in, and what each means for the
 * order. Shared by the server and the browser; no I/O.
 */
import { z } from "zod";
import { DEFAULT_PARCEL, MAX_SIDE_CM, MAX_WEIGHT_GRAMS, type Parcel } from "./shipping-rates.ts";

export const CARRIER_STAGES = [
  "booked",
  "pickup_scheduled",
  "in_transit",
  "out_for_delivery",
  "undelivered",
  "delivered",
  "rto_in_transit",
  "rto_delivered",
  "cancelled",
  "lost",
  "other",
] as const;
export type CarrierStage = (typeof CARRIER_STAGES)[number];

export const isCarrierStage = (value: unknown): value is CarrierStage =>
  typeof value === "string" && (CARRIER_STAGES as readonly string[]).includes(value);

/**
 * How far along each stage is. A shipment's stage only moves to a higher rank, so a late or
 * repeated update never moves it back ("other" never moves it at all). Delivered, back at the
 * shop (RTO delivered), cancelled and lost are final.
 */
const RANK: Record<CarrierStage, number> = {
  other: -1,
  booked: 0,
  pickup_scheduled: 1,
  in_transit: 2,
  undelivered: 3,
  out_for_delivery: 3,
  rto_in_transit: 4,
  delivered: 5,
  rto_delivered: 6,
  cancelled: 7,
  lost: 7,
};

export const FINAL_STAGES: readonly CarrierStage[] = [
  "delivered",
  "rto_delivered",
  "cancelled",
  "lost",
];

/** The stage a shipment at `current` moves to on an update at `next`. */
export function nextStage(current: CarrierStage, next: CarrierStage): CarrierStage {
  if (FINAL_STAGES.includes(current)) return current;
  return RANK[next] > RANK[current] ? next : current;
}

/** What an update at a stage asks of the order (the orders module decides whether it can). */
export type OrderProgress = "shipped" | "out_for_delivery" | "delivered" | "returned";

export function orderProgressFor(stage: CarrierStage): OrderProgress | null {
  switch (stage) {
    case "in_transit":
    case "undelivered":
    case "rto_in_transit":
      return "shipped";
    case "out_for_delivery":
      return "out_for_delivery";
    case "delivered":
      return "delivered";
    case "rto_delivered":
      return "returned";
    default:
      return null;
  }
}

/** A shipment can be cancelled with the carrier until the courier has it. */
export const cancellableStage = (stage: CarrierStage) =>
  stage === "booked" || stage === "pickup_scheduled";

/** The customer's and staff's words for each stage (the timeline). */
export const stageLabels: Record<CarrierStage, string> = {
  booked: "Packed and booked with the courier",
  pickup_scheduled: "Courier pickup scheduled",
  in_transit: "On its way",
  out_for_delivery: "Out for delivery",
  undelivered: "Delivery attempted",
  delivered: "Delivered",
  rto_in_transit: "Returning to us",
  rto_delivered: "Returned to us",
  cancelled: "Shipment cancelled",
  lost: "Lost in transit",
  other: "Update from the courier",
};

/** The courier's estimated date (yyyy-mm-dd) as the customer reads it: "Fri 4 Dec". */
export function expectedDateText(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return new Intl.DateTimeFormat("en-IN", {
    weekday: "short",
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  })
    .format(date)
    .replace(",", "");
}

/**
 * The parcel staff start from when they book an order (they may change it): the items' packed
 * weights added up, in a box as long and wide as the largest item's and tall enough to hold
 * every item's volume.
 */
export function packedParcel(lines: ReadonlyArray<{ parcel: Parcel; quantity: number }>): {
  grams: number;
  box: { lengthCm: number; widthCm: number; heightCm: number };
} {
  let grams = 0;
  let volume = 0;
  let length = 0;
  let width = 0;
  let height = 0;
  for (const { parcel, quantity } of lines) {
    const n = Math.max(0, Math.floor(quantity));
    if (n === 0) continue;
    grams += Math.max(0, parcel.weightGrams) * n;
    volume += parcel.lengthCm * parcel.widthCm * parcel.heightCm * n;
    const [a, b, c] = [parcel.lengthCm, parcel.widthCm, parcel.heightCm].sort((x, y) => y - x);
    length = Math.max(length, a);
    width = Math.max(width, b);
    height = Math.max(height, c);
  }
  if (grams === 0 || length === 0) {
    return {
      grams: DEFAULT_PARCEL.weightGrams,
      box: {
        lengthCm: DEFAULT_PARCEL.lengthCm,
        widthCm: DEFAULT_PARCEL.widthCm,
        heightCm: DEFAULT_PARCEL.heightCm,
      },
    };
  }
  const tall = Math.min(MAX_SIDE_CM, Math.max(height, Math.ceil(volume / (length * width))));
  return {
    grams: Math.min(MAX_WEIGHT_GRAMS, Math.ceil(grams)),
    box: { lengthCm: length, widthCm: width, heightCm: tall },
  };
}

/** Staff's booking form: the parcel and the courier chosen (or typed, for the manual courier). */
export const bookShipmentSchema = z.object({
  courierId: z.string().trim().min(1, "Please choose a courier.").max(40),
  grams: z.coerce
    .number({ error: "Please enter the parcel's weight in grams." })
    .int("Please enter the weight in whole grams.")
    .min(1, "Please enter the parcel's weight in grams.")
    .max(MAX_WEIGHT_GRAMS, `A parcel can weigh at most ${MAX_WEIGHT_GRAMS / 1000} kg.`),
  lengthCm: boxSide("length"),
  widthCm: boxSide("width"),
  heightCm: boxSide("height"),
  courierName: z.string().trim().max(100).optional().default(""),
  awb: z.string().trim().max(64).optional().default(""),
});
export type BookShipmentInput = z.infer<typeof bookShipmentSchema>;

function boxSide(name: string) {
  return z.coerce
    .number({ error: `Please enter the box's ${name} in cm.` })
    .int(`Please enter the box's ${name} in whole cm.`)
    .min(1, `Please enter the box's ${name} in cm.`)
    .max(MAX_SIDE_CM, `A box side can be at most ${MAX_SIDE_CM} cm.`);
}
