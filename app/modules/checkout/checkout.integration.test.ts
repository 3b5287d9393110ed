import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  SANDBOX_SIGNATURE_HEADER,
  settleSandboxPayment,
  signSandboxNotification,
} from "~/adapters/payments/sandbox.server.ts";
import type { PaymentProvider } from "~/adapters/payments/types.ts";
import { cartItems, orderItems, orders, paymentEvents, products } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import {
  applyPaymentUpdate,
  checkOrderPayment,
  initiateOrderPayment,
  type PaymentDeps,
  paymentDepsFor,
  reconcilePayments,
} from "~/modules/payments/payments.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
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
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { CheckoutError, checkoutLines, placeOrder } from "./checkout.server.ts";

/*
 * Checkout and payments end to end below the browser: the server prices orders itself, sells the
 * last unit once, applies each payment notification once, refuses forged ones, and tells only the
 * owner about an order. The concurrency cases matter most on PostgreSQL (real parallel sessions).
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let deps: PaymentDeps;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  deps = paymentDepsFor(harness.rt);
});
afterAll(async () => {
  await harness?.stop();
});

const home = {
  label: "Home" as const,
  name: "Asha Rao",
  line1: "12 MG Road",
  line2: null,
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};

async function shopper(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, home);
  return { ...account, addressId };
}

async function signedIn(tag: string) {
  const s = await shopper(tag);
  return { ...s, cookie: await signInCookie(harness.rt.auth, s) };
}

const checkoutRoute = () => import("~/routes/checkout.tsx");
const webhookRoute = () => import("~/routes/api.payment-webhook.ts");
const statusRoute = () => import("~/routes/api.payment-status.ts");

function webhookRequest(body: object, signature?: string) {
  const raw = JSON.stringify(body);
  return new Request(`${TEST_ORIGIN}/api/payment-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [SANDBOX_SIGNATURE_HEADER]:
        signature ?? signSandboxNotification(harness.rt.env.authSecret, raw),
    },
    body: raw,
  });
}

async function confirmationsFor(orderNumber: string): Promise<number> {
  const dir = path.join(harness.rt.env.dataDir, "outbox");
  const files = await readdir(dir).catch(() => [] as string[]);
  let n = 0;
  for (const f of files) {
    if ((await readFile(path.join(dir, f), "utf8")).includes(`Order ${orderNumber} confirmed`))
      n += 1;
  }
  return n;
}

async function orderRow(id: string) {
  const [o] = await db.select().from(orders).where(eq(orders.id, id));
  return o;
}

async function stockOf(id: string) {
  const [p] = await db
    .select({ stockCount: products.stockCount, inStock: products.inStock })
    .from(products)
    .where(eq(products.id, id));
  return p;
}

describe(`checkout on ${testDbKind()}`, () => {
  it("prices the order on the server: browser-sent prices and totals are never used", async () => {
    const u = await signedIn("prices");
    const p = await insertProduct(db, { pricePaise: 50_000 });
    await setCartItem(db, u.id, p.id, 2);
    // A forged total is refused as a changed cart, and nothing is written.
    const forged = await outcome(async () =>
      (await checkoutRoute()).action(
        routeArgs(
          formPost(
            "/checkout",
            {
              paymentMethod: "gateway",
              addressId: u.addressId,
              expectedTotalPaise: "100",
              pricePaise: "1",
              totalPaise: "100",
            },
            { cookie: u.cookie },
          ),
        ) as never,
      ),
    );
    expect(forged.status).toBe(409);
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(0);

    // Without the shown total (or with the right one) the server's own figures are charged.
    const placed = await outcome(async () =>
      (await checkoutRoute()).action(
        routeArgs(
          formPost(
            "/checkout",
            {
              paymentMethod: "gateway",
              addressId: u.addressId,
              pricePaise: "1",
              totalPaise: "100",
            },
            { cookie: u.cookie },
          ),
        ) as never,
      ),
    );
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ kind: "redirect" });
    const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
    // 2 × ₹500 = ₹1,000; shipping within the city for two parcels of the default 15×15×10 cm box
    // (2 × 450 g volumetric → 1 kg): ₹40 + ₹30; tax 8% = ₹80; total ₹1,150.
    expect(o).toMatchObject({
      subtotalPaise: 100_000,
      shippingPaise: 7_000,
      taxPaise: 8_000,
      discountPaise: 0,
      totalPaise: 115_000,
      status: "pending",
      paymentStatus: "unpaid",
      paymentMethod: "gateway",
      paymentProvider: "sandbox",
      currency: "INR",
    });
    expect(o.orderNumber).toMatch(/^ORD-\d{8}-\d{4}$/);
    expect(o.shippingMethod).toEqual({
      id: "standard",
      label: "Standard Shipping",
      costPaise: 7_000,
      zone: "local",
      chargeableGrams: 1_000,
    });
    expect(o.shippingAddress).toMatchObject({ name: "Asha Rao", postalCode: "560001" });
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, o.id));
    expect(items).toEqual([
      expect.objectContaining({
        productId: p.id,
        quantity: 2,
        unitPricePaise: 50_000,
        currency: "INR",
      }),
    ]);
  });

  it("refuses with the spec's messages: empty cart, no address, someone else's address", async () => {
    const u = await shopper("blocks");
    const other = await shopper("blocks-other");
    const base = { userId: u.id, method: "gateway" as const, provider: "sandbox" };
    await expect(placeOrder(db, { ...base, addressId: u.addressId })).rejects.toMatchObject({
      code: "cart-empty",
      title: "Cart is empty",
    });
    const p = await insertProduct(db);
    await setCartItem(db, u.id, p.id, 1);
    await expect(placeOrder(db, { ...base, addressId: null })).rejects.toMatchObject({
      title: "No address selected",
      description: "Please add or select a shipping address.",
    });
    await expect(placeOrder(db, { ...base, addressId: other.addressId })).rejects.toMatchObject({
      title: "Address not available",
    });
  });

  it("refuses inactive and out-of-stock lines", async () => {
    const u = await shopper("unavailable");
    const gone = await insertProduct(db, { isActive: false });
    await setCartItem(db, u.id, gone.id, 1);
    const base = {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway" as const,
      provider: "sandbox",
    };
    await expect(placeOrder(db, base)).rejects.toMatchObject({ code: "unavailable" });
    // Checkout says why: an inactive product is unavailable, whatever stock it has.
    await db.update(products).set({ stockCount: 5 }).where(eq(products.id, gone.id));
    expect(await checkoutLines(db, u.id)).toMatchObject([
      { productId: gone.id, available: false, stockLeft: 0 },
    ]);
    await setCartItem(db, u.id, gone.id, 0);
    const few = await insertProduct(db, { stockCount: 2 });
    await setCartItem(db, u.id, few.id, 3);
    await expect(placeOrder(db, base)).rejects.toMatchObject({ code: "insufficient-stock" });
    expect(await checkoutLines(db, u.id)).toMatchObject([
      { productId: few.id, available: false, stockLeft: 2 },
    ]);
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(0);
  });

  it("one order per checkout attempt: a double submission returns the same order and payment", async () => {
    const u = await shopper("double");
    const p = await insertProduct(db, { stockCount: 5 });
    await setCartItem(db, u.id, p.id, 1);
    const input = {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway" as const,
      provider: "sandbox",
    };
    const [a, b] = await Promise.all([placeOrder(db, input), placeOrder(db, input)]);
    expect(a.id).toBe(b.id);
    expect([a.reused, b.reused].sort()).toEqual([false, true]);
    const [pa, pb] = await Promise.all([
      initiateOrderPayment(deps, u.id, a.id),
      initiateOrderPayment(deps, u.id, b.id),
    ]);
    expect(pa.transactionId).toBe(pb.transactionId);
    expect((await stockOf(p.id)).stockCount).toBe(4);
    // After that attempt's payment failed, the next submission is a new attempt.
    await applyPaymentUpdate(deps, {
      transactionId: pa.transactionId,
      state: "FAILED",
      amountPaise: null,
      source: "status",
    });
    const c = await placeOrder(db, input);
    expect(c.id).not.toBe(a.id);
  });

  it("50 concurrent checkouts of the last unit give exactly one order", async () => {
    const last = await insertProduct(db, { stockCount: 1 });
    const buyers = await Promise.all(Array.from({ length: 50 }, (_, i) => shopper(`last-${i}`)));
    await Promise.all(buyers.map((b) => setCartItem(db, b.id, last.id, 1)));
    const results = await Promise.allSettled(
      buyers.map((b) =>
        placeOrder(db, {
          userId: b.id,
          addressId: b.addressId,
          method: "gateway",
          provider: "sandbox",
        }),
      ),
    );
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(CheckoutError);
    }
    expect(await stockOf(last.id)).toEqual({ stockCount: 0, inStock: false });
    const withItem = await db.select().from(orderItems).where(eq(orderItems.productId, last.id));
    expect(withItem).toHaveLength(1);
  });
});

/** A signed-in customer with one unit in an order waiting for its sandbox payment. */
async function pendingOrder(tag: string, stockCount: number | null = null) {
  const u = await signedIn(tag);
  const p = await insertProduct(db, { pricePaise: 20_000, stockCount });
  await setCartItem(db, u.id, p.id, 1);
  const order = await placeOrder(db, {
    userId: u.id,
    addressId: u.addressId,
    method: "gateway",
    provider: "sandbox",
  });
  const payment = await initiateOrderPayment(deps, u.id, order.id);
  return { u, p, order, payment };
}

