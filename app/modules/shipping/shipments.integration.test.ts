import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  adminAudit,
  orders,
  products,
  shipmentBookings,
  shipmentEvents,
  shipments,
  userProfiles,
} from "~/db/schema.ts";
import type { BookShipmentInput } from "~/rules/courier.ts";
import { istToday } from "~/rules/india-time.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import {
  FAKE_SHIPROCKET_USER,
  type FakeShiprocket,
  STATUS,
  startFakeShiprocket,
} from "../../../tests/support/fake-shiprocket.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import {
  bookingQuote,
  bookShipment,
  cancelShipment,
  labelsForDay,
  pollTracking,
  requestPickup,
  type ShipmentDeps,
  ShipmentError,
  shipmentLabel,
  shipmentsForOrders,
} from "./shipments.server.ts";

/*
 * Courier shipments (issue 24, decision 0016) with the Shiprocket adapter against the local fake:
 * rates, booking, label, pickup, cancel; tracking updates through the webhook route (a wrong token
 * refused with 401 and nothing written; a repeated and an out-of-order update each applied once;
 * delivered never goes back to shipped; one e-mail per step); polling as the fallback; and an RTO
 * that gives the stock back once and flags the COD money never collected.
 */

const WEBHOOK_TOKEN = "courier-webhook-token-0123456789";
const STAFF = { id: null, email: "staff@example.com" };

let fake: FakeShiprocket;
let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let deps: ShipmentDeps;
let customer: { id: string; email: string; cookie: string };

beforeAll(async () => {
  fake = await startFakeShiprocket();
  harness = await startProcessRuntime({
    SHIPPING_PROVIDER: "shiprocket",
    SHIPROCKET_EMAIL: FAKE_SHIPROCKET_USER.email,
    SHIPROCKET_PASSWORD: FAKE_SHIPROCKET_USER.password,
    SHIPROCKET_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    SHIPROCKET_API_URL: fake.url,
  });
  db = harness.rt.db;
  deps = { db, carrier: harness.rt.shipping, jobs: harness.rt.jobRunner };
  const account = await createVerifiedUser(harness.rt.auth, db, {
    email: uniqueEmail("courier"),
    name: "Asha Rao",
  });
  customer = { ...account, cookie: await signInCookie(harness.rt.auth, account) };
}, 120_000);
afterAll(async () => {
  await harness?.stop();
  await fake?.close();
});

/** A processing order of one unit of a product with 5 on the shelf. */
async function processingOrder(options: { cod?: boolean } = {}) {
  const product = await insertProduct(db, { stockCount: 5, weightGrams: 400 });
  const order = await insertOrder(db, customer.id, [product.id], options.cod ? "unpaid" : "paid");
  await db
    .update(orders)
    .set({
      status: "processing",
      fulfilledAt: new Date(),
      ...(options.cod ? { paymentMethod: "cod", paymentProvider: "cod" } : {}),
    })
    .where(eq(orders.id, order.id));
  return { order, product };
}

const input = (courierId: string): BookShipmentInput => ({
  courierId,
  grams: 700,
  lengthCm: 20,
  widthCm: 15,
  heightCm: 10,
  courierName: "",
  awb: "",
});

async function post(body: unknown, token = WEBHOOK_TOKEN) {
  const route = await import("~/routes/api.courier-tracking.ts");
  const request = new Request(`${TEST_ORIGIN}/api/courier/tracking`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": token },
    body: JSON.stringify(body),
  });
  const res = (await route.action({ request, params: {}, context: {} } as never)) as Response;
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const orderNow = async (id: string) => (await db.select().from(orders).where(eq(orders.id, id)))[0];

async function outboxSubjects(orderNumber: string) {
  const dir = path.join(harness.rt.env.dataDir, "outbox");
  const files = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(files.map((f) => readFile(path.join(dir, f), "utf8")));
  return texts.flatMap((t) => {
    const subject = /^Subject: (.*)$/m.exec(t)?.[1] ?? "";
    return subject.includes(orderNumber) ? [subject] : [];
  });
}

