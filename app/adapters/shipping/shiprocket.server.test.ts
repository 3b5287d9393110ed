import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_SHIPROCKET_USER,
  type FakeShiprocket,
  STATUS,
  startFakeShiprocket,
} from "../../../tests/support/fake-shiprocket.ts";
import {
  createShiprocketCarrier,
  parseEtd,
  parseIstTimestamp,
  stageOf,
} from "./shiprocket.server.ts";
import {
  CarrierError,
  type ShipmentRequest,
  type ShippingCarrier,
  WebhookAuthError,
} from "./types.ts";

/*
 * The Shiprocket adapter against a local server that follows the published contract
 * (tests/support/fake-shiprocket.ts), with the real global fetch.
 */

const TOKEN = "webhook-token-0123456789";
let fake: FakeShiprocket;
let carrier: ShippingCarrier;

beforeAll(async () => {
  fake = await startFakeShiprocket();
  carrier = createShiprocketCarrier({
    ...FAKE_SHIPROCKET_USER,
    apiUrl: fake.url,
    webhookToken: TOKEN,
    pickupLocation: "Primary",
  });
});
afterAll(() => fake.close());

const request = (reference: string, cod = false): ShipmentRequest => ({
  reference,
  orderDate: new Date("2026-11-20T10:00:00Z"),
  to: {
    name: "Asha Rao",
    line1: "12 Park Street",
    line2: null,
    city: "Kolkata",
    state: "West Bengal",
    pin: "700016",
    phone: "9876543210",
    email: "asha@example.com",
  },
  items: [{ name: "Dragon", sku: "DRG-1", units: 1, unitPricePaise: 49_900, hsn: "3926" }],
  cod,
  totalPaise: 55_000,
  subTotalPaise: 49_900,
  grams: 700,
  box: { lengthCm: 20, widthCm: 15, heightCm: 10 },
  courierId: "33",
});

const webhook = (body: unknown, token = TOKEN) =>
  carrier.parseWebhook({
    headers: new Headers({ "x-api-key": token, "content-type": "application/json" }),
    rawBody: JSON.stringify(body),
  });

describe("Shiprocket adapter", () => {
  it("logs in once and lists the couriers that serve a PIN, cheapest first", async () => {
    const answer = await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "700016",
      grams: 700,
      cod: false,
    });
    expect(answer.serviceable).toBe(true);
    if (!answer.serviceable) return;
    expect(answer.options.map((o) => o.courierName)).toEqual([
      "Xpressbees Surface",
      "Delhivery Surface",
      "Blue Dart Air",
    ]);
    expect(answer.options[0]).toMatchObject({ courierId: "33", paise: 14_800, days: 6 });
    expect(answer.options[0].etd).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(answer.recommendedId).toBe("10");
    await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "700016",
      grams: 500,
      cod: true,
    });
    expect(fake.state.logins).toBe(1);
  });

  it("leaves out couriers that don't collect cash for a COD parcel, and says when none serve", async () => {
    const cod = await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "700016",
      grams: 500,
      cod: true,
    });
    expect(cod.serviceable && cod.options.map((o) => o.courierId)).toEqual(["33", "10"]);
    const none = await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "799999",
      grams: 500,
      cod: false,
    });
    expect(none.serviceable).toBe(false);
  });

  it("logs in again once when the token is refused", async () => {
    fake.state.tokens.clear();
    const before = fake.state.logins;
    const answer = await carrier.serviceability({
      pickupPin: "560001",
      deliveryPin: "700016",
      grams: 500,
      cod: false,
    });
    expect(answer.serviceable).toBe(true);
    expect(fake.state.logins).toBe(before + 1);
  });

  it("books a shipment, downloads its label PDF, requests a pickup and cancels it", async () => {
    const booked = await carrier.createShipment(request("ORD-20261120-1111-1"));
    expect(booked).toMatchObject({ courierId: "33", courierName: "Xpressbees Surface" });
    expect(booked.awb).toMatch(/^\d+$/);
    const ref = { ...booked };
    const pdf = await carrier.label({
      ...ref,
      reference: "ORD-20261120-1111-1",
      from: {
        name: "Shop",
        line1: "1 Road",
        city: "Bengaluru",
        state: "Karnataka",
        pin: "560001",
        phone: "",
      },
      to: request("x").to,
      grams: 700,
      box: { lengthCm: 20, widthCm: 15, heightCm: 10 },
      codPaise: null,
    });
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    const pickup = await carrier.requestPickup(ref);
    expect(pickup.token).toMatch(/^PT/);
    expect(pickup.scheduledDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await carrier.cancel(ref);
    fake.state.cancelAnswersJson = true;
    const second = await carrier.createShipment(request("ORD-20261120-1111-2"));
    await carrier.cancel(second);
    fake.state.cancelAnswersJson = false;
    // The same reference again answers with the cancelled order: refused, never assigned.
    await expect(carrier.createShipment(request("ORD-20261120-1111-1"))).rejects.toThrow(
      /cancelled before/,
    );
  });

  it("refuses a courier that doesn't collect cash for a COD shipment", async () => {
    await expect(
      carrier.createShipment({ ...request("ORD-20261120-2222-1", true), courierId: "43" }),
    ).rejects.toBeInstanceOf(CarrierError);
  });

  it("reads tracking by AWB (polling) and the webhook with its token", async () => {
    const booked = await carrier.createShipment(request("ORD-20261120-3333-1"));
    expect(await carrier.track(booked.awb)).toEqual([]);
    const at = new Date("2026-11-21T06:30:00Z");
    const body = fake.advance(booked.awb, STATUS.SHIPPED, at);
    fake.advance(booked.awb, STATUS.OUT_FOR_DELIVERY, new Date("2026-11-23T03:00:00Z"));
    const events = await carrier.track(booked.awb);
    expect(events.map((e) => e.stage)).toEqual(["out_for_delivery", "in_transit"]);
    expect(await carrier.track("000000")).toEqual([]);

    const event = await webhook(body);
    expect(event).toMatchObject({
      awb: booked.awb,
      stage: "in_transit",
      statusCode: "6",
      occurredAt: at,
      location: "Kolkata Hub",
    });
    // The same update polled and posted has the same key.
    expect("key" in event && event.key).toBe(events[1].key);
    await expect(webhook(body, "wrong-token")).rejects.toBeInstanceOf(WebhookAuthError);
    await expect(webhook(body, "")).rejects.toBeInstanceOf(WebhookAuthError);
    expect(await webhook({ ...body, is_return: 1 })).toMatchObject({ ignored: true });
  });

  it("reads statuses by the shipment scheme's ids, exact labels only as a fallback", () => {
    expect(stageOf(7, "whatever")).toBe("delivered");
    expect(stageOf("17", null)).toBe("out_for_delivery");
    expect(stageOf(undefined, "UNDELIVERED")).toBe("undelivered");
    expect(stageOf(undefined, "Delivered")).toBe("delivered");
    expect(stageOf(999, "SOMETHING NEW")).toBe("other");
    expect(parseIstTimestamp("23 05 2026 14:30:00")?.toISOString()).toBe(
      "2026-05-23T09:00:00.000Z",
    );
    expect(parseIstTimestamp("2026-05-23 14:30:00")?.toISOString()).toBe(
      "2026-05-23T09:00:00.000Z",
    );
    expect(parseIstTimestamp("yesterday")).toBeNull();
    expect(parseEtd("Jul 01, 2024")).toBe("2024-07-01");
    expect(parseEtd("2024-07-01 18:00:00")).toBe("2024-07-01");
  });
});
