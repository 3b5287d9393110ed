import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exited,
  freePort,
  projectRoot,
  type Started,
  startServer,
  waitReady,
} from "../support/server-process.ts";

/*
 * The built server as a process: configuration errors, headers, persistence across a restart on
 * the embedded database, and shutdown on SIGTERM. Needs `npm run build` first (npm test does it).
 */
describe("configuration errors stop the process with a message naming the variable", () => {
  it.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "mysql://nope"],
    ["PAYMENT_PROVIDER", "paypal"],
    // The demo catalogue (with its known admin) in production, not explicitly allowed.
    ["SEED_DEMO", "auto"],
  ])("%s=%s", async (name, value) => {
    const dir = await mkdtemp(path.join(tmpdir(), "lk-config-"));
    try {
      const s = startServer({
        DATA_DIR: dir,
        PORT: "3999",
        AUTH_SECRET: "x".repeat(40),
        [name]: value,
      });
      expect(await exited(s.child)).toBe(1);
      expect(s.output()).toContain(name);
      expect(s.output()).toContain("Invalid configuration");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("production without AUTH_SECRET", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lk-config-"));
    try {
      const s = startServer({ DATA_DIR: dir, PORT: "3999", AUTH_SECRET: "" });
      expect(await exited(s.child)).toBe(1);
      expect(s.output()).toContain("AUTH_SECRET");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("npm run shop's start (scripts/shop.ts): the demonstration shop in production mode", () => {
  it("starts with nothing set, says it runs in production mode and serves the demo shop", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lk-shop-"));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, PORT: String(port) };
    for (const name of [
      "NODE_ENV",
      "AUTH_SECRET",
      "SEED_DEMO",
      "ALLOW_DEMO_SEED",
      "ALLOW_SANDBOX_PAYMENTS",
      "DATABASE_URL",
      "PUBLIC_URL",
    ]) {
      delete env[name];
    }
    env.HOST = "127.0.0.1";
    env.DEMO_ADMIN_PASSWORD = "shop-test-admin-password";
    const child = spawn(process.execPath, [path.join(projectRoot, "scripts/shop.ts")], {
      cwd: projectRoot,
      env,
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    try {
      await waitReady(port, child, 80_000);
      expect(out).toContain("listening in production mode");
      expect(out).toMatch(/"demonstration shop".*"sandboxPayments":true/);
      expect(out).not.toContain("not in production mode");
      // The generated secret is kept for the next start, readable by the shop's user only.
      expect((await stat(path.join(dir, "auth-secret"))).mode & 0o077).toBe(0);
      const page = await fetch(`http://127.0.0.1:${port}/products`);
      expect(page.status).toBe(200);
      // The demo catalogue is there.
      expect(await page.text()).toMatch(/<a [^>]*href="\/product\//);
    } finally {
      child.kill("SIGTERM");
      await exited(child);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a running shop on the embedded database", () => {
  let dir: string;
  let server: Started;
  let base: string;
  const env = () => ({
    DATA_DIR: dir,
    PORT: String(server?.port ?? 0),
    AUTH_SECRET: "server-test-secret-server-test-secret-123",
    SEED_DEMO: "never",
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "lk-server-"));
    const port = await freePort();
    server = startServer({ ...env(), PORT: String(port) });
    base = `http://127.0.0.1:${port}`;
    await waitReady(port, server.child);
  });
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("compresses documents and sets security headers and a request id", async () => {
    const res = await fetch(`${base}/`, { headers: { "accept-encoding": "br, gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toMatch(/br|gzip/);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    expect(res.headers.get("x-powered-by")).toBeNull();
    // Plain http: no HSTS (a browser would pin https the shop may not have).
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("serves uploads, and a size variant not made yet as the stored image, uncached", async () => {
    const folder = path.join(dir, "uploads/products/p1");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "1700000000_a.webp"), Buffer.from("RIFF-webp-bytes"));
    const main = await fetch(`${base}/uploads/products/p1/1700000000_a.webp`);
    expect(main.status).toBe(200);
    expect(main.headers.get("cache-control")).toMatch(/immutable/);
    const variant = await fetch(`${base}/uploads/products/p1/1700000000_a.webp.w320.avif`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("cache-control")).toBe("no-cache");
    expect(await variant.text()).toBe("RIFF-webp-bytes");
    expect((await fetch(`${base}/uploads/products/p1/missing.webp`)).status).toBe(404);
    expect((await fetch(`${base}/uploads/products/p1/missing.webp.w320.avif`)).status).toBe(404);
    expect((await fetch(`${base}/uploads/%2e%2e/auth-secret`)).status).toBe(404);
  });

  it("serves hashed assets with immutable caching", async () => {
    const html = await (await fetch(`${base}/`)).text();
    const asset = html.match(/\/assets\/[\w.-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const res = await fetch(`${base}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("cache-control")).toContain("max-age=31536000");
  });

  it("answers 404 for unknown pages and missing files", async () => {
    const page = await fetch(`${base}/no-such-page`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Oops! Page not found");
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
    // A path that tries to climb out of the uploads folder is refused.
    const traversal = await fetch(`${base}/uploads/..%2f..%2fauth-secret`);
    expect([403, 404]).toContain(traversal.status);
    expect(await traversal.text()).not.toContain("server-test-secret");
  });

  it("refuses state-changing requests from other sites", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const body = "email=reader%40example.com";
    const crossSite = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: { ...form, "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      body,
    });
    expect(crossSite.status).toBe(403);
    const sibling = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: { ...form, "sec-fetch-site": "same-site", origin: "https://shop.evil.example" },
      body,
    });
    expect(sibling.status).toBe(403);
    const sameOrigin = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: {
        ...form,
        "sec-fetch-site": "same-origin",
        origin: `http://localhost:${server.port}`,
      },
      body,
    });
    expect(sameOrigin.status).toBe(200);
    // Without PUBLIC_URL the shop is whatever address it was reached at: a browser that sends
    // only an Origin (no Sec-Fetch-Site) from the page at 127.0.0.1 is the shop's own; a page at
    // another address is not.
    const ownAddress = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: { ...form, origin: base },
      body: "email=own-address%40example.com",
    });
    expect(ownAddress.status).toBe(200);
    const otherAddress = await fetch(`${base}/api/newsletter`, {
      method: "POST",
      headers: { ...form, origin: `http://192.168.1.20:${server.port}` },
      body: "email=other-address%40example.com",
    });
    expect(otherAddress.status).toBe(403);
  });

  it("answers a body that isn't a form with a 4xx, not a 500", async () => {
    for (const path of [
      "/api/newsletter",
      "/api/favourites",
      "/api/promotion-interest",
      "/contact",
    ]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "x@example.com" }),
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it("never redirects off the site after a theme change", async () => {
    for (const to of [
      "/\\evil.example",
      "//evil.example",
      "/.//evil.example",
      "https://evil.example",
    ]) {
      const res = await fetch(`${base}/theme`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ theme: "dark", redirectTo: to }),
      });
      const location = res.headers.get("location") ?? "";
      expect(
        location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\"),
        to,
      ).toBe(true);
    }
  });

  it("keeps data across a restart and stops within 5 seconds of SIGTERM", async () => {
    const email = `restart-${Date.now()}@example.com`;
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
      body: JSON.stringify({ name: "Restart Test", email, password: "restart-password" }),
    });
    expect(signUp.status).toBe(200);
    expect((await readdir(path.join(dir, "outbox"))).length).toBe(1);

    const stoppedAt = Date.now();
    server.child.kill("SIGTERM");
    expect(await exited(server.child)).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);

    server = startServer({ ...env(), PORT: String(server.port) });
    await waitReady(server.port, server.child);
    // The account is still there: signing in is refused only because it isn't verified yet.
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
      body: JSON.stringify({ email, password: "restart-password" }),
    });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });
  });
});

describe("behind HTTPS", () => {
  it("sends HSTS and marks the session cookie Secure when the shop's public address is https", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "lk-server-https-"));
    const port = await freePort();
    const server = startServer({
      DATA_DIR: dir,
      PORT: String(port),
      PUBLIC_URL: "https://shop.example.com",
      AUTH_SECRET: "server-test-secret-server-test-secret-123",
      SEED_DEMO: "auto",
      ALLOW_DEMO_SEED: "true",
      DEMO_ADMIN_PASSWORD: "https-admin-password",
    });
    try {
      await waitReady(port, server.child);
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
      // The TLS-terminating proxy forwards the request; the session cookie must be Secure.
      const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://shop.example.com" },
        body: JSON.stringify({ email: "admin@example.com", password: "https-admin-password" }),
      });
      expect(signIn.status).toBe(200);
      const cookies = signIn.headers.getSetCookie();
      const session = cookies.find((c) => c.includes("session_token="));
      expect(session).toMatch(/^__Secure-/);
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
    } finally {
      server.child.kill("SIGKILL");
      await exited(server.child);
      await rm(dir, { recursive: true, force: true });
    }
    // The plain-http shop above sends none.
  }, 90_000);
});
