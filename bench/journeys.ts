/**
 * Signed-in journeys under load: add-to-cart (POST /api/cart) and checkout (the /checkout action,
 * sandbox gateway) by N verified users (default 1,000), against the built server in production
 * mode on a free port of 127.0.0.1, on a bench data set (bench/prepare.ts: 10,000 products).
 *
 *   node bench/journeys.ts --data-dir .tmp/bench/pglite
 *   node bench/journeys.ts --data-dir .tmp/bench/postgres --database-url postgres://…/layerkart_bench_x
 *   node bench/journeys.ts --fresh pglite        # or --fresh postgres (database dropped afterwards)
 *
 * Users are made as a browser makes them: sign-up, the verification link from the e-mail in
 * DATA_DIR/outbox, sign-in (the server runs with TRUST_PROXY=true and every user has an
 * X-Forwarded-For address of its own, so Better Auth's per-address limits count each user alone).
 * Checkout: every user gets one cart line (1 unit of a stock-tracked product, up to 4 users per
 * product so orders contend for the same rows, never more users than units) and an address (the
 * /addresses action), loads /checkout for its attempt token and total, then all of them place
 * their orders at once (--checkout-concurrency at a time). Afterwards the database is checked:
 * one order per user, and every product's stock fell by exactly the units ordered.
 *
 * Options: --users 1000, --setup-concurrency 8, --connections 10 (add-to-cart), --duration 15 (s),
 * --warmup 3 (s), --checkout-concurrency 50, --count 10000 (with --fresh), --build-dir,
 * --json FILE. The data set is changed (users, carts, orders): prepare a new one to repeat.
 */

import { writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import autocannon from "autocannon";
import { simpleParser } from "mailparser";
import pg from "pg";
import { dropDatabase, parseArgs, root, startServer } from "./lib.ts";
import { prepare } from "./prepare.ts";

const args = parseArgs();
const userCount = Number(args.get("users") ?? 1000);
const setupConcurrency = Number(args.get("setup-concurrency") ?? 8);
const connections = Number(args.get("connections") ?? 10);
const duration = Number(args.get("duration") ?? 15);
const warmup = Number(args.get("warmup") ?? 3);
const checkoutConcurrency = Number(args.get("checkout-concurrency") ?? 50);
const buildDir = args.get("build-dir");
const fresh = args.get("fresh");
const password = "bench-journey-password";

type Sql = {
  query: <T>(text: string, params?: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
};

/** The data set's database, opened directly (PGlite: only while no server holds the folder). */
async function openDb(dataDir: string, databaseUrl?: string): Promise<Sql> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      query: async <T>(text: string, params?: unknown[]) =>
        (await client.query(text, params)).rows as T[],
      close: () => client.end(),
    };
  }
  const client = await PGlite.create({
    dataDir: path.resolve(root, dataDir, "pglite"),
    extensions: { pg_trgm, fuzzystrmatch },
  });
  return {
    query: async <T>(text: string, params?: unknown[]) =>
      (await client.query<T>(text, params)).rows,
    close: () => client.close(),
  };
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

type User = { email: string; ip: string; cookie: string; productId?: string };
type CheckoutForm = { addressId: string; expectedTotalPaise: string; attemptToken: string };

