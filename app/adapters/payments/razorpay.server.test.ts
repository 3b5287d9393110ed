import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RazorpayConfig } from "~/config/env.server.ts";
import { createRazorpayProvider, verifyRazorpayRedirectSignature } from "./razorpay.server.ts";
import {
  type InitiatePaymentInput,
  PaymentGatewayError,
  type PaymentProvider,
  WebhookAuthError,
} from "./types.ts";

/*
 * A local server that follows Razorpay's Payment Links contract (payments.md): Basic auth, JSON
 * body checks, the documented entity plus unknown fields. The adapter uses the real global fetch.
 */

const KEY_ID = "rzp_test_LK123";
const KEY_SECRET = "key-secret-xyz";
const WEBHOOK_SECRET = "webhook-secret-abc";

type Link = Record<string, unknown> & { id: string; status: string; amount_paid: number };
/** The create request as the gateway reads it; every field is checked before use. */
type CreateLinkRequest = {
  amount: number;
  currency: string;
  reference_id: string;
  description: string;
  customer: Record<string, string>;
  notify: { sms?: boolean; email?: boolean };
  callback_url: string;
  callback_method: string;
  expire_by: number;
};

const gateway = {
  links: new Map<string, Link>(),
  lastCreateBody: null as CreateLinkRequest | null,
  requests: 0,
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function rzpError(res: ServerResponse, status: number, description: string) {
  json(res, status, {
    error: { code: "BAD_REQUEST_ERROR", description, source: "NA", step: "NA", reason: "NA" },
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://gateway");
  const raw = await readBody(req);
  gateway.requests += 1;
  const expectedAuth = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString("base64")}`;
  if (req.headers.authorization !== expectedAuth) {
    return rzpError(res, 401, "Authentication failed");
  }

  if (url.pathname === "/v1/payment_links" && req.method === "POST") {
    if (!req.headers["content-type"]?.startsWith("application/json")) {
      return rzpError(res, 400, "Content-Type must be application/json");
    }
    const body = JSON.parse(raw) as CreateLinkRequest;
    gateway.lastCreateBody = body;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const taken = [...gateway.links.values()].some((l) => l.reference_id === body.reference_id);
    const valid =
      Number.isInteger(body.amount) &&
      body.amount >= 100 &&
      body.currency === "INR" &&
      typeof body.reference_id === "string" &&
      !taken &&
      typeof body.callback_url === "string" &&
      body.callback_method === "get" &&
      Number.isInteger(body.expire_by) &&
      body.expire_by >= nowSeconds + 15 * 60;
    if (!valid) return rzpError(res, 400, "Invalid request");
    const id = `plink_${Math.random().toString(36).slice(2, 16)}`;
    const link: Link = {
      accept_partial: false,
      amount: body.amount,
      amount_paid: 0,
      callback_method: body.callback_method,
      callback_url: body.callback_url,
      cancelled_at: 0,
      created_at: nowSeconds,
      currency: body.currency,
      customer: body.customer,
      description: body.description,
      expire_by: body.expire_by,
      expired_at: 0,
      first_min_partial_amount: 0,
      id,
      notes: null,
      notify: body.notify,
      payments: null,
      reference_id: body.reference_id,
      reminder_enable: false,
      reminders: [],
      short_url: `https://rzp.io/i/${id.slice(6, 13)}`,
      status: "created",
      updated_at: nowSeconds,
      upi_link: false,
      user_id: "",
      whatsapp_link: false,
      an_unknown_field: { added: "later" },
    };
    gateway.links.set(id, link);
    return json(res, 200, link);
  }

  const fetchLink = /^\/v1\/payment_links\/([^/]+)$/.exec(url.pathname);
  if (fetchLink && req.method === "GET") {
    const link = gateway.links.get(decodeURIComponent(fetchLink[1]));
    if (!link) return rzpError(res, 400, "The id provided does not exist");
    return json(res, 200, link);
  }

  rzpError(res, 404, "The requested URL was not found on the server.");
}

