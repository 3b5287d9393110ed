import { createHash, timingSafeEqual } from "node:crypto";
import type { CarrierStage } from "~/rules/courier.ts";
import {
  type BookedShipment,
  CarrierError,
  type CourierOption,
  type IgnoredWebhook,
  type ShippingCarrier,
  type TrackingEvent,
  WebhookAuthError,
} from "./types.ts";

/*
 * Shiprocket (shared reference: shipping.md): an API user's e-mail and password give a token for
 * 10 days; rates by PIN codes and weight; an adhoc order, then an AWB from the chosen courier;
 * label, pickup, cancel and tracking by AWB. Tracking updates arrive on one account-wide webhook
 * with the token the merchant set in the panel in the `x-api-key` header (no signature).
 * There is no sandbox: tests run against a local server that follows the contract.
 */

export type ShiprocketConfig = {
  email: string;
  password: string;
  /** https://apiv2.shiprocket.in/v1/external, or a local fake in tests. */
  apiUrl: string;
  /** The security token set with the webhook in Shiprocket's panel. */
  webhookToken: string;
  /** The pickup location's exact name as registered in the panel. */
  pickupLocation: string;
};

export type ShiprocketOptions = {
  now?: () => number;
  fetch?: typeof fetch;
  /** Per-call timeout. */
  timeoutMs?: number;
};

/** Tokens last 10 days; a new one is fetched after 9, or at once when one is refused. */
const TOKEN_LIFETIME_MS = 9 * 24 * 3_600_000;

/** Shiprocket's *shipment* status ids (webhook shipment_status_id, scans' sr-status). */
const SHIPMENT_STATUS: Record<number, CarrierStage> = {
  1: "booked",
  2: "booked",
  5: "booked",
  3: "pickup_scheduled",
  4: "pickup_scheduled",
  13: "pickup_scheduled",
  15: "pickup_scheduled",
  19: "pickup_scheduled",
  20: "pickup_scheduled",
  42: "in_transit",
  6: "in_transit",
  18: "in_transit",
  22: "in_transit",
  38: "in_transit",
  39: "in_transit",
  17: "out_for_delivery",
  7: "delivered",
  21: "undelivered",
  9: "rto_in_transit",
  40: "rto_in_transit",
  41: "rto_in_transit",
  10: "rto_delivered",
  14: "rto_delivered",
  8: "cancelled",
  16: "cancelled",
  12: "lost",
  24: "lost",
  25: "lost",
};

/** Exact labels, only when no id came ("UNDELIVERED" contains "DELIVERED": never substrings). */
const STATUS_LABELS: Record<string, CarrierStage> = {
  "AWB ASSIGNED": "booked",
  "LABEL GENERATED": "booked",
  MANIFESTED: "booked",
  "PICKUP SCHEDULED": "pickup_scheduled",
  "PICKUP QUEUED": "pickup_scheduled",
  "OUT FOR PICKUP": "pickup_scheduled",
  "PICKED UP": "in_transit",
  SHIPPED: "in_transit",
  "IN TRANSIT": "in_transit",
  "REACHED AT DESTINATION HUB": "in_transit",
  "OUT FOR DELIVERY": "out_for_delivery",
  DELIVERED: "delivered",
  UNDELIVERED: "undelivered",
  "RTO INITIATED": "rto_in_transit",
  "RTO IN TRANSIT": "rto_in_transit",
  "RTO DELIVERED": "rto_delivered",
  "RTO ACKNOWLEDGED": "rto_delivered",
  CANCELED: "cancelled",
  CANCELLED: "cancelled",
  LOST: "lost",
};

export function stageOf(statusId: unknown, label: unknown): CarrierStage {
  const id = typeof statusId === "string" ? Number(statusId) : statusId;
  if (typeof id === "number" && Number.isInteger(id) && SHIPMENT_STATUS[id]) {
    return SHIPMENT_STATUS[id];
  }
  if (typeof label === "string") return STATUS_LABELS[label.trim().toUpperCase()] ?? "other";
  return "other";
}

const IST_OFFSET = "+05:30";

