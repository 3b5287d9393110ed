import { WebhookAuthError } from "~/adapters/payments/types.ts";
import { log } from "~/lib/log.server.ts";
import { readBodyLimited } from "~/lib/read-body.server.ts";
import { applyPaymentUpdate, paymentDepsFor } from "~/modules/payments/payments.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.payment-webhook";

/** The largest notification body read; gateways send a few kilobytes. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * POST /api/payment-webhook: the configured gateway's server-to-server notification (SPEC.md §7
 * callbackUrl). The adapter verifies it over the raw body (401 and no change when it can't); the
 * payments module deduplicates it and applies the transition in one transaction. Answers fast: a
 * genuine notification that we've seen or can't use still gets 200, so the gateway stops retrying.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST")
    return new Response(null, { status: 405, headers: { allow: "POST" } });
  const body = await readBodyLimited(request, MAX_BODY_BYTES);
  if (body === null) return Response.json({ error: "Too large" }, { status: 413 });
  const rawBody = new TextDecoder().decode(body);
  const rt = await runtime();
  let event: Awaited<ReturnType<typeof rt.payments.parseWebhook>>;
  try {
    event = await rt.payments.parseWebhook({ headers: request.headers, rawBody });
  } catch (error) {
    if (error instanceof WebhookAuthError) {
      log.warning("payment webhook refused: not from the gateway", { provider: rt.payments.name });
      return Response.json({ error: "Unauthorized" }, { status: 401 });
    }
    log.warning("payment webhook refused: unreadable", { provider: rt.payments.name });
    return Response.json({ error: "Bad request" }, { status: 400 });
  }
  if ("ignored" in event) return Response.json({ ok: true, ignored: event.reason });
  const result = await applyPaymentUpdate(paymentDepsFor(rt), { ...event, source: "webhook" });
  log.info("payment webhook", {
    provider: rt.payments.name,
    transactionId: event.transactionId,
    state: event.state,
    outcome: result.outcome,
  });
  return Response.json({ ok: true, outcome: result.outcome });
}

export function loader() {
  return new Response(null, { status: 405, headers: { allow: "POST" } });
}
