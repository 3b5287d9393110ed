import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SANDBOX_SIGNATURE_HEADER,
  signSandboxNotification,
} from "~/adapters/payments/sandbox.server.ts";
import { orderItems, orders, paymentEvents, returnRequests, subscribers } from "~/db/schema.ts";
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
  uniqueIp,
} from "../support/accounts.ts";
import { insertOrder, insertProduct } from "../support/factories.ts";
import { testDbKind } from "../support/test-database.ts";

/*
 * Issue 20, findings 4, 5 and 9 through the routes: the sandbox gateway's notifications are
 * checked and only an explicit success pays; a return can't name a line twice; the newsletter
 * doesn't say who is subscribed; the sandbox's payment page is the order's customer's only.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;

beforeAll(async () => {
  harness = await startProcessRuntime({ ALLOW_SANDBOX_PAYMENTS: "true" });
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

async function customer(tag: string) {
  const { auth, db } = harness.rt;
  const account = await createVerifiedUser(auth, db, { email: uniqueEmail(tag) });
  return { ...account, cookie: await signInCookie(auth, account) };
}

/** An unpaid gateway order of the customer's with a sandbox payment started. */
async function unpaidOrder(userId: string) {
  const { db } = harness.rt;
  const product = await insertProduct(db);
  const order = await insertOrder(db, userId, [product.id], "unpaid");
  const transactionId = `${order.orderNumber}-${randomUUID().slice(0, 8)}`;
  await db
    .update(orders)
    .set({ paymentTransactionId: transactionId, totalPaise: 34_900 })
    .where(eq(orders.id, order.id));
  return { ...order, transactionId };
}