let server: Server;
let config: RazorpayConfig;
let razorpay: PaymentProvider;

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch(() => rzpError(res, 500, "internal"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  config = {
    keyId: KEY_ID,
    keySecret: KEY_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
  razorpay = createRazorpayProvider(config);
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
    callbackUrl: "https://shop.example/api/payments/webhook/razorpay",
    expireAfterSeconds: 900,
    ...overrides,
  };
}

describe("Razorpay payment link", () => {
  it("creates a link with Basic auth and the amount in paise", async () => {
    const p = payment();
    const before = Math.floor(Date.now() / 1000);
    const initiated = await razorpay.initiate(p);
    const after = Math.floor(Date.now() / 1000);
    const body = gateway.lastCreateBody!;
    expect(body).toMatchObject({
      amount: 129_900,
      currency: "INR",
      reference_id: p.transactionId,
      description: "Order LK-1001",
      customer: { name: "Asha Rao", email: "asha@example.com", contact: "+919876543210" },
      notify: { sms: false, email: false },
      callback_url: p.redirectUrl,
      callback_method: "get",
    });
    // 900 s is under Razorpay's 15-minute minimum, so the link lives 16 minutes.
    expect(body.expire_by).toBeGreaterThanOrEqual(before + 16 * 60);
    expect(body.expire_by).toBeLessThanOrEqual(after + 16 * 60);
    const link = gateway.links.get(initiated.providerReference!)!;
    expect(initiated).toEqual({ paymentUrl: link.short_url, providerReference: link.id });
    expect(initiated.providerReference).toMatch(/^plink_/);
  });

  it("keeps a longer expiry and omits a missing phone", async () => {
    const before = Math.floor(Date.now() / 1000);
    await razorpay.initiate(
      payment({
        expireAfterSeconds: 3600,
        customer: { name: "Ravi", email: "ravi@example.com", phone: null },
      }),
    );
    const body = gateway.lastCreateBody!;
    expect(body.expire_by - before).toBeGreaterThanOrEqual(3600);
    expect(body.expire_by - before).toBeLessThanOrEqual(3602);
    expect(body.customer).toEqual({ name: "Ravi", email: "ravi@example.com" });
  });

  it("refuses less than 100 paise without calling Razorpay", async () => {
    const requests = gateway.requests;
    await expect(razorpay.initiate(payment({ amountPaise: 50 }))).rejects.toThrow(
      PaymentGatewayError,
    );
    expect(gateway.requests).toBe(requests);
  });

  it("reports wrong keys and refused requests with their HTTP status", async () => {
    const wrong = createRazorpayProvider({ ...config, keySecret: "nope" });
    const unauthorised = await wrong.initiate(payment()).catch((e: unknown) => e);
    expect(unauthorised).toBeInstanceOf(PaymentGatewayError);
    expect((unauthorised as PaymentGatewayError).status).toBe(401);
    expect((unauthorised as Error).message).not.toContain("nope");

    const p = payment();
    await razorpay.initiate(p);
    const duplicate = await razorpay.initiate(p).catch((e: unknown) => e);
    expect((duplicate as PaymentGatewayError).status).toBe(400);
  });
});

describe("Razorpay status", () => {
  it("maps each link status", async () => {
    const { providerReference } = await razorpay.initiate(payment({ amountPaise: 49_900 }));
    const ref = { transactionId: "unused", providerReference };
    const link = gateway.links.get(providerReference!)!;
    const cases: [string, number, unknown][] = [
      ["created", 0, { state: "PENDING", amountPaise: null, errorCode: null }],
      ["partially_paid", 10_000, { state: "PENDING", amountPaise: null, errorCode: null }],
      ["expired", 0, { state: "FAILED", amountPaise: null, errorCode: "expired" }],
      ["cancelled", 0, { state: "FAILED", amountPaise: null, errorCode: "cancelled" }],
      ["paid", 49_900, { state: "SUCCESS", amountPaise: 49_900, errorCode: null }],
    ];
    for (const [status, paid, expected] of cases) {
      link.status = status;
      link.amount_paid = paid;
      expect(await razorpay.status(ref)).toEqual(expected);
    }
  });

  it("needs the payment link id", async () => {
    const requests = gateway.requests;
    await expect(
      razorpay.status({ transactionId: "LKT_1", providerReference: null }),
    ).rejects.toThrow(PaymentGatewayError);
    expect(gateway.requests).toBe(requests);
  });

  it("reports an unknown link as a gateway error", async () => {
    const error = await razorpay
      .status({ transactionId: "LKT_1", providerReference: "plink_missing" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentGatewayError);
    expect((error as PaymentGatewayError).status).toBe(400);
  });
});

describe("Razorpay webhook", () => {
  const sign = (raw: string, secret = WEBHOOK_SECRET) =>
    createHmac("sha256", secret).update(raw).digest("hex");
  const event = (name: string, linkStatus: string) => ({
    entity: "event",
    account_id: "acc_LK",
    event: name,
    contains: ["payment_link", "order", "payment"],
    payload: {
      payment_link: {
        entity: {
          id: "plink_Abc123",
          amount: 129_900,
          amount_paid: linkStatus === "paid" ? 129_900 : 0,
          reference_id: "LKT_42",
          status: linkStatus,
          short_url: "https://rzp.io/i/abc",
          brand_new: true,
        },
      },
      payment: { entity: { id: "pay_X1", amount: 129_900, currency: "INR", status: "captured" } },
    },
    created_at: 1_800_000_000,
  });
  const hook = (raw: string, headers: Record<string, string>) =>
    razorpay.parseWebhook({ headers: new Headers(headers), rawBody: raw });

  it("accepts an HMAC over the raw body and reads the event id header", async () => {
    const raw = JSON.stringify(event("payment_link.paid", "paid"), null, 2);
    const result = await hook(raw, {
      "X-Razorpay-Signature": sign(raw),
      "X-Razorpay-Event-Id": "evt_LK0001",
    });
    expect(result).toEqual({
      eventId: "evt_LK0001",
      transactionId: "LKT_42",
      state: "SUCCESS",
      amountPaise: 129_900,
    });
  });

  it("checks the payment link's fields by type", async () => {
    for (const change of [
      (e: ReturnType<typeof event>) => {
        (e.payload.payment_link.entity as Record<string, unknown>).amount_paid = "129900";
      },
      (e: ReturnType<typeof event>) => {
        (e.payload.payment_link.entity as Record<string, unknown>).reference_id = 42;
      },
      (e: ReturnType<typeof event>) => {
        (e.payload.payment_link as Record<string, unknown>).entity = "LKT_42";
      },
    ]) {
      const body = event("payment_link.paid", "paid");
      change(body);
      const raw = JSON.stringify(body);
      await expect(hook(raw, { "x-razorpay-signature": sign(raw) })).rejects.toThrow(
        "malformed webhook",
      );
    }
  });

  it("falls back to the payment amount when amount_paid is absent", async () => {
    const body = event("payment_link.paid", "paid");
    delete (body.payload.payment_link.entity as Record<string, unknown>).amount_paid;
    const raw = JSON.stringify(body);
    const result = await hook(raw, { "x-razorpay-signature": sign(raw) });
    expect(result).toMatchObject({ amountPaise: 129_900 });
  });

  it("rejects re-serialised JSON carrying the original signature", async () => {
    const raw = JSON.stringify(event("payment_link.paid", "paid"), null, 2);
    const reserialised = JSON.stringify(JSON.parse(raw));
    await expect(hook(reserialised, { "x-razorpay-signature": sign(raw) })).rejects.toThrow(
      WebhookAuthError,
    );
  });

  it("rejects a missing, malformed or wrongly keyed signature", async () => {
    const raw = JSON.stringify(event("payment_link.paid", "paid"));
    await expect(hook(raw, {})).rejects.toThrow(WebhookAuthError);
    await expect(hook(raw, { "x-razorpay-signature": "zz" })).rejects.toThrow(WebhookAuthError);
    await expect(hook(raw, { "x-razorpay-signature": sign(raw, KEY_SECRET) })).rejects.toThrow(
      WebhookAuthError,
    );
  });

  it("derives a stable event id from the raw body when the header is missing", async () => {
    const raw = JSON.stringify(event("payment_link.paid", "paid"));
    const first = await hook(raw, { "x-razorpay-signature": sign(raw) });
    const second = await hook(raw, { "x-razorpay-signature": sign(raw) });
    const expected = createHash("sha256").update(raw).digest("hex");
    expect(first).toMatchObject({ eventId: expected });
    expect(second).toMatchObject({ eventId: expected });
  });

  it("maps cancelled and expired links to FAILED", async () => {
    for (const [name, status] of [
      ["payment_link.cancelled", "cancelled"],
      ["payment_link.expired", "expired"],
    ]) {
      const raw = JSON.stringify(event(name, status));
      expect(await hook(raw, { "x-razorpay-signature": sign(raw) })).toMatchObject({
        transactionId: "LKT_42",
        state: "FAILED",
        amountPaise: null,
      });
    }
  });

  it("ignores payment.failed (the link stays payable) and other events", async () => {
    for (const name of ["payment.failed", "payment.captured", "order.paid"]) {
      const raw = JSON.stringify(event(name, "created"));
      const result = await hook(raw, { "x-razorpay-signature": sign(raw) });
      expect(result).toMatchObject({ ignored: true });
    }
  });

  it("throws a plain error for a malformed body with a valid signature", async () => {
    for (const raw of ["{oops", JSON.stringify({ event: "payment_link.paid", payload: {} })]) {
      const error = await hook(raw, { "x-razorpay-signature": sign(raw) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WebhookAuthError);
      expect((error as Error).message).toBe("malformed webhook");
    }
  });
});

describe("Razorpay redirect signature", () => {
  const params = {
    paymentLinkId: "plink_Abc123",
    referenceId: "LKT_42",
    status: "paid",
    paymentId: "pay_X1",
  };
  const signature = createHmac("sha256", KEY_SECRET)
    .update("plink_Abc123|LKT_42|paid|pay_X1")
    .digest("hex");

  it("accepts the signature Razorpay computes", () => {
    expect(verifyRazorpayRedirectSignature(config, { ...params, signature })).toBe(true);
  });

  it("rejects tampered parameters or signatures", () => {
    expect(
      verifyRazorpayRedirectSignature(config, { ...params, status: "partially_paid", signature }),
    ).toBe(false);
    expect(verifyRazorpayRedirectSignature(config, { ...params, signature: "" })).toBe(false);
    expect(
      verifyRazorpayRedirectSignature(config, { ...params, signature: signature.slice(0, 60) }),
    ).toBe(false);
    const withWebhookSecret = createHmac("sha256", WEBHOOK_SECRET)
      .update("plink_Abc123|LKT_42|paid|pay_X1")
      .digest("hex");
    expect(
      verifyRazorpayRedirectSignature(config, { ...params, signature: withWebhookSecret }),
    ).toBe(false);
  });
});
