import { timingSafeEqual } from "node:crypto";
import { count, sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "~/adapters/db/index.server.ts";
import { orders, quotes } from "~/db/schema.ts";
import type { PageCacheStats } from "~/lib/page-cache.server.ts";

/*
 * Prometheus metrics (GET /metrics with the METRICS_TOKEN bearer token): HTTP requests and their
 * latency (recorded by the custom server for every response), the Node process, and the shop's
 * state read from the database at each scrape: orders by status, payments by state, the payment
 * reconciliation queue, background jobs by status, and custom-print quote requests waiting. With several instances, each is
 * scraped on its own; the database gauges are the same on all of them.
 */

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "layerkart_" });

const requests = new Counter({
  name: "layerkart_http_requests_total",
  help: "HTTP responses sent, by method, area of the shop and status class",
  labelNames: ["method", "area", "status"] as const,
  registers: [registry],
});

const latency = new Histogram({
  name: "layerkart_http_request_duration_seconds",
  help: "Time from request to response finished, by area of the shop",
  labelNames: ["area"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Page areas counted by their own label; anything else is "other" (bounded label values). */
const KNOWN_AREAS = new Set([
  "product",
  "products",
  "3d-prints",
  "3d-characters",
  "search",
  "contact",
  "cart",
  "checkout",
  "payment-success",
  "orders",
  "custom-printing",
  "quotes",
  "auth",
  "account",
  "addresses",
  "favourites",
  "sandbox",
  "healthz",
  "readyz",
  "metrics",
]);

/** A small fixed set of areas: never the raw path (ids would make every order its own series). */
export function areaOf(path: string): string {
  const first = path.split("/")[1] ?? "";
  if (first === "") return "home";
  if (first === "assets" || first === "uploads") return "static";
  if (first === "api")
    return `api-${(path.split("/")[2] ?? "").replace(/[^a-z-]/g, "") || "other"}`.slice(0, 24);
  if (first === "admin") return "admin";
  return KNOWN_AREAS.has(first) ? first : "other";
}

/** Called by the custom server once per finished response. */
export function observeRequest(method: string, path: string, status: number, seconds: number) {
  const area = areaOf(path);
  const m = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].includes(method)
    ? method
    : "OTHER";
  requests.inc({ method: m, area, status: `${Math.floor(status / 100)}xx` });
  latency.observe({ area }, seconds);
}

let database: Database | null = null;

/** Counts jobs by status (the jobs module's; passed in, as lib imports no modules). */
type JobCounts = (db: Database) => Promise<Record<string, number>>;
let jobCounts: JobCounts | null = null;

const ordersByStatus = new Gauge({
  name: "layerkart_orders",
  help: "Orders by status",
  labelNames: ["status"] as const,
  registers: [registry],
  async collect() {
    if (!database) return;
    const rows = await database
      .select({ status: orders.status, n: count() })
      .from(orders)
      .groupBy(orders.status);
    this.reset();
    for (const r of rows) this.set({ status: r.status }, Number(r.n));
  },
});

const paymentsByState = new Gauge({
  name: "layerkart_payments",
  help: "Orders by payment state",
  labelNames: ["state"] as const,
  registers: [registry],
  async collect() {
    if (!database) return;
    const rows = await database
      .select({ state: orders.paymentStatus, n: count() })
      .from(orders)
      .groupBy(orders.paymentStatus);
    this.reset();
    for (const r of rows) this.set({ state: r.state }, Number(r.n));
  },
});

const reconcileQueue = new Gauge({
  name: "layerkart_payment_reconcile_queue",
  help: "Open gateway payments the reconciliation job still has to settle",
  registers: [registry],
  async collect() {
    if (!database) return;
    const [row] = await database
      .select({ n: count() })
      .from(orders)
      .where(
        sql`${orders.status} = 'pending' and ${orders.paymentStatus} in ('unpaid','failed') and ${orders.nextReconcileAt} is not null`,
      );
    this.set(Number(row?.n ?? 0));
  },
});

const quoteRequests = new Gauge({
  name: "layerkart_quote_requests_waiting",
  help: "Custom-print quote requests waiting for staff",
  registers: [registry],
  async collect() {
    if (!database) return;
    const [row] = await database
      .select({ n: count() })
      .from(quotes)
      .where(sql`${quotes.status} = 'review_requested'`);
    this.set(Number(row?.n ?? 0));
  },
});

const jobQueue = new Gauge({
  name: "layerkart_jobs",
  help: "Background jobs (e-mails) by status: queued (waiting or retrying), running, dead (gave up)",
  labelNames: ["status"],
  registers: [registry],
  async collect() {
    if (!database || !jobCounts) return;
    const counts = await jobCounts(database);
    for (const status of ["queued", "running", "dead"]) this.set({ status }, counts[status] ?? 0);
  },
});

let pageCache: { stats(): PageCacheStats } | null = null;

const pageCacheGauge = new Gauge({
  name: "layerkart_page_cache",
  help: "Page cache of public pages (app/lib/page-cache.server.ts): entries, bytes, hits, misses, stores, invalidations and coalesced misses (waited for a render under way) and personalised answers to signed-in customers (decision 0026) since start, and listening (1 while catalogue changes are heard)",
  labelNames: ["stat"],
  registers: [registry],
  collect() {
    if (!pageCache) return;
    const { listening, ...counts } = pageCache.stats();
    for (const [stat, value] of Object.entries(counts)) this.set({ stat }, value);
    this.set({ stat: "listening" }, listening ? 1 : 0);
  },
});

// Referenced so bundlers and linters keep the gauges (they register themselves).
void [ordersByStatus, paymentsByState, reconcileQueue, quoteRequests, jobQueue, pageCacheGauge];

/** The exposition text, with the database gauges and the page cache's figures read now. */
export async function metricsText(
  db: Database,
  sources: { pageCache?: { stats(): PageCacheStats }; jobCounts?: JobCounts } = {},
): Promise<string> {
  database = db;
  pageCache = sources.pageCache ?? null;
  jobCounts = sources.jobCounts ?? null;
  return registry.metrics();
}

/** Whether an Authorization header carries the configured token (constant-time compare). */
export function metricsAuthorised(header: string | null, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
