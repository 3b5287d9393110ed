import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import { placeOrder } from "~/modules/checkout/checkout.server.ts";
import { initiateOrderPayment, paymentDepsFor } from "~/modules/payments/payments.server.ts";
import {
  createVerifiedUser,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../support/accounts.ts";
import { insertProduct } from "../support/factories.ts";
import { testDbKind } from "../support/test-database.ts";

/*
 * The shop with PAYMENT_PROVIDER=phonepe against a local server that follows PhonePe's Standard
 * Checkout v2 contract: checkout starts a payment there, and PhonePe's webhooks — verified by the
 * Authorization hash, duplicated, out of order, with unknown fields — settle the order once.
 */

const WEBHOOK = { username: "lk-hook", password: "hook-pass-123" };
const pay = new Map<string, { amount: number; state: string }>();
let gatewayServer: Server;
let gatewayUrl: string;

async function body(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;

beforeAll(async () => {
  gatewayServer = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://gateway");
    const text = await body(req);
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    };
    if (url.pathname === "/v1/oauth/token") {
      const now = Math.floor(Date.now() / 1000);
      return send(200, {
        access_token: `tok-${randomUUID()}`,
        token_type: "O-Bearer",
        issued_at: now,
        expires_at: now + 3600,
        extra: "ignored",
      });
    }
    if (!req.headers.authorization?.startsWith("O-Bearer ")) return send(401, { code: "401" });
    if (url.pathname === "/checkout/v2/pay" && req.method === "POST") {
      const request = JSON.parse(text) as { merchantOrderId: string; amount: number };
      pay.set(request.merchantOrderId, { amount: request.amount, state: "PENDING" });
      return send(200, {
        orderId: `OMO${Date.now()}`,
        state: "PENDING",
        expireAt: Date.now() + 1_200_000,
        redirectUrl: `${gatewayUrl}/hosted/${request.merchantOrderId}`,
      });
    }
    const status = /^\/checkout\/v2\/order\/([^/]+)\/status$/.exec(url.pathname);
    if (status) {
      const p = pay.get(decodeURIComponent(status[1]));
      if (!p) return send(404, { code: "NOT_FOUND" });
      return send(200, { state: p.state, amount: p.amount, paymentDetails: [], unknown: true });
    }
    send(404, {});
  });
  await new Promise<void>((r) => gatewayServer.listen(0, "127.0.0.1", r));
  gatewayUrl = `http://127.0.0.1:${(gatewayServer.address() as AddressInfo).port}`;
  harness = await startProcessRuntime({
    PAYMENT_PROVIDER: "phonepe",
    PHONEPE_CLIENT_ID: "LK_TEST",
    PHONEPE_CLIENT_SECRET: "secret",
    PHONEPE_API_URL: gatewayUrl,
    PHONEPE_AUTH_URL: gatewayUrl,
    PHONEPE_WEBHOOK_USERNAME: WEBHOOK.username,
    PHONEPE_WEBHOOK_PASSWORD: WEBHOOK.password,
  });
});

afterAll(async () => {
  await harness?.stop();
  await new Promise((r) => gatewayServer?.close(r));
});

const authorization = createHash("sha256")
  .update(`${WEBHOOK.username}:${WEBHOOK.password}`)
  .digest("hex");

