import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { PhonePeConfig } from "~/config/env.server.ts";
import {
  type IgnoredWebhook,
  PaymentGatewayError,
  type PaymentProvider,
  type PaymentState,
  type PaymentStatus,
  WebhookAuthError,
  type WebhookEvent,
} from "./types.ts";

/*
 * PhonePe Standard Checkout v2 (shared reference: payments.md). OAuth token, hosted pay page,
 * order status and the dashboard-configured webhook. Nothing here logs: the token, the client
 * secret and the webhook credentials must never reach a log line.
 */

const TIMEOUT_MS = 10_000;
/** A cached token is replaced this long before PhonePe says it expires. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
const MIN_AMOUNT_PAISE = 100;
const MIN_EXPIRE_AFTER = 300;
const MAX_EXPIRE_AFTER = 3600;
const MERCHANT_ORDER_ID = /^[A-Za-z0-9_-]{1,63}$/;

const STATES: Record<string, PaymentState> = {
  COMPLETED: "SUCCESS",
  FAILED: "FAILED",
  PENDING: "PENDING",
};
const WEBHOOK_EVENTS = new Set(["checkout.order.completed", "checkout.order.failed"]);

/*
 * A notification's body, checked after its Authorization (issue 20): the event first (others are
 * ignored), then the payload of the two the shop reads. Fields PhonePe adds are let through.
 */
