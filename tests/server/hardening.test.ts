import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
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
 * Issue 20, as a hostile visitor sees the built server: bounded bodies, hostile characters in
 * addresses and forms, malformed paths, the auth library's own endpoints and the caching of
 * signed-in pages. Needs `npm run build` first.
 */

const SECRET = "hardening-test-secret-hardening-test-secret";
const METRICS_TOKEN = "hardening-metrics-token-123";
const ADMIN_PASSWORD = "hardening-admin-password";

let dir: string;
let server: Started;
let base: string;
let origin: string;
let adminCookie = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "lk-hardening-"));
  const port = await freePort();
  server = startServer({
    DATA_DIR: dir,
    PORT: String(port),
    AUTH_SECRET: SECRET,
    METRICS_TOKEN,
    SEED_DEMO: "auto",
    ALLOW_DEMO_SEED: "true",
    ALLOW_SANDBOX_PAYMENTS: "true",
    DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD,
  });
  base = `http://127.0.0.1:${port}`;
  origin = `http://localhost:${port}`;
  await waitReady(port, server.child);
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: "admin@example.com", password: ADMIN_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  adminCookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}, 120_000);

afterAll(async () => {
  server?.child.kill("SIGKILL");
  if (server) await exited(server.child);
  await rm(dir, { recursive: true, force: true });
});

const SIXTY_MB = 60 * 1024 * 1024;

/**
 * POSTs `size` bytes of form body without holding them: declared (Content-Length) or chunked.
 * Resolves with the status and the time to the answer; the rest of the body may never be sent.
 */
function postLarge(
  pathname: string,
  size: number,
  chunked: boolean,
): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // No Origin: as a script sends it (a browser's would have to match the address used here).
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (!chunked) headers["content-length"] = String(size);
    const req = httpRequest(`${base}${pathname}`, { method: "POST", headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, ms: Date.now() - started });
    });
    // The server closes the connection once it has answered: later writes fail, which is fine.
    req.on("error", (error) => setTimeout(() => reject(error), 2_000).unref());
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < size && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

async function residentBytes(): Promise<number> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  return Number(
    text.match(/^layerkart_process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m)?.[1],
  );
}

describe("finding 1: every request's body is bounded", () => {
  it("answers a 60 MB POST with 413 within a second, without holding it", async () => {
    // One refused body first, so that what the first refusal sets up isn't counted as growth.
    expect((await postLarge("/contact", SIXTY_MB, false)).status).toBe(413);
    const before = await residentBytes();
    expect(before).toBeGreaterThan(0);
    for (const pathname of ["/contact", "/auth", "/api/newsletter", "/api/auth/sign-up/email"]) {
      for (const chunked of [false, true]) {
        const { status, ms } = await postLarge(pathname, SIXTY_MB, chunked);
        expect(status, `${pathname} chunked=${chunked}`).toBe(413);
        expect(ms, `${pathname} chunked=${chunked}`).toBeLessThan(1_000);
      }
    }
    const after = await residentBytes();
    // Eight 60 MB bodies went by; the process grew by less than one of them.
    expect(after - before).toBeLessThan(SIXTY_MB);
  }, 60_000);

  it("still reads a normal form", async () => {
    const res = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: "email=limits%40example.com",
    });
    expect(res.status).toBe(200);
  });
});

describe("finding 2: a NUL character is a 400, never a 500", () => {
  it.each([
    "/api/search?q=%00",
    "/search?q=%00",
    "/search?q=a%1Bb",
    "/admin/orders?q=%00",
    "/admin/items?q=%00",
    "/admin/users?q=%00",
    "/admin/audit?actor=%00",
    "/admin/sponsored-products?q=%00",
    "/admin/orders.csv?q=%00",
  ])("GET %s", async (pathname) => {
    const res = await fetch(`${base}${pathname}`, { headers: { cookie: adminCookie } });
    expect(res.status).toBe(400);
    // A page says what was wrong in the shop's words, not only "Bad Request".
    if (!pathname.startsWith("/api/") && !pathname.includes(".csv")) {
      expect(await res.text()).toContain("characters the shop can&#x27;t accept");
    }
  });

  // Page actions as a browser with JavaScript sends them (`.data`), resource routes as they are.
  it.each([
    ["/contact.data", "firstName=A&lastName=B&email=a%40example.com&subject=Hi&message=x%00y"],
    ["/account.data", "name=Ad%00min&phone="],
    [
      "/addresses.data",
      "intent=save&label=Home&name=A%00&phone=9876543210&line1=1+Road&city=Pune&state=Maharashtra&postalCode=411001&country=India",
    ],
    ["/api/reviews", "productId=00000000-0000-4000-8000-000000000000&rating=5&review=ok%00"],
  ])("POST %s", async (pathname, body) => {
    // No Origin header: React Router refuses a page action whose Origin isn't the address used.
    const res = await fetch(`${base}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: adminCookie },
      body,
    });
    expect(res.status).toBe(400);
  });

  it("a JSON body with NUL", async () => {
    const res = await fetch(`${base}/api/reviews`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, cookie: adminCookie },
      body: JSON.stringify({
        productId: "00000000-0000-4000-8000-000000000000",
        rating: 5,
        review: "a\u0000b",
      }),
    });
    expect(res.status).toBe(400);
  });
});

describe("finding 6: malformed paths get the shop's own page, never a stack trace", () => {
  it.each([
    ["/%", 404],
    ["/product/%E0%A4%A", 404],
    ["/uploads/%", 400],
  ])("%s", async (pathname, status) => {
    const res = await fetch(`${base}${pathname}`);
    expect(res.status).toBe(status);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const html = await res.text();
    expect(html).toContain("LayerKart");
    expect(html).not.toMatch(/URIError|at decode|node_modules|\/work\//);
  });
});

describe("finding 3: the auth library's endpoints", () => {
  it("refuses a long name at sign-up, and endpoints the shop doesn't use are not there", async () => {
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({
        name: "Click https://evil.example ".repeat(120),
        email: `long-name-${Date.now()}@example.com`,
        password: "long-name-password",
      }),
    });
    expect(signUp.status).toBe(400);
    for (const endpoint of [
      "/update-user",
      "/change-password",
      "/list-sessions",
      "/get-session",
      "/change-email",
      "/delete-user",
    ]) {
      const res = await fetch(`${base}/api/auth${endpoint}`, {
        method: endpoint === "/list-sessions" || endpoint === "/get-session" ? "GET" : "POST",
        headers: { "content-type": "application/json", origin, cookie: adminCookie },
        body:
          endpoint === "/list-sessions" || endpoint === "/get-session"
            ? undefined
            : JSON.stringify({ name: "x".repeat(100_000), image: "javascript:alert(1)" }),
      });
      expect(res.status, endpoint).toBe(404);
      expect(await res.text(), endpoint).not.toMatch(/"token"/);
    }
  });
});

describe("finding 8: signed-in pages are never cached", () => {
  it.each([
    "/orders",
    "/account",
    "/addresses",
    "/checkout",
    "/favourites",
    "/custom-printing",
    "/admin",
    "/admin/orders",
    "/admin/items",
    "/admin/users",
    "/admin/settings",
    "/",
  ])("%s", async (pathname) => {
    const res = await fetch(`${base}${pathname}`, {
      headers: { cookie: adminCookie },
      redirect: "manual",
    });
    expect(res.status, pathname).toBeLessThan(400);
    expect(res.headers.get("cache-control"), pathname).toBe("private, no-store");
  });
});
