import { metricsAuthorised, metricsText, registry } from "~/lib/metrics.server.ts";
import { jobCounts } from "~/modules/jobs/jobs.server.ts";
import { runtime } from "~/runtime.server.ts";

/**
 * GET /metrics: Prometheus metrics for the operator's scraper, with `Authorization: Bearer
 * $METRICS_TOKEN`. Without a configured token the endpoint does not exist (404); a wrong or
 * missing token gets 401.
 */
export async function loader({ request }: { request: Request }) {
  const rt = await runtime();
  const token = rt.env.metricsToken;
  if (!token) return new Response("Not found", { status: 404 });
  if (!metricsAuthorised(request.headers.get("authorization"), token)) {
    return new Response("Unauthorized", {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" },
    });
  }
  return new Response(await metricsText(rt.db, { pageCache: rt.pageCache, jobCounts }), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
}
