import { CarrierError, WebhookAuthError } from "~/adapters/shipping/index.server.ts";
import { log } from "~/lib/log.server.ts";
import { readBodyLimited } from "~/lib/read-body.server.ts";
import { recordTrackingEvent } from "~/modules/shipping/shipments.server.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.courier-tracking";

/** The largest tracking update read; Shiprocket's carry their scans, a few kilobytes. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /api/courier/tracking: the courier's tracking webhook (decision 0016; the path avoids the
 * words Shiprocket refuses in a webhook URL). The adapter checks the token (401 and nothing
 * written when it is wrong); the shipping module records each update once and moves the order
 * forward only. A genuine update for a shipment the shop doesn't know still gets 200, so the
 * carrier stops retrying.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return new Response(null, { status: 405, headers: { allow: "POST" } });
  }
  const body = await readBodyLimited(request, MAX_BODY_BYTES);
  if (body === null) return Response.json({ error: "Too large" }, { status: 413 });
  const rt = await runtime();
  let event: Awaited<ReturnType<typeof rt.shipping.parseWebhook>>;
  try {
    event = await rt.shipping.parseWebhook({
      headers: request.headers,
      rawBody: new TextDecoder().decode(body),
    });
  } catch (error) {
    if (error instanceof WebhookAuthError) {
      log.warning("courier webhook refused: wrong token", { carrier: rt.shipping.name });
      return Response.json({ error: "Unauthorized" }, { status: 401 });
    }
    if (error instanceof CarrierError) {
      log.warning("courier webhook refused: unreadable", { carrier: rt.shipping.name });
      return Response.json({ error: "Bad request" }, { status: 400 });
    }
    throw error;
  }
  if ("ignored" in event) return Response.json({ ok: true, ignored: event.reason });
  const result = await recordTrackingEvent(
    { db: rt.db, carrier: rt.shipping, jobs: rt.jobRunner },
    event,
    "webhook",
  );
  log.info("courier webhook", {
    carrier: rt.shipping.name,
    awb: event.awb,
    stage: event.stage,
    outcome: result.outcome,
  });
  return Response.json({ ok: true, outcome: result.outcome });
}

export function loader() {
  return new Response(null, { status: 405, headers: { allow: "POST" } });
}
