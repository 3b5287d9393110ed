import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { RazorpayConfig } from "~/config/env.server.ts";
import {
  type IgnoredWebhook,
  PaymentGatewayError,
  type PaymentProvider,
  type PaymentStatus,
  WebhookAuthError,
  type WebhookEvent,
} from "./types.ts";

/*
 * Razorpay Payment Links (shared reference: payments.md): a hosted link per payment attempt, the
 * link's status, and webhooks signed over the raw body. Nothing here logs keys or payloads.
 */

const TIMEOUT_MS = 10_000;
const MIN_AMOUNT_PAISE = 100;
/** Razorpay refuses an expire_by less than 15 minutes ahead; keep a minute of slack. */
const MIN_EXPIRE_AFTER = 16 * 60;

export type RazorpayOptions = { fetch?: typeof fetch };

export function createRazorpayProvider(
  config: RazorpayConfig,
  options: RazorpayOptions = {},
): PaymentProvider {
  const fetchImpl = options.fetch ?? fetch;
  const authorization = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString("base64")}`;

  async function request(
    what: string,
    path: string,
    init: { method: "GET" | "POST"; body?: unknown },
  ): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetchImpl(`${config.apiUrl}${path}`, {
        method: init.method,
        headers: {
          Authorization: authorization,
          Accept: "application/json",
          ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (cause) {
      const timedOut = cause instanceof DOMException && cause.name === "TimeoutError";
      const error = new PaymentGatewayError(
        `Razorpay ${what}: ${timedOut ? "timed out" : "network error"}`,
      );
      error.cause = cause;
      throw error;
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = null;
    }
    if (!res.ok) {
      // Razorpay's error code only; descriptions may echo request data.
      const code =
        isObject(body) && isObject(body.error) && typeof body.error.code === "string"
          ? ` (${body.error.code.slice(0, 64)})`
          : "";
      throw new PaymentGatewayError(`Razorpay ${what}: HTTP ${res.status}${code}`, res.status);
    }
    if (!isObject(body)) {
      throw new PaymentGatewayError(`Razorpay ${what}: unexpected response`, res.status);
    }
    return body;
  }

  return {
    name: "razorpay",

    async initiate(input) {
      if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise < MIN_AMOUNT_PAISE) {
        throw new PaymentGatewayError(
          `Razorpay payment link: amount must be an integer of at least ${MIN_AMOUNT_PAISE} paise`,
        );
      }
      const expireAfter = Math.max(Math.round(input.expireAfterSeconds) || 0, MIN_EXPIRE_AFTER);
      const { name, email, phone } = input.customer;
      const link = await request("payment link", "/v1/payment_links", {
        method: "POST",
        body: {
          amount: input.amountPaise,
          currency: "INR",
          reference_id: input.transactionId,
          description: `Order ${input.orderNumber}`,
          customer: { name, email, ...(phone ? { contact: phone } : {}) },
          notify: { sms: false, email: false },
          callback_url: input.redirectUrl,
          callback_method: "get",
          expire_by: Math.floor(Date.now() / 1000) + expireAfter,
        },
      });
      if (typeof link.short_url !== "string" || typeof link.id !== "string") {
        throw new PaymentGatewayError("Razorpay payment link: response has no short_url or id");
      }
      return { paymentUrl: link.short_url, providerReference: link.id };
    },

    async status(payment): Promise<PaymentStatus> {
      if (!payment.providerReference) {
        throw new PaymentGatewayError("Razorpay status: no payment link id for this payment");
      }
      const link = await request(
        "status",
        `/v1/payment_links/${encodeURIComponent(payment.providerReference)}`,
        { method: "GET" },
      );
      switch (link.status) {
        case "paid":
          return {
            state: "SUCCESS",
            amountPaise: Number.isSafeInteger(link.amount_paid)
              ? (link.amount_paid as number)
              : null,
            errorCode: null,
          };
        case "cancelled":
        case "expired":
          return { state: "FAILED", amountPaise: null, errorCode: link.status };
        case "created":
        case "partially_paid":
          return { state: "PENDING", amountPaise: null, errorCode: null };
        default:
          throw new PaymentGatewayError("Razorpay status: unexpected payment link status");
      }
    },

    async parseWebhook({ headers, rawBody }): Promise<WebhookEvent | IgnoredWebhook> {
      // The signature covers the bytes as received; re-serialised JSON would not match.
      const expected = createHmac("sha256", config.webhookSecret).update(rawBody, "utf8").digest();
      if (!hexEquals(headers.get("x-razorpay-signature"), expected)) {
        throw new WebhookAuthError("Razorpay webhook: bad signature");
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new Error("malformed webhook");
      }
      const body = webhookSchema.safeParse(json);
      if (!body.success) throw new Error("malformed webhook");
      const { event } = body.data;
      // Only these events say anything about a payment link; "paid" is the one explicit success.
      const state =
        event === "payment_link.paid"
          ? "SUCCESS"
          : event === "payment_link.cancelled" || event === "payment_link.expired"
            ? "FAILED"
            : null;
      // Everything else, payment.failed included: a link stays payable after a failed attempt.
      if (!state) return { ignored: true, reason: `event ${event}` };
      const payload = linkPayloadSchema.safeParse(body.data.payload);
      if (!payload.success) throw new Error("malformed webhook");
      const link = payload.data.payment_link.entity;
      const referenceId = link.reference_id;
      const amountPaise =
        state === "SUCCESS"
          ? (link.amount_paid ?? payload.data.payment?.entity.amount ?? null)
          : null;
      return {
        eventId:
          headers.get("x-razorpay-event-id") ||
          createHash("sha256").update(rawBody, "utf8").digest("hex"),
        transactionId: referenceId,
        state,
        amountPaise,
      };
    },
  };
}

/*
 * A notification's body, checked after its signature (issue 20): the event first (others are
 * ignored), then the payment link the three link events carry. Fields Razorpay adds pass.
 */
const amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const webhookSchema = z.object({ event: z.string().min(1).max(100), payload: z.unknown() });
const linkPayloadSchema = z.object({
  payment_link: z.object({
    entity: z.object({
      reference_id: z.string().min(1).max(63),
      amount_paid: amount.optional(),
    }),
  }),
  payment: z.object({ entity: z.object({ amount: amount.optional() }) }).optional(),
});

/**
 * Checks the `razorpay_signature` on the customer's return from a payment link: HMAC-SHA256 of
 * `linkId|referenceId|status|paymentId` keyed with the key secret.
 */
export function verifyRazorpayRedirectSignature(
  config: RazorpayConfig,
  params: {
    paymentLinkId: string;
    referenceId: string;
    status: string;
    paymentId: string;
    signature: string;
  },
): boolean {
  const expected = createHmac("sha256", config.keySecret)
    .update(`${params.paymentLinkId}|${params.referenceId}|${params.status}|${params.paymentId}`)
    .digest();
  return hexEquals(params.signature, expected);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Constant-time comparison of a hex string (any case) with the expected bytes. */
function hexEquals(candidate: string | null | undefined, expected: Buffer): boolean {
  const hex = candidate?.trim() ?? "";
  if (hex.length !== expected.length * 2 || !/^[0-9a-f]+$/i.test(hex)) return false;
  return timingSafeEqual(Buffer.from(hex, "hex"), expected);
}
