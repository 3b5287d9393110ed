import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exited,
  freePort,
  type Started,
  startServer,
  waitReady,
} from "../support/server-process.ts";

/*
 * The weight of the storefront's HTML (issue 25), counted in bytes, never timed, on the demo
 * catalogue, for a visitor and for a signed-in customer (whose page carries a name and filled
 * hearts). Issue 25's "rendered `/products` ≤ 70 KB" is measured by bench/http.ts on the bench
 * catalogue (69.1 KB on 2026-11-26); the demo's cards carry longer image paths, ratings and a
 * badge, 72.4 KB on 2026-11-27 (the first product page 43.4 KB, `/` 57.7 KB). Each page is held
 * to that day's size plus about 2 %, so growth is noticed; on 2026-11-28 every page grew by the
 * early-taps script in its head (decision 0031, about 530 bytes with its tag), and `/products`'
 * limit by as much. Later that day the scripts came to start after the first paint (decision
 * 0032): the head's module preloads left the HTML and a loader with their addresses came in, and
 * the early-taps script grew by 406 bytes; 74,449, 44,455 and 58,381 bytes measured, within the
 * same limits. Later still, a quantity stepper's and the gallery's buttons came to count every
 * tap made before hydration (`data-every-tap`, and the script's check of it): the product page
 * 44,577 bytes, its limit raised by 200. Needs `npm run build` first.
 */

const LIMITS = { "/products": 74_600, product: 44_700, "/": 59_000 } as const;
const ADMIN_PASSWORD = "page-weight-admin-password";

let dir: string;
let server: Started;
let base: string;
let signedIn = "";
let productPath = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "lk-page-weight-"));
  const port = await freePort();
  server = startServer({
    DATA_DIR: dir,
    PORT: String(port),
    AUTH_SECRET: "page-weight-test-secret-page-weight-test-secret",
    SEED_DEMO: "auto",
    ALLOW_DEMO_SEED: "true",
    ALLOW_SANDBOX_PAYMENTS: "true",
    DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  base = `http://127.0.0.1:${port}`;
  // The demo seed draws its images first: allow a busy machine its time.
  await waitReady(port, server.child, 180_000);
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
    body: JSON.stringify({ email: "admin@example.com", password: ADMIN_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  signedIn = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const listing = await (await page("/products")).text();
  productPath = listing.match(/href="(\/product\/[0-9a-f-]{36})"/)?.[1] ?? "";
  expect(productPath).not.toBe("");
}, 240_000);

afterAll(async () => {
  server?.child.kill("SIGKILL");
  if (server) await exited(server.child);
  await rm(dir, { recursive: true, force: true });
});

function page(pathname: string, cookie?: string) {
  return fetch(`${base}${pathname}`, {
    headers: { "accept-encoding": "identity", ...(cookie ? { cookie } : {}) },
  });
}

async function bytesOf(pathname: string, cookie?: string) {
  const res = await page(pathname, cookie);
  expect(res.status).toBe(200);
  const html = await res.text();
  // The page is the whole document, not an error page or a cut-off stream.
  expect(html).toMatch(/<\/html>\s*$/);
  return Buffer.byteLength(html);
}

describe("storefront HTML weight", () => {
  it("/products keeps its weight for a visitor and for a signed-in customer", async () => {
    const visitor = await bytesOf("/products");
    const customer = await bytesOf("/products", signedIn);
    expect(visitor).toBeLessThanOrEqual(LIMITS["/products"]);
    expect(customer).toBeLessThanOrEqual(LIMITS["/products"]);
    // The signed-in page is the visitor's plus a name and a menu, not a different page.
    expect(Math.abs(customer - visitor)).toBeLessThan(4_000);
  });

  it("a product page and the home page keep their weight", async () => {
    expect(await bytesOf(productPath)).toBeLessThanOrEqual(LIMITS.product);
    expect(await bytesOf("/")).toBeLessThanOrEqual(LIMITS["/"]);
  });
});