async function deliver(
  event: string,
  merchantOrderId: string,
  state: string,
  amount: number,
  auth = authorization,
) {
  const { action } = await import("~/routes/api.payment-webhook.ts");
  const req = new Request(`${TEST_ORIGIN}/api/payment-webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: auth },
    body: JSON.stringify({
      event,
      // The deprecated field is ignored: the state comes from the payload.
      type: "CHECKOUT_ORDER_COMPLETED",
      payload: { merchantOrderId, orderId: "OMO1", state, amount, paymentDetails: [], newField: 1 },
    }),
  });
  const res = (await action(routeArgs(req) as never)) as Response;
  return { status: res.status, body: (await res.json()) as { outcome?: string } };
}

describe(`PhonePe end to end on ${testDbKind()}`, () => {
  it("checkout goes to PhonePe's page; its webhooks settle the order once, in any order", async () => {
    const { rt } = harness;
    expect(rt.payments.name).toBe("phonepe");
    const account = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("phonepe") });
    const { addressId } = await saveAddress(rt.db, account.id, {
      label: "Home",
      name: "Asha Rao",
      line1: "12 MG Road",
      city: "Bengaluru",
      state: "Karnataka",
      postalCode: "560001",
      country: "India",
      phone: "9876543210",
    });
    const product = await insertProduct(rt.db, { pricePaise: 49_900, stockCount: 3 });
    await setCartItem(rt.db, account.id, product.id, 1);
    const order = await placeOrder(rt.db, {
      userId: account.id,
      addressId,
      method: "gateway",
      provider: "phonepe",
    });
    const payment = await initiateOrderPayment(paymentDepsFor(rt), account.id, order.id);
    expect(payment.paymentUrl).toBe(`${gatewayUrl}/hosted/${payment.transactionId}`);
    expect(pay.get(payment.transactionId)?.amount).toBe(order.totalPaise);

    // A forged notification (wrong credentials) changes nothing.
    const forged = await deliver(
      "checkout.order.completed",
      payment.transactionId,
      "COMPLETED",
      order.totalPaise,
      "0".repeat(64),
    );
    expect(forged.status).toBe(401);

    // FAILED arrives first, then COMPLETED, then COMPLETED again: paid once.
    const failed = await deliver(
      "checkout.order.failed",
      payment.transactionId,
      "FAILED",
      order.totalPaise,
    );
    expect(failed.body.outcome).toBe("applied");
    const completed = await deliver(
      "checkout.order.completed",
      payment.transactionId,
      "COMPLETED",
      order.totalPaise,
    );
    expect(completed.body.outcome).toBe("applied");
    const again = await deliver(
      "checkout.order.completed",
      payment.transactionId,
      "COMPLETED",
      order.totalPaise,
    );
    expect(again.body.outcome).toBe("duplicate");
    const late = await deliver(
      "checkout.order.failed",
      payment.transactionId,
      "FAILED",
      order.totalPaise,
    );
    expect(late.body.outcome).toBe("duplicate");

    const [row] = await rt.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({
      paymentStatus: "paid",
      status: "processing",
      paymentProvider: "phonepe",
    });

    // The owner's status check answers from the order.
    const cookie = await signInCookie(rt.auth, account);
    const { loader } = await import("~/routes/api.payment-status.ts");
    const checked = await outcome(async () =>
      loader(routeArgs(pageGet(`/api/payment-status?orderId=${order.id}`, { cookie })) as never),
    );
    expect(checked.body).toMatchObject({ success: true, status: "SUCCESS" });
  });

  it("a COMPLETED webhook with the wrong amount does not mark the order paid", async () => {
    const { rt } = harness;
    const account = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("phonepe-amt") });
    const { addressId } = await saveAddress(rt.db, account.id, {
      label: "Home",
      name: "Ravi",
      line1: "1 Park Street",
      city: "Kolkata",
      state: "West Bengal",
      postalCode: "700016",
      country: "India",
      phone: "9876543211",
    });
    const product = await insertProduct(rt.db, { pricePaise: 29_900 });
    await setCartItem(rt.db, account.id, product.id, 1);
    const order = await placeOrder(rt.db, {
      userId: account.id,
      addressId,
      method: "gateway",
      provider: "phonepe",
    });
    const payment = await initiateOrderPayment(paymentDepsFor(rt), account.id, order.id);
    const wrong = await deliver(
      "checkout.order.completed",
      payment.transactionId,
      "COMPLETED",
      100,
    );
    expect(wrong.body.outcome).toBe("amount-mismatch");
    const [row] = await rt.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row.paymentStatus).toBe("unpaid");
  });
});