describe(`payments on ${testDbKind()}`, () => {
  it("the same webhook delivered three times gives one transition and one e-mail", async () => {
    const { u, p, order, payment } = await pendingOrder("thrice");
    const body = {
      eventId: `evt-${payment.transactionId}`,
      transactionId: payment.transactionId,
      state: "SUCCESS",
      amountPaise: order.totalPaise,
    };
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await (await webhookRoute()).action(routeArgs(webhookRequest(body)) as never);
      answers.push(await (res as Response).json());
    }
    expect(answers.map((a) => a.outcome)).toEqual(["applied", "duplicate", "duplicate"]);
    const o = await orderRow(order.id);
    expect(o).toMatchObject({ paymentStatus: "paid", status: "processing" });
    expect(o.paidAt).not.toBeNull();
    expect(await confirmationsFor(order.orderNumber)).toBe(1);
    // The paid lines left the customer's cart.
    expect(await db.select().from(cartItems).where(eq(cartItems.userId, u.id))).toHaveLength(0);
    expect(
      await db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id)),
    ).toHaveLength(1);
    expect(p.id).toBeTruthy();
  });

  it("the confirmation e-mail survives the process dying right after the payment commits", async () => {
    const { order, payment } = await pendingOrder("crash");
    // The settlement commits, but this "process" dies before sending anything (no onFulfilled).
    const result = await applyPaymentUpdate(
      { ...deps, onFulfilled: undefined },
      {
        transactionId: payment.transactionId,
        state: "SUCCESS",
        amountPaise: order.totalPaise,
        source: "webhook",
      },
    );
    expect(result.fulfilled).toBe(true);
    expect(await confirmationsFor(order.orderNumber)).toBe(0);
    // Another instance (or this one after its restart) finds the queued e-mail and sends it once.
    await harness.rt.jobRunner.runDue();
    await harness.rt.jobRunner.runDue();
    expect(await confirmationsFor(order.orderNumber)).toBe(1);
  });

  it("a forged webhook gets 401 and changes nothing", async () => {
    const { order, payment } = await pendingOrder("forged");
    const body = {
      eventId: "evt-forged",
      transactionId: payment.transactionId,
      state: "SUCCESS",
      amountPaise: order.totalPaise,
    };
    const res = (await (
      await webhookRoute()
    ).action(routeArgs(webhookRequest(body, "0".repeat(64))) as never)) as Response;
    expect(res.status).toBe(401);
    const unsigned = new Request(`${TEST_ORIGIN}/api/payment-webhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(
      ((await (await webhookRoute()).action(routeArgs(unsigned) as never)) as Response).status,
    ).toBe(401);
    expect(await orderRow(order.id)).toMatchObject({ paymentStatus: "unpaid", status: "pending" });
    expect(
      await db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id)),
    ).toHaveLength(0);
  });

  it("FAILED then SUCCESS ends paid; paid never goes back; a wrong amount is not paid", async () => {
    const { order, payment, p } = await pendingOrder("late", 3);
    const t = payment.transactionId;
    await applyPaymentUpdate(deps, {
      transactionId: t,
      state: "FAILED",
      amountPaise: null,
      eventId: "f1",
      source: "webhook",
    });
    expect(await orderRow(order.id)).toMatchObject({ paymentStatus: "failed", status: "pending" });
    expect((await stockOf(p.id)).stockCount).toBe(3); // released on failure
    const wrong = await applyPaymentUpdate(deps, {
      transactionId: t,
      state: "SUCCESS",
      amountPaise: 100,
      eventId: "s0",
      source: "webhook",
    });
    expect(wrong.outcome).toBe("amount-mismatch");
    expect((await orderRow(order.id)).paymentStatus).toBe("failed");
    await applyPaymentUpdate(deps, {
      transactionId: t,
      state: "SUCCESS",
      amountPaise: order.totalPaise,
      eventId: "s1",
      source: "webhook",
    });
    expect(await orderRow(order.id)).toMatchObject({ paymentStatus: "paid", status: "processing" });
    expect((await stockOf(p.id)).stockCount).toBe(2); // taken again
    const back = await applyPaymentUpdate(deps, {
      transactionId: t,
      state: "FAILED",
      amountPaise: null,
      eventId: "f2",
      source: "webhook",
    });
    expect(back.outcome).toBe("unchanged");
    expect((await orderRow(order.id)).paymentStatus).toBe("paid");
    expect(await confirmationsFor(order.orderNumber)).toBe(1);
  });

  it("the status endpoint answers only the owner, and asks the gateway at most once in a few seconds", async () => {
    const { u, order, payment } = await pendingOrder("status");
    const stranger = await signedIn("status-stranger");
    const ask = (cookie?: string) =>
      outcome(async () =>
        (await statusRoute()).loader(
          routeArgs(pageGet(`/api/payment-status?orderId=${order.id}`, { cookie })) as never,
        ),
      );
    const theirs = await ask(stranger.cookie);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain(order.orderNumber);
    expect((await ask()).status).toBe(401);
    expect(await ask(u.cookie)).toMatchObject({
      status: 200,
      body: { success: true, status: "PENDING" },
    });

    let calls = 0;
    const counting: PaymentProvider = {
      ...deps.provider,
      status: async (p) => {
        calls += 1;
        return deps.provider.status(p);
      },
    };
    const countingDeps = { ...deps, provider: counting };
    await db.update(orders).set({ paymentCheckedAt: null }).where(eq(orders.id, order.id));
    await Promise.all(
      Array.from({ length: 5 }, () => checkOrderPayment(countingDeps, u.id, order.id)),
    );
    expect(calls).toBe(1);
    // Settled by the gateway without any webhook: the owner's next check after the throttle sees it.
    await settleSandboxPayment(
      { db, secret: "not-the-shop-secret" },
      payment.transactionId,
      "success",
      async () => new Response(null, { status: 401 }),
    );
    await db.update(orders).set({ paymentCheckedAt: null }).where(eq(orders.id, order.id));
    expect(await checkOrderPayment(countingDeps, u.id, order.id)).toMatchObject({
      state: "SUCCESS",
    });
    expect(await confirmationsFor(order.orderNumber)).toBe(1);
  });

  it("polling sees a settlement once the throttle has passed", async () => {
    const { u, order, payment } = await pendingOrder("throttle");
    let clock = Date.now();
    const timed = { ...deps, now: () => new Date(clock) };
    expect(await checkOrderPayment(timed, u.id, order.id)).toMatchObject({ state: "PENDING" });
    await settleSandboxPayment({ db, secret: "x" }, payment.transactionId, "success", async () => {
      throw new Error("notification lost");
    });
    clock += 1000;
    expect(await checkOrderPayment(timed, u.id, order.id)).toMatchObject({ state: "PENDING" });
    clock += 5000;
    expect(await checkOrderPayment(timed, u.id, order.id)).toMatchObject({ state: "SUCCESS" });
  });

  it("reconciliation settles a payment whose webhook never came, and cancels expired ones", async () => {
    const settled = await pendingOrder("recon-paid");
    const lapsed = await pendingOrder("recon-lapsed", 1);
    const stuck = await pendingOrder("recon-stuck", 1);
    expect((await stockOf(lapsed.p.id)).stockCount).toBe(0);
    const lost = async () => {
      throw new Error("notification lost");
    };
    // The gateway knows of the success, but its notification was lost.
    await settleSandboxPayment({ db, secret: "x" }, settled.payment.transactionId, "success", lost);
    // The gateway's window closed (it now says FAILED), again without a notification.
    await settleSandboxPayment({ db, secret: "x" }, lapsed.payment.transactionId, "failure", lost);
    const now = new Date(Date.now() + 60_000);
    const due = new Date(now.getTime() - 1000);
    await db.update(orders).set({ nextReconcileAt: due }).where(eq(orders.id, settled.order.id));
    await db
      .update(orders)
      .set({ nextReconcileAt: due, paymentExpiresAt: due })
      .where(eq(orders.id, lapsed.order.id));
    // Still PENDING at the gateway when the hold ends: kept for now...
    await db
      .update(orders)
      .set({ nextReconcileAt: due, paymentExpiresAt: due })
      .where(eq(orders.id, stuck.order.id));
    const report = await reconcilePayments({ ...deps, now: () => now });
    expect(report.settled).toBeGreaterThanOrEqual(2);
    expect(report.expired).toBeGreaterThanOrEqual(1);
    expect(await orderRow(settled.order.id)).toMatchObject({
      paymentStatus: "paid",
      status: "processing",
    });
    expect(await orderRow(lapsed.order.id)).toMatchObject({
      paymentStatus: "failed",
      status: "cancelled",
    });
    expect(await stockOf(lapsed.p.id)).toEqual({ stockCount: 1, inStock: true });
    // Staff see why: the order's notes and its history, written by the shop itself.
    expect((await orderRow(lapsed.order.id)).notes).toContain("payment window closed");
    const { getAdminOrder } = await import("~/modules/orders/admin-orders.server.ts");
    expect((await getAdminOrder(db, lapsed.order.id)).history).toEqual([
      expect.objectContaining({ action: "order.cancel", actorEmail: "LayerKart (automatic)" }),
    ]);
    expect(await orderRow(stuck.order.id)).toMatchObject({ status: "pending" });
    // ...and given up on an hour later.
    const later = new Date(now.getTime() + 61 * 60_000);
    await db
      .update(orders)
      .set({ nextReconcileAt: new Date(later.getTime() - 1000) })
      .where(eq(orders.id, stuck.order.id));
    await reconcilePayments({ ...deps, now: () => later });
    expect(await orderRow(stuck.order.id)).toMatchObject({ status: "cancelled" });
    expect((await stockOf(stuck.p.id)).stockCount).toBe(1);
  });

  it("money that arrives after the order was cancelled is recorded for a refund, not fulfilled", async () => {
    const { u, order, payment, p } = await pendingOrder("after-cancel", 2);
    const { cancelOrder } = await import("~/modules/orders/lifecycle.server.ts");
    await cancelOrder({ db }, order.id);
    expect((await stockOf(p.id)).stockCount).toBe(2);
    const result = await applyPaymentUpdate(deps, {
      transactionId: payment.transactionId,
      state: "SUCCESS",
      amountPaise: order.totalPaise,
      eventId: "late-1",
      source: "webhook",
    });
    expect(result.outcome).toBe("paid-after-cancel");
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
    expect(row.notes).toContain("refund needed");
    expect((await stockOf(p.id)).stockCount).toBe(2);
    expect(await confirmationsFor(order.orderNumber)).toBe(0);
    const page = await outcome(async () =>
      (await statusRoute()).loader(
        routeArgs(
          pageGet(`/api/payment-status?orderId=${order.id}`, { cookie: u.cookie }),
        ) as never,
      ),
    );
    expect(page.body).toMatchObject({ success: false });
    expect(JSON.stringify(page.body)).toContain("refund");
  });

  it("a success that doesn't say the amount is confirmed with the gateway first", async () => {
    const { order, payment } = await pendingOrder("no-amount");
    // The gateway still says PENDING: nothing is marked paid.
    const early = await applyPaymentUpdate(deps, {
      transactionId: payment.transactionId,
      state: "SUCCESS",
      amountPaise: null,
      source: "status",
    });
    expect(early.outcome).toBe("unchanged");
    expect((await orderRow(order.id)).paymentStatus).toBe("unpaid");
    await settleSandboxPayment({ db, secret: "x" }, payment.transactionId, "success", async () => {
      throw new Error("lost");
    });
    await applyPaymentUpdate(deps, {
      transactionId: payment.transactionId,
      state: "SUCCESS",
      amountPaise: null,
      source: "status",
    });
    expect((await orderRow(order.id)).paymentStatus).toBe("paid");
  });

  it("a corrected cart is not refused for stock the customer's own open order holds", async () => {
    const u = await shopper("corrected");
    const p = await insertProduct(db, { stockCount: 2 });
    await setCartItem(db, u.id, p.id, 1);
    const input = {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway" as const,
      provider: "sandbox",
    };
    const first = await placeOrder(db, input);
    expect((await stockOf(p.id)).stockCount).toBe(1);
    await setCartItem(db, u.id, p.id, 2);
    const second = await placeOrder(db, input);
    expect(second.id).not.toBe(first.id);
    expect(await orderRow(first.id)).toMatchObject({ status: "cancelled" });
    expect((await stockOf(p.id)).stockCount).toBe(0);
  });
});

describe(`cash on delivery on ${testDbKind()}`, () => {
  it("is refused until the shop enables it, then places a processing order and clears the cart", async () => {
    const u = await signedIn("cod");
    const p = await insertProduct(db, { pricePaise: 30_000 });
    await setCartItem(db, u.id, p.id, 1);
    const place = () =>
      outcome(async () =>
        (await checkoutRoute()).action(
          routeArgs(
            formPost(
              "/checkout",
              { paymentMethod: "cod", addressId: u.addressId },
              { cookie: u.cookie },
            ),
          ) as never,
        ),
      );
    const off = await place();
    expect(off.status).toBe(400);
    await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: 10_000 });
    expect((await place()).status).toBe(400); // over the COD limit
    await updateShopSettings(db, { codMaxOrderPaise: 5_000_000 });
    try {
      const on = await place();
      expect(on).toMatchObject({ status: 200, body: { kind: "placed" } });
      // The same form sent again finds its order; a new visit to checkout is a new order.
      const again = await placeOrder(db, {
        userId: u.id,
        addressId: u.addressId,
        method: "cod",
        provider: "sandbox",
        attemptToken: "visit-1",
      }).catch((e) => e);
      expect(again).toBeInstanceOf(CheckoutError); // the cart is empty now
      await setCartItem(db, u.id, p.id, 1);
      const tokenInput = {
        userId: u.id,
        addressId: u.addressId,
        method: "cod" as const,
        provider: "sandbox",
        attemptToken: "visit-2",
      };
      const second = await placeOrder(db, tokenInput);
      const resent = await placeOrder(db, tokenInput);
      expect(resent).toMatchObject({ id: second.id, reused: true });
      await setCartItem(db, u.id, p.id, 1);
      const third = await placeOrder(db, { ...tokenInput, attemptToken: "visit-3" });
      expect(third.id).not.toBe(second.id);
      const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
      expect(o).toMatchObject({
        status: "processing",
        paymentStatus: "unpaid",
        paymentMethod: "cod",
      });
      expect(await db.select().from(cartItems).where(eq(cartItems.userId, u.id))).toHaveLength(0);
    } finally {
      await updateShopSettings(db, { codEnabled: false, codMaxOrderPaise: null });
    }
  });

  it("warns before it replaces a pending online payment, and says why on the cancelled order", async () => {
    const { u, p, order, payment } = await pendingOrder("cod-replaces", 3);
    await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: null });
    try {
      // The checkout page knows the open payment, so it can warn before a COD order ends it.
      const page = await (await checkoutRoute()).loader(
        routeArgs(
          new Request(`${TEST_ORIGIN}/checkout`, { headers: { cookie: u.cookie } }),
        ) as never,
      );
      expect((page as { openPayments: string[] }).openPayments).toEqual([order.orderNumber]);

      await setCartItem(db, u.id, p.id, 2);
      const cod = await placeOrder(db, {
        userId: u.id,
        addressId: u.addressId,
        method: "cod",
        provider: "sandbox",
        attemptToken: "replace-1",
      });
      const old = await orderRow(order.id);
      expect(old).toMatchObject({ status: "cancelled", paymentStatus: "unpaid" });
      expect(old.notes).toContain(`Replaced by the customer's newer order ${cod.orderNumber}`);
      expect(old.notes).toContain("cash on delivery");
      // Staff see it in the order's history, made by the shop itself.
      const { getAdminOrder } = await import("~/modules/orders/admin-orders.server.ts");
      const detail = await getAdminOrder(db, order.id);
      expect(detail.notes).toContain(cod.orderNumber);
      expect(detail.history).toEqual([
        expect.objectContaining({
          action: "order.cancel",
          actorEmail: "LayerKart (automatic)",
          summary: expect.stringContaining(cod.orderNumber),
        }),
      ]);
      // The held unit went back before the new order took its two.
      expect((await stockOf(p.id)).stockCount).toBe(1);

      // A late success for the replaced order is recorded for a refund; staff see why.
      const late = await applyPaymentUpdate(deps, {
        transactionId: payment.transactionId,
        state: "SUCCESS",
        amountPaise: order.totalPaise,
        source: "webhook",
        eventId: `evt-late-${payment.transactionId}`,
      });
      expect(late.outcome).toBe("paid-after-cancel");
      const after = await getAdminOrder(db, order.id);
      expect(after).toMatchObject({ status: "cancelled", paymentStatus: "paid" });
      expect(after.notes).toContain("refund needed");
      expect(after.actions).toContain("refund");
      // Once staff record it, the note says so too.
      const { recordRefund } = await import("~/modules/orders/lifecycle.server.ts");
      await db.transaction((tx) => recordRefund(tx, order.id));
      expect(await orderRow(order.id)).toMatchObject({ paymentStatus: "refunded" });
      expect((await orderRow(order.id)).notes).toMatch(/refund needed\nRefund recorded$/);
    } finally {
      await updateShopSettings(db, { codEnabled: false, codMaxOrderPaise: null });
    }
  });
});