async function createUsers(baseUrl: string, outbox: string, tag: string) {
  const users: User[] = Array.from({ length: userCount }, (_, i) => ({
    email: `journey-${tag}-${i}@example.com`,
    ip: `10.${200 + ((i >> 16) & 31)}.${(i >> 8) & 255}.${i & 255}`,
    cookie: "",
  }));
  const headers = (u: User) => ({
    "content-type": "application/json",
    origin: baseUrl,
    "x-forwarded-for": u.ip,
  });
  const timings: Record<string, number> = {};
  let t = Date.now();
  await pool(users, setupConcurrency, async (u, i) => {
    const res = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: headers(u),
      body: JSON.stringify({ name: `Journey User ${i}`, email: u.email, password }),
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`sign-up ${u.email}: HTTP ${res.status} ${body}`);
  });
  timings.signUp = Date.now() - t;

  // The verification links, from the outbox (one .eml per message).
  t = Date.now();
  const links = new Map<string, string>();
  for (let attempt = 0; links.size < users.length && attempt < 60; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 500));
    const files = (await readdir(outbox)).filter((f) => f.endsWith(".eml"));
    await pool(files, 16, async (file) => {
      const raw = await readFile(path.join(outbox, file), "utf8");
      if (!raw.includes(`journey-${tag}-`)) return;
      const mail = await simpleParser(raw);
      const to = (Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text) ?? "";
      const link = mail.text?.match(/https?:\/\/\S*verify-email\S*/)?.[0];
      if (link) links.set(to.toLowerCase(), link);
    });
  }
  if (links.size < users.length) throw new Error(`only ${links.size} verification e-mails`);
  await pool(users, setupConcurrency * 2, async (u) => {
    const res = await fetch(links.get(u.email)!, {
      redirect: "manual",
      headers: { "x-forwarded-for": u.ip },
    });
    await res.arrayBuffer();
    if (res.status >= 400) throw new Error(`verify ${u.email}: HTTP ${res.status}`);
  });
  timings.verify = Date.now() - t;

  t = Date.now();
  await pool(users, setupConcurrency, async (u) => {
    const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: headers(u),
      body: JSON.stringify({ email: u.email, password }),
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`sign-in ${u.email}: HTTP ${res.status} ${body}`);
    u.cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  });
  timings.signIn = Date.now() - t;
  return { users, timings };
}

function addToCart(baseUrl: string, users: User[], productIds: string[], secs: number) {
  let n = 0;
  return autocannon({
    url: baseUrl,
    connections,
    duration: secs,
    requests: [
      {
        method: "POST",
        path: "/api/cart",
        setupRequest: (req) => {
          const u = users[n++ % users.length];
          const productId = productIds[Math.floor(Math.random() * productIds.length)];
          const quantity = 1 + Math.floor(Math.random() * 3);
          return {
            ...req,
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              origin: baseUrl,
              cookie: u.cookie,
              "x-forwarded-for": u.ip,
            },
            body: new URLSearchParams({
              intent: "set",
              productId,
              quantity: String(quantity),
            }).toString(),
          };
        },
      },
    ],
  });
}

const address = (i: number) => ({
  intent: "save",
  label: "Home",
  name: `Journey User ${i}`,
  line1: `${i + 1} MG Road`,
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
});

