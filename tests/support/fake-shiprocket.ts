/**
 * A local server that follows Shiprocket's published API contract (shared reference:
 * shipping.md), for the courier adapter's tests and the e2e journey: token login (401
 * "Unauthenticated." for anything else), serviceability by PIN codes and weight, adhoc orders
 * (the same order_id answers with the old order, even a cancelled one), AWB assignment, labels (a
 * real PDF at a URL of its own, fetched without the token), pickups, cancellation (204, no body)
 * and tracking by AWB. `advance` moves a shipment on and returns the webhook body Shiprocket would
 * post; `postTracking` posts it with the `x-api-key` header.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const FAKE_SHIPROCKET_USER = { email: "api-user@example.com", password: "api-password-1" };

type Courier = {
  id: number;
  name: string;
  rate: number;
  days: number;
  cod: 0 | 1;
};

const COURIERS: Courier[] = [
  { id: 10, name: "Delhivery Surface", rate: 82.5, days: 5, cod: 1 },
  { id: 33, name: "Xpressbees Surface", rate: 74, days: 6, cod: 1 },
  { id: 43, name: "Blue Dart Air", rate: 156, days: 2, cod: 0 },
];

/** The shipment status ids and labels (shipment scheme) the fake moves through. */
export const STATUS = {
  PICKED_UP: { id: 42, label: "PICKED UP" },
  SHIPPED: { id: 6, label: "SHIPPED" },
  IN_TRANSIT: { id: 18, label: "IN TRANSIT" },
  OUT_FOR_DELIVERY: { id: 17, label: "OUT FOR DELIVERY" },
  DELIVERED: { id: 7, label: "DELIVERED" },
  UNDELIVERED: { id: 21, label: "UNDELIVERED" },
  RTO_INITIATED: { id: 9, label: "RTO INITIATED" },
  RTO_DELIVERED: { id: 10, label: "RTO DELIVERED" },
} as const;
export type FakeStatus = (typeof STATUS)[keyof typeof STATUS];

type Scan = {
  date: string;
  status: string;
  activity: string;
  location: string;
  "sr-status": string;
  "sr-status-label": string;
};

type FakeOrder = {
  id: number;
  channelOrderId: string;
  shipmentId: number;
  status: "NEW" | "READY TO SHIP" | "CANCELED";
  body: Record<string, unknown>;
  awb: string | null;
  courier: Courier | null;
  pickupToken: string | null;
  scans: Scan[];
};