describe(`courier shipments with Shiprocket (fake) on ${testDbKind()}`, () => {
  it("quotes couriers with price and days for the order's parcel, prefilled from its products", async () => {
    const { order } = await processingOrder();
    const quote = await bookingQuote(deps, order.id);
    expect(quote.grams).toBe(400);
    expect(quote.cod).toBe(false);
    expect(quote.options.serviceable).toBe(true);
    if (!quote.options.serviceable) return;
    expect(quote.options.options[0]).toMatchObject({ courierName: "Xpressbees Surface", days: 6 });
  });

  it("books, prints the label, requests a pickup, cancels and books again under a new reference", async () => {
    const { order } = await processingOrder();
    const first = await bookShipment(deps, order.id, input("33"), STAFF);
    expect(first).toMatchObject({
      courierName: "Xpressbees Surface",
      stage: "booked",
      ratePaise: 14_800,
    });
    expect(first.reference).toBe(`${order.orderNumber}-1`);
    await expect(bookShipment(deps, order.id, input("33"), STAFF)).rejects.toThrow(
      /already has a shipment/,
    );
    const { pdf } = await shipmentLabel(deps, first.id);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
    const picked = await requestPickup(deps, first.id, STAFF);
    expect(picked.stage).toBe("pickup_scheduled");
    expect(picked.pickupToken).toMatch(/^PT/);
    await cancelShipment(deps, first.id, STAFF);
    await expect(cancelShipment(deps, first.id, STAFF)).rejects.toThrow(/already cancelled/);
    const second = await bookShipment(deps, order.id, input("10"), STAFF);
    expect(second.reference).toBe(`${order.orderNumber}-2`);
    expect(second.awb).not.toBe(first.awb);
    // The order still waits for the courier: booking is not shipping.
    expect((await orderNow(order.id)).status).toBe("processing");
    const audit = await db
      .select({ action: adminAudit.action })
      .from(adminAudit)
      .where(and(eq(adminAudit.targetType, "order"), eq(adminAudit.targetId, order.id)));
    expect(audit.map((a) => a.action).sort()).toEqual([
      "order.ship-book",
      "order.ship-book",
      "order.ship-cancel",
      "order.ship-pickup",
    ]);
    // The day is India's (after 18:30 UTC it is already tomorrow there).
    const day = await labelsForDay(deps, istToday(), async (files) => files[0]);
    expect(day).not.toBeNull();
  });

  it("refuses a courier the carrier no longer offers, a COD courier that can't collect, and an unpaid order", async () => {
    const { order } = await processingOrder({ cod: true });
    await expect(bookShipment(deps, order.id, input("43"), STAFF)).rejects.toBeInstanceOf(
      ShipmentError,
    );
    await expect(bookShipment(deps, order.id, input("999"), STAFF)).rejects.toThrow(
      /choose another/,
    );
    const product = await insertProduct(db);
    const unpaid = await insertOrder(db, customer.id, [product.id], "unpaid");
    await expect(bookShipment(deps, unpaid.id, input("33"), STAFF)).rejects.toThrow(/isn't paid/);
    expect(await db.select().from(shipments).where(eq(shipments.orderId, unpaid.id))).toEqual([]);
  });

  it("two staff booking one order at once: one AWB, the other told plainly with a 409", async () => {
    const { order } = await processingOrder();
    const admin = await createVerifiedUser(harness.rt.auth, db, {
      email: uniqueEmail("courier-admin"),
    });
    await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
    const cookie = await signInCookie(harness.rt.auth, admin);
    const route = await import("~/routes/admin/order-shipment.tsx");
    const book = (courierId: string) =>
      outcome(() =>
        route.action({
          ...routeArgs(
            formPost(
              `/admin/orders/${order.id}/shipment`,
              {
                intent: "book",
                courierId,
                grams: "700",
                lengthCm: "20",
                widthCm: "15",
                heightCm: "10",
              },
              { cookie },
            ),
          ),
          params: { id: order.id },
        } as never),
      );
    const assigned = () => fake.state.calls.filter((c) => c === "POST /courier/assign/awb").length;
    const before = assigned();
    const results = await Promise.all([book("33"), book("10")]);
    expect(results.map((r) => r.status ?? 200).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409);
    expect(refused?.body).toMatchObject({ ok: false });
    expect(String((refused?.body as { error?: string } | undefined)?.error)).toMatch(
      /booking this order's shipment right now|already has a shipment/,
    );
    // The carrier was asked for exactly one AWB; one live shipment, and the claim released.
    expect(assigned() - before).toBe(1);
    const live = await db.select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(live).toHaveLength(1);
    expect(
      await db.select().from(shipmentBookings).where(eq(shipmentBookings.orderId, order.id)),
    ).toHaveLength(0);
    // And in the module, whichever call comes second is refused by the shop, never the carrier.
    const other = await processingOrder();
    const settled = await Promise.allSettled([
      bookShipment(deps, other.order.id, input("33"), STAFF),
      bookShipment(deps, other.order.id, input("10"), STAFF),
    ]);
    expect(settled.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const reason = settled.find((r) => r.status === "rejected");
    expect(reason?.status === "rejected" && reason.reason instanceof ShipmentError).toBe(true);
  });

  it("refuses a webhook with a wrong or missing token (401) and writes nothing", async () => {
    const { order } = await processingOrder();
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const body = fake.advance(s.awb, STATUS.SHIPPED);
    expect((await post(body, "not-the-token")).status).toBe(401);
    expect((await post(body, "")).status).toBe(401);
    expect(
      await db.select().from(shipmentEvents).where(eq(shipmentEvents.shipmentId, s.id)),
    ).toEqual([]);
    expect((await orderNow(order.id)).status).toBe("processing");
    const unknown = await post({ ...body, awb: "000000000" });
    expect(unknown).toMatchObject({ status: 200, body: { outcome: "unknown-awb" } });
    expect((await post("not an object")).status).toBe(400);
  });

  it("applies a repeated and an out-of-order update once; delivered never goes back; one e-mail each", async () => {
    const { order } = await processingOrder();
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const t0 = Date.now() - 3 * 86_400_000;
    const shipped = fake.advance(s.awb, STATUS.SHIPPED, new Date(t0));
    const outForDelivery = fake.advance(s.awb, STATUS.OUT_FOR_DELIVERY, new Date(t0 + 86_400_000));
    const delivered = fake.advance(s.awb, STATUS.DELIVERED, new Date(t0 + 90_000_000));

    expect((await post(shipped)).body.outcome).toBe("applied");
    expect((await post(shipped)).body.outcome).toBe("duplicate");
    expect(await orderNow(order.id)).toMatchObject({
      status: "shipped",
      carrier: "Xpressbees Surface",
      trackingNumber: s.awb,
    });
    // Delivered arrives before out for delivery.
    expect((await post(delivered)).body.outcome).toBe("applied");
    expect((await orderNow(order.id)).status).toBe("delivered");
    expect((await post(outForDelivery)).body.outcome).toBe("applied");
    expect((await post(shipped)).body.outcome).toBe("duplicate");
    expect((await post(delivered)).body.outcome).toBe("duplicate");
    const after = await orderNow(order.id);
    expect(after.status).toBe("delivered");
    // A late "out for delivery" after delivery sends nothing.
    expect(after.outForDeliveryAt).toBeNull();
    const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    expect(row.stage).toBe("delivered");
    const events = await db
      .select()
      .from(shipmentEvents)
      .where(eq(shipmentEvents.shipmentId, s.id));
    expect(events).toHaveLength(3);
    await harness.rt.jobRunner.runDue();
    const subjects = await outboxSubjects(order.orderNumber);
    expect(subjects.filter((x) => /has shipped/.test(x))).toHaveLength(1);
    expect(subjects.filter((x) => /was delivered/.test(x))).toHaveLength(1);
    expect(subjects.filter((x) => /out for delivery/.test(x))).toHaveLength(0);
  });

  it("e-mails out for delivery once, and a COD order's cash counts as paid on delivery", async () => {
    const { order } = await processingOrder({ cod: true });
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const t0 = Date.now() - 86_400_000;
    await post(fake.advance(s.awb, STATUS.PICKED_UP, new Date(t0)));
    const ofd = fake.advance(s.awb, STATUS.OUT_FOR_DELIVERY, new Date(t0 + 3_600_000));
    await post(ofd);
    await post(ofd);
    // A second attempt the next day (a new update, same stage): no second e-mail.
    await post(fake.advance(s.awb, STATUS.OUT_FOR_DELIVERY, new Date(t0 + 7_200_000)));
    expect((await orderNow(order.id)).outForDeliveryAt).not.toBeNull();
    await post(fake.advance(s.awb, STATUS.DELIVERED, new Date(t0 + 9_000_000)));
    expect(await orderNow(order.id)).toMatchObject({ status: "delivered", paymentStatus: "paid" });
    await harness.rt.jobRunner.runDue();
    const subjects = await outboxSubjects(order.orderNumber);
    expect(subjects.filter((x) => /out for delivery/.test(x))).toHaveLength(1);
    const timeline = (await shipmentsForOrders(db, [order.id])).get(order.id);
    expect(timeline?.events.map((e) => e.stage)).toEqual([
      "in_transit",
      "out_for_delivery",
      "out_for_delivery",
      "delivered",
    ]);
    // The customer's /orders carries the timeline, without the carrier's own ids or raw bodies.
    const page = await import("~/routes/orders.tsx");
    const res = await outcome(() =>
      page.loader({
        request: pageGet("/orders", { cookie: customer.cookie }),
        params: {},
        context: {},
      } as never),
    );
    const body = res.body as { tracking: Record<string, Record<string, unknown>> };
    expect(body.tracking[order.id]).toMatchObject({ awb: s.awb, stage: "delivered" });
    expect((body.tracking[order.id].events as unknown[]).length).toBe(4);
    expect(JSON.stringify(body.tracking)).not.toContain("carrierShipmentId");
  });

  it("returns an order to origin once: stock back once, the COD cash flagged as never collected", async () => {
    const { order, product } = await processingOrder({ cod: true });
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const t0 = Date.now() - 5 * 86_400_000;
    await post(fake.advance(s.awb, STATUS.SHIPPED, new Date(t0)));
    await post(fake.advance(s.awb, STATUS.UNDELIVERED, new Date(t0 + 86_400_000)));
    await post(fake.advance(s.awb, STATUS.RTO_INITIATED, new Date(t0 + 2 * 86_400_000)));
    expect((await orderNow(order.id)).status).toBe("shipped");
    const rto = fake.advance(s.awb, STATUS.RTO_DELIVERED, new Date(t0 + 4 * 86_400_000));
    expect((await post(rto)).body.outcome).toBe("applied");
    expect((await post(rto)).body.outcome).toBe("duplicate");
    const o = await orderNow(order.id);
    expect(o).toMatchObject({ status: "returned", paymentStatus: "unpaid" });
    expect(o.notes).toMatch(/cash on delivery was never collected/);
    const stock = async () =>
      (await db.select().from(products).where(eq(products.id, product.id)))[0].stockCount;
    expect(await stock()).toBe(6);
    // A late "delivered" after the return changes nothing.
    await post(fake.advance(s.awb, STATUS.DELIVERED, new Date(t0 + 5 * 86_400_000)));
    expect((await orderNow(order.id)).status).toBe("returned");
    expect(await stock()).toBe(6);
    const audit = await db
      .select()
      .from(adminAudit)
      .where(
        and(eq(adminAudit.targetId, order.id), eq(adminAudit.action, "order.returned-to-origin")),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ codUncollected: true });
  });

  it("polls tracking as the fallback, with the same keys as the webhook's updates", async () => {
    const { order } = await processingOrder();
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const t0 = Date.now() - 2 * 86_400_000;
    const shipped = fake.advance(s.awb, STATUS.SHIPPED, new Date(t0));
    await post(shipped);
    fake.advance(s.awb, STATUS.IN_TRANSIT, new Date(t0 + 3_600_000));
    fake.advance(s.awb, STATUS.DELIVERED, new Date(t0 + 86_400_000));
    await db.update(shipments).set({ lastEventAt: null }).where(eq(shipments.id, s.id));
    await pollTracking(deps);
    expect((await orderNow(order.id)).status).toBe("delivered");
    const events = await db
      .select()
      .from(shipmentEvents)
      .where(eq(shipmentEvents.shipmentId, s.id));
    expect(events.map((e) => e.source).sort()).toEqual(["poll", "poll", "webhook"]);
    const [row] = await db.select().from(shipments).where(eq(shipments.id, s.id));
    expect(row.expectedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("no webhook body, however odd, causes a server error or a write for an unknown AWB", async () => {
    const { order } = await processingOrder();
    const s = await bookShipment(deps, order.id, input("33"), STAFF);
    const genuine = fake.advance(s.awb, STATUS.IN_TRANSIT);
    const events = async () => (await db.select({ n: count() }).from(shipmentEvents))[0].n;
    const before = await events();
    const odd = fc.oneof(
      fc.jsonValue(),
      fc.record({
        awb: fc.oneof(fc.string({ maxLength: 80 }), fc.integer(), fc.constant(null)),
        shipment_status_id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 })),
        current_status: fc.string({ maxLength: 30 }),
        current_timestamp: fc.oneof(
          fc.string({ maxLength: 25 }),
          fc.constant("32 13 2026 25:61:00"),
        ),
        scans: fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 3 })),
      }),
      fc.record({ ...Object.fromEntries(Object.keys(genuine).map((k) => [k, fc.jsonValue()])) }),
    );
    await fc.assert(
      fc.asyncProperty(odd, async (body) => {
        const res = await post(body);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 150, seed: 20261126 },
    );
    // Nothing generated names the booked AWB, so nothing was recorded.
    expect(await events()).toBe(before);
  });
});
