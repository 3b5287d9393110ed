import { data } from "react-router";
import { queryParam } from "~/lib/forms.server.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { deliveryEstimate } from "~/modules/shipping/delivery.server.ts";
import { type EstimateResponse, estimateQuerySchema } from "~/rules/delivery.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.delivery-estimate";

/*
 * GET /api/delivery-estimate?pin=700016[&product=<id> | &kind=custom|cart]: where and when a
 * parcel to that PIN arrives, and whether cash on delivery is offered (issue 24). The pages that
 * show the PIN box stay the same for everyone (cached); the box asks this endpoint. Counted per
 * client address like the other public endpoints.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) {
    query[key] = queryParam(url, key) ?? "";
  }
  const parsed = estimateQuerySchema.safeParse(query);
  if (!parsed.success) {
    return data<EstimateResponse>(
      { kind: "invalid", message: parsed.error.issues[0].message },
      { status: 400 },
    );
  }
  const { db, courierRates } = await runtime();
  const wait = await rateLimited(db, request, "delivery-estimate");
  if (wait !== null) {
    return data<EstimateResponse>(
      { kind: "busy", message: RATE_LIMITED_MESSAGE },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  const answer = await deliveryEstimate(db, {
    pin: parsed.data.pin,
    productId: parsed.data.product,
    kind: parsed.data.kind,
    readyBy: parsed.data.ready,
    courierRates,
  });
  if (answer.kind === "unknown-product") {
    return data<EstimateResponse>(answer, { status: 404 });
  }
  // The same for every visitor for a while (dates move at midnight, settings rarely).
  return data<EstimateResponse>(answer, {
    headers: { "Cache-Control": "public, max-age=300" },
  });
}