/** "DD MM YYYY HH:MM:SS" (webhook) or "YYYY-MM-DD HH:MM:SS" (scans), both India time. */
export function parseIstTimestamp(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  let m = /^(\d{2})[ -](\d{2})[ -](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  let iso: string | null = null;
  if (m) iso = `${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${IST_OFFSET}`;
  m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (m) iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${IST_OFFSET}`;
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Jul 01, 2024" or "2024-07-01 …" → "2024-07-01"; anything else null. */
export function parseEtd(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const m = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})$/.exec(value.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]);
  if (month < 0) return null;
  return `${m[3]}-${String(month + 1).padStart(2, "0")}-${m[2].padStart(2, "0")}`;
}

const text = (v: unknown): string | null =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" ? String(v) : null;

const rupeesToPaise = (v: unknown): number | null => {
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
};

const sameSecret = (given: string, expected: string) => {
  // Hashing first makes the comparison constant-time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && expected !== "";
};

const kg = (grams: number) => Math.max(0.01, Math.round(grams / 10) / 100);
const rupees = (paise: number) => Math.round(paise) / 100;

export function createShiprocketCarrier(
  config: ShiprocketConfig,
  options: ShiprocketOptions = {},
): ShippingCarrier {
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  let cached: { token: string; expiresAtMs: number } | null = null;
  let inFlight: Promise<string> | null = null;

  async function send(what: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new CarrierError(`Shiprocket ${what}: ${(error as Error).message}`);
    }
  }

  async function readJson(what: string, res: Response): Promise<Record<string, unknown>> {
    if (res.status === 204) return {};
    const body = await res.text();
    if (body.trim() === "") return {};
    try {
      const parsed = JSON.parse(body);
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch {
      throw new CarrierError(`Shiprocket ${what}: unreadable answer`, res.status);
    }
  }

  async function failure(what: string, res: Response): Promise<CarrierError> {
    const body = await readJson(what, res).catch(() => ({}) as Record<string, unknown>);
    const message = body.message;
    const detail =
      typeof message === "string"
        ? message
        : message && typeof message === "object"
          ? JSON.stringify(message)
          : `HTTP ${res.status}`;
    const errors = body.errors ? ` ${JSON.stringify(body.errors)}` : "";
    return new CarrierError(`Shiprocket ${what}: ${detail}${errors}`.slice(0, 500), res.status);
  }

  async function login(): Promise<string> {
    const res = await send("login", `${config.apiUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ email: config.email, password: config.password }),
    });
    if (!res.ok) throw await failure("login", res);
    const body = await readJson("login", res);
    if (body.is_mfa_enabled) {
      throw new CarrierError("Shiprocket login: the API user has two-factor sign-in turned on");
    }
    if (typeof body.token !== "string" || body.token === "") {
      throw new CarrierError("Shiprocket login: no token in the answer", res.status);
    }
    cached = { token: body.token, expiresAtMs: now() + TOKEN_LIFETIME_MS };
    return body.token;
  }

  /** The cached token while fresh; otherwise one shared login. */
  async function token(): Promise<string> {
    if (cached && now() < cached.expiresAtMs) return cached.token;
    inFlight ??= login().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  /** Calls the API with the token; on 401 logs in once more and retries once. */
  async function call(
    what: string,
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    accept: (res: Response) => boolean = (res) => res.ok,
  ): Promise<{ res: Response; body: Record<string, unknown> }> {
    const attempt = (t: string) =>
      send(what, `${config.apiUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${t}`,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    let t = await token();
    let res = await attempt(t);
    if (res.status === 401) {
      await res.body?.cancel();
      if (cached?.token === t) cached = null;
      t = await token();
      res = await attempt(t);
    }
    if (!accept(res)) throw await failure(what, res);
    return { res, body: await readJson(what, res) };
  }

  function trackingEvent(
    awb: string,
    fields: {
      statusId: unknown;
      label: unknown;
      at: unknown;
      location: unknown;
      activity: unknown;
      etd: unknown;
    },
    raw: unknown,
  ): TrackingEvent | null {
    const occurredAt = parseIstTimestamp(fields.at);
    if (!occurredAt) return null;
    const stage = stageOf(fields.statusId, fields.label);
    const statusCode = text(fields.statusId) ?? text(fields.label) ?? "";
    return {
      awb,
      stage,
      statusCode,
      label: text(fields.label) ?? statusCode,
      occurredAt,
      location: text(fields.location),
      activity: text(fields.activity),
      etd: parseEtd(fields.etd),
      key: `${statusCode}|${occurredAt.toISOString()}`,
      raw,
    };
  }

  return {
    name: "shiprocket",

    async serviceability(request) {
      const q = new URLSearchParams({
        pickup_postcode: request.pickupPin,
        delivery_postcode: request.deliveryPin,
        cod: request.cod ? "1" : "0",
        weight: String(kg(request.grams)),
      });
      if (request.box) {
        q.set("length", String(request.box.lengthCm));
        q.set("breadth", String(request.box.widthCm));
        q.set("height", String(request.box.heightCm));
      }
      if (request.declaredValuePaise !== undefined) {
        q.set("declared_value", String(rupees(request.declaredValuePaise)));
      }
      const { body } = await call(
        "serviceability",
        "GET",
        `/courier/serviceability/?${q}`,
        undefined,
        // Not serviceable comes as a 404 or a 200 without couriers: both are "none".
        (res) => res.ok || res.status === 404,
      );
      const data = (body.data ?? {}) as Record<string, unknown>;
      const list = Array.isArray(data.available_courier_companies)
        ? (data.available_courier_companies as Array<Record<string, unknown>>)
        : [];
      const options: CourierOption[] = [];
      for (const c of list) {
        const id = text(c.courier_company_id);
        const paise = rupeesToPaise(
          c.rate && typeof c.rate === "object" ? (c.rate as { rate?: unknown }).rate : c.rate,
        );
        if (!id || paise === null || c.blocked === 1) continue;
        const days = Number.parseInt(String(c.estimated_delivery_days ?? ""), 10);
        options.push({
          courierId: id,
          courierName: text(c.courier_name) ?? `Courier ${id}`,
          paise,
          codAvailable: c.cod === 1 || c.cod === "1",
          days: Number.isFinite(days) && days >= 0 ? days : null,
          etd: parseEtd(c.etd),
        });
      }
      if (body.status !== 200 || options.length === 0) {
        return { serviceable: false, reason: "No courier serves this PIN code for this parcel" };
      }
      const usable = request.cod ? options.filter((o) => o.codAvailable) : options;
      if (usable.length === 0) {
        return { serviceable: false, reason: "No courier collects cash on delivery here" };
      }
      usable.sort((a, b) => a.paise - b.paise || (a.days ?? 99) - (b.days ?? 99));
      return {
        serviceable: true,
        options: usable,
        recommendedId: text(data.recommended_courier_company_id),
      };
    },

    async createShipment(request): Promise<BookedShipment> {
      const to = request.to;
      const created = await call("create order", "POST", "/orders/create/adhoc", {
        order_id: request.reference.slice(0, 50),
        order_date: request.orderDate.toISOString().slice(0, 10),
        pickup_location: config.pickupLocation,
        billing_customer_name: to.name,
        billing_last_name: "",
        billing_address: to.line1,
        billing_address_2: to.line2 ?? "",
        billing_city: to.city,
        billing_pincode: to.pin,
        billing_state: to.state,
        billing_country: "India",
        billing_email: to.email,
        billing_phone: to.phone,
        shipping_is_billing: true,
        order_items: request.items.map((i) => ({
          name: i.name,
          sku: i.sku,
          units: i.units,
          selling_price: rupees(i.unitPricePaise),
          discount: 0,
          tax: 0,
          hsn: i.hsn,
        })),
        payment_method: request.cod ? "COD" : "Prepaid",
        sub_total: rupees(request.cod ? request.totalPaise : request.subTotalPaise),
        length: request.box.lengthCm,
        breadth: request.box.widthCm,
        height: request.box.heightCm,
        weight: kg(request.grams),
      });
      const order = created.body;
      const shipmentId = text(order.shipment_id);
      const orderId = text(order.order_id);
      // The same order_id answers with the old order, even a cancelled one (shipping.md).
      if (String(order.status ?? "").toUpperCase() === "CANCELED") {
        throw new CarrierError("Shiprocket create order: this reference was cancelled before");
      }
      if (!shipmentId || !orderId) {
        throw new CarrierError("Shiprocket create order: no shipment id in the answer");
      }
      const assigned = await call("assign AWB", "POST", "/courier/assign/awb", {
        shipment_id: Number(shipmentId),
        ...(request.courierId ? { courier_id: Number(request.courierId) } : {}),
      });
      const data = ((assigned.body.response as Record<string, unknown> | undefined)?.data ??
        {}) as Record<string, unknown>;
      const awb = text(data.awb_code);
      if (assigned.body.awb_assign_status !== 1 || !awb) {
        throw new CarrierError("Shiprocket assign AWB: the courier refused the shipment");
      }
      return {
        awb,
        courierId: text(data.courier_company_id) ?? request.courierId ?? "",
        courierName: text(data.courier_name) ?? "",
        carrierOrderId: orderId,
        carrierShipmentId: shipmentId,
      };
    },

    async label(input) {
      if (!input.carrierShipmentId) throw new CarrierError("Shiprocket label: no shipment id");
      const { body } = await call("label", "POST", "/courier/generate/label", {
        shipment_id: [Number(input.carrierShipmentId)],
      });
      const url = text(body.label_url);
      if (body.label_created !== 1 || !url) {
        throw new CarrierError(`Shiprocket label: ${text(body.response) ?? "not created"}`);
      }
      // The label is a PDF on Shiprocket's storage: fetched without our token.
      const res = await send("label download", url, { method: "GET" });
      if (!res.ok) throw new CarrierError("Shiprocket label download failed", res.status);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (new TextDecoder().decode(bytes.slice(0, 5)) !== "%PDF-") {
        throw new CarrierError("Shiprocket label: the download is not a PDF");
      }
      return bytes;
    },

    async requestPickup(shipment) {
      if (!shipment.carrierShipmentId) throw new CarrierError("Shiprocket pickup: no shipment id");
      const { body } = await call("pickup", "POST", "/courier/generate/pickup", {
        shipment_id: [Number(shipment.carrierShipmentId)],
      });
      const response = (body.response ?? {}) as Record<string, unknown>;
      if (body.pickup_status !== 1) throw new CarrierError("Shiprocket pickup: not confirmed");
      return {
        scheduledDate: parseEtd(response.pickup_scheduled_date),
        token: text(response.pickup_token_number),
      };
    },

    async cancel(shipment) {
      if (!shipment.carrierOrderId) throw new CarrierError("Shiprocket cancel: no order id");
      // Documented as 204 without a body; some answer 200 with JSON: both are fine.
      await call("cancel", "POST", "/orders/cancel", { ids: [Number(shipment.carrierOrderId)] });
    },

    async track(awb) {
      const { res, body } = await call(
        "track",
        "GET",
        `/courier/track/awb/${encodeURIComponent(awb)}`,
        undefined,
        (r) => r.ok || r.status === 404,
      );
      if (res.status === 404) return [];
      const data = (body.tracking_data ?? {}) as Record<string, unknown>;
      if (data.track_status !== 1) return [];
      const activities = Array.isArray(data.shipment_track_activities)
        ? (data.shipment_track_activities as Array<Record<string, unknown>>)
        : [];
      const etd = data.etd;
      return activities.flatMap((a) => {
        const event = trackingEvent(
          awb,
          {
            statusId: a["sr-status"],
            label: a["sr-status-label"] ?? a.status,
            at: a.date,
            location: a.location,
            activity: a.activity,
            etd,
          },
          a,
        );
        return event ? [event] : [];
      });
    },

    async parseWebhook({ headers, rawBody }): Promise<TrackingEvent | IgnoredWebhook> {
      if (!sameSecret(headers.get("x-api-key") ?? "", config.webhookToken)) {
        throw new WebhookAuthError("Shiprocket webhook: wrong or missing x-api-key");
      }
      let body: Record<string, unknown>;
      try {
        const parsed = JSON.parse(rawBody);
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error();
        body = parsed;
      } catch {
        throw new CarrierError("Shiprocket webhook: the body is not a JSON object", 400);
      }
      if (body.is_return === 1 || body.is_return === "1") {
        return { ignored: true, reason: "a return shipment" };
      }
      const awb = text(body.awb);
      if (!awb || awb.length > 64) return { ignored: true, reason: "no AWB" };
      const event = trackingEvent(
        awb,
        {
          statusId: body.shipment_status_id,
          label: body.shipment_status ?? body.current_status,
          at: body.current_timestamp,
          location: null,
          activity: body.current_status,
          etd: body.etd,
        },
        body,
      );
      if (!event) throw new CarrierError("Shiprocket webhook: unreadable timestamp", 400);
      const lastScan = Array.isArray(body.scans) ? body.scans.at(-1) : null;
      if (lastScan && typeof lastScan === "object") {
        event.location = text((lastScan as Record<string, unknown>).location);
      }
      return event;
    },
  };
}
