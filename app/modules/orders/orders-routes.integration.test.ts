import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { orderItems, orders } from "~/db/schema.ts";
import { upsertReview } from "~/modules/reviews/reviews.server.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * /orders (the customer's list and return requests) and /orders/:id/invoice.pdf act on the
 * session's user only; another customer's order is answered like a missing one.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
});
afterAll(async () => {
  await harness?.stop();
});

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  return { ...account, cookie: await signInCookie(harness.rt.auth, account) };
}

const page = () => import("~/routes/orders.tsx");
const invoice = () => import("~/routes/orders.$id.invoice.ts");

type Listed = {
  orders: Array<{ id: string; items: Array<{ productId: string; myReview: unknown }> }>;
};

async function getInvoice(id: string, cookie: string) {
  const request = pageGet(`/orders/${id}/invoice.pdf`, { cookie });
  const res = await (await invoice()).loader({ request, params: { id }, context: {} } as never);
  return res as Response;
}

const returnForm = (orderId: string, fields: Record<string, string>, cookie: string) => {
  const request = formPost("/orders", { intent: "return", orderId, ...fields }, { cookie });
  return outcome(async () => (await page()).action(routeArgs(request) as never));
};

async function itemOf(orderId: string) {
  const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  return item;
}

describe(`my orders on ${testDbKind()}`, () => {
  it("/orders sends a visitor to sign in", async () => {
    const res = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/orders")) as never),
    );
    expect(res).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Forders" });
  });

  it("lists only the session user's orders, newest first, with the user's reviews", async () => {
    const a = await customer("orders-a");
    const b = await customer("orders-b");
    const dragon = await insertProduct(db, { name: "Dragon Miniature" });
    const lamp = await insertProduct(db, { name: "Moon Lamp" });
    const older = await insertOrder(db, a.id, [dragon.id]);
    await db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 86_400_000) })
      .where(eq(orders.id, older.id));
    const newer = await insertOrder(db, a.id, [lamp.id]);
    await insertOrder(db, b.id, [dragon.id]);
    await upsertReview(db, a.id, dragon.id, { rating: 4, title: "Lovely", review: "Crisp print." });

    const res = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/orders", { cookie: a.cookie })) as never),
    );
    expect(res.status).toBe(200);
    const body = res.body as Listed;
    expect(body.orders.map((o) => o.id)).toEqual([newer.id, older.id]);
    expect(body.orders[0].items).toMatchObject([{ productId: lamp.id, myReview: null }]);
    expect(body.orders[1].items).toMatchObject([
      { productId: dragon.id, myReview: { rating: 4, title: "Lovely", review: "Crisp print." } },
    ]);

    const none = await customer("orders-none");
    const empty = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/orders", { cookie: none.cookie })) as never),
    );
    expect(empty.body).toEqual({ orders: [], tracking: {} });
  });

  it("the invoice route serves a paid order's PDF to its owner only", async () => {
    const a = await customer("inv-a");
    const b = await customer("inv-b");
    const product = await insertProduct(db);
    const paid = await insertOrder(db, a.id, [product.id]);
    const unpaid = await insertOrder(db, a.id, [product.id], "unpaid");
    // One item at ₹349 + ₹9.99 shipping + 8% tax: the invoice checks that its figures add up.
    await db
      .update(orders)
      .set({ subtotalPaise: 34_900, shippingPaise: 999, taxPaise: 2_792, totalPaise: 38_691 })
      .where(eq(orders.id, paid.id));

    const pdf = await getInvoice(paid.id, a.cookie);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="invoice-${paid.orderNumber}.pdf"`,
    );
    expect(pdf.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe("%PDF");

    expect((await getInvoice(paid.id, b.cookie)).status).toBe(404);
    expect((await getInvoice("not-a-uuid", a.cookie)).status).toBe(404);
    expect((await getInvoice(crypto.randomUUID(), a.cookie)).status).toBe(404);
    expect((await getInvoice(unpaid.id, a.cookie)).status).toBe(409);

    const visitor = await outcome(async () =>
      (await invoice()).loader({
        request: pageGet(`/orders/${paid.id}/invoice.pdf`),
        params: { id: paid.id },
        context: {},
      } as never),
    );
    expect(visitor.status).toBe(302);
  });

  it("a return is refused for an order that isn't delivered or isn't the user's", async () => {
    const a = await customer("ret-a");
    const b = await customer("ret-b");
    const product = await insertProduct(db);
    const order = await insertOrder(db, a.id, [product.id]);
    const item = await itemOf(order.id);
    const fields = { item: `${item.id}:1`, reason: "Arrived cracked" };

    expect(await returnForm(order.id, fields, a.cookie)).toMatchObject({
      status: 400,
      body: { error: "Only delivered orders can be returned." },
    });

    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, order.id));
    expect(await returnForm(order.id, fields, b.cookie)).toMatchObject({
      status: 404,
      body: { error: "Order not found" },
    });
    expect(await returnForm("not-a-uuid", fields, a.cookie)).toMatchObject({ status: 404 });
  });

  it("a delivered order can be returned once", async () => {
    const a = await customer("ret-once");
    const product = await insertProduct(db);
    const order = await insertOrder(db, a.id, [product.id]);
    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, order.id));
    const item = await itemOf(order.id);

    expect(await returnForm(order.id, { reason: "Changed my mind" }, a.cookie)).toMatchObject({
      status: 400,
      body: { error: "Please choose at least one item to return." },
    });
    expect(
      await returnForm(order.id, { item: `${item.id}:2`, reason: "Too big" }, a.cookie),
    ).toMatchObject({
      status: 400,
    });

    const fields = { item: `${item.id}:1`, reason: "Arrived cracked" };
    expect(await returnForm(order.id, fields, a.cookie)).toEqual({
      status: 200,
      location: null,
      body: { ok: true },
    });
    expect(await returnForm(order.id, fields, a.cookie)).toMatchObject({
      status: 400,
      body: { error: "A return is already requested for this order." },
    });

    const listed = await outcome(async () =>
      (await page()).loader(routeArgs(pageGet("/orders", { cookie: a.cookie })) as never),
    );
    expect((listed.body as { orders: Array<{ returnRequest: unknown }> }).orders[0]).toMatchObject({
      returnRequest: { status: "requested", reason: "Arrived cracked" },
    });
  });
});
