/*
 * One adapter per courier (issue 24; docs/decisions/0016-courier-adapter.md), shaped like the
 * payment gateways: the shipping module speaks only this interface. `manual` is the default (staff
 * type the courier and AWB, the shop's rate table prices, the PIN directory decides where it
 * delivers); `shiprocket` follows Shiprocket's published API (shared reference: shipping.md).
 * Amounts are integer paise, weights grams, sizes cm. Nothing here touches the database.
 */
import type { CarrierStage } from "~/rules/courier.ts";

export type CarrierName = "manual" | "shiprocket";

export type Box = { lengthCm: number; widthCm: number; heightCm: number };

export type RateRequest = {
  pickupPin: string;
  deliveryPin: string;
  /** The parcel's chargeable (or dead) weight. */
  grams: number;
  cod: boolean;
  box?: Box;
  /** The order's value (COD charges and insurance are computed on it). */
  declaredValuePaise?: number;
};

/** One courier that can take the parcel, with its price and time. */
export type CourierOption = {
  /** The carrier's id for the courier (Shiprocket's courier_company_id), or "manual". */
  courierId: string;
  courierName: string;
  /** What the courier charges the shop (freight, plus COD charges when asked with COD). */
  paise: number;
  codAvailable: boolean;
  /** Transit days the carrier promises, when it says. */
  days: number | null;
  /** Its estimated delivery date (yyyy-mm-dd, India), when it says. */
  etd: string | null;
};

export type Serviceability =
  | { serviceable: false; reason: string }
  | { serviceable: true; options: CourierOption[]; recommendedId: string | null };

export type ShipmentAddress = {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  pin: string;
  phone: string;
  email: string;
};

export type ShipmentRequest = {
  /** Our unique reference for the booking (Shiprocket's order_id, ≤ 50 chars). */
  reference: string;
  orderDate: Date;
  to: ShipmentAddress;
  items: Array<{ name: string; sku: string; units: number; unitPricePaise: number; hsn: string }>;
  cod: boolean;
  /** The order's total: what a COD courier collects. */
  totalPaise: number;
  subTotalPaise: number;
  grams: number;
  box: Box;
  /** The courier staff chose (a CourierOption's id); the carrier's own priority when null. */
  courierId: string | null;
  /** The manual adapter: the courier and AWB staff typed. */
  manual?: { courierName: string; awb: string };
};

export type BookedShipment = {
  awb: string;
  courierId: string;
  courierName: string;
  /** The carrier's own ids (Shiprocket: order id and shipment id), for label, pickup and cancel. */
  carrierOrderId: string | null;
  carrierShipmentId: string | null;
};

/** What a label or pickup needs to name the shipment. */
export type ShipmentRef = {
  awb: string;
  courierName: string;
  carrierOrderId: string | null;
  carrierShipmentId: string | null;
};

/** The manual adapter draws its own label from these. */
export type LabelInput = ShipmentRef & {
  reference: string;
  from: { name: string; line1: string; city: string; state: string; pin: string; phone: string };
  to: ShipmentAddress;
  grams: number;
  box: Box;
  /** The cash to collect; null for a prepaid parcel. */
  codPaise: number | null;
};

export type PickupResult = { scheduledDate: string | null; token: string | null };

/** One tracking update, read from a webhook or a poll. */
export type TrackingEvent = {
  awb: string;
  stage: CarrierStage;
  /** The carrier's own status code and label, as received. */
  statusCode: string;
  label: string;
  occurredAt: Date;
  location: string | null;
  activity: string | null;
  /** The carrier's estimated delivery day (yyyy-mm-dd), when the update carries one. */
  etd: string | null;
  /** Stable key for deduplication (the carrier sends no event id: status + time). */
  key: string;
  raw: unknown;
};

export type WebhookInput = { headers: Headers; rawBody: string };

/** The request did not prove it came from the carrier: answer 401 and change nothing. */
export class WebhookAuthError extends Error {
  override name = "WebhookAuthError";
}

/** A genuine notification that carries nothing for us (a return, another channel): answer 200. */
export type IgnoredWebhook = { ignored: true; reason: string };

/** The carrier refused or failed a call; `status` is its HTTP status when there was one. */
export class CarrierError extends Error {
  override name = "CarrierError";
  readonly status: number | null;
  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }
}

export interface ShippingCarrier {
  readonly name: CarrierName;
  serviceability(request: RateRequest): Promise<Serviceability>;
  createShipment(request: ShipmentRequest): Promise<BookedShipment>;
  /** The label as PDF bytes. */
  label(input: LabelInput): Promise<Uint8Array>;
  requestPickup(shipment: ShipmentRef): Promise<PickupResult>;
  cancel(shipment: ShipmentRef): Promise<void>;
  /** Polling, the fallback when webhooks stop: every update the carrier has for an AWB. */
  track(awb: string): Promise<TrackingEvent[]>;
  /** Verifies and parses a tracking notification; throws WebhookAuthError when not genuine. */
  parseWebhook(input: WebhookInput): Promise<TrackingEvent | IgnoredWebhook>;
}