const webhookSchema = z.object({ event: z.string().min(1).max(100), payload: z.unknown() });
const webhookPayloadSchema = z.object({
  merchantOrderId: z.string().regex(MERCHANT_ORDER_ID),
  state: z.string().min(1).max(40),
  amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

type Token = { accessToken: string; expiresAtMs: number };

export type PhonePeOptions = {
  fetch?: typeof fetch;
  /** Clock in epoch milliseconds (tests move it to exercise token expiry). */
  now?: () => number;
};

export function createPhonePeProvider(
  config: PhonePeConfig,
  options: PhonePeOptions = {},
): PaymentProvider {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const expectedAuthorization = createHash("sha256")
    .update(`${config.webhookUsername}:${config.webhookPassword}`)
    .digest();

  let cached: Token | null = null;
  let inFlight: Promise<Token> | null = null;

  async function send(what: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (cause) {
      const timedOut = cause instanceof DOMException && cause.name === "TimeoutError";
      const error = new PaymentGatewayError(
        `PhonePe ${what}: ${timedOut ? "timed out" : "network error"}`,
      );
      error.cause = cause;
      throw error;
    }
  }

  async function fetchToken(): Promise<Token> {
    const res = await send("token", `${config.authUrl}/v1/oauth/token`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_version: config.clientVersion,
        client_secret: config.clientSecret,
        grant_type: "client_credentials",
      }),
    });
    if (!res.ok) throw await gatewayError("token", res);
    const body = await readJson("token", res);
    const accessToken = body.access_token;
    const expiresAt = body.expires_at;
    if (typeof accessToken !== "string" || accessToken === "" || !Number.isFinite(expiresAt)) {
      throw new PaymentGatewayError("PhonePe token: unexpected response", res.status);
    }
    return { accessToken, expiresAtMs: (expiresAt as number) * 1000 };
  }

  /** The cached token while it is fresh; otherwise one shared request for a new one. */
  async function getToken(): Promise<string> {
    if (cached && now() < cached.expiresAtMs - TOKEN_REFRESH_MARGIN_MS) return cached.accessToken;
    inFlight ??= fetchToken()
      .then((token) => {
        cached = token;
        return token;
      })
      .finally(() => {
        inFlight = null;
      });
    return (await inFlight).accessToken;
  }

  /** Calls the API with the token; on 401 gets one new token and retries once. */
  async function authorized(
    what: string,
    path: string,
    init: { method: "GET" | "POST"; body?: unknown },
  ): Promise<Record<string, unknown>> {
    const attempt = (token: string) =>
      send(what, `${config.apiUrl}${path}`, {
        method: init.method,
        headers: {
          Authorization: `O-Bearer ${token}`,
          Accept: "application/json",
          ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    let token = await getToken();
    let res = await attempt(token);
    if (res.status === 401) {
      await res.body?.cancel();
      // Drop only the token that was refused: a concurrent caller may already hold a newer one.
      if (cached?.accessToken === token) cached = null;
      token = await getToken();
      res = await attempt(token);
      if (res.status === 401) {
        await res.body?.cancel();
        throw new PaymentGatewayError(`PhonePe ${what}: token refused after refresh`, 401);
      }
    }
    if (!res.ok) throw await gatewayError(what, res);
    return readJson(what, res);
  }

  return {
    name: "phonepe",

    async initiate(input) {
      if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise < MIN_AMOUNT_PAISE) {
        throw new PaymentGatewayError(
          `PhonePe pay: amount must be an integer of at least ${MIN_AMOUNT_PAISE} paise`,
        );
      }
      if (!MERCHANT_ORDER_ID.test(input.transactionId)) {
        throw new PaymentGatewayError("PhonePe pay: transactionId must match [A-Za-z0-9_-]{1,63}");
      }
      const expireAfter = Math.min(
        MAX_EXPIRE_AFTER,
        Math.max(MIN_EXPIRE_AFTER, Math.round(input.expireAfterSeconds) || MIN_EXPIRE_AFTER),
      );
      const body = await authorized("pay", "/checkout/v2/pay", {
        method: "POST",
        body: {
          merchantOrderId: input.transactionId,
          amount: input.amountPaise,
          expireAfter,
          metaInfo: { udf1: input.orderNumber },
          paymentFlow: {
            type: "PG_CHECKOUT",
            merchantUrls: { redirectUrl: input.redirectUrl },
          },
        },
      });
      if (typeof body.redirectUrl !== "string" || body.redirectUrl === "") {
        throw new PaymentGatewayError("PhonePe pay: response has no redirectUrl");
      }
      return {
        paymentUrl: body.redirectUrl,
        providerReference: typeof body.orderId === "string" ? body.orderId : null,
      };
    },

    async status(payment): Promise<PaymentStatus> {
      const id = encodeURIComponent(payment.transactionId);
      const body = await authorized("status", `/checkout/v2/order/${id}/status?details=false`, {
        method: "GET",
      });
      const state = typeof body.state === "string" ? STATES[body.state] : undefined;
      if (!state) throw new PaymentGatewayError("PhonePe status: unexpected order state");
      return {
        state,
        amountPaise: Number.isSafeInteger(body.amount) ? (body.amount as number) : null,
        errorCode: typeof body.errorCode === "string" ? body.errorCode : null,
      };
    },

    async parseWebhook({ headers, rawBody }): Promise<WebhookEvent | IgnoredWebhook> {
      if (!hexEquals(headers.get("authorization"), expectedAuthorization)) {
        throw new WebhookAuthError("PhonePe webhook: bad Authorization header");
      }
      const body = webhookSchema.safeParse(parseObject(rawBody));
      if (!body.success) throw new Error("malformed webhook");
      // `event` is current; the old `type` field is deprecated and deliberately not read.
      const { event } = body.data;
      if (!WEBHOOK_EVENTS.has(event)) return { ignored: true, reason: `event ${event}` };
      const payload = webhookPayloadSchema.safeParse(body.data.payload);
      if (!payload.success) throw new Error("malformed webhook");
      const { merchantOrderId, state: rawState, amount } = payload.data;
      // A state PhonePe adds later is recorded and changes nothing (issue 20).
      const state = STATES[rawState] ?? "UNKNOWN";
      return {
        // PhonePe sends no event id; the same notification always yields the same key.
        eventId: `phonepe:${event}:${merchantOrderId}:${rawState}`,
        transactionId: merchantOrderId,
        state,
        amountPaise: amount ?? null,
      };
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseObject(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error("malformed webhook");
  }
  if (!isObject(value)) throw new Error("malformed webhook");
  return value;
}

async function readJson(what: string, res: Response): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = await res.json();
  } catch {
    throw new PaymentGatewayError(`PhonePe ${what}: response is not JSON`, res.status);
  }
  if (!isObject(value)) {
    throw new PaymentGatewayError(`PhonePe ${what}: unexpected response`, res.status);
  }
  return value;
}

/** The error for a non-2xx answer: status and PhonePe's error code, never the body itself. */
async function gatewayError(what: string, res: Response): Promise<PaymentGatewayError> {
  let code = "";
  try {
    const body: unknown = await res.json();
    if (isObject(body) && typeof body.code === "string") code = ` (${body.code.slice(0, 64)})`;
  } catch {
    // No JSON error body: the status says enough.
  }
  return new PaymentGatewayError(`PhonePe ${what}: HTTP ${res.status}${code}`, res.status);
}

/** Constant-time comparison of a hex string (any case) with the expected bytes. */
function hexEquals(candidate: string | null, expected: Buffer): boolean {
  const hex = candidate?.trim() ?? "";
  if (hex.length !== expected.length * 2 || !/^[0-9a-f]+$/i.test(hex)) return false;
  return timingSafeEqual(Buffer.from(hex, "hex"), expected);
}