/** One cart line and an address per user, then the checkout page's form values. */
async function prepareCheckout(baseUrl: string, users: User[]): Promise<CheckoutForm[]> {
  return pool(users, setupConcurrency, async (u, i) => {
    const h = { origin: baseUrl, cookie: u.cookie, "x-forwarded-for": u.ip };
    let res = await fetch(`${baseUrl}/api/cart`, {
      method: "POST",
      headers: { ...h, "content-type": "application/json" },
      body: JSON.stringify({ intent: "set-all", lines: [{ productId: u.productId, quantity: 1 }] }),
    });
    if (!res.ok) throw new Error(`cart ${u.email}: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    res = await fetch(`${baseUrl}/addresses.data`, {
      method: "POST",
      headers: { ...h, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(address(i)).toString(),
    });
    const saved = await res.text();
    if (!res.ok || !saved.includes("saved"))
      throw new Error(`address ${u.email}: HTTP ${res.status} ${saved.slice(0, 300)}`);
    res = await fetch(`${baseUrl}/checkout`, { headers: h, redirect: "manual" });
    const html = await res.text();
    if (res.status !== 200) throw new Error(`/checkout for ${u.email}: HTTP ${res.status}`);
    const hidden = (name: string) =>
      html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? "";
    const addressId = html.match(/<option[^>]*value="([0-9a-f-]{36})"/)?.[1] ?? "";
    const form = {
      addressId,
      expectedTotalPaise: hidden("expectedTotalPaise"),
      attemptToken: hidden("attemptToken"),
    };
    if (!form.addressId || !form.expectedTotalPaise || !form.attemptToken)
      throw new Error(`/checkout for ${u.email}: form values not found`);
    return form;
  });
}

async function checkout(baseUrl: string, users: User[], forms: CheckoutForm[]) {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const started = performance.now();
  await pool(users, checkoutConcurrency, async (u, i) => {
    const t = performance.now();
    let outcome = "ok";
    try {
      const res = await fetch(`${baseUrl}/checkout.data`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: baseUrl,
          cookie: u.cookie,
          "x-forwarded-for": u.ip,
        },
        body: new URLSearchParams({ paymentMethod: "gateway", ...forms[i] }).toString(),
      });
      const body = await res.text();
      if (!res.ok || !body.includes("/sandbox/pay/")) outcome = `HTTP ${res.status}`;
      if (outcome !== "ok" && failures.size === 0)
        console.log(`  first failure: ${body.slice(0, 300)}`);
    } catch (error) {
      outcome = (error as Error).message;
    }
    latencies.push(performance.now() - t);
    if (outcome !== "ok") failures.set(outcome, (failures.get(outcome) ?? 0) + 1);
  });
  const wall = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  return {
    orders: users.length - errors,
    ordersPerSecond: Math.round(((users.length - errors) / wall) * 1000 * 10) / 10,
    wallSeconds: Math.round(wall / 100) / 10,
    p50: Math.round(percentile(latencies, 50)),
    p97_5: Math.round(percentile(latencies, 97.5)),
    p99: Math.round(percentile(latencies, 99)),
    max: Math.round(latencies.at(-1) ?? 0),
    errors,
    failures: Object.fromEntries(failures),
  };
}

/** Stock-tracked products with units for `n` users, up to 4 users a product. */
function assignProducts(stock: Array<{ id: string; stock_count: number }>, n: number): string[] {
  const out: string[] = [];
  for (const p of stock) {
    for (let k = 0; k < Math.min(4, p.stock_count) && out.length < n; k++) out.push(p.id);
    if (out.length >= n) break;
  }
  if (out.length < n) throw new Error(`stock for only ${out.length} of ${n} users`);
  // Shuffled, so the users of one product don't check out one after another.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function run(dataDir: string, databaseUrl: string | undefined) {
  const db = databaseUrl ? "PostgreSQL" : "PGlite";
  const tag = Math.random().toString(36).slice(2, 8);
  // Before the server starts (PGlite: one process at a time): the catalogue and stock.
  let sql = await openDb(dataDir, databaseUrl);
  const active = await sql.query<{ id: string }>(
    "select id from products where is_active and in_stock and price_paise > 0",
  );
  const stocked = await sql.query<{ id: string; stock_count: number }>(
    "select id, stock_count from products where is_active and in_stock and price_paise > 0 and stock_count > 0 order by random()",
  );
  await sql.close();
  const productIds = active.map((r) => r.id);
  const assigned = assignProducts(stocked, userCount);
  const stockBefore = new Map(stocked.map((p) => [p.id, p.stock_count]));

  const loads: string[] = [load()];
  const server = await startServer({
    dataDir,
    databaseUrl,
    buildDir,
    extraEnv: { TRUST_PROXY: "true" },
  });
  console.log(`${db}: server pid ${server.pid} at ${server.baseUrl}; load average ${load()}`);
  let result: Record<string, unknown>;
  try {
    const t0 = Date.now();
    const { users, timings } = await createUsers(
      server.baseUrl,
      path.resolve(root, dataDir, "outbox"),
      tag,
    );
    const setupSeconds = (Date.now() - t0) / 1000;
    console.log(
      `${users.length} verified, signed-in users in ${setupSeconds.toFixed(1)} s (sign-up ${seconds(timings.signUp)} s, e-mail links + verify ${seconds(timings.verify)} s, sign-in ${seconds(timings.signIn)} s; concurrency ${setupConcurrency}); load average ${load()}`,
    );
    loads.push(load());

    if (warmup > 0) await addToCart(server.baseUrl, users, productIds, warmup);
    const r = await addToCart(server.baseUrl, users, productIds, duration);
    const cart = {
      requestsPerSecond: Math.round(r.requests.average),
      p50: r.latency.p50,
      p97_5: r.latency.p97_5,
      p99: r.latency.p99,
      max: r.latency.max,
      requests: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
    loads.push(load());
    console.log(
      `add-to-cart: ${cart.requestsPerSecond} req/s, p50 ${cart.p50} ms, p97.5 ${cart.p97_5} ms, p99 ${cart.p99} ms, max ${cart.max} ms, ${cart.requests} requests, non-2xx ${cart.non2xx}, errors ${cart.errors}; load average ${load()}`,
    );

    users.forEach((u, i) => {
      u.productId = assigned[i];
    });
    const t1 = Date.now();
    const forms = await prepareCheckout(server.baseUrl, users);
    console.log(
      `checkout set-up (cart line, address, /checkout page per user): ${((Date.now() - t1) / 1000).toFixed(1)} s`,
    );
    const order = await checkout(server.baseUrl, users, forms);
    loads.push(load());
    console.log(
      `checkout: ${order.orders} orders in ${order.wallSeconds} s = ${order.ordersPerSecond} orders/s, p50 ${order.p50} ms, p97.5 ${order.p97_5} ms, p99 ${order.p99} ms, max ${order.max} ms, errors ${order.errors} ${JSON.stringify(order.failures)}; load average ${load()}`,
    );
    result = { db, users: users.length, setupSeconds, timings, cart, order };
  } finally {
    await server.stop();
  }

  // Afterwards: one order per user, and stock fell by exactly what was ordered.
  sql = await openDb(dataDir, databaseUrl);
  try {
    const perUser = await sql.query<{ email: string; orders: number }>(
      `select u.email, count(o.id)::int as orders from "user" u left join orders o on o.user_id = u.id
       where u.email like $1 group by u.email`,
      [`journey-${tag}-%`],
    );
    const wrong = perUser.filter((r) => r.orders !== 1);
    const ids = [...new Set(assigned)];
    const after = await sql.query<{ id: string; stock_count: number; ordered: number }>(
      `select p.id, p.stock_count, coalesce((select sum(oi.quantity) from order_items oi
         join orders o on o.id = oi.order_id join "user" u on u.id = o.user_id
         where oi.product_id = p.id and u.email like $2), 0)::int as ordered
       from products p where p.id = any($1::uuid[])`,
      [ids, `journey-${tag}-%`],
    );
    const expectedUnits = new Map<string, number>();
    for (const id of assigned) expectedUnits.set(id, (expectedUnits.get(id) ?? 0) + 1);
    const stockWrong = after.filter(
      (p) =>
        p.stock_count !== (stockBefore.get(p.id) ?? 0) - p.ordered ||
        p.ordered !== expectedUnits.get(p.id) ||
        p.stock_count < 0,
    );
    const check = {
      usersChecked: perUser.length,
      usersWithoutExactlyOneOrder: wrong.length,
      productsChecked: after.length,
      productsWithInconsistentStock: stockWrong.length,
    };
    console.log(
      `database check: ${perUser.length} users, ${wrong.length} without exactly one order${wrong.length ? ` (e.g. ${JSON.stringify(wrong.slice(0, 3))})` : ""}; ${after.length} products, ${stockWrong.length} with stock ≠ before − ordered or ordered ≠ assigned${stockWrong.length ? ` (e.g. ${JSON.stringify(stockWrong.slice(0, 3))})` : ""}`,
    );
    result.check = check;
  } finally {
    await sql.close();
  }
  result.loadAverages = loads;
  result.cpu = `${os.cpus()[0]?.model} × ${os.cpus().length}`;
  return result;
}

async function main() {
  let dataDir = args.get("data-dir");
  let databaseUrl = args.get("database-url") ?? process.env.DATABASE_URL ?? undefined;
  let dropAfter: string | undefined;
  if (fresh) {
    if (fresh !== "pglite" && fresh !== "postgres") throw new Error("--fresh pglite|postgres");
    const prepared = await prepare({
      db: fresh,
      dataDir: dataDir ?? `.tmp/bench/${fresh}-journeys`,
      count: Number(args.get("count") ?? 10_000),
      buildDir,
    });
    dataDir = prepared.dataDir;
    databaseUrl = prepared.databaseUrl;
    dropAfter = prepared.databaseUrl;
  }
  if (!dataDir)
    throw new Error("give --data-dir DIR (and --database-url for PostgreSQL) or --fresh");
  try {
    const result = await run(dataDir, databaseUrl);
    const jsonFile = args.get("json");
    if (jsonFile) writeFileSync(path.resolve(root, jsonFile), JSON.stringify(result, null, 2));
  } finally {
    if (dropAfter) {
      await dropDatabase(dropAfter);
      console.log("dropped the bench database");
    }
  }
}

await main();