const webhook = async (body: object) => {
  const raw = JSON.stringify(body);
  const request = new Request(`${TEST_ORIGIN}/api/payment-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SANDBOX_SIGNATURE_HEADER]: signSandboxNotification(harness.rt.env.authSecret, raw),
    },
    body: raw,
  });
  const route = await import("~/routes/api.payment-webhook.ts");
  return outcome(() => route.action(routeArgs(request) as never));
};

const orderRow = async (id: string) =>
  (await harness.rt.db.select().from(orders).where(eq(orders.id, id)))[0];

describe(`issue 20 on ${testDbKind()}`, () => {
  it("finding 4: a signed REFUNDED (or any unknown state) is recorded and pays nothing", async () => {
    const a = await customer("refunded");
    const order = await unpaidOrder(a.id);
    for (const state of ["REFUNDED", "success", "PAID", ""]) {
      const eventId = randomUUID();
      const res = await webhook({
        eventId,
        transactionId: order.transactionId,
        state,
        amountPaise: 34_900,
      });
      expect(res.status, state).toBe(200);
      const [event] = await harness.rt.db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, eventId));
      expect(event, state).toMatchObject({ state: "UNKNOWN", outcome: "unchanged" });
    }
    const after = await orderRow(order.id);
    expect(after).toMatchObject({ paymentStatus: "unpaid", status: "pending", paidAt: null });
  });

  it("finding 4: a signed notification that doesn't make sense is refused", async () => {
    const a = await customer("malformed");
    const order = await unpaidOrder(a.id);
    for (const body of [
      { eventId: randomUUID(), transactionId: order.transactionId, state: "SUCCESS" },
      {
        eventId: randomUUID(),
        transactionId: order.transactionId,
        state: "SUCCESS",
        amountPaise: "34900",
      },
      { eventId: "", transactionId: order.transactionId, state: "SUCCESS", amountPaise: 34_900 },
      { eventId: randomUUID(), transactionId: ["x"], state: "SUCCESS", amountPaise: 34_900 },
    ]) {
      expect((await webhook(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await orderRow(order.id)).paymentStatus).toBe("unpaid");
    // An explicit success still pays.
    const paid = await webhook({
      eventId: randomUUID(),
      transactionId: order.transactionId,
      state: "SUCCESS",
      amountPaise: 34_900,
    });
    expect(paid).toMatchObject({ status: 200, body: { outcome: "applied" } });
    expect((await orderRow(order.id)).paymentStatus).toBe("paid");
  });

  it("finding 5: a return naming one line twice asks for the sum, and is refused past the order", async () => {
    const { db } = harness.rt;
    const a = await customer("return-twice");
    const product = await insertProduct(db);
    const order = await insertOrder(db, a.id, [product.id]);
    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, order.id));
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    await db.update(orderItems).set({ quantity: 2 }).where(eq(orderItems.id, item.id));
    const page = await import("~/routes/orders.tsx");
    const send = (entries: string[]) => {
      const body = new URLSearchParams({ intent: "return", orderId: order.id, reason: "Broken" });
      for (const entry of entries) body.append("item", entry);
      const request = formPost("/orders", {}, { cookie: a.cookie });
      return outcome(() =>
        page.action(
          routeArgs(
            new Request(request.url, { method: "POST", headers: request.headers, body }),
          ) as never,
        ),
      );
    };
    expect(await send([`${item.id}:2`, `${item.id}:2`])).toMatchObject({ status: 400 });
    expect(
      await db.select().from(returnRequests).where(eq(returnRequests.orderId, order.id)),
    ).toHaveLength(0);
    expect(await send([`${item.id}:1`, `${item.id.toUpperCase()}:1`])).toMatchObject({
      status: 200,
    });
    const [request] = await db
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.orderId, order.id));
    expect(request.items).toEqual([expect.objectContaining({ orderItemId: item.id, quantity: 2 })]);
  });

  it("finding 9: the newsletter answers the same whether or not the address is subscribed", async () => {
    const route = await import("~/routes/api.newsletter.ts");
    const email = uniqueEmail("newsletter");
    const send = (address: string) =>
      outcome(() =>
        route.action(
          routeArgs(formPost("/api/newsletter", { email: address }, { ip: uniqueIp() })) as never,
        ),
      );
    const first = await send(email);
    const again = await send(email.toUpperCase());
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    const rows = await harness.rt.db
      .select()
      .from(subscribers)
      .where(eq(sql`lower(${subscribers.email})`, email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it("finding 9: only the order's customer can see or settle its sandbox payment", async () => {
    const owner = await customer("sandbox-owner");
    const stranger = await customer("sandbox-stranger");
    const order = await unpaidOrder(owner.id);
    const { createSandboxProvider } = await import("~/adapters/payments/sandbox.server.ts");
    await createSandboxProvider({
      db: harness.rt.db,
      secret: harness.rt.env.authSecret,
      publicUrl: TEST_ORIGIN,
      enabled: true,
    }).initiate({
      transactionId: order.transactionId,
      orderId: order.id,
      orderNumber: order.orderNumber,
      amountPaise: 34_900,
      customer: { name: "Owner", email: owner.email, phone: null },
      redirectUrl: `${TEST_ORIGIN}/payment-success`,
      callbackUrl: `${TEST_ORIGIN}/api/payment-webhook`,
      expireAfterSeconds: 900,
    });
    const page = await import("~/routes/sandbox-pay.tsx");
    const params = { transactionId: order.transactionId };
    const settle = (cookie?: string) =>
      outcome(() =>
        page.action({
          request: formPost(
            `/sandbox/pay/${order.transactionId}`,
            { outcome: "success" },
            { cookie },
          ),
          params,
          context: {},
        } as never),
      );
    const view = (cookie?: string) =>
      outcome(() =>
        page.loader({
          request: pageGet(`/sandbox/pay/${order.transactionId}`, { cookie }),
          params,
          context: {},
        } as never),
      );
    expect((await view()).status).toBe(302);
    expect((await view(stranger.cookie)).status).toBe(404);
    expect((await settle()).status).toBe(302);
    expect((await settle()).location).toMatch(/^\/auth/);
    expect((await settle(stranger.cookie)).status).toBe(404);
    const { sandboxPayments } = await import("~/db/schema.ts");
    const [payment] = await harness.rt.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.transactionId, order.transactionId));
    expect(payment.state).toBe("PENDING");
    expect((await view(owner.cookie)).status).toBe(200);
  });
});
