import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaOf, observeRequest } from "~/lib/metrics.server.ts";
import {
  createVerifiedUser,
  pageGet,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../support/accounts.ts";
import { insertOrder, insertProduct } from "../support/factories.ts";
import { testDbKind } from "../support/test-database.ts";

/* GET /metrics (issue: production mode): Prometheus text for a scraper holding the token only. */

const TOKEN = "metrics-token-0123456789abcdef";
let harness: Awaited<ReturnType<typeof startProcessRuntime>>;

beforeAll(async () => {
  harness = await startProcessRuntime({ METRICS_TOKEN: TOKEN });
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

const scrape = async (headers: Record<string, string> = {}) => {
  const { loader } = await import("~/routes/metrics.ts");
  const request = pageGet("/metrics");
  for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
  return loader({ request });
};

describe(`/metrics on ${testDbKind()}`, () => {
  it("refuses anyone without the token, signed in or not", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ authorization: "Bearer wrong-token-wrong-token" })).status).toBe(401);
    const admin = await createVerifiedUser(harness.rt.auth, harness.rt.db, {
      email: uniqueEmail("metrics"),
    });
    const cookie = await signInCookie(harness.rt.auth, admin);
    expect((await scrape({ cookie })).status).toBe(401);
  });

  it("reports requests, latency, orders by status and payments by state", async () => {
    const customer = await createVerifiedUser(harness.rt.auth, harness.rt.db, {
      email: uniqueEmail("metrics-c"),
    });
    const product = await insertProduct(harness.rt.db);
    await insertOrder(harness.rt.db, customer.id, [product.id], "paid");
    await insertOrder(harness.rt.db, customer.id, [product.id], "unpaid");
    observeRequest("GET", "/product/123e4567-e89b-12d3-a456-426614174000", 200, 0.02);
    observeRequest("POST", "/api/cart", 500, 0.2);
    const res = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /layerkart_http_requests_total\{method="GET",area="product",status="2xx"\} [1-9]/,
    );
    expect(text).toMatch(
      /layerkart_http_requests_total\{method="POST",area="api-cart",status="5xx"\} [1-9]/,
    );
    expect(text).toContain(
      'layerkart_http_request_duration_seconds_bucket{le="0.025",area="product"}',
    );
    expect(text).toMatch(/layerkart_payments\{state="paid"\} [1-9]/);
    expect(text).toMatch(/layerkart_payments\{state="unpaid"\} [1-9]/);
    expect(text).toMatch(/layerkart_orders\{status="\w+"\} [1-9]/);
    expect(text).toMatch(/layerkart_payment_reconcile_queue \d+/);
    expect(text).toMatch(/layerkart_jobs\{status="queued"\} \d+/);
    expect(text).toMatch(/layerkart_jobs\{status="dead"\} \d+/);
    expect(text).toMatch(/layerkart_quote_requests_waiting 0/);
    // The runtime's page cache hears catalogue changes on this database.
    expect(text).toContain('layerkart_page_cache{stat="listening"} 1');
    expect(text).toMatch(/layerkart_page_cache\{stat="invalidations"\} [1-9]/);
    expect(text).toMatch(/layerkart_page_cache\{stat="entries"\} \d+/);
    expect(text).toMatch(/layerkart_page_cache\{stat="coalesced"\} \d+/);
    expect(text).toContain("layerkart_process_cpu_seconds_total");
    // Ids never become labels.
    expect(text).not.toContain("123e4567");
  });

  it("groups paths into a few areas", () => {
    expect(areaOf("/")).toBe("home");
    expect(areaOf("/orders/abc/invoice.pdf")).toBe("orders");
    expect(areaOf("/some/unknown/page")).toBe("other");
    expect(areaOf("/api/quotes/upload")).toBe("api-quotes");
  });
});
