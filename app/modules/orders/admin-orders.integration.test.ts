import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  adminAudit,
  jobs,
  orderItems,
  orders,
  products,
  returnRequests,
  user,
  userProfiles,
} from "~/db/schema.ts";
import { createJobRunner } from "~/modules/jobs/jobs.server.ts";
import { requestReturn } from "~/modules/orders/orders.server.ts";
import { emptyFilters } from "~/rules/admin-orders.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import {
  applyOrderAction,
  getAdminOrder,
  listAdminOrders,
  OrderStateError,
  orderCsvRows,
} from "./admin-orders.server.ts";

/*
 * The admin's orders: the list's filters (status, India dates, text, return requests), one order
 * in full, the CSV export, and the staff actions of DESIGN.md decision 5 with their audit
 * entries; plus the guard on every loader and action (customers 403 or sent home, visitors to
 * sign in).
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let admin: { id: string; email: string; cookie: string };
let customer: { id: string; email: string; cookie: string };

async function account(tag: string, name?: string) {
  const a = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag), name });
  return { ...a, cookie: await signInCookie(harness.rt.auth, a) };
}

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  admin = await account("orders-admin", "Admin Person");
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
  customer = await account("orders-customer", "Asha Rao");
});
afterAll(async () => {
  await harness?.stop();
});

const listPage = () => import("~/routes/admin/orders.tsx");
const orderPage = () => import("~/routes/admin/order.tsx");
const csvRoute = () => import("~/routes/admin/orders-csv.ts");

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: {} }) as never;

const getList = async (query: string, cookie = admin.cookie) =>
  outcome(async () =>
    (await listPage()).loader(args(pageGet(`/admin/orders${query}`, { cookie }))),
  );
const getOrder = async (id: string, cookie = admin.cookie) =>
  outcome(async () =>
    (await orderPage()).loader(args(pageGet(`/admin/orders/${id}`, { cookie }), { id })),
  );
const act = async (id: string, fields: Record<string, string>, cookie = admin.cookie) =>
  outcome(async () =>
    (await orderPage()).action(args(formPost(`/admin/orders/${id}`, fields, { cookie }), { id })),
  );
const getCsv = async (query: string, cookie = admin.cookie) =>
  (await csvRoute()).loader(
    args(pageGet(`/admin/orders.csv${query}`, { cookie })),
  ) as Promise<Response>;

const deps = () => ({ db, jobs: harness.rt.jobRunner });

async function order(
  userId: string,
  set: Partial<typeof orders.$inferInsert> = {},
  productId?: string,
) {
  const product = productId ?? (await insertProduct(db, { stockCount: 5 })).id;
  const o = await insertOrder(db, userId, [product]);
  const [row] = await db
    .update(orders)
    .set({
      status: "processing",
      subtotalPaise: 34_900,
      shippingPaise: 999,
      taxPaise: 2_792,
      totalPaise: 38_691,
      ...set,
    })
    .where(eq(orders.id, o.id))
    .returning();
  return row;
}

async function statusOf(id: string) {
  const [row] = await db
    .select({ status: orders.status, paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.id, id));
  return row;
}

const auditOf = (id: string) =>
  db
    .select()
    .from(adminAudit)
    .where(and(eq(adminAudit.targetType, "order"), eq(adminAudit.targetId, id)));

async function outboxTo(email: string) {
  const dir = path.join(harness.rt.env.dataDir, "outbox");
  const files = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(files.map((f) => readFile(path.join(dir, f), "utf8")));
  return texts.filter((t) => t.toLowerCase().includes(email.toLowerCase()));
}

type ListBody = {
  orders: Array<{ id: string; orderNumber: string; customerName: string; returnStatus: string }>;
  total: number;
  page: number;
  pageCount: number;
  returnRequests: number;
};

describe(`admin orders on ${testDbKind()}`, () => {
  it("every loader and action turns away customers and visitors", async () => {
    const o = await order(customer.id);
    const ship = { intent: "ship", carrier: "Delhivery", trackingNumber: "X1" };

    // A customer: pages send them home, the action says 403.
    expect(await getList("", customer.cookie)).toMatchObject({ status: 302, location: "/" });
    expect(await getOrder(o.id, customer.cookie)).toMatchObject({ status: 302, location: "/" });
    expect(await act(o.id, ship, customer.cookie)).toMatchObject({ status: 403 });
    expect(
      await outcome(() =>
        csvRoute().then((m) =>
          m.loader(args(pageGet("/admin/orders.csv", { cookie: customer.cookie }))),
        ),
      ),
    ).toMatchObject({ status: 302, location: "/" });

    // A visitor: off to sign in.
    const visitor = (pathname: string) => ({
      status: 302,
      location: `/auth?redirectTo=${encodeURIComponent(pathname)}`,
    });
    expect(
      await outcome(async () => (await listPage()).loader(args(pageGet("/admin/orders")))),
    ).toMatchObject(visitor("/admin/orders"));
    expect(
      await outcome(async () =>
        (await orderPage()).loader(args(pageGet(`/admin/orders/${o.id}`), { id: o.id })),
      ),
    ).toMatchObject(visitor(`/admin/orders/${o.id}`));
    expect(
      await outcome(async () =>
        (await orderPage()).action(args(formPost(`/admin/orders/${o.id}`, ship), { id: o.id })),
      ),
    ).toMatchObject({ status: 302 });
    expect(
      await outcome(async () => (await csvRoute()).loader(args(pageGet("/admin/orders.csv")))),
    ).toMatchObject(visitor("/admin/orders.csv"));

    // A cross-site form post is refused even for an admin.
    expect(
      await outcome(async () =>
        (await orderPage()).action(
          args(
            formPost(`/admin/orders/${o.id}`, ship, { cookie: admin.cookie, site: "cross-site" }),
            {
              id: o.id,
            },
          ),
        ),
      ),
    ).toMatchObject({ status: 403 });

    expect(await statusOf(o.id)).toMatchObject({ status: "processing" });
    expect(await auditOf(o.id)).toEqual([]);
  });

  it("lists every order newest first, filtered by status, India dates, text and returns", async () => {
    const buyer = await account("orders-filter", "Meera Iyer");
    const base = { userId: buyer.id };
    // 23:59 IST on 1 Mar and 00:01 IST on 2 Mar 2026.
    const lateFirst = await order(base.userId, {
      status: "shipped",
      createdAt: new Date("2026-03-01T18:29:00Z"),
    });
    const earlySecond = await order(base.userId, {
      status: "delivered",
      createdAt: new Date("2026-03-01T18:31:00Z"),
    });
    const latest = await order(base.userId, { createdAt: new Date("2026-03-05T06:00:00Z") });
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, earlySecond.id));
    await requestReturn(db, buyer.id, earlySecond.id, {
      items: [{ orderItemId: items[0].id, quantity: 1 }],
      reason: "Cracked base",
    });

    const only = (body: unknown) =>
      (body as ListBody).orders
        .filter((o) => [lateFirst.id, earlySecond.id, latest.id].includes(o.id))
        .map((o) => o.id);

    const all = await getList("?q=meera");
    expect(all.status).toBe(200);
    expect(only(all.body)).toEqual([latest.id, earlySecond.id, lateFirst.id]);
    expect((all.body as ListBody).orders[0]).toMatchObject({ customerName: "Meera Iyer" });

    expect(only((await getList("?q=MEERA&status=shipped")).body)).toEqual([lateFirst.id]);
    expect(only((await getList("?from=2026-03-02&to=2026-03-02")).body)).toEqual([earlySecond.id]);
    expect(only((await getList("?to=2026-03-01")).body)).toEqual([lateFirst.id]);
    expect(only((await getList(`?q=${latest.orderNumber.toLowerCase()}`)).body)).toEqual([
      latest.id,
    ]);
    expect(only((await getList(`?q=${buyer.email.toUpperCase()}`)).body)).toHaveLength(3);
    // LIKE wildcards match themselves.
    expect((await getList("?q=%25")).body).toMatchObject({ total: 0 });

    const returns = await getList("?view=returns");
    expect(only(returns.body)).toEqual([earlySecond.id]);
    expect((returns.body as ListBody).orders[0]).toMatchObject({ returnStatus: "requested" });
    expect((returns.body as ListBody).returnRequests).toBeGreaterThanOrEqual(1);

    // Nonsense filters are ignored, not errors.
    expect((await getList("?status=lost&from=nope&page=-1")).status).toBe(200);
  });

  it("pages through the list", async () => {
    const buyer = await account("orders-pages", "Pager Person");
    for (let i = 0; i < 5; i++) {
      await order(buyer.id, { createdAt: new Date(Date.UTC(2025, 0, 1 + i)) });
    }
    const filters = { ...emptyFilters, q: "pager person" };
    const first = await listAdminOrders(db, filters, 2);
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 });
    const third = await listAdminOrders(db, { ...filters, page: 3 }, 2);
    expect(third.orders).toHaveLength(1);
    expect(third.orders[0].createdAt).toBe("2025-01-01T00:00:00.000Z");
    // A page past the end shows the last page.
    expect((await listAdminOrders(db, { ...filters, page: 9 }, 2)).page).toBe(3);
  });

  it("shows one order with its customer, items, return and actions", async () => {
    const o = await order(customer.id);
    const res = await getOrder(o.id);
    expect(res.status).toBe(200);
    const { order: detail } = res.body as { order: Awaited<ReturnType<typeof getAdminOrder>> };
    expect(detail).toMatchObject({
      orderNumber: o.orderNumber,
      status: "processing",
      customer: { id: customer.id, name: "Asha Rao", email: customer.email },
      totalPaise: 38_691,
      paymentStatus: "paid",
      actions: ["ship", "cancel"],
      returnRequest: null,
      history: [],
    });
    expect(detail.items).toHaveLength(1);
    expect((await getOrder("not-a-uuid")).status).toBe(404);
    expect((await getOrder(crypto.randomUUID())).status).toBe(404);
  });

  it("processing → shipped → delivered → return approved → refunded, each audited", async () => {
    const o = await order(customer.id);

    // The ship form is checked.
    const bad = await act(o.id, {
      intent: "ship",
      carrier: " ",
      trackingNumber: "",
      trackingUrl: "javascript:alert(1)",
    });
    expect(bad).toMatchObject({
      status: 400,
      body: {
        ok: false,
        fieldErrors: {
          carrier: "Please enter the carrier.",
          trackingNumber: "Please enter the tracking number.",
          trackingUrl: "The tracking URL must be a web address starting with http:// or https://.",
        },
      },
    });
    // Delivering before shipping is a 409 with a reason.
    expect(await act(o.id, { intent: "deliver" })).toMatchObject({
      status: 409,
      body: {
        ok: false,
        error:
          "This order is processing, so it can't be marked as delivered (only shipped orders can).",
      },
    });
    expect(await auditOf(o.id)).toEqual([]);

    const shipped = await act(o.id, {
      intent: "ship",
      carrier: "Delhivery",
      trackingNumber: "DL12345",
      trackingUrl: "https://www.delhivery.com/track/DL12345",
    });
    expect(shipped).toMatchObject({ status: 200, body: { ok: true, action: "ship" } });
    const [row] = await db.select().from(orders).where(eq(orders.id, o.id));
    expect(row).toMatchObject({
      status: "shipped",
      carrier: "Delhivery",
      trackingNumber: "DL12345",
      trackingUrl: "https://www.delhivery.com/track/DL12345",
    });
    expect((await outboxTo(customer.email)).some((m) => m.includes("DL12345"))).toBe(true);
    expect(await act(o.id, { intent: "ship", carrier: "X", trackingNumber: "Y" })).toMatchObject({
      status: 409,
    });
    expect(await act(o.id, { intent: "cancel" })).toMatchObject({ status: 409 });

    expect(await act(o.id, { intent: "deliver" })).toMatchObject({ status: 200 });
    expect(await statusOf(o.id)).toEqual({ status: "delivered", paymentStatus: "paid" });
    // No approved return yet: no refund.
    expect(await act(o.id, { intent: "refund" })).toMatchObject({
      status: 409,
      body: { error: "A delivered order is refunded only after its return is approved." },
    });

    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, o.id));
    await requestReturn(db, customer.id, o.id, {
      items: [{ orderItemId: item.id, quantity: 1 }],
      reason: "Colour differs",
    });
    const withReturn = (await getOrder(o.id)).body as {
      order: Awaited<ReturnType<typeof getAdminOrder>>;
    };
    expect(withReturn.order.returnRequest).toMatchObject({
      status: "requested",
      reason: "Colour differs",
      items: [{ orderItemId: item.id, quantity: 1 }],
    });
    expect(withReturn.order.actions).toEqual(["approve-return", "reject-return"]);

    expect(await act(o.id, { intent: "approve-return" })).toMatchObject({ status: 200 });
    expect(await act(o.id, { intent: "reject-return" })).toMatchObject({
      status: 409,
      body: { error: "This return is already approved." },
    });
    expect(await act(o.id, { intent: "refund" })).toMatchObject({ status: 200 });
    expect(await statusOf(o.id)).toEqual({ status: "refunded", paymentStatus: "refunded" });
    const [ret] = await db.select().from(returnRequests).where(eq(returnRequests.orderId, o.id));
    expect(ret.status).toBe("refunded");
    expect(await act(o.id, { intent: "refund" })).toMatchObject({
      status: 409,
      body: { error: "This order is already refunded." },
    });

    const audit = await auditOf(o.id);
    expect(audit.map((a) => a.action).sort()).toEqual(
      ["order.deliver", "order.refund", "order.return-approve", "order.ship"].sort(),
    );
    expect(audit.every((a) => a.actorId === admin.id && a.actorEmail === admin.email)).toBe(true);
    const ship = audit.find((a) => a.action === "order.ship");
    expect(ship?.summary).toBe(`Shipped ${o.orderNumber} with Delhivery (DL12345)`);
    expect(audit.find((a) => a.action === "order.refund")?.summary).toBe(
      `Recorded a refund of ₹386.91 for ${o.orderNumber}`,
    );
    const detail = await getAdminOrder(db, o.id);
    expect(detail.history).toHaveLength(4);
    expect(detail.actions).toEqual([]);
  });

  it("a rejected return can't be refunded", async () => {
    const o = await order(customer.id, { status: "delivered" });
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, o.id));
    await requestReturn(db, customer.id, o.id, {
      items: [{ orderItemId: item.id, quantity: 1 }],
      reason: "Changed my mind",
    });
    expect(await act(o.id, { intent: "reject-return" })).toMatchObject({ status: 200 });
    const [ret] = await db.select().from(returnRequests).where(eq(returnRequests.orderId, o.id));
    expect(ret.status).toBe("rejected");
    expect(await act(o.id, { intent: "refund" })).toMatchObject({ status: 409 });
    expect((await auditOf(o.id)).map((a) => a.action)).toEqual(["order.return-reject"]);
  });

  it("cancelling puts the stock back; a paid cancelled order can then be refunded", async () => {
    const product = await insertProduct(db, { stockCount: 3 });
    const o = await order(customer.id, {}, product.id);
    expect(await act(o.id, { intent: "cancel" })).toMatchObject({ status: 200 });
    const [p] = await db.select().from(products).where(eq(products.id, product.id));
    expect(p.stockCount).toBe(4);
    expect(await statusOf(o.id)).toEqual({ status: "cancelled", paymentStatus: "paid" });
    // The customer is told, with the refund they are owed.
    const told = (await outboxTo(customer.email)).filter(
      (m) => m.includes(o.orderNumber) && m.includes("was cancelled"),
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("refund");
    expect(await act(o.id, { intent: "cancel" })).toMatchObject({ status: 409 });
    expect(await act(o.id, { intent: "refund" })).toMatchObject({ status: 200 });
    expect(await statusOf(o.id)).toEqual({ status: "cancelled", paymentStatus: "refunded" });
    expect((await auditOf(o.id)).map((a) => a.action).sort()).toEqual([
      "order.cancel",
      "order.refund",
    ]);
    // An unpaid cancelled order has nothing to refund.
    const unpaid = await order(customer.id, { status: "cancelled", paymentStatus: "unpaid" });
    expect(await act(unpaid.id, { intent: "refund" })).toMatchObject({
      status: 409,
      body: { error: "This order's payment is unpaid, so there is nothing to refund." },
    });
  });

  it("two admins acting at once: one change wins, the other gets a 409", async () => {
    const product = await insertProduct(db, { stockCount: 2 });
    const o = await order(customer.id, {}, product.id);
    const results = await Promise.all([
      act(o.id, { intent: "cancel" }),
      act(o.id, { intent: "cancel" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const [p] = await db.select().from(products).where(eq(products.id, product.id));
    expect(p.stockCount).toBe(3); // released once
    expect((await auditOf(o.id)).map((a) => a.action)).toEqual(["order.cancel"]);

    const refunded = await order(customer.id, { status: "cancelled" });
    const refunds = await Promise.all([
      act(refunded.id, { intent: "refund" }),
      act(refunded.id, { intent: "refund" }),
    ]);
    expect(refunds.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await auditOf(refunded.id)).map((a) => a.action)).toEqual(["order.refund"]);
  });

  it("marks a cash-on-delivery order paid, once", async () => {
    const o = await order(customer.id, {
      paymentMethod: "cod",
      paymentProvider: "cod",
      paymentStatus: "unpaid",
      paidAt: null,
    });
    expect((await getAdminOrder(db, o.id)).actions).toEqual(["ship", "cancel", "cod-paid"]);
    expect(await act(o.id, { intent: "cod-paid" })).toMatchObject({ status: 200 });
    expect(await statusOf(o.id)).toEqual({ status: "processing", paymentStatus: "paid" });
    expect(await act(o.id, { intent: "cod-paid" })).toMatchObject({
      status: 409,
      body: { error: "This order's payment is already paid." },
    });
    const gateway = await order(customer.id);
    expect(await act(gateway.id, { intent: "cod-paid" })).toMatchObject({
      status: 409,
      body: { error: "Only cash-on-delivery orders are marked paid by hand." },
    });
    expect((await auditOf(o.id)).map((a) => a.action)).toEqual(["order.cod-paid"]);
  });

  it("refuses unknown actions, bad ids and non-form bodies", async () => {
    const o = await order(customer.id);
    expect(await act(o.id, { intent: "teleport" })).toMatchObject({ status: 400 });
    expect(await act("nope", { intent: "cancel" })).toMatchObject({ status: 404 });
    expect(await act(crypto.randomUUID(), { intent: "cancel" })).toMatchObject({ status: 404 });
    const json = new Request(`http://localhost:3000/admin/orders/${o.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: admin.cookie },
      body: JSON.stringify({ intent: "cancel" }),
    });
    expect(
      await outcome(async () => (await orderPage()).action(args(json, { id: o.id }))),
    ).toMatchObject({ status: 415 });
    expect(await statusOf(o.id)).toMatchObject({ status: "processing" });
  });

  it("a shipment whose e-mail fails still stands, audited, with the e-mail queued for a retry", async () => {
    const o = await order(customer.id);
    const broken = createJobRunner(db, {
      "order-email": async () => {
        throw new Error("mail server down");
      },
    });
    await applyOrderAction({ db, jobs: broken }, admin, o.id, "ship", {
      carrier: "Blue Dart",
      trackingNumber: "BD1",
      trackingUrl: null,
    });
    expect(await statusOf(o.id)).toMatchObject({ status: "shipped" });
    const [job] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `order-email:shipped:${o.id}`));
    expect(job).toMatchObject({ status: "queued", attempts: 1, lastError: "mail server down" });
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now());
    expect((await auditOf(o.id)).map((a) => a.action)).toEqual(["order.ship"]);
    await expect(applyOrderAction(deps(), admin, o.id, "cancel")).rejects.toBeInstanceOf(
      OrderStateError,
    );
  });

  it("exports the filtered orders as CSV, formulas defused", async () => {
    const sly = await account("orders-csv", '=HYPERLINK("http://evil.example")');
    // 00:15 on 11 April in India: the export once said 2026-04-10T18:45:00.000Z, the wrong day.
    const a = await order(sly.id, {
      status: "shipped",
      createdAt: new Date("2026-04-10T18:45:00Z"),
    });
    await order(sly.id, { status: "processing", createdAt: new Date("2026-04-11T10:00:00Z") });
    await db
      .update(orderItems)
      .set({ name: "Lotus, Tealight", quantity: 2 })
      .where(eq(orderItems.orderId, a.id));

    const res = await getCsv(`?status=shipped&q=${encodeURIComponent(sly.email)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="orders-\d{8}\.csv"$/,
    );
    const text = (await res.text()).replace(/^\uFEFF/, "");
    const parsed = Papa.parse<string[]>(text.trim());
    expect(parsed.data[0]).toEqual([
      "Order number",
      "Date (Asia/Kolkata)",
      "Customer",
      "Email",
      "Status",
      "Payment status",
      "Payment method",
      "Subtotal",
      "Discounts",
      "Discount amount",
      "Shipping",
      "COD fee",
      "Tax",
      "Total",
      "Items",
    ]);
    expect(parsed.data.slice(1)).toEqual([
      [
        a.orderNumber,
        "2026-04-11 00:15:00",
        '\'=HYPERLINK("http://evil.example")',
        sly.email,
        "shipped",
        "paid",
        "PhonePe (test mode)",
        "349.00",
        "",
        "0.00",
        "9.99",
        "0.00",
        "27.92",
        "386.91",
        "Lotus, Tealight × 2",
      ],
    ]);
    // The module gives the same rows for the same filters.
    const rows = await orderCsvRows(db, { ...emptyFilters, q: sly.email });
    expect(rows).toHaveLength(2);

    // An admin who chose UTC, or "This device" (the browser's zone, sent as ?tz=), gets theirs.
    const dateOf = async (query: string) => {
      const csv = Papa.parse<string[]>((await (await getCsv(query)).text()).trim());
      return [csv.data[0][1], csv.data[1][1]];
    };
    const query = `?status=shipped&q=${encodeURIComponent(sly.email)}`;
    const choose = (adminTimezone: string) =>
      db.update(userProfiles).set({ adminTimezone }).where(eq(userProfiles.userId, admin.id));
    try {
      await choose("UTC");
      expect(await dateOf(query)).toEqual(["Date (UTC)", "2026-04-10 18:45:00"]);
      await choose("local");
      expect(await dateOf(`${query}&tz=Europe/London`)).toEqual([
        "Date (Europe/London)",
        "2026-04-10 19:45:00",
      ]);
      expect(await dateOf(`${query}&tz=Nowhere/Else`)).toEqual([
        "Date (Asia/Kolkata)",
        "2026-04-11 00:15:00",
      ]);
    } finally {
      await choose("Asia/Kolkata");
    }
  });

  it("exports a cash-on-delivery order's fee in its own column, and every row's figures add up to its total", async () => {
    const buyer = await account("orders-csv-cod", "Cod Buyer");
    // ₹349 + ₹9.99 shipping + ₹49 COD fee + ₹27.92 tax = ₹435.91.
    await order(buyer.id, {
      status: "processing",
      paymentMethod: "cod",
      paymentProvider: "cod",
      paymentStatus: "unpaid",
      codFeePaise: 4_900,
      totalPaise: 43_591,
    });
    await order(buyer.id, { status: "processing" });
    const res = await getCsv(`?q=${encodeURIComponent(buyer.email)}`);
    const csv = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, "").trim());
    const header = csv.data[0];
    const col = (name: string) => header.indexOf(name);
    expect(col("COD fee")).toBe(col("Shipping") + 1);
    const rows = csv.data.slice(1);
    expect(rows.map((r) => r[col("COD fee")]).sort()).toEqual(["0.00", "49.00"]);
    const paise = (v: string) => Math.round(Number(v) * 100);
    for (const r of rows) {
      expect(
        paise(r[col("Subtotal")]) -
          paise(r[col("Discount amount")]) +
          paise(r[col("Shipping")]) +
          paise(r[col("COD fee")]) +
          paise(r[col("Tax")]),
      ).toBe(paise(r[col("Total")]));
    }
  });

  it("the customer's name comes from the profile when it has one", async () => {
    const buyer = await account("orders-profile", "Account Name");
    await db
      .update(userProfiles)
      .set({ displayName: "Profile Name" })
      .where(eq(userProfiles.userId, buyer.id));
    const o = await order(buyer.id);
    expect((await getAdminOrder(db, o.id)).customer.name).toBe("Profile Name");
    const page = await listAdminOrders(db, { ...emptyFilters, q: "profile name" });
    expect(page.orders.map((r) => r.id)).toEqual([o.id]);
    // Still found by the account's own name.
    const [u] = await db.select().from(user).where(eq(user.id, buyer.id));
    expect(
      (await listAdminOrders(db, { ...emptyFilters, q: u.name })).orders.map((r) => r.id),
    ).toEqual([o.id]);
  });
});
