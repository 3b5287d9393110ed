import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PhonePeConfig } from "~/config/env.server.ts";
import { createPhonePeProvider } from "./phonepe.server.ts";
import {
  type InitiatePaymentInput,
  PaymentGatewayError,
  type PaymentProvider,
  WebhookAuthError,
} from "./types.ts";

/*
 * A local server that follows PhonePe's Standard Checkout v2 contract (payments.md): it checks
 * method, path, headers, content type and body, and answers with the documented fields plus
 * unknown ones. The adapter talks to it with the real global fetch.
 */

const CLIENT = { id: "LK_TEST_CLIENT", secret: "s3cret-client", version: "1" };
const TOKEN_TTL_SECONDS = 3600;

type Order = { orderId: string; amount: number; state: string; errorCode?: string };
/** The pay request as the gateway reads it; every field is checked before use. */
type PayRequest = {
  merchantOrderId: string;
  amount: number;
  expireAfter: number;
  metaInfo?: { udf1?: string };
  paymentFlow?: { type?: string; merchantUrls?: { redirectUrl?: unknown } };
};

const gateway = {
  /** The gateway's clock, shared with the adapter under test (epoch ms). */
  clock: Date.now(),
  tokenRequests: 0,
  payRequests: 0,
  statusRequests: 0,
  /** Tokens issued and still honoured, with their expiry (epoch seconds). */
  tokens: new Map<string, number>(),
  /** When set, every API call answers 401 whatever the token. */
  refuseAll: false,
  /** Delay before answering a token request, so concurrent callers overlap. */
  tokenDelayMs: 0,
  orders: new Map<string, Order>(),
  lastPayBody: null as PayRequest | null,
  reset() {
    this.tokenRequests = 0;
    this.payRequests = 0;
    this.statusRequests = 0;
    this.tokens.clear();
    this.refuseAll = false;
    this.tokenDelayMs = 0;
    this.lastPayBody = null;
  },
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function bearerOk(req: IncomingMessage): boolean {
  if (gateway.refuseAll) return false;
  const match = /^O-Bearer (\S+)$/.exec(req.headers.authorization ?? "");
  const expiresAt = match ? gateway.tokens.get(match[1]) : undefined;
  return expiresAt !== undefined && gateway.clock / 1000 < expiresAt;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://gateway");
  const body = await readBody(req);

  if (url.pathname === "/v1/oauth/token") {
    if (req.method !== "POST") return json(res, 405, { code: "METHOD_NOT_ALLOWED" });
    if (!req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) {
      return json(res, 415, { code: "UNSUPPORTED_MEDIA_TYPE" });
    }
    const form = new URLSearchParams(body);
    if (
      form.get("client_id") !== CLIENT.id ||
      form.get("client_secret") !== CLIENT.secret ||
      form.get("client_version") !== CLIENT.version ||
      form.get("grant_type") !== "client_credentials"
    ) {
      return json(res, 401, { code: "INVALID_CLIENT", message: "Bad client credentials" });
    }
    gateway.tokenRequests += 1;
    if (gateway.tokenDelayMs) await new Promise((r) => setTimeout(r, gateway.tokenDelayMs));
    const issuedAt = Math.floor(gateway.clock / 1000);
    const token = `tok-${gateway.tokenRequests}-${Math.random().toString(36).slice(2)}`;
    gateway.tokens.set(token, issuedAt + TOKEN_TTL_SECONDS);
    return json(res, 200, {
      access_token: token,
      encrypted_access_token: "enc",
      expires_in: null,
      issued_at: issuedAt,
      expires_at: issuedAt + TOKEN_TTL_SECONDS,
      session_expires_at: issuedAt + TOKEN_TTL_SECONDS,
      token_type: "O-Bearer",
      refresh_token: null,
      somethingNew: { nested: true },
    });
  }

  if (url.pathname === "/checkout/v2/pay") {
    if (req.method !== "POST") return json(res, 405, { code: "METHOD_NOT_ALLOWED" });
    if (!bearerOk(req)) return json(res, 401, { code: "UNAUTHORIZED", message: "Unauthorized" });
    if (!req.headers["content-type"]?.startsWith("application/json")) {
      return json(res, 415, { code: "UNSUPPORTED_MEDIA_TYPE" });
    }
    gateway.payRequests += 1;
    const pay = JSON.parse(body) as PayRequest;
    gateway.lastPayBody = pay;
    const valid =
      typeof pay.merchantOrderId === "string" &&
      /^[A-Za-z0-9_-]{1,63}$/.test(pay.merchantOrderId) &&
      !gateway.orders.has(pay.merchantOrderId) &&
      Number.isInteger(pay.amount) &&
      pay.amount >= 100 &&
      Number.isInteger(pay.expireAfter) &&
      pay.expireAfter >= 300 &&
      pay.expireAfter <= 3600 &&
      pay.paymentFlow?.type === "PG_CHECKOUT" &&
      typeof pay.paymentFlow?.merchantUrls?.redirectUrl === "string";
    if (!valid) return json(res, 400, { code: "BAD_REQUEST", message: "Invalid request" });
    const orderId = `OMO${gateway.orders.size + 1}${Date.now()}`;
    gateway.orders.set(pay.merchantOrderId, { orderId, amount: pay.amount, state: "PENDING" });
    return json(res, 200, {
      orderId,
      state: "PENDING",
      expireAt: gateway.clock + pay.expireAfter * 1000,
      redirectUrl: `https://mercury-uat.phonepe.com/transact/uat_v2?token=${orderId}`,
      unknownTopLevel: [1, 2, 3],
    });
  }

  const status = /^\/checkout\/v2\/order\/([^/]+)\/status$/.exec(url.pathname);
  if (status) {
    if (req.method !== "GET") return json(res, 405, { code: "METHOD_NOT_ALLOWED" });
    if (!bearerOk(req)) return json(res, 401, { code: "UNAUTHORIZED", message: "Unauthorized" });
    if (url.searchParams.get("details") !== "false") return json(res, 400, { code: "BAD_REQUEST" });
    gateway.statusRequests += 1;
    const order = gateway.orders.get(decodeURIComponent(status[1]));
    if (!order) return json(res, 404, { code: "ORDER_NOT_FOUND", message: "No such order" });
    return json(res, 200, {
      orderId: order.orderId,
      state: order.state,
      amount: order.amount,
      expireAt: gateway.clock + 600_000,
      ...(order.errorCode ? { errorCode: order.errorCode, detailedErrorCode: "ZM" } : {}),
      metaInfo: { udf1: "LK-1001" },
      paymentDetails: [],
      brandNewField: { whatever: "tolerated" },
    });
  }

  json(res, 404, { code: "NOT_FOUND" });
}

let server: Server;
let config: PhonePeConfig;

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch(() => json(res, 500, { code: "INTERNAL_SERVER_ERROR" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config = {
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    clientVersion: CLIENT.version,
    apiUrl: base,
    authUrl: base,
    webhookUsername: "lk-hook",
    webhookPassword: "hook-pass-123",
  };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let counter = 0;
function payment(overrides: Partial<InitiatePaymentInput> = {}): InitiatePaymentInput {
  counter += 1;
  return {
    transactionId: `LKT_${Date.now()}_${counter}`,
    orderId: "5b0c9f8e-2a57-4c1e-9d0a-3c4c1f6f2a11",
    orderNumber: "LK-1001",
    amountPaise: 129_900,
    customer: { name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" },
    redirectUrl: "https://shop.example/payment-success?orderId=o1&transactionId=t1",
    callbackUrl: "https://shop.example/api/payments/webhook/phonepe",
    expireAfterSeconds: 900,
    ...overrides,
  };
}

/** A provider with an empty token cache, on the gateway's clock. */
function fresh(): PaymentProvider {
  gateway.reset();
  gateway.clock = Date.now();
  return createPhonePeProvider(config, { now: () => gateway.clock });
}

describe("PhonePe OAuth token", () => {
  it("fetches one token and reuses it across pay and status calls", async () => {
    const phonepe = fresh();
    const a = payment();
    const b = payment();
    await phonepe.initiate(a);
    await phonepe.initiate(b);
    await phonepe.status({ transactionId: a.transactionId, providerReference: null });
    await phonepe.status({ transactionId: b.transactionId, providerReference: null });
    expect(gateway.tokenRequests).toBe(1);
    expect(gateway.payRequests).toBe(2);
    expect(gateway.statusRequests).toBe(2);
  });

  it("shares one in-flight token request between concurrent callers", async () => {
    const phonepe = fresh();
    const p = payment();
    await phonepe.initiate(p);
    const again = fresh();
    gateway.tokenDelayMs = 50;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        again.status({ transactionId: p.transactionId, providerReference: null }),
      ),
    );
    expect(results.every((r) => r.state === "PENDING")).toBe(true);
    expect(gateway.tokenRequests).toBe(1);
  });

  it("gets a new token shortly before the old one expires", async () => {
    const phonepe = fresh();
    const p = payment();
    await phonepe.initiate(p);
    expect(gateway.tokenRequests).toBe(1);
    gateway.clock += (TOKEN_TTL_SECONDS - 600) * 1000; // still well inside the lifetime
    await phonepe.status({ transactionId: p.transactionId, providerReference: null });
    expect(gateway.tokenRequests).toBe(1);
    gateway.clock += 590 * 1000; // 10 s before expiry
    await phonepe.status({ transactionId: p.transactionId, providerReference: null });
    expect(gateway.tokenRequests).toBe(2);
  });

  it("on a 401, drops the token, refreshes once and retries", async () => {
    const phonepe = fresh();
    const p = payment();
    await phonepe.initiate(p);
    gateway.tokens.clear(); // the gateway revokes every token it issued
    const result = await phonepe.status({
      transactionId: p.transactionId,
      providerReference: null,
    });
    expect(result.state).toBe("PENDING");
    expect(gateway.tokenRequests).toBe(2);
    expect(gateway.statusRequests).toBe(1);
  });

  it("throws after a second 401 without refreshing again", async () => {
    const phonepe = fresh();
    const p = payment();
    await phonepe.initiate(p);
    gateway.refuseAll = true;
    const error = await phonepe
      .status({ transactionId: p.transactionId, providerReference: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBe(401);
    expect(gateway.tokenRequests).toBe(2);
  });

  it("reports refused client credentials as a gateway error", async () => {
    gateway.reset();
    const phonepe = createPhonePeProvider({ ...config, clientSecret: "wrong" });
    const error = await phonepe.initiate(payment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBe(401);
    expect((error as Error).message).not.toContain("wrong");
  });
});

describe("PhonePe pay", () => {
  it("sends the documented body and returns the hosted page and PhonePe's order id", async () => {
    const phonepe = fresh();
    const p = payment({ expireAfterSeconds: 900 });
    const initiated = await phonepe.initiate(p);
    expect(gateway.lastPayBody).toEqual({
      merchantOrderId: p.transactionId,
      amount: 129_900,
      expireAfter: 900,
      metaInfo: { udf1: "LK-1001" },
      paymentFlow: { type: "PG_CHECKOUT", merchantUrls: { redirectUrl: p.redirectUrl } },
    });
    const order = gateway.orders.get(p.transactionId)!;
    expect(initiated).toEqual({
      paymentUrl: `https://mercury-uat.phonepe.com/transact/uat_v2?token=${order.orderId}`,
      providerReference: order.orderId,
    });
  });

  it("clamps expireAfter to 300-3600 seconds", async () => {
    const phonepe = fresh();
    await phonepe.initiate(payment({ expireAfterSeconds: 30 }));
    expect(gateway.lastPayBody?.expireAfter).toBe(300);
    await phonepe.initiate(payment({ expireAfterSeconds: 86_400 }));
    expect(gateway.lastPayBody?.expireAfter).toBe(3600);
  });

  it("refuses less than 100 paise without calling PhonePe", async () => {
    const phonepe = fresh();
    await expect(phonepe.initiate(payment({ amountPaise: 99 }))).rejects.toThrow(
      PaymentGatewayError,
    );
    await expect(phonepe.initiate(payment({ amountPaise: 150.5 }))).rejects.toThrow(
      PaymentGatewayError,
    );
    expect(gateway.tokenRequests).toBe(0);
    expect(gateway.payRequests).toBe(0);
  });

  it("turns other HTTP errors into a gateway error carrying the status", async () => {
    const phonepe = fresh();
    const p = payment();
    await phonepe.initiate(p);
    const error = await phonepe.initiate(p).catch((e: unknown) => e); // duplicate order id
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBe(400);
  });

  it("reports an unreachable gateway as a gateway error without a status", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const phonepe = createPhonePeProvider({
      ...config,
      authUrl: `http://127.0.0.1:${port}`,
      apiUrl: `http://127.0.0.1:${port}`,
    });
    const error = await phonepe.initiate(payment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBeNull();
  });
});

describe("PhonePe order status", () => {
  it("maps COMPLETED, FAILED and PENDING and tolerates unknown fields", async () => {
    const phonepe = fresh();
    const p = payment({ amountPaise: 49_900 });
    await phonepe.initiate(p);
    const ref = { transactionId: p.transactionId, providerReference: null };
    expect(await phonepe.status(ref)).toEqual({
      state: "PENDING",
      amountPaise: 49_900,
      errorCode: null,
    });
    const order = gateway.orders.get(p.transactionId)!;
    order.state = "FAILED";
    order.errorCode = "TXN_AUTO_FAILED";
    expect(await phonepe.status(ref)).toEqual({
      state: "FAILED",
      amountPaise: 49_900,
      errorCode: "TXN_AUTO_FAILED",
    });
    order.state = "COMPLETED";
    order.errorCode = undefined;
    expect(await phonepe.status(ref)).toEqual({
      state: "SUCCESS",
      amountPaise: 49_900,
      errorCode: null,
    });
  });

  it("turns a 404 into a gateway error with that status", async () => {
    const phonepe = fresh();
    const error = await phonepe
      .status({ transactionId: "LKT_unknown", providerReference: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBe(404);
  });
});

describe("PhonePe webhook", () => {
  const authorization = () =>
    createHash("sha256")
      .update(`${config.webhookUsername}:${config.webhookPassword}`)
      .digest("hex");
  const body = (event: string, state: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      event,
      ...extra,
      payload: {
        merchantId: "LKMERCHANT",
        merchantOrderId: "LKT_42",
        orderId: "OMO2403",
        state,
        amount: 129_900,
        expireAt: 1_800_000_000_000,
        metaInfo: { udf1: "LK-1001" },
        paymentDetails: [{ paymentMode: "UPI_QR", transactionId: "OM1", state }],
        futureField: "ignored",
      },
    });
  const hook = (rawBody: string, auth: string | null = authorization()) =>
    createPhonePeProvider(config).parseWebhook({
      headers: new Headers(auth === null ? {} : { Authorization: auth }),
      rawBody,
    });

  it("parses a genuine completed order", async () => {
    expect(await hook(body("checkout.order.completed", "COMPLETED"))).toEqual({
      eventId: "phonepe:checkout.order.completed:LKT_42:COMPLETED",
      transactionId: "LKT_42",
      state: "SUCCESS",
      amountPaise: 129_900,
    });
  });

  it("accepts the Authorization hash in upper case", async () => {
    const event = await hook(
      body("checkout.order.failed", "FAILED"),
      authorization().toUpperCase(),
    );
    expect(event).toMatchObject({ state: "FAILED", transactionId: "LKT_42" });
  });

  it("rejects a missing or wrong Authorization header", async () => {
    const raw = body("checkout.order.completed", "COMPLETED");
    await expect(hook(raw, null)).rejects.toThrow(WebhookAuthError);
    await expect(hook(raw, "")).rejects.toThrow(WebhookAuthError);
    await expect(hook(raw, "0".repeat(64))).rejects.toThrow(WebhookAuthError);
    const plain = createHash("sha256").update("lk-hook:wrong").digest("hex");
    await expect(hook(raw, plain)).rejects.toThrow(WebhookAuthError);
    await expect(hook(raw, `${config.webhookUsername}:${config.webhookPassword}`)).rejects.toThrow(
      WebhookAuthError,
    );
  });

  it("rejects a bad Authorization even when the body is garbage", async () => {
    await expect(hook("{not json", "nope")).rejects.toThrow(WebhookAuthError);
  });

  it("trusts payload.state and ignores the deprecated type field", async () => {
    const raw = body("checkout.order.failed", "FAILED", { type: "CHECKOUT_ORDER_COMPLETED" });
    expect(await hook(raw)).toMatchObject({ state: "FAILED", transactionId: "LKT_42" });
  });

  it("maps a PENDING state", async () => {
    expect(await hook(body("checkout.order.completed", "PENDING"))).toMatchObject({
      state: "PENDING",
    });
  });

  it("ignores other events", async () => {
    const result = await hook(body("pg.refund.completed", "COMPLETED"));
    expect(result).toMatchObject({ ignored: true });
    expect((result as { reason: string }).reason).toContain("pg.refund.completed");
  });

  it("throws a plain error for a malformed body after a valid Authorization", async () => {
    for (const raw of ["{not json", "[]", JSON.stringify({ type: "CHECKOUT_ORDER_COMPLETED" })]) {
      const error = await hook(raw).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WebhookAuthError);
      expect((error as Error).message).toBe("malformed webhook");
    }
    await expect(
      hook(JSON.stringify({ event: "checkout.order.completed", payload: { state: "COMPLETED" } })),
    ).rejects.toThrow("malformed webhook");
  });

  it("reads a state it doesn't know as UNKNOWN (recorded, never paid), and checks the payload's types", async () => {
    expect(await hook(body("checkout.order.completed", "REFUNDED"))).toMatchObject({
      state: "UNKNOWN",
      transactionId: "LKT_42",
    });
    for (const payload of [
      { merchantOrderId: "LKT_42", state: "COMPLETED", amount: "129900" },
      { merchantOrderId: "LKT 42; drop", state: "COMPLETED" },
      { merchantOrderId: ["LKT_42"], state: "COMPLETED" },
      { merchantOrderId: "LKT_42", state: { is: "COMPLETED" } },
    ]) {
      await expect(
        hook(JSON.stringify({ event: "checkout.order.completed", payload })),
        JSON.stringify(payload),
      ).rejects.toThrow("malformed webhook");
    }
  });

  it("gives the same eventId for the same notification delivered twice", async () => {
    const raw = body("checkout.order.completed", "COMPLETED");
    const first = await hook(raw);
    const second = await hook(raw);
    expect(first).toHaveProperty("eventId");
    expect((second as { eventId: string }).eventId).toBe((first as { eventId: string }).eventId);
    const failed = await hook(body("checkout.order.failed", "FAILED"));
    expect((failed as { eventId: string }).eventId).not.toBe(
      (first as { eventId: string }).eventId,
    );
  });
});
