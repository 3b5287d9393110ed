import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/adapters/db/index.server.ts";
import { sandboxPayments } from "~/db/schema.ts";
import {
  PaymentGatewayError,
  type PaymentProvider,
  type PaymentState,
  WebhookAuthError,
} from "./types.ts";

/*
 * The shop's own test gateway (DESIGN.md): a TEST MODE page inside the app with three buttons.
 * It keeps its payments in its own table, answers status like a gateway, and notifies the shop by
 * POSTing a signed notification to the same webhook route a real gateway uses.
 */

export const SANDBOX_SIGNATURE_HEADER = "x-sandbox-signature";

export type SandboxOptions = {
  db: Database;
  /** Signs notifications (derived from the shop's secret). */
  secret: string;
  publicUrl: string;
  /** false in production unless ALLOW_SANDBOX_PAYMENTS=true. */
  enabled: boolean;
};

const sign = (secret: string, body: string) =>
  createHmac("sha256", `sandbox-webhook:${secret}`).update(body).digest("hex");

/**
 * The sandbox's notification, as its TEST MODE page sends it. The signature proves who sent it,
 * not that it makes sense: the body is still checked, and a state other than the three the
 * sandbox knows is UNKNOWN (recorded, changes nothing), never a payment (issue 20).
 */
const notificationSchema = z.object({
  eventId: z.string().min(1).max(100),
  transactionId: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/),
  state: z
    .string()
    .max(40)
    .transform(
      (s): PaymentState => (s === "SUCCESS" || s === "FAILED" || s === "PENDING" ? s : "UNKNOWN"),
    ),
  amountPaise: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
});

export function createSandboxProvider(options: SandboxOptions): PaymentProvider {
  const { db, secret, publicUrl, enabled } = options;
  return {
    name: "sandbox",
    async initiate(input) {
      if (!enabled) throw new PaymentGatewayError("Test payments are disabled on this shop");
      await db.insert(sandboxPayments).values({
        transactionId: input.transactionId,
        orderNumber: input.orderNumber,
        amountPaise: input.amountPaise,
        redirectUrl: input.redirectUrl,
        callbackUrl: input.callbackUrl,
      });
      return {
        paymentUrl: `${publicUrl}/sandbox/pay/${encodeURIComponent(input.transactionId)}`,
        providerReference: input.transactionId,
      };
    },
    async status({ transactionId }) {
      const [row] = await db
        .select()
        .from(sandboxPayments)
        .where(eq(sandboxPayments.transactionId, transactionId));
      if (!row) throw new PaymentGatewayError("Unknown transaction", 404);
      return {
        state: row.state as PaymentState,
        amountPaise: row.amountPaise,
        errorCode: row.state === "FAILED" ? "PAYMENT_DECLINED" : null,
      };
    },
    async parseWebhook({ headers, rawBody }) {
      const given = headers.get(SANDBOX_SIGNATURE_HEADER) ?? "";
      const expected = sign(secret, rawBody);
      if (
        given.length !== expected.length ||
        !timingSafeEqual(Buffer.from(given), Buffer.from(expected))
      ) {
        throw new WebhookAuthError("Bad sandbox signature");
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new Error("malformed webhook");
      }
      const body = notificationSchema.safeParse(json);
      if (!body.success) throw new Error("malformed webhook");
      return body.data;
    },
  };
}

export type SandboxPayment = typeof sandboxPayments.$inferSelect;

export async function getSandboxPayment(
  db: Database,
  transactionId: string,
): Promise<SandboxPayment | null> {
  const [row] = await db
    .select()
    .from(sandboxPayments)
    .where(eq(sandboxPayments.transactionId, transactionId));
  return row ?? null;
}

export type SandboxOutcome = "success" | "failure" | "pending";

/**
 * What the TEST MODE page's buttons do: record the outcome, notify the shop's webhook (except for
 * 'Leave pending'), and give the URL to send the customer back to. A payment already settled keeps
 * its state. A notification that fails to arrive is left to the shop's reconciliation job.
 */
export async function settleSandboxPayment(
  options: Pick<SandboxOptions, "db" | "secret">,
  transactionId: string,
  outcome: SandboxOutcome,
  post: typeof fetch = fetch,
): Promise<{ redirectUrl: string; notified: boolean } | null> {
  const { db, secret } = options;
  const payment = await getSandboxPayment(db, transactionId);
  if (!payment) return null;
  if (outcome === "pending" || payment.state !== "PENDING") {
    return { redirectUrl: payment.redirectUrl, notified: false };
  }
  const state: PaymentState = outcome === "success" ? "SUCCESS" : "FAILED";
  await db
    .update(sandboxPayments)
    .set({ state, updatedAt: new Date() })
    .where(eq(sandboxPayments.transactionId, transactionId));
  const body = JSON.stringify({
    eventId: randomUUID(),
    transactionId,
    state,
    amountPaise: payment.amountPaise,
  });
  let notified = false;
  try {
    const res = await post(payment.callbackUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SANDBOX_SIGNATURE_HEADER]: sign(secret, body),
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    notified = res.ok;
  } catch {
    notified = false;
  }
  return { redirectUrl: payment.redirectUrl, notified };
}

/** Signs a body as the sandbox does (tests deliver notifications by hand with it). */
export const signSandboxNotification = sign;
