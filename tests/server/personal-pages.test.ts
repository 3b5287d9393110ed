import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/adapters/db/index.server.ts";
import type { DatabaseHandle } from "~/adapters/db/types.ts";
import { reviews, session, user } from "~/db/schema.ts";
import { addFavourite } from "~/modules/favourites/favourites.server.ts";
import { insertProduct } from "../support/factories.ts";
import { freePort, type Started, startServer, waitReady } from "../support/server-process.ts";
import { createPostgresDatabase } from "../support/test-database.ts";

/*
 * Decision 0026: a signed-in customer's storefront page comes from the visitors' page cache,
 * personalised. Its markup must be exactly the full render's for that customer (scripts and
 * nonces aside), one customer's name or favourites must never reach anyone else, and anything the
 * one-query path can't judge (a revoked session, a product they reviewed) is rendered in full.
 */
let dir: string;
let server: Started;
let base: string;
let created: { url: string; drop(): Promise<void> };
let database: DatabaseHandle;
const ids: string[] = [];
const customers: Record<"meera" | "ravi", { cookie: string; id: string }> = {
  meera: { cookie: "", id: "" },
  ravi: { cookie: "", id: "" },
};

/** Any cookie the page cache doesn't know: the page is rendered in full, as before. */
const FULL = "; lk_full_render=1";

async function get(pathname: string, cookie?: string) {
  const res = await fetch(`${base}${pathname}`, {
    headers: { "accept-encoding": "br", ...(cookie ? { cookie } : {}) },
  });
  return { res, html: await res.text() };
}

/** The markup: scripts (hydration data, the personal data) and nonces aside. */
const markup = (html: string) =>
  html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/ nonce="[^"]*"/g, "");

/** A personalised answer for the customer, once the visitors' page is stored. */
async function personal(pathname: string, cookie: string) {
  let last = await get(pathname, cookie);
  for (let i = 0; i < 100 && last.res.headers.get("x-page-cache") !== "personal"; i++) {
    // A visitor's request stores the page (or a signed-in miss has it rendered in the background).
    await (await fetch(`${base}${pathname}`, { headers: { "accept-encoding": "br" } })).text();
    await new Promise((r) => setTimeout(r, 50));
    last = await get(pathname, cookie);
  }
  expect(last.res.headers.get("x-page-cache")).toBe("personal");
  return last;
}

async function signUp(name: string, email: string) {
  const json = { "content-type": "application/json", origin: base };
  const account = { email, password: "correct-horse-battery" };
  const up = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name, ...account }),
  });
  expect(up.status).toBe(200);
  await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(account),
  });
  expect(signIn.status).toBe(200);
  const cookie = `${signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")}; lk_cart_count=2`;
  const [row] = await database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return { cookie, id: row?.id as string };
}

beforeAll(async () => {
  created = await createPostgresDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "lk-personal-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServer({
    DATA_DIR: dir,
    PORT: String(port),
    PUBLIC_URL: base,
    DATABASE_URL: created.url,
    AUTH_SECRET: "personal-pages-test-secret-personal-pages",
    SEED_DEMO: "never",
    SERVER_TIMING: "true",
  });
  await waitReady(port, server.child);
  database = await openDatabase({ databaseUrl: created.url });
  for (let i = 0; i < 12; i++) {
    ids.push((await insertProduct(database.db, { name: `Personal Lamp ${i} & Shade` })).id);
  }
  customers.meera = await signUp("Meera Iyer", "meera-personal@example.com");
  customers.ravi = await signUp("Ravi Kumar", "ravi-personal@example.com");
  // Meera's favourites lead the listing (newest first); one is further down, one not shown.
  for (const id of [ids[11], ids[9], ids[0]]) {
    await addFavourite(database.db, customers.meera.id, id as string);
  }
}, 120_000);

