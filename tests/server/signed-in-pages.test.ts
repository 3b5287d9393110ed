import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/adapters/db/index.server.ts";
import type { DatabaseHandle } from "~/adapters/db/types.ts";
import { products, user } from "~/db/schema.ts";
import { addFavourite } from "~/modules/favourites/favourites.server.ts";
import { insertProduct } from "../support/factories.ts";
import { freePort, type Started, startServer, waitReady } from "../support/server-process.ts";
import { createPostgresDatabase } from "../support/test-database.ts";

/*
 * What a signed-in customer's storefront page costs the database, in the built server on
 * PostgreSQL: the catalogue is read once per change (shared by every render), the customer's own
 * parts (session, name, favourites) in as few queries as possible: at most 5 per page. Counted
 * from the Server-Timing header, never timed.
 */
let dir: string;
let server: Started;
let base: string;
let created: { url: string; drop(): Promise<void> };
let database: DatabaseHandle;
let cookie: string;
const ids: string[] = [];

const get = (pathname: string) =>
  fetch(`${base}${pathname}`, { headers: { cookie, "accept-encoding": "identity" } });

const queries = (res: Response) =>
  Number(res.headers.get("server-timing")?.match(/"(\d+) queries"/)?.[1] ?? Number.NaN);

beforeAll(async () => {
  created = await createPostgresDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "lk-signed-in-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServer({
    DATA_DIR: dir,
    PORT: String(port),
    PUBLIC_URL: base,
    DATABASE_URL: created.url,
    AUTH_SECRET: "signed-in-test-secret-signed-in-test-secret",
    SEED_DEMO: "never",
    SERVER_TIMING: "true",
  });
  await waitReady(port, server.child);
  database = await openDatabase({ databaseUrl: created.url });
  for (let i = 0; i < 30; i++) {
    ids.push((await insertProduct(database.db, { name: `Signed Lotus Lamp ${i}` })).id);
  }
  const json = { "content-type": "application/json", origin: base };
  const account = { email: "signed-in-pages@example.com", password: "correct-horse-battery" };
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Meera Iyer", ...account }),
  });
  expect(signUp.status).toBe(200);
  await database.db.update(user).set({ emailVerified: true }).where(eq(user.email, account.email));
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(account),
  });
  expect(signIn.status).toBe(200);
  cookie = `${signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")}; lk_cart_count=2`;
  const [row] = await database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, account.email));
  for (const productId of ids.slice(-2)) {
    await addFavourite(database.db, row?.id as string, productId);
  }
});

afterAll(async () => {
  server?.child.kill("SIGKILL");
  await database?.close();
  await created?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("a signed-in customer's storefront pages (PostgreSQL)", () => {
  it("renders /products with their name and favourites in one query once the catalogue has been read", async () => {
    const first = await get("/products");
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const res = await get("/products");
    expect(res.headers.get("x-page-cache")).toBeNull();
    const html = await res.text();
    // The newest products first: the two favourites lead the listing.
    expect(html).toContain('aria-label="Remove Signed Lotus Lamp 29 from favourites"');
    expect(html).toContain('aria-label="Add Signed Lotus Lamp 27 to favourites"');
    expect(html).toContain("Meera Iyer");
    expect(queries(first)).toBeGreaterThan(queries(res));
    // The session, account, profile and favourites in one query (decision 0026).
    expect(queries(res)).toBe(1);
  });

  it("renders a product page in at most 2 queries once the catalogue has been read", async () => {
    const id = ids[29] as string;
    await (await get(`/product/${id}`)).arrayBuffer();
    const res = await get(`/product/${id}`);
    const html = await res.text();
    expect(html).toContain("Signed Lotus Lamp 29");
    expect(html).toContain('aria-pressed="true"');
    // Viewer with favourites, and whether they bought it with their review.
    expect(queries(res)).toBeLessThanOrEqual(2);
  });

  it("shows a change committed from another connection at once, though the catalogue is kept between renders", async () => {
    await (await get("/products")).arrayBuffer();
    await database.db
      .update(products)
      .set({ name: "Renamed Signed Lamp" })
      .where(eq(products.id, ids[29] as string));
    await expect
      .poll(async () => (await (await get("/products")).text()).includes("Renamed Signed Lamp"), {
        timeout: 2_000,
        interval: 20,
      })
      .toBe(true);
    await expect
      .poll(
        async () =>
          (await (await get(`/product/${ids[29]}`)).text()).includes("Renamed Signed Lamp"),
        { timeout: 2_000, interval: 20 },
      )
      .toBe(true);
  });
});