export type FakeShiprocket = {
  url: string;
  state: {
    /** Pickup and delivery PINs that no courier serves. */
    unserved: Set<string>;
    /** Tokens issued and still honoured. */
    tokens: Set<string>;
    logins: number;
    calls: string[];
    orders: Map<number, FakeOrder>;
    /** Answer cancel with 200 + JSON instead of 204 (some mocks do). */
    cancelAnswersJson: boolean;
    /** Answer rate requests with a 503 (the courier's API down). */
    ratesDown: boolean;
  };
  /** Adds a scan to the shipment with this AWB and returns the webhook body Shiprocket posts. */
  advance(awb: string, status: FakeStatus, at?: Date): Record<string, unknown>;
  postTracking(url: string, token: string, body: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
};

const IST_MS = 5.5 * 3_600_000;
const two = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DD HH:MM:SS" in India. */
export function istStamp(date: Date): string {
  const d = new Date(date.getTime() + IST_MS);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** "DD MM YYYY HH:MM:SS" in India (the webhook's current_timestamp). */
export function webhookStamp(date: Date): string {
  const [day, time] = istStamp(date).split(" ");
  const [y, m, d] = day.split("-");
  return `${d} ${m} ${y} ${time}`;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function labelPdf(awb: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([288, 432]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(`Shiprocket label AWB ${awb}`, { x: 16, y: 400, size: 12, font });
  return pdf.save();
}

const REQUIRED_ADHOC = [
  "order_id",
  "order_date",
  "pickup_location",
  "billing_customer_name",
  "billing_address",
  "billing_city",
  "billing_pincode",
  "billing_state",
  "billing_country",
  "billing_email",
  "billing_phone",
  "order_items",
  "payment_method",
  "sub_total",
  "length",
  "breadth",
  "height",
  "weight",
];

export async function startFakeShiprocket(
  options: { pickupLocation?: string; port?: number } = {},
): Promise<FakeShiprocket> {
  const pickupLocation = options.pickupLocation ?? "Primary";
  const state: FakeShiprocket["state"] = {
    unserved: new Set(["799999"]),
    tokens: new Set(),
    logins: 0,
    calls: [],
    orders: new Map(),
    cancelAnswersJson: false,
    ratesDown: false,
  };
  // Numbers from the clock: a fake restarted against the same shop never repeats an AWB.
  const seed = Date.now() % 10_000_000;
  let nextId = 5000 + seed * 10;
  let nextAwb = 190400000000 + seed * 1000;
  const byShipment = (id: unknown) =>
    [...state.orders.values()].find((o) => o.shipmentId === Number(id));
  const byAwb = (awb: string) => [...state.orders.values()].find((o) => o.awb === awb);

  async function handle(req: IncomingMessage, res: ServerResponse, base: string) {
    const url = new URL(req.url ?? "/", base);
    const path = url.pathname.replace(/^\/v1\/external/, "");
    state.calls.push(`${req.method} ${path}`);

    const labelMatch = /^\/labels\/(\d+)\.pdf$/.exec(path);
    if (req.method === "GET" && labelMatch) {
      const o = byShipment(labelMatch[1]);
      if (!o?.awb) return json(res, 404, { message: "404 Not Found" });
      res.writeHead(200, { "Content-Type": "application/pdf" });
      res.end(Buffer.from(await labelPdf(o.awb)));
      return;
    }

    const raw = req.method === "POST" ? await readBody(req) : "";
    let body: Record<string, unknown> = {};
    if (req.method === "POST") {
      if (!(req.headers["content-type"] ?? "").includes("application/json")) {
        return json(res, 415, { message: "Content-Type must be application/json" });
      }
      try {
        body = JSON.parse(raw || "{}");
      } catch {
        res.writeHead(500, { "Content-Type": "text/html" });
        res.end("<b>Parse error</b>: syntax error");
        return;
      }
    }

    if (req.method === "POST" && path === "/auth/login") {
      if (
        body.email !== FAKE_SHIPROCKET_USER.email ||
        body.password !== FAKE_SHIPROCKET_USER.password
      ) {
        return json(res, 400, {
          message: "Invalid email and password combination",
          status_code: 400,
        });
      }
      state.logins += 1;
      const token = `tok-${state.logins}-${Math.random().toString(36).slice(2)}`;
      state.tokens.add(token);
      return json(res, 200, {
        id: 1,
        first_name: "API",
        last_name: "User",
        email: body.email,
        company_id: 42,
        created_at: "2026-01-01 10:00:00",
        token,
      });
    }

    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !state.tokens.has(auth.slice(7))) {
      return json(res, 401, { message: "Unauthenticated." });
    }

    if (req.method === "GET" && path === "/courier/serviceability/") {
      if (state.ratesDown) return json(res, 503, { message: "Service Unavailable" });
      const q = url.searchParams;
      const pickup = q.get("pickup_postcode");
      const delivery = q.get("delivery_postcode");
      const errors: Record<string, string[]> = {};
      if (!pickup) errors.pickup_postcode = ["The pickup postcode field is required."];
      if (!delivery) errors.delivery_postcode = ["The delivery postcode field is required."];
      if (!q.get("order_id")) {
        if (!q.get("weight"))
          errors.weight = ["The weight field is required when order id is not present."];
        if (q.get("cod") === null)
          errors.cod = ["The cod field is required when order id is not present."];
      }
      if (Object.keys(errors).length > 0) {
        return json(res, 422, { message: "Oops! Invalid Data.", errors, status_code: 422 });
      }
      if (state.unserved.has(pickup!) || state.unserved.has(delivery!)) {
        return json(res, 404, { status: 404, message: "Delivery postcode not serviceable" });
      }
      const weight = Number(q.get("weight"));
      const slabs = Math.max(1, Math.ceil(weight / 0.5));
      const day = new Date(Date.now() + 5 * 86_400_000);
      return json(res, 200, {
        status: 200,
        currency: "INR",
        data: {
          available_courier_companies: COURIERS.map((c, i) => ({
            id: 900 + i,
            courier_company_id: c.id,
            courier_name: c.name,
            rate: Math.round(c.rate * slabs * 100) / 100,
            freight_charge: c.rate * slabs,
            cod_charges: q.get("cod") === "1" ? 36 : 0,
            cod: c.cod,
            estimated_delivery_days: String(c.days),
            etd: day.toLocaleDateString("en-US", {
              month: "short",
              day: "2-digit",
              year: "numeric",
            }),
            zone: "z_d",
            blocked: 0,
            mode: c.id === 43 ? 1 : 0,
          })),
          recommended_courier_company_id: 10,
          shiprocket_recommended_courier_id: 10,
          blocked_courier_companies: [],
        },
      });
    }

    if (req.method === "POST" && path === "/orders/create/adhoc") {
      const errors: Record<string, string[]> = {};
      for (const f of REQUIRED_ADHOC) {
        if (body[f] === undefined || body[f] === null || body[f] === "") {
          errors[f] = [`The ${f.replaceAll("_", " ")} field is required.`];
        }
      }
      if (typeof body.order_id === "string" && body.order_id.length > 50) {
        errors.order_id = ["The order id may not be greater than 50 characters."];
      }
      if (body.pickup_location !== undefined && body.pickup_location !== pickupLocation) {
        errors.pickup_location = ["Wrong Pickup location entered."];
      }
      for (const f of ["length", "breadth", "height"]) {
        if (!(Number(body[f]) > 0.5)) errors[f] = [`The ${f} must be greater than 0.5.`];
      }
      if (!(Number(body.weight) > 0)) errors.weight = ["The weight must be greater than 0."];
      if (!Array.isArray(body.order_items) || body.order_items.length === 0) {
        errors.order_items = ["The order items field is required."];
      }
      if (body.payment_method !== "Prepaid" && body.payment_method !== "COD") {
        errors.payment_method = ["The selected payment method is invalid."];
      }
      if (Object.keys(errors).length > 0) {
        return json(res, 422, { message: "Oops! Invalid Data.", errors, status_code: 422 });
      }
      const existing = [...state.orders.values()].find((o) => o.channelOrderId === body.order_id);
      const o: FakeOrder = existing ?? {
        id: nextId++,
        channelOrderId: String(body.order_id),
        shipmentId: nextId++,
        status: "NEW",
        body,
        awb: null,
        courier: null,
        pickupToken: null,
        scans: [],
      };
      state.orders.set(o.id, o);
      return json(res, 200, {
        order_id: o.id,
        shipment_id: o.shipmentId,
        status: o.status,
        status_code: o.status === "CANCELED" ? 5 : 1,
        onboarding_completed_now: 0,
        awb_code: o.awb,
        courier_company_id: o.courier?.id ?? null,
        courier_name: o.courier?.name ?? null,
      });
    }

    if (req.method === "POST" && path === "/courier/assign/awb") {
      const o = byShipment(body.shipment_id);
      if (!o || o.status === "CANCELED") {
        return json(res, 400, { message: "Invalid shipment id", status_code: 400 });
      }
      if (o.awb && body.status !== "reassign") {
        return json(res, 400, {
          message: "Oops! Cannot reassign courier for this shipment.",
          status_code: 400,
        });
      }
      const courier =
        body.courier_id === undefined
          ? COURIERS[0]
          : COURIERS.find((c) => c.id === Number(body.courier_id));
      const cod = (o.body.payment_method as string) === "COD";
      if (!courier || (cod && courier.cod !== 1)) {
        return json(res, 200, {
          awb_assign_status: 0,
          response: { data: { awb_assign_error: "Courier not serviceable" } },
        });
      }
      o.awb = String(nextAwb++);
      o.courier = courier;
      o.status = "READY TO SHIP";
      return json(res, 200, {
        awb_assign_status: 1,
        response: {
          data: {
            courier_company_id: courier.id,
            awb_code: o.awb,
            courier_name: courier.name,
            shipment_id: o.shipmentId,
            order_id: o.id,
            applied_weight: Number(o.body.weight),
            assigned_date_time: {
              date: istStamp(new Date()),
              timezone_type: 3,
              timezone: "Asia/Kolkata",
            },
            routing_code: "DEL/ABC",
          },
        },
      });
    }

    if (req.method === "POST" && path === "/courier/generate/label") {
      if (!Array.isArray(body.shipment_id)) {
        return json(res, 422, {
          message: "Oops! Invalid Data.",
          errors: { shipment_id: ["The shipment id must be an array."] },
          status_code: 422,
        });
      }
      const o = byShipment(body.shipment_id[0]);
      if (!o?.awb) {
        return json(res, 200, {
          label_created: 0,
          response: "No valid shipment ids found",
          not_created: body.shipment_id,
        });
      }
      return json(res, 200, {
        label_created: 1,
        label_url: `${base}/labels/${o.shipmentId}.pdf`,
        response: "Label has been created and uploaded successfully!",
        not_created: [],
      });
    }

    if (req.method === "POST" && path === "/courier/generate/pickup") {
      const ids = Array.isArray(body.shipment_id) ? body.shipment_id : [];
      const o = byShipment(ids[0]);
      if (!o?.awb || o.status === "CANCELED") {
        return json(res, 400, { message: "Invalid shipment id", status_code: 400 });
      }
      o.pickupToken ??= `PT${o.shipmentId}`;
      return json(res, 200, {
        pickup_status: 1,
        response: {
          pickup_scheduled_date: istStamp(new Date(Date.now() + 86_400_000)),
          pickup_token_number: o.pickupToken,
          status: 3,
          data: `Pickup is confirmed by ${o.courier?.name} For AWB :- ${o.awb}`,
        },
      });
    }

    if (req.method === "POST" && path === "/orders/cancel") {
      if (!Array.isArray(body.ids) || body.ids.length === 0) {
        return json(res, 422, {
          message: "Oops! Invalid Data.",
          errors: { ids: ["The ids field is required."] },
          status_code: 422,
        });
      }
      for (const id of body.ids) {
        const o = state.orders.get(Number(id));
        if (o) o.status = "CANCELED";
      }
      if (state.cancelAnswersJson)
        return json(res, 200, { status: 200, message: "Order cancelled successfully." });
      res.writeHead(204);
      res.end();
      return;
    }

    const trackMatch = /^\/courier\/track\/awb\/([^/]+)$/.exec(path);
    if (req.method === "GET" && trackMatch) {
      const o = byAwb(decodeURIComponent(trackMatch[1]));
      if (!o) return json(res, 404, { message: "404 Not Found" });
      if (o.scans.length === 0) {
        return json(res, 200, {
          tracking_data: {
            track_status: 0,
            shipment_status: 0,
            error:
              "Aahh! There is no activities found in our DB. Please have some patience it will be updated soon.",
          },
        });
      }
      const last = o.scans.at(-1)!;
      return json(res, 200, {
        tracking_data: {
          track_status: 1,
          shipment_status: Number(last["sr-status"]),
          shipment_track: [
            {
              awb_code: o.awb,
              courier_name: o.courier?.name,
              current_status: last["sr-status-label"],
            },
          ],
          shipment_track_activities: [...o.scans].reverse(),
          track_url: `https://shiprocket.co/tracking/${o.awb}`,
          etd: istStamp(new Date(Date.now() + 3 * 86_400_000)),
        },
      });
    }

    return json(res, 404, { message: "404 Not Found" });
  }

  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    handle(req, res, base).catch((error) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/external`;

  return {
    url,
    state,
    advance(awb, status, at = new Date()) {
      const o = byAwb(awb);
      if (!o) throw new Error(`fake Shiprocket: no shipment with AWB ${awb}`);
      const scan: Scan = {
        date: istStamp(at),
        status: status.label.replaceAll(" ", "_"),
        activity: `${status.label} - ${o.courier?.name}`,
        location: "Kolkata Hub",
        "sr-status": String(status.id),
        "sr-status-label": status.label,
      };
      o.scans.push(scan);
      return {
        awb: o.awb,
        courier_name: o.courier?.name,
        current_status: status.label,
        current_status_id: status.id === 7 ? 7 : 20,
        shipment_status: status.label,
        shipment_status_id: status.id,
        current_timestamp: webhookStamp(at),
        order_id: o.channelOrderId,
        sr_order_id: o.id,
        awb_assigned_date: istStamp(at),
        pickup_scheduled_date: istStamp(at),
        etd: istStamp(new Date(at.getTime() + 3 * 86_400_000)),
        scans: o.scans,
        is_return: 0,
        channel_id: 1,
        pod_status: "",
        pod: "Not Available",
      };
    },
    postTracking(target, token, body) {
      return fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": token },
        body: JSON.stringify(body),
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