afterAll(async () => {
  server?.child.kill("SIGKILL");
  await database?.close();
  await created?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("signed-in pages from the page cache (PostgreSQL)", () => {
  for (const [label, pathname] of [
    ["/products", "/products"],
    ["the home page", "/"],
    ["a favourite's product page", () => `/product/${ids[11]}`],
    ["another product page", () => `/product/${ids[5]}`],
  ] as const) {
    it(`serves ${label} personalised, with the markup of a full render, in one query`, async () => {
      const p = typeof pathname === "function" ? pathname() : pathname;
      for (const who of ["meera", "ravi"] as const) {
        const { cookie } = customers[who];
        const { res, html } = await personal(p, cookie);
        const full = await get(p, cookie + FULL);
        expect(full.res.headers.get("x-page-cache")).toBeNull();
        expect(markup(html)).toBe(markup(full.html));
        expect(res.headers.get("cache-control")).toBe("private, no-store");
        expect(res.headers.get("cache-control")).toBe(full.res.headers.get("cache-control"));
        expect(res.headers.get("content-type")).toBe(full.res.headers.get("content-type"));
        expect(res.headers.get("server-timing")).toContain('"1 queries"');
        expect(html).toContain('<script type="application/json" id="lk-personal">');
      }
    });
  }

  it("fills Meera's hearts and names her, and never shows her to Ravi or a visitor", async () => {
    const meera = await personal("/products", customers.meera.cookie);
    expect(meera.html).toContain('aria-label="Account: Meera Iyer"');
    expect(meera.html).toContain(
      'aria-label="Remove Personal Lamp 11 &amp; Shade from favourites" data-favourite-id',
    );
    expect(meera.html).toContain('aria-label="Add Personal Lamp 10 &amp; Shade to favourites"');
    expect(meera.html).toContain(
      '"viewer":{"name":"Meera Iyer","email":"meera-personal@example.com"}',
    );
    const ravi = await personal("/products", customers.ravi.cookie);
    const visitor = await get("/products", "lk_cart_count=2");
    expect(visitor.res.headers.get("x-page-cache")).toBe("hit");
    for (const other of [ravi.html, visitor.html]) {
      expect(other).not.toContain("Meera");
      expect(other).not.toContain("meera-personal@example.com");
      expect(other).not.toContain('aria-pressed="true"');
    }
    expect(visitor.html).not.toContain("Ravi");
    expect(visitor.html).not.toContain("lk-personal");
    expect(visitor.html).toContain('aria-label="Sign in"');
  });

  it("renders in full for a revoked session: Better Auth answers nobody", async () => {
    const gone = await signUp("Gone Customer", "gone-personal@example.com");
    await personal("/products", gone.cookie);
    await database.db.delete(session).where(eq(session.userId, gone.id));
    const { res, html } = await get("/products", gone.cookie);
    expect(res.headers.get("x-page-cache")).not.toBe("personal");
    expect(html).not.toContain("Gone Customer");
    expect(html).toContain('aria-label="Sign in"');
  });

  it("renders a product page in full for a customer who reviewed it (their review button)", async () => {
    const p = `/product/${ids[3]}`;
    await personal(p, customers.ravi.cookie);
    const before = (await database.db.select().from(reviews)).length;
    expect(before).toBe(0);
    await database.db
      .insert(reviews)
      .values({ userId: customers.ravi.id, productId: ids[3] as string, rating: 5 });
    // The review empties the cache; once the visitors' page is stored again, Meera (who didn't
    // review it) is answered from it, Ravi rendered in full.
    await personal(p, customers.meera.cookie);
    const { res, html } = await get(p, customers.ravi.cookie);
    expect(res.headers.get("x-page-cache")).toBeNull();
    expect(html).toContain("Ravi Kumar");
  });

  it("renders in full with a flash message or another cookie", async () => {
    await personal("/products", customers.meera.cookie);
    const flash = await get("/products", `${customers.meera.cookie}; lk_flash=x`);
    expect(flash.res.headers.get("x-page-cache")).toBeNull();
  });
});
