/**
 * Reliability scenarios (docs/reliability.md), against the built server as a process and over
 * HTTP only, like browsers and a payment gateway; the results are then read with SQL.
 *
 *   kill-checkout  customers submit checkout concurrently, the server is killed with SIGKILL while
 *                  they are in flight, restarted on the same data, everyone submits the same
 *                  checkout again and pays: no duplicate, no lost order, stock adds up, paid once.
 *   kill-webhook   pending orders get their success notifications concurrently, the server is
 *                  killed mid-way (several rounds), restarted, and the gateway retries them all:
 *                  paid once, one payment event, fulfilled once (cart lines, confirmation e-mail).
 *   pg-restart     steady load on a private PostgreSQL cluster, restarted (and stopped for 5 s)
 *                  under it: errors, time to recover, /readyz, same app process.
 *   race           the success notification before, after and concurrently with the return page's
 *                  status check, and around the reconciler's check: one fulfilment per order.
 *
 * node bench/reliability.ts --scenario kill-checkout|kill-webhook|pg-restart|race|all
 *   [--db pglite|postgres|both] [--customers 30] [--orders 40] [--kills 3] [--race-orders 10]
 *   [--build-dir .tmp/build-rel] [--postgres-admin-url postgres://…/postgres] [--keep]
 *
 * Needs a build: `BUILD_DIR=.tmp/build-rel npx react-router build`. PostgreSQL runs (kill-checkout,
 * kill-webhook, race) use a throw-away database on 127.0.0.1:5432; pg-restart starts its own
 * cluster (Debian's binaries, as the postgres user) on a free port and deletes it afterwards.
 * Data folders live in .tmp/reliability/ (deleted afterwards unless --keep), each server process's
 * output in .tmp/reliability/logs/. Exits with 1 when an invariant fails; known gaps are reported
 * without failing.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { createWriteStream, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { chown, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { simpleParser } from "mailparser";
import pg from "pg";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import {
  createDatabase,
  defaultPostgresAdminUrl,
  dropDatabase,
  freePort,
  parseArgs,
  productIds,
  type RunningServer,
  root,
  startServer,
} from "./lib.ts";

const args = parseArgs();
const scenarioArg = args.get("scenario") ?? "all";
const dbArg = args.get("db") ?? "both";
const buildDir = args.get("build-dir") ?? ".tmp/build-rel";
const keep = args.has("keep");
const customerCount = Number(args.get("customers") ?? 30);
const webhookOrderCount = Number(args.get("orders") ?? 40);
const killRounds = Number(args.get("kills") ?? 3);
const raceOrdersPerVariant = Number(args.get("race-orders") ?? 10);
const adminUrl = args.get("postgres-admin-url") ?? defaultPostgresAdminUrl;

const SCENARIOS = ["kill-checkout", "kill-webhook", "pg-restart", "race"] as const;
type Scenario = (typeof SCENARIOS)[number];
type DbKind = "pglite" | "postgres";

/** Fixed, so sessions survive restarts and this script can sign sandbox notifications itself. */
const AUTH_SECRET = "reliability-secret-reliability-secret-0123";
/** app/adapters/payments/sandbox.server.ts: SANDBOX_SIGNATURE_HEADER and signSandboxNotification. */
const SIGNATURE_HEADER = "x-sandbox-signature";
const signNotification = (body: string) =>
  createHmac("sha256", `sandbox-webhook:${AUTH_SECRET}`).update(body).digest("hex");
/** Marks this script's own notifications, which the front proxy never holds back. */
const OWN_DELIVERY_HEADER = "x-reliability-delivery";

const runId = Date.now().toString(36);
const workRoot = ".tmp/reliability";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

// ---- report -------------------------------------------------------------------------------------

type CheckResult = { name: string; ok: boolean; detail: string };

class Report {
  readonly title: string;
  readonly checks: CheckResult[] = [];
  readonly gaps: string[] = [];
  constructor(title: string) {
    this.title = title;
    console.log(`\n=== ${title} ===`);
  }
  info(text: string) {
    console.log(`  ${text}`);
  }
  check(name: string, ok: boolean, detail = "") {
    this.checks.push({ name, ok, detail });
    console.log(`  [${ok ? "PASS" : "FAIL"}] ${name}${detail ? `: ${detail}` : ""}`);
  }
  gap(text: string) {
    this.gaps.push(text);
    console.log(`  [GAP ] ${text}`);
  }
  get failed() {
    return this.checks.some((c) => !c.ok);
  }
}

/** "a, b, c (+N more)" for a list in a report line. */
function few(items: string[], max = 6): string {
  if (items.length <= max) return items.join(", ");
  return `${items.slice(0, max).join(", ")} (+${items.length - max} more)`;
}

function countBy<T>(items: T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ×${n}`)
      .join(", ") || "none"
  );
}

async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}

const errorText = (error: unknown) => {
  const e = error as { cause?: { code?: string; message?: string }; message?: string };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
};

// ---- outbox ---------------------------------------------------------------------------------------

type Mail = { file: string; to: string; subject: string; text: string; complete: boolean };

/** The shop's outbox folder ($DATA_DIR/outbox): one .eml file per e-mail sent. */
class Outbox {
  readonly dir: string;
  private cache = new Map<string, Mail>();
  constructor(dir: string) {
    this.dir = dir;
  }
  async all(): Promise<Mail[]> {
    let files: string[] = [];
    try {
      files = (await readdir(this.dir)).filter((f) => f.endsWith(".eml")).sort();
    } catch {
      return [];
    }
    const out: Mail[] = [];
    for (const file of files) {
      let mail = this.cache.get(file);
      if (!mail) {
        const raw = await readFile(path.join(this.dir, file));
        const parsed = await simpleParser(raw).catch(() => null);
        const to = Array.isArray(parsed?.to) ? parsed?.to[0]?.text : parsed?.to?.text;
        const text = parsed?.text ?? "";
        // A file cut short (a kill while it was written) lacks its closing MIME boundary.
        const source = raw.toString("latin1");
        const boundary = source.match(/boundary="?([^";\r\n]+)"?/)?.[1];
        mail = {
          file,
          to: (to ?? "").toLowerCase(),
          subject: parsed?.subject ?? "",
          text,
          complete:
            Boolean(parsed?.subject) &&
            (boundary ? source.includes(`--${boundary}--`) : text.length > 0),
        };
        // Only finished files are remembered (one may be half-written while we read).
        if (mail.complete) this.cache.set(file, mail);
      }
      out.push(mail);
    }
    return out;
  }
  async waitFor(to: string, subject: RegExp, timeoutMs = 20_000): Promise<Mail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.all()).find(
        (m) => m.complete && m.to.includes(to.toLowerCase()) && subject.test(m.subject),
      );
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${to} matching ${subject}`);
      await sleep(100);
    }
  }
  /** Whole confirmation e-mails per order number ("Order ORD-… confirmed"), and files cut short. */
  async confirmations(): Promise<{ byOrder: Map<string, number>; broken: string[] }> {
    const byOrder = new Map<string, number>();
    const broken: string[] = [];
    for (const m of await this.all()) {
      // A file cut short is no e-mail: it is listed, not counted.
      if (!m.complete) broken.push(`${m.file}${m.subject ? ` ("${m.subject}")` : ""}`);
      const number = m.subject.match(/^Order (ORD-\d{8}-\d{4}) confirmed$/)?.[1];
      if (number && m.complete) byOrder.set(number, (byOrder.get(number) ?? 0) + 1);
    }
    return { byOrder, broken };
  }
}

// ---- front proxy --------------------------------------------------------------------------------

type HeldNotification = { transactionId: string; body: string; signature: string };

/**
 * What a load balancer is to the shop: the fixed PUBLIC_URL (so links, payment redirects and the
 * sandbox's callback URL stay valid across restarts) in front of whichever server process runs.
 * While the server is down it answers 502. With `hold` on, it keeps the sandbox gateway's own
 * notifications back (answering 503, as a network failure would) so the script can deliver them
 * later, in the order a scenario needs.
 */
class FrontProxy {
  port = 0;
  upstream = 0;
  hold = false;
  readonly held = new Map<string, HeldNotification>();
  private agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  private server = http.createServer((req, res) => this.handle(req, res));

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen() {
    this.port = await freePort();
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    if (
      this.hold &&
      req.method === "POST" &&
      req.url === "/api/payment-webhook" &&
      !req.headers[OWN_DELIVERY_HEADER]
    ) {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString();
        try {
          const { transactionId } = JSON.parse(body) as { transactionId: string };
          const signature = String(req.headers[SIGNATURE_HEADER] ?? "");
          this.held.set(transactionId, { transactionId, body, signature });
        } catch {
          // not a sandbox notification: dropped
        }
        res.writeHead(503, { "content-type": "text/plain" }).end("held back by the front proxy");
      });
      return;
    }
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: this.upstream,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent: this.agent,
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.rawHeaders);
        upRes.pipe(res);
        upRes.on("error", () => res.destroy());
        upRes.on("aborted", () => res.destroy());
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { "content-type": "text/plain" }).end(`upstream: ${error.code}`);
    });
    req.pipe(upstream);
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }
}

// ---- SQL ----------------------------------------------------------------------------------------

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

async function withSql<T>(
  target: { databaseUrl?: string; dataDir: string },
  fn: (q: Query) => Promise<T>,
): Promise<T> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await fn(async <R>(text: string, params?: unknown[]) => {
        const result = await client.query(text, params);
        return result.rows as R[];
      });
    } finally {
      await client.end();
    }
  }
  // PGlite: one process per folder, so only while the server is stopped.
  const db = await PGlite.create({
    dataDir: path.join(root, target.dataDir, "pglite"),
    extensions: { pg_trgm, fuzzystrmatch },
  });
  try {
    return await fn(async <R>(text: string, params?: unknown[]) => {
      const result = await db.query<R>(text, params);
      return result.rows;
    });
  } finally {
    await db.close();
  }
}

type OrderRow = {
  id: string;
  order_number: string;
  user_id: string;
  status: string;
  payment_status: string;
  payment_transaction_id: string | null;
  total_paise: number;
  paid_at: Date | null;
  fulfilled_at: Date | null;
  stock_released_at: Date | null;
  idempotency_key: string | null;
  notes: string | null;
  created_at: Date;
};

type Snapshot = {
  users: Array<{ id: string; email: string }>;
  orders: OrderRow[];
  items: Array<{ order_id: string; product_id: string | null; quantity: number }>;
  products: Array<{ id: string; stock_count: number | null }>;
  events: Array<{
    order_id: string | null;
    event_id: string;
    transaction_id: string;
    state: string;
    outcome: string;
  }>;
  cart: Array<{ user_id: string; product_id: string; quantity: number }>;
  sandbox: Array<{ transaction_id: string; state: string }>;
};

function snapshot(target: { databaseUrl?: string; dataDir: string }): Promise<Snapshot> {
  return withSql(target, async (q) => ({
    users: await q(`select id, email from "user"`),
    orders: await q(
      `select id, order_number, user_id, status, payment_status, payment_transaction_id,
              total_paise, paid_at, fulfilled_at, stock_released_at, idempotency_key, notes,
              created_at
         from orders`,
    ),
    items: await q(`select order_id, product_id, quantity from order_items`),
    products: await q(`select id, stock_count from products`),
    events: await q(
      `select order_id, event_id, transaction_id, state, outcome from payment_events`,
    ),
    cart: await q(`select user_id, product_id, quantity from cart_items`),
    sandbox: await q(`select transaction_id, state from sandbox_payments`),
  }));
}

// ---- the shop under test ------------------------------------------------------------------------

/** A data folder (and for PostgreSQL a throw-away database) with the server behind the proxy. */
class Shop {
  readonly kind: DbKind;
  readonly dataDir: string;
  readonly proxy = new FrontProxy();
  readonly outbox: Outbox;
  databaseUrl?: string;
  server: RunningServer | null = null;
  /** error-level log lines per server process (index = start number). */
  readonly errorLines: string[][] = [];
  /** Server processes that ended without this script stopping or killing them. */
  readonly unexpectedExits: string[] = [];
  /** Each server process's output goes to `${logPrefix}-N.log` (kept under .tmp/reliability/logs). */
  logPrefix = "";
  private expectingExit = false;

  private constructor(kind: DbKind, dataDir: string) {
    this.kind = kind;
    this.dataDir = dataDir;
    this.outbox = new Outbox(path.join(root, dataDir, "outbox"));
  }

  static async create(kind: DbKind, name: string): Promise<Shop> {
    const dataDir = path.join(workRoot, `${name}-${kind}`);
    await rm(path.join(root, dataDir), { recursive: true, force: true });
    await mkdir(path.join(root, dataDir), { recursive: true });
    const shop = new Shop(kind, dataDir);
    shop.logPrefix = path.join(root, workRoot, "logs", `${runId}-${name}-${kind}`);
    await mkdir(path.dirname(shop.logPrefix), { recursive: true });
    if (kind === "postgres") shop.databaseUrl = await createDatabase(adminUrl);
    await shop.proxy.listen();
    return shop;
  }

  get publicUrl() {
    return this.proxy.url;
  }

  /** Starts the server (migrations, and with seed the demo catalogue); returns ms until ready. */
  async start(seed = false): Promise<number> {
    const started = performance.now();
    const server = await startServer({
      buildDir,
      dataDir: this.dataDir,
      databaseUrl: this.databaseUrl,
      seedDemo: seed ? "auto" : "never",
      logLevel: "warning",
      extraEnv: {
        PUBLIC_URL: this.proxy.url,
        AUTH_SECRET,
        // Each simulated customer sends its own X-Forwarded-For (auth rate limits are per client).
        TRUST_PROXY: "1",
        SERVER_TIMING: "false",
      },
    });
    const lines: string[] = [];
    this.errorLines.push(lines);
    const number = this.errorLines.length;
    const logFile = createWriteStream(`${this.logPrefix}-${number}.log`);
    const collect = (chunk: Buffer) => {
      logFile.write(chunk);
      for (const line of chunk.toString().split("\n")) {
        if (line.includes('"level":"error"')) lines.push(line);
      }
    };
    server.child.stdout?.on("data", collect);
    server.child.stderr?.on("data", collect);
    this.expectingExit = false;
    server.child.once("exit", (code, signal) => {
      logFile.end();
      if (!this.expectingExit) {
        this.unexpectedExits.push(
          `server process ${number} (pid ${server.pid}) exited: ${signal ?? code}`,
        );
      }
    });
    this.server = server;
    this.proxy.upstream = Number(new URL(server.baseUrl).port);
    return performance.now() - started;
  }

  async kill9(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const exited = new Promise<void>((resolve) => {
      if (server.child.exitCode !== null || server.child.signalCode !== null) resolve();
      else server.child.once("exit", () => resolve());
    });
    this.expectingExit = true;
    server.child.kill("SIGKILL");
    await exited;
    this.server = null;
  }

  async stop(): Promise<void> {
    this.expectingExit = true;
    await this.server?.stop();
    this.server = null;
  }

  sql<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    if (this.kind === "pglite" && this.server) throw new Error("PGlite is held by the server");
    return withSql(this, fn);
  }

  async dispose() {
    for (const exit of this.unexpectedExits) {
      console.log(`  !! ${exit}; its output is in ${path.relative(root, this.logPrefix)}-*.log`);
    }
    await this.stop().catch(() => {});
    await this.proxy.close().catch(() => {});
    if (this.databaseUrl && !keep) await dropDatabase(this.databaseUrl, adminUrl);
    if (!keep) await rm(path.join(root, this.dataDir), { recursive: true, force: true });
  }
}

/** The first two active, priced products, with their tracked stock set to the given counts. */
async function stockProducts(
  shop: Shop,
  counts: number[],
): Promise<Array<{ id: string; name: string; stock: number }>> {
  return shop.sql(async (q) => {
    const rows = await q<{ id: string; name: string }>(
      `select id, name from products where is_active and price_paise > 0 order by id limit $1`,
      [counts.length],
    );
    if (rows.length < counts.length) throw new Error("the demo catalogue has too few products");
    const out: Array<{ id: string; name: string; stock: number }> = [];
    for (const [i, row] of rows.entries()) {
      await q(`update products set stock_count = $1, in_stock = true where id = $2`, [
        counts[i],
        row.id,
      ]);
      out.push({ ...row, stock: counts[i] });
    }
    return out;
  });
}

// ---- customers over HTTP ------------------------------------------------------------------------

type Line = { productId: string; quantity: number };
type Customer = {
  n: number;
  name: string;
  email: string;
  password: string;
  ip: string;
  cookie: string;
  addressId: string;
  lines: Line[];
  attemptToken: string;
  expectedTotalPaise: number;
};
type Target = { publicUrl: string; outbox: Outbox };

let ipCounter = 0;
function newCustomer(tag: string, n: number): Customer {
  ipCounter += 1;
  return {
    n,
    name: `Reliability ${tag} ${n}`,
    email: `rel-${tag}-${runId}-${n}@example.com`,
    password: "reliability-password",
    ip: `10.77.${(ipCounter >> 8) & 255}.${ipCounter & 255}`,
    cookie: "",
    addressId: "",
    lines: [],
    attemptToken: "",
    expectedTotalPaise: 0,
  };
}

type SendOptions = {
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  timeoutMs?: number;
};

/** A request as the customer's browser sends it (same-origin, their cookie and address). */
function send(
  target: Target,
  who: Pick<Customer, "ip" | "cookie"> | null,
  pathname: string,
  options: SendOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    origin: target.publicUrl,
    "sec-fetch-site": "same-origin",
    ...options.headers,
  };
  if (who) {
    headers["x-forwarded-for"] = who.ip;
    if (who.cookie) headers.cookie = who.cookie;
  }
  let body: string | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  return fetch(`${target.publicUrl}${pathname}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
}

/**
 * A single-fetch (`.data`) response as React Router's client decodes it. The body is read whole
 * first, so a connection cut by a kill fails here and not inside the decoder's stream.
 */
async function decodeTurbo(res: Response): Promise<unknown> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const decoded = await decodeViaTurboStream(
    body,
    globalThis as unknown as Parameters<typeof decodeViaTurboStream>[1],
  );
  await decoded.done;
  return decoded.value;
}

/** An action's data from a single-fetch answer (`{ data }`, or keyed by route id). */
function actionData(value: unknown, routeId: string): Record<string, unknown> {
  const v = value as Record<string, { data?: unknown; error?: unknown } | unknown>;
  const routed = v?.[routeId] as { data?: unknown } | undefined;
  const data = (v as { data?: unknown })?.data ?? routed?.data;
  return (data ?? {}) as Record<string, unknown>;
}

async function expectOk(res: Response, what: string): Promise<Response> {
  if (res.status >= 400) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
}

/** Registers, verifies (the outbox link), signs in, adds an address and fills the cart. */
async function onboard(target: Target, c: Customer, lines: Line[]): Promise<void> {
  await expectOk(
    await send(target, c, "/api/auth/sign-up/email", {
      json: { name: c.name, email: c.email, password: c.password },
    }),
    `sign-up ${c.email}`,
  );
  const mail = await target.outbox.waitFor(c.email, /verif/i);
  const link = mail.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in the verification e-mail to ${c.email}`);
  const verified = await fetch(link, {
    redirect: "manual",
    headers: { "x-forwarded-for": c.ip },
    signal: AbortSignal.timeout(60_000),
  });
  await expectOk(verified, `verify ${c.email}`);
  const signIn = await expectOk(
    await send(target, c, "/api/auth/sign-in/email", {
      json: { email: c.email, password: c.password },
    }),
    `sign-in ${c.email}`,
  );
  c.cookie = signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

  const saved = await send(target, c, "/addresses.data", {
    form: {
      intent: "save",
      label: "Home",
      name: c.name,
      line1: `${c.n} MG Road`,
      city: "Bengaluru",
      state: "Karnataka",
      postalCode: "560001",
      country: "India",
      phone: `98${String(100_000_00 + c.n).slice(-8)}`,
    },
  });
  const address = actionData(await decodeTurbo(saved), "routes/addresses");
  if (address.kind !== "saved") {
    throw new Error(`address for ${c.email}: ${saved.status} ${JSON.stringify(address)}`);
  }
  c.addressId = String(address.addressId);

  c.lines = lines;
  await expectOk(
    await send(target, c, "/api/cart", { json: { intent: "set-all", lines } }),
    `cart ${c.email}`,
  );
}

/** The checkout page's loader, as the browser gets it before the customer presses Pay. */
async function loadCheckout(target: Target, c: Customer): Promise<void> {
  const res = await send(target, c, "/checkout.data?_routes=routes%2Fcheckout");
  const value = (await decodeTurbo(await expectOk(res, `checkout page ${c.email}`))) as Record<
    string,
    { data?: { attemptToken: string; totals: { totalPaise: number } } }
  >;
  const data = value["routes/checkout"]?.data;
  if (!data) throw new Error(`checkout page ${c.email}: ${JSON.stringify(value)}`);
  c.attemptToken = data.attemptToken;
  c.expectedTotalPaise = data.totals.totalPaise;
}

type CheckoutAnswer = {
  /** The app answered (a proxy 502 or a cut connection is no answer). */
  answered: boolean;
  status: number;
  kind: string;
  orderId?: string;
  transactionId?: string;
  message?: string;
};

/** Presses "Pay" on the checkout page (the same form every time: a browser's retry). */
async function submitCheckout(target: Target, c: Customer): Promise<CheckoutAnswer> {
  try {
    const res = await send(target, c, "/checkout.data", {
      form: {
        addressId: c.addressId,
        expectedTotalPaise: String(c.expectedTotalPaise),
        attemptToken: c.attemptToken,
        paymentChoice: "gateway",
        paymentMethod: "gateway",
      },
    });
    if (!res.headers.has("x-request-id")) {
      return { answered: false, status: res.status, kind: "no-answer", message: await res.text() };
    }
    const data = actionData(await decodeTurbo(res), "routes/checkout");
    return {
      answered: true,
      status: res.status,
      kind: String(data.kind ?? "unknown"),
      orderId: data.orderId as string | undefined,
      transactionId: data.transactionId as string | undefined,
      message: (data.title as string | undefined) ?? undefined,
    };
  } catch (error) {
    return { answered: false, status: 0, kind: "no-answer", message: errorText(error) };
  }
}

/** The sandbox's TEST MODE page: "Simulate success" (records it, then notifies the webhook). */
async function payOnSandbox(target: Target, c: Customer, transactionId: string) {
  try {
    const res = await send(target, c, `/sandbox/pay/${encodeURIComponent(transactionId)}`, {
      form: { outcome: "success" },
      headers: { accept: "text/html" },
    });
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get("location") ?? "" };
  } catch (error) {
    return { status: 0, location: errorText(error) };
  }
}

type StatusAnswer = { status: number; state: string };

/** The return page's check: GET /api/payment-status as the signed-in owner. */
async function checkStatus(target: Target, c: Customer, orderId: string): Promise<StatusAnswer> {
  try {
    const res = await send(target, c, `/api/payment-status?orderId=${orderId}`);
    const text = await res.text();
    let state = "?";
    try {
      const body = JSON.parse(text) as { success: boolean; status?: string; error?: string };
      state = body.success ? String(body.status) : `error: ${body.error}`;
    } catch {
      state = `not JSON: ${text.slice(0, 60)}`;
    }
    return { status: res.status, state };
  } catch (error) {
    return { status: 0, state: errorText(error) };
  }
}

type Notification = { transactionId: string; body: string; signature: string };

/** A success notification as the sandbox gateway sends it, signed with the shop's secret. */
function signedSuccess(transactionId: string, amountPaise: number, eventId = randomUUID()) {
  const body = JSON.stringify({ eventId, transactionId, state: "SUCCESS", amountPaise });
  return { transactionId, body, signature: signNotification(body) };
}

type WebhookAnswer = { answered: boolean; status: number; outcome: string };

/** Delivers a notification to POST /api/payment-webhook, as the gateway's servers would. */
async function deliver(target: Target, n: Notification): Promise<WebhookAnswer> {
  try {
    const res = await fetch(`${target.publicUrl}/api/payment-webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: n.signature,
        [OWN_DELIVERY_HEADER]: "1",
      },
      body: n.body,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (!res.headers.has("x-request-id")) {
      return { answered: false, status: res.status, outcome: "no-answer" };
    }
    let outcome = `HTTP ${res.status}`;
    try {
      outcome = (JSON.parse(text) as { outcome?: string }).outcome ?? outcome;
    } catch {}
    return { answered: true, status: res.status, outcome };
  } catch (error) {
    return { answered: false, status: 0, outcome: `no-answer (${errorText(error)})` };
  }
}

/** Runs `tasks` concurrently and kills the server once `killAfter` of them were answered. */
async function killMidway<T>(
  shop: Shop,
  tasks: Array<() => Promise<T>>,
  answered: (result: T) => boolean,
  killAfter: number,
): Promise<{ results: T[]; killedAfterMs: number; answeredBeforeKill: number; killedAt: number }> {
  let count = 0;
  let fire = () => {};
  const trigger = new Promise<void>((resolve) => {
    fire = resolve;
  });
  const started = performance.now();
  const running = tasks.map(async (task) => {
    const result = await task();
    if (answered(result) && ++count >= killAfter) fire();
    return result;
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([trigger, new Promise((r) => (timer = setTimeout(r, 30_000)))]);
  clearTimeout(timer);
  const answeredBeforeKill = count;
  const killedAfterMs = performance.now() - started;
  const killedAt = Date.now();
  await shop.kill9();
  return { results: await Promise.all(running), killedAfterMs, answeredBeforeKill, killedAt };
}

// ---- shared checks ------------------------------------------------------------------------------

/** Stock taken from each product equals the units in orders still holding stock, never below 0. */
function checkStock(
  report: Report,
  snap: Snapshot,
  products: Array<{ id: string; name: string; stock: number }>,
) {
  const holding = new Set(
    snap.orders
      .filter((o) => o.stock_released_at === null && o.status !== "cancelled")
      .map((o) => o.id),
  );
  for (const p of products) {
    const now = snap.products.find((r) => r.id === p.id)?.stock_count ?? Number.NaN;
    const held = snap.items
      .filter((i) => i.product_id === p.id && holding.has(i.order_id))
      .reduce((sum, i) => sum + i.quantity, 0);
    report.check(
      `stock of "${p.name}" adds up`,
      now >= 0 && p.stock - now === held,
      `${p.stock} at start, ${now} now, ${p.stock - now} taken, ${held} in live orders`,
    );
  }
}

/**
 * Each order paid exactly once and fulfilled once: paid + processing, fulfilled_at = paid_at (set
 * by the first success only), at most one applied success event, ordered lines gone from the cart,
 * and exactly one confirmation e-mail (none is reported as the known e-mail gap).
 */
async function checkPaidOnce(
  report: Report,
  shop: Shop,
  snap: Snapshot,
  orderIds: string[],
  context: (orderId: string) => string = () => "",
): Promise<{ lostMail: string[] }> {
  const { byOrder: mails, broken } = await shop.outbox.confirmations();
  const notPaid: string[] = [];
  const twice: string[] = [];
  const events: string[] = [];
  const cartLeft: string[] = [];
  const dupMail: string[] = [];
  const lostMail: string[] = [];
  for (const id of orderIds) {
    const o = snap.orders.find((r) => r.id === id);
    if (!o) {
      notPaid.push(`${id} (missing)`);
      continue;
    }
    if (o.payment_status !== "paid" || o.status !== "processing" || !o.paid_at) {
      notPaid.push(`${o.order_number} ${o.status}/${o.payment_status}`);
    }
    if (!o.fulfilled_at || !o.paid_at || o.fulfilled_at.getTime() !== o.paid_at.getTime()) {
      twice.push(
        `${o.order_number} paid ${o.paid_at?.toISOString()} fulfilled ${o.fulfilled_at?.toISOString()}`,
      );
    }
    const applied = snap.events.filter(
      (e) => e.order_id === id && e.state === "SUCCESS" && e.outcome === "applied",
    ).length;
    if (applied > 1) events.push(`${o.order_number}: ${applied} applied success events`);
    const ordered = new Set(
      snap.items.filter((i) => i.order_id === id).map((i) => i.product_id ?? ""),
    );
    if (snap.cart.some((l) => l.user_id === o.user_id && ordered.has(l.product_id))) {
      cartLeft.push(o.order_number);
    }
    const sent = mails.get(o.order_number) ?? 0;
    if (sent > 1) dupMail.push(`${o.order_number} ×${sent}`);
    if (sent === 0) lostMail.push(`${o.order_number}${context(id)}`);
  }
  const n = orderIds.length;
  report.check(
    "every order paid (payment paid, status processing)",
    notPaid.length === 0,
    notPaid.length ? few(notPaid) : `${n}/${n}`,
  );
  report.check(
    "fulfilled once (fulfilled_at = paid_at of the first success)",
    twice.length === 0,
    twice.length ? few(twice) : `${n}/${n}`,
  );
  report.check("at most one applied success event per order", events.length === 0, few(events));
  report.check(
    "ordered lines left the cart",
    cartLeft.length === 0,
    cartLeft.length ? few(cartLeft) : `${n}/${n}`,
  );
  report.check(
    "no order confirmed twice by e-mail",
    dupMail.length === 0,
    dupMail.length
      ? few(dupMail)
      : `${n - lostMail.length} orders with exactly one confirmation e-mail`,
  );
  if (lostMail.length > 0) {
    report.gap(
      `${lostMail.length} paid order(s) without a confirmation e-mail: ${few(lostMail, 10)}`,
    );
  }
  if (broken.length > 0) {
    report.gap(
      `${broken.length} outbox file(s) cut short by a kill (written in place, not renamed into the outbox): ${few(broken)}`,
    );
  }
  const dupEvents = new Map<string, number>();
  for (const e of snap.events) dupEvents.set(e.event_id, (dupEvents.get(e.event_id) ?? 0) + 1);
  const repeated = [...dupEvents].filter(([, k]) => k > 1);
  report.check(
    "no payment event recorded twice",
    repeated.length === 0,
    few(repeated.map(([id, k]) => `${id} ×${k}`)),
  );
  return { lostMail };
}

/** Error-level log lines counted by message (and the error's own message, shortened). */
function logSummary(lines: string[]): string {
  return countBy(lines, (l) => {
    try {
      const entry = JSON.parse(l) as { message?: string; error?: { message?: string } };
      const cause = entry.error?.message?.replace(/\s+/g, " ");
      return `"${entry.message}"${cause ? ` (${cause.length > 70 ? `${cause.slice(0, 70)}…` : cause})` : ""}`;
    } catch {
      return l.slice(0, 100);
    }
  });
}

function serverErrors(report: Report, shop: Shop) {
  report.check(
    "the server process never exited by itself",
    shop.unexpectedExits.length === 0,
    shop.unexpectedExits.length ? few(shop.unexpectedExits) : `${shop.errorLines.length} processes`,
  );
  for (const [i, lines] of shop.errorLines.entries()) {
    if (lines.length > 0) {
      report.info(`server process ${i + 1} logged ${lines.length} error(s): ${logSummary(lines)}`);
    }
  }
}

// ---- kill-checkout ------------------------------------------------------------------------------

async function killCheckout(kind: DbKind): Promise<Report> {
  const report = new Report(`kill-checkout on ${kind}`);
  const shop = await Shop.create(kind, "kill-checkout");
  try {
    await shop.start(true);
    await shop.stop();
    const scarce = Math.max(1, Math.floor(customerCount * 0.8));
    const products = await stockProducts(shop, [10_000, scarce]);
    const [plenty, few1] = products;
    await shop.start();
    const customers = Array.from({ length: customerCount }, (_, i) => newCustomer("kc", i + 1));
    const t0 = performance.now();
    await mapLimit(customers, 6, (c) =>
      onboard(shop, c, [
        { productId: plenty.id, quantity: 1 + (c.n % 3) },
        { productId: few1.id, quantity: 1 },
      ]),
    );
    await mapLimit(customers, 6, (c) => loadCheckout(shop, c));
    report.info(
      `${customers.length} customers signed up, verified, signed in, with an address and a cart ` +
        `(1–3 × "${plenty.name}", stock ${plenty.stock}; 1 × "${few1.name}", stock ${few1.stock}) ` +
        `in ${seconds(performance.now() - t0)}`,
    );

    // 1. Everyone presses Pay at once; the server dies while the answers come back.
    const killAfter = Math.max(1, Math.ceil(customers.length / 4));
    const first = await killMidway(
      shop,
      customers.map((c) => () => submitCheckout(shop, c)),
      (a) => a.answered,
      killAfter,
    );
    report.info(
      `round 1: ${customers.length} concurrent checkouts, SIGKILL ${seconds(first.killedAfterMs)} after ` +
        `they started, when ${first.answeredBeforeKill} had been answered; answers: ` +
        countBy(first.results, (a) => (a.answered ? `${a.status} ${a.kind}` : "no answer")),
    );

    // 2. Same data, new process; every browser submits the same form again.
    const restartMs = await shop.start();
    report.info(`restarted on the same data, ready in ${seconds(restartMs)}`);
    const second = await Promise.all(customers.map((c) => submitCheckout(shop, c)));
    report.info(
      `round 2 (every customer submits the same checkout again): ` +
        countBy(second, (a) =>
          a.answered ? `${a.status} ${a.kind}${a.message ? ` "${a.message}"` : ""}` : "no answer",
        ),
    );

    // 3. Every payment page reached is paid; the return page checks the result.
    const toPay = customers
      .map((c, i) => ({ c, a: second[i] }))
      .filter(({ a }) => a.kind === "redirect" && a.transactionId && a.orderId);
    const paid = await mapLimit(toPay, 8, ({ c, a }) => payOnSandbox(shop, c, a.transactionId!));
    const statuses = await mapLimit(toPay, 8, ({ c, a }) => checkStatus(shop, c, a.orderId!));
    report.info(
      `paid ${toPay.length} on the sandbox page (${countBy(paid, (p) => String(p.status))}); ` +
        `return page says ${countBy(statuses, (s) => `${s.status} ${s.state}`)}`,
    );
    await shop.stop();

    const snap = await snapshot(shop);
    const userId = new Map(snap.users.map((u) => [u.email, u.id]));
    const duplicates: string[] = [];
    const wrong: string[] = [];
    const retryNew: string[] = [];
    for (const [i, c] of customers.entries()) {
      const mine = snap.orders.filter((o) => o.user_id === userId.get(c.email));
      const live = mine.filter((o) => o.status !== "cancelled");
      const paidOrders = mine.filter((o) => o.payment_status === "paid");
      if (live.length > 1 || paidOrders.length > 1) {
        duplicates.push(`customer ${c.n}: ${live.length} live, ${paidOrders.length} paid`);
      }
      const a2 = second[i];
      const a1 = first.results[i];
      if (a2.kind === "redirect") {
        if (paidOrders.length !== 1 || paidOrders[0].id !== a2.orderId) {
          wrong.push(
            `customer ${c.n}: answered ${a2.orderId}, paid ${paidOrders.map((o) => o.id).join("/") || "none"}`,
          );
        }
      } else if (live.length > 0) {
        wrong.push(
          `customer ${c.n}: round 2 said "${a2.message ?? a2.kind}" but holds ${live.length} live order(s)`,
        );
      }
      if (
        a1.kind === "redirect" &&
        a2.kind === "redirect" &&
        (a1.orderId !== a2.orderId || a1.transactionId !== a2.transactionId)
      ) {
        retryNew.push(
          `customer ${c.n}: ${a1.orderId}/${a1.transactionId} then ${a2.orderId}/${a2.transactionId}`,
        );
      }
    }
    const answeredIds = [...first.results, ...second]
      .filter((a) => a.answered && a.orderId)
      .map((a) => a.orderId!);
    const lost = answeredIds.filter((id) => !snap.orders.some((o) => o.id === id));
    report.check(
      "no customer has two open/paid orders",
      duplicates.length === 0,
      duplicates.length ? few(duplicates) : `${customers.length} customers`,
    );
    report.check(
      "nothing lost: every order a client was answered with exists",
      lost.length === 0,
      lost.length ? few(lost) : `${new Set(answeredIds).size} answered order ids, all present`,
    );
    report.check(
      "a retry finds the order and payment its first answered submission made",
      retryNew.length === 0,
      retryNew.length
        ? few(retryNew)
        : `${first.results.filter((a) => a.kind === "redirect").length} answered in round 1, same order and transaction in round 2`,
    );
    report.check(
      "each customer sent to pay ends with exactly that order paid",
      wrong.length === 0,
      wrong.length ? few(wrong) : `${toPay.length} paid`,
    );
    const refused = second.filter((a) => a.kind !== "redirect");
    report.check(
      "no 5xx and no missing answer after the restart",
      second.every((a) => a.answered && a.status < 500) &&
        paid.every((p) => p.status > 0 && p.status < 500) &&
        statuses.every((s) => s.status === 200),
      `${refused.length} refused (${countBy(refused, (a) => a.message ?? a.kind)})`,
    );
    checkStock(report, snap, products);
    await checkPaidOnce(
      report,
      shop,
      snap,
      toPay.map(({ a }) => a.orderId!),
    );
    // What the kill interrupted: an unanswered checkout whose order was already committed (the
    // retry found it) or not (the retry placed it).
    let committed = 0;
    let notCommitted = 0;
    for (const [i, a1] of first.results.entries()) {
      if (a1.answered) continue;
      const o = snap.orders.find((r) => r.id === second[i].orderId);
      if (!o) continue;
      if (o.created_at.getTime() <= first.killedAt) committed += 1;
      else notCommitted += 1;
    }
    report.info(
      `unanswered in round 1: ${committed} had committed their order before the kill (the retry ` +
        `found it), ${notCommitted} had not (the retry placed it)`,
    );
    const ours = new Set(customers.map((c) => userId.get(c.email)));
    const cancelled = snap.orders.filter((o) => ours.has(o.user_id) && o.status === "cancelled");
    const withOrder = new Set(snap.orders.map((o) => o.payment_transaction_id));
    const orphans = snap.sandbox.filter((s) => !withOrder.has(s.transaction_id));
    report.info(
      `orders in the database: ${snap.orders.length} (${cancelled.length} cancelled); sandbox ` +
        `payments with no order (initiated, then killed before the order recorded it): ${orphans.length}`,
    );
    serverErrors(report, shop);
  } finally {
    await shop.dispose();
  }
  return report;
}

// ---- kill-webhook -------------------------------------------------------------------------------

async function killWebhook(kind: DbKind): Promise<Report> {
  const report = new Report(`kill-webhook on ${kind}`);
  const shop = await Shop.create(kind, "kill-webhook");
  try {
    await shop.start(true);
    await shop.stop();
    const products = await stockProducts(shop, [10_000, 10_000]);
    await shop.start();
    const customers = Array.from({ length: webhookOrderCount }, (_, i) => newCustomer("kw", i + 1));
    await mapLimit(customers, 6, (c) =>
      onboard(shop, c, [
        { productId: products[0].id, quantity: 1 + (c.n % 2) },
        { productId: products[1].id, quantity: 1 },
      ]),
    );
    await mapLimit(customers, 6, (c) => loadCheckout(shop, c));
    const placed = await mapLimit(customers, 6, (c) => submitCheckout(shop, c));
    const bad = placed.filter((a) => a.kind !== "redirect");
    if (bad.length > 0)
      throw new Error(`checkout failed: ${countBy(bad, (a) => `${a.status} ${a.message}`)}`);
    // The gateway's own record stays PENDING (nobody presses the sandbox's buttons), so only
    // these notifications can pay the orders: the reconciler can't hide a lost one.
    const hooks = placed.map((a, i) => ({
      c: customers[i],
      orderId: a.orderId!,
      note: signedSuccess(a.transactionId!, customers[i].expectedTotalPaise),
    }));
    report.info(
      `${hooks.length} pending orders, one signed success notification each (fixed event id)`,
    );

    const acked = new Map<string, { round: number; outcome: string }>();
    const inFlightAtKill = new Map<string, number>();
    // Per order, the answers it got round by round ("-" for none).
    const history = new Map<string, string[]>(hooks.map((h) => [h.orderId, []]));
    for (let round = 1; round <= killRounds; round++) {
      const pending = hooks.filter((h) => !acked.has(h.orderId));
      if (pending.length === 0) break;
      // Early in the first round (most still before their commit), later in the next ones.
      const killAfter =
        round === 1 ? 1 : Math.max(1, Math.ceil(pending.length / (round === 2 ? 3 : 2)));
      const run = await killMidway(
        shop,
        pending.map((h) => () => deliver(shop, h.note)),
        (a) => a.answered,
        killAfter,
      );
      for (const [i, a] of run.results.entries()) {
        const id = pending[i].orderId;
        const ok = a.answered && a.status === 200;
        history.get(id)?.push(ok ? a.outcome : "-");
        if (ok) acked.set(id, { round, outcome: a.outcome });
        else inFlightAtKill.set(id, round);
      }
      const restartMs = await shop.start();
      report.info(
        `round ${round}: ${pending.length} notifications at once, SIGKILL after ` +
          `${seconds(run.killedAfterMs)} (${run.answeredBeforeKill} answered); ` +
          `${countBy(run.results, (a) => (a.answered ? `${a.status} ${a.outcome}` : "no answer"))}; ` +
          `restarted in ${seconds(restartMs)}`,
      );
    }
    // The gateway retries every notification (acknowledged or not) once more.
    const retry = await Promise.all(hooks.map((h) => deliver(shop, h.note)));
    report.info(
      `gateway retries all ${hooks.length}: ${countBy(retry, (a) => `${a.status} ${a.outcome}`)}`,
    );
    for (const [i, h] of hooks.entries()) {
      history.get(h.orderId)?.push(retry[i].answered ? retry[i].outcome : "-");
    }
    // An unanswered delivery whose next answer is "duplicate" had committed before the kill; one
    // whose next answer is "applied" had not (its transaction was rolled back).
    let committedUnanswered = 0;
    let rolledBack = 0;
    for (const answers of history.values()) {
      for (const [k, a] of answers.entries()) {
        if (a !== "-") continue;
        const next = answers.slice(k + 1).find((x) => x !== "-");
        if (next === "duplicate") committedUnanswered += 1;
        else if (next === "applied") rolledBack += 1;
      }
    }
    report.info(
      `deliveries cut off by a kill: ${committedUnanswered} had committed (the retry was a ` +
        `duplicate), ${rolledBack} had not (the retry applied them)`,
    );
    const relapsed = hooks.filter(
      (h, i) => acked.get(h.orderId)?.outcome === "applied" && retry[i].outcome === "applied",
    );
    report.check(
      "an acknowledged payment survives the kill (its retry is a duplicate)",
      relapsed.length === 0,
      relapsed.length
        ? few(relapsed.map((h) => h.orderId))
        : `${[...acked.values()].filter((a) => a.outcome === "applied").length} acknowledged as applied`,
    );
    report.check(
      "no 5xx after the restarts",
      retry.every((a) => a.answered && a.status === 200),
      countBy(retry, (a) => String(a.status)),
    );
    const statuses = await mapLimit(hooks, 8, (h) => checkStatus(shop, h.c, h.orderId));
    report.check(
      "the return page says SUCCESS for every order",
      statuses.every((s) => s.status === 200 && s.state === "SUCCESS"),
      countBy(statuses, (s) => `${s.status} ${s.state}`),
    );
    await shop.stop();

    const snap = await snapshot(shop);
    const oneEvent = hooks.filter((h) => {
      const mine = snap.events.filter((e) => e.order_id === h.orderId);
      return mine.length === 1 && mine[0].outcome === "applied";
    });
    report.check(
      "one payment event per order, outcome applied",
      oneEvent.length === hooks.length,
      `${oneEvent.length}/${hooks.length}`,
    );
    const { lostMail } = await checkPaidOnce(
      report,
      shop,
      snap,
      hooks.map((h) => h.orderId),
      (id) => (inFlightAtKill.has(id) ? ` (in flight at kill ${inFlightAtKill.get(id)})` : ""),
    );
    if (lostMail.length > 0) {
      report.info(
        "known gap: the e-mail is sent after the payment's transaction commits; a kill between the " +
          "two leaves the order paid and fulfilled, the gateway's retry is a duplicate and nothing " +
          "sends the e-mail again (needs a durable e-mail queue)",
      );
    }
    checkStock(report, snap, products);
    serverErrors(report, shop);
  } finally {
    await shop.dispose();
  }
  return report;
}

// ---- race ---------------------------------------------------------------------------------------

const VARIANTS = ["before", "after", "concurrent", "reconciler", "reconcile-race"] as const;
type Variant = (typeof VARIANTS)[number];
const VARIANT_TEXT: Record<Variant, string> = {
  before: "webhook, then the return page's check",
  after: "return page's check (asks the gateway), then the webhook",
  concurrent: "webhook + a second event id + 2 status checks at once",
  reconciler: "nothing until the reconciler (due +25 s) has run, then webhook + check",
  "reconcile-race": "webhook + check fired at +24…+30 s, while the reconciler is due",
};

type RaceOutcome = {
  variant: Variant;
  c: Customer;
  orderId: string;
  tx: string;
  /** When the delayed variants fired their webhook and check (ms since the epoch). */
  firedAt?: number;
  webhooks: WebhookAnswer[];
  checks: StatusAnswer[];
  flowMs: number;
};

async function race(kind: DbKind): Promise<Report> {
  const report = new Report(`race on ${kind}`);
  const shop = await Shop.create(kind, "race");
  try {
    await shop.start(true);
    await shop.stop();
    const products = await stockProducts(shop, [10_000]);
    await shop.start();
    const plan = VARIANTS.flatMap((variant) =>
      Array.from({ length: raceOrdersPerVariant }, () => variant),
    );
    const customers = plan.map((_, i) => newCustomer("race", i + 1));
    await mapLimit(customers, 6, (c) =>
      onboard(shop, c, [{ productId: products[0].id, quantity: 1 }]),
    );
    await mapLimit(customers, 6, (c) => loadCheckout(shop, c));
    report.info(`${customers.length} customers, ${raceOrdersPerVariant} orders per variant:`);
    for (const v of VARIANTS) report.info(`  ${v}: ${VARIANT_TEXT[v]}`);

    // The gateway's notifications are held back by the proxy; the script delivers them.
    shop.proxy.hold = true;
    const later: Array<Promise<RaceOutcome>> = [];
    const now: RaceOutcome[] = [];
    await mapLimit(plan, 4, async (variant, i) => {
      const c = customers[i];
      const started = performance.now();
      const placed = await submitCheckout(shop, c);
      if (placed.kind !== "redirect") throw new Error(`checkout ${c.email}: ${placed.message}`);
      const tx = placed.transactionId!;
      const orderId = placed.orderId!;
      const initiatedAt = Date.now();
      const paid = await payOnSandbox(shop, c, tx);
      const held = shop.proxy.held.get(tx);
      if (paid.status !== 302 || !held) {
        throw new Error(`sandbox payment ${tx}: ${paid.status}, held: ${Boolean(held)}`);
      }
      const out: RaceOutcome = { variant, c, orderId, tx, webhooks: [], checks: [], flowMs: 0 };
      const done = () => {
        out.flowMs = performance.now() - started;
        return out;
      };
      if (variant === "before") {
        out.webhooks.push(await deliver(shop, held));
        out.checks.push(await checkStatus(shop, c, orderId));
        now.push(done());
      } else if (variant === "after") {
        out.checks.push(await checkStatus(shop, c, orderId));
        out.webhooks.push(await deliver(shop, held));
        now.push(done());
      } else if (variant === "concurrent") {
        const second = signedSuccess(tx, c.expectedTotalPaise);
        const [w1, s1, s2, w2] = await Promise.all([
          deliver(shop, held),
          checkStatus(shop, c, orderId),
          checkStatus(shop, c, orderId),
          deliver(shop, second),
        ]);
        out.webhooks.push(w1, w2);
        out.checks.push(s1, s2);
        now.push(done());
      } else {
        const at =
          variant === "reconciler"
            ? initiatedAt + 40_000
            : initiatedAt + 24_000 + Math.random() * 6_000;
        later.push(
          (async () => {
            await sleep(Math.max(0, at - Date.now()));
            out.firedAt = Date.now();
            const [w, s] = await Promise.all([deliver(shop, held), checkStatus(shop, c, orderId)]);
            out.webhooks.push(w);
            out.checks.push(s);
            return done();
          })(),
        );
      }
    });
    const outcomes = [...now, ...(await Promise.all(later))];
    // The return page polls until it sees the result; the gateway retries its notification.
    const finalChecks = await mapLimit(outcomes, 8, (o) => checkStatus(shop, o.c, o.orderId));
    const retries = await mapLimit(outcomes, 8, (o) => deliver(shop, shop.proxy.held.get(o.tx)!));
    await shop.stop();

    for (const v of VARIANTS) {
      const mine = outcomes.filter((o) => o.variant === v);
      report.info(
        `${v}: webhooks ${countBy(
          mine.flatMap((o) => o.webhooks),
          (w) => `${w.status} ${w.outcome}`,
        )}; ` +
          `checks ${countBy(
            mine.flatMap((o) => o.checks),
            (s) => `${s.status} ${s.state}`,
          )}`,
      );
    }
    report.info(
      `gateway retries afterwards: ${countBy(retries, (w) => `${w.status} ${w.outcome}`)}`,
    );
    const answers = [...outcomes.flatMap((o) => [...o.webhooks]), ...retries];
    const checks = [...outcomes.flatMap((o) => o.checks), ...finalChecks];
    report.check(
      "every notification and check answered without a 5xx",
      answers.every((w) => w.answered && w.status === 200) && checks.every((s) => s.status === 200),
      `${answers.length} notifications, ${checks.length} checks`,
    );
    report.check(
      "the return page ends with SUCCESS for every order",
      finalChecks.every((s) => s.state === "SUCCESS"),
      countBy(finalChecks, (s) => s.state),
    );
    report.check(
      "retried notifications change nothing",
      retries.every((w) => w.outcome === "duplicate"),
      countBy(retries, (w) => w.outcome),
    );
    const slow = outcomes.filter(
      (o) =>
        (o.variant === "before" || o.variant === "after" || o.variant === "concurrent") &&
        o.flowMs > 20_000,
    );
    if (slow.length > 0)
      report.info(`${slow.length} early flows took over 20 s (the reconciler may have joined in)`);

    const snap = await snapshot(shop);
    for (const v of ["reconciler", "reconcile-race"] as const) {
      const mine = outcomes.filter((o) => o.variant === v);
      const early = mine.filter((o) => {
        const paidAt = snap.orders.find((r) => r.id === o.orderId)?.paid_at;
        return paidAt && o.firedAt && paidAt.getTime() < o.firedAt;
      });
      const byWebhook = mine.filter((o) => o.webhooks.some((w) => w.outcome === "applied"));
      report.info(
        `${v}: ${early.length}/${mine.length} paid by the reconciler before the webhook and check ` +
          `were sent, ${byWebhook.length} by the webhook, ` +
          `${mine.length - early.length - byWebhook.length} by the status check or the reconciler ` +
          "while they ran",
      );
    }
    await checkPaidOnce(
      report,
      shop,
      snap,
      outcomes.map((o) => o.orderId),
    );
    checkStock(report, snap, products);
    serverErrors(report, shop);
  } finally {
    await shop.dispose();
  }
  return report;
}

// ---- pg-restart ---------------------------------------------------------------------------------

/** A PostgreSQL cluster of our own on a free port (Debian's binaries, run as the postgres user). */
class PrivateCluster {
  dir = "";
  port = 0;
  bin = "";

  private run(command: string, commandArgs: string[]): Promise<string> {
    const asRoot = process.getuid?.() === 0;
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", command, ...commandArgs]]
      : [command, commandArgs];
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, argv as string[], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      child.once("exit", (code) =>
        code === 0
          ? resolve(out)
          : reject(new Error(`${command} ${commandArgs.join(" ")}: ${code}\n${out}`)),
      );
    });
  }

  async init() {
    const versions = readdirSync("/usr/lib/postgresql")
      .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length === 0) throw new Error("no PostgreSQL binaries in /usr/lib/postgresql");
    this.bin = `/usr/lib/postgresql/${versions[0]}/bin`;
    this.dir = await mkdtemp(path.join(os.tmpdir(), "lk-rel-pg-"));
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
      await chown(this.dir, uid, gid);
    }
    // If this script dies, the cluster goes with it.
    process.once("exit", this.destroySync);
    this.port = await freePort();
    await this.run(`${this.bin}/initdb`, [
      "-D",
      `${this.dir}/data`,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--locale",
      "C",
    ]);
    await this.start();
  }

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start() {
    return this.run(`${this.bin}/pg_ctl`, [
      "-D",
      `${this.dir}/data`,
      "-l",
      `${this.dir}/log`,
      "-w",
      "-t",
      "60",
      "-o",
      `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir}`,
      "start",
    ]);
  }

  restart() {
    return this.run(`${this.bin}/pg_ctl`, [
      "-D",
      `${this.dir}/data`,
      "-w",
      "-t",
      "60",
      "-m",
      "fast",
      "restart",
    ]);
  }

  stop() {
    return this.run(`${this.bin}/pg_ctl`, [
      "-D",
      `${this.dir}/data`,
      "-w",
      "-t",
      "60",
      "-m",
      "fast",
      "stop",
    ]);
  }

  private destroySync = () => {
    if (!this.dir || !existsSync(this.dir)) return;
    try {
      const argv = ["-D", `${this.dir}/data`, "-m", "immediate", "stop"];
      if (process.getuid?.() === 0) {
        execFileSync("runuser", ["-u", "postgres", "--", `${this.bin}/pg_ctl`, ...argv], {
          stdio: "ignore",
        });
      } else {
        execFileSync(`${this.bin}/pg_ctl`, argv, { stdio: "ignore" });
      }
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  };

  async destroy() {
    await this.stop().catch(() => {});
    this.destroySync();
    process.off("exit", this.destroySync);
  }
}

type Sample = { op: string; start: number; end: number; status: number; error?: string };

async function pgRestart(): Promise<Report> {
  const report = new Report("pg-restart on a private PostgreSQL cluster");
  const cluster = new PrivateCluster();
  const dataDir = path.join(workRoot, "pg-restart");
  let server: RunningServer | null = null;
  try {
    await cluster.init();
    report.info(
      `cluster: PostgreSQL ${path.basename(path.dirname(cluster.bin))} on 127.0.0.1:${cluster.port} (private, trust)`,
    );
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("create database layerkart_reliability");
    await admin.end();
    const databaseUrl = cluster.url.replace(/\/postgres$/, "/layerkart_reliability");
    await rm(path.join(root, dataDir), { recursive: true, force: true });
    server = await startServer({
      buildDir,
      dataDir,
      databaseUrl,
      seedDemo: "auto",
      logLevel: "warning",
      extraEnv: { AUTH_SECRET, TRUST_PROXY: "1", SERVER_TIMING: "false" },
    });
    const appPid = server.pid;
    const errorLogs: string[] = [];
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (line.includes('"level":"error"')) errorLogs.push(line);
      }
    };
    server.child.stdout?.on("data", collect);
    server.child.stderr?.on("data", collect);
    const target: Target = {
      publicUrl: server.baseUrl,
      outbox: new Outbox(path.join(root, dataDir, "outbox")),
    };
    const ids = await productIds(server.baseUrl, 10);
    const shoppers = Array.from({ length: 3 }, (_, i) => newCustomer("pg", i + 1));
    for (const c of shoppers) await onboard(target, c, [{ productId: ids[0], quantity: 1 }]);

    const t0 = performance.now();
    const samples: Sample[] = [];
    const ready: Array<{ t: number; status: number }> = [];
    let stopping = false;
    const ops = ["/products", "product", "/products", "product", "cart"];
    const worker = async (w: number) => {
      for (let i = 0; !stopping; i++) {
        const op = ops[(w + i) % ops.length];
        const start = performance.now() - t0;
        let status = 0;
        let error: string | undefined;
        try {
          let res: Response;
          if (op === "cart") {
            const c = shoppers[(w + i) % shoppers.length];
            res = await send(target, c, "/api/cart", {
              json: { intent: "set", productId: ids[i % ids.length], quantity: 1 + (i % 3) },
              timeoutMs: 30_000,
            });
          } else {
            const pathname = op === "product" ? `/product/${ids[i % ids.length]}` : op;
            res = await fetch(`${server!.baseUrl}${pathname}`, {
              signal: AbortSignal.timeout(30_000),
            });
          }
          await res.arrayBuffer();
          status = res.status;
        } catch (e) {
          error = errorText(e);
        }
        samples.push({
          op: op === "product" ? "/product/:id" : op === "cart" ? "POST /api/cart" : op,
          start,
          end: performance.now() - t0,
          status,
          error,
        });
        if (status !== 200) await sleep(100);
      }
    };
    const readiness = async () => {
      while (!stopping) {
        let status = 0;
        try {
          const res = await fetch(`${server!.baseUrl}/readyz`, {
            signal: AbortSignal.timeout(10_000),
          });
          await res.arrayBuffer();
          status = res.status;
        } catch {}
        ready.push({ t: performance.now() - t0, status });
        await sleep(100);
      }
    };
    const workers = [...Array.from({ length: 6 }, (_, w) => worker(w)), readiness()];

    const disruptions: Array<{ name: string; from: number; up: number }> = [];
    await sleep(10_000);
    let from = performance.now() - t0;
    await cluster.restart();
    disruptions.push({ name: "pg_ctl restart -m fast", from, up: performance.now() - t0 });
    await sleep(20_000);
    from = performance.now() - t0;
    await cluster.stop();
    await sleep(5_000);
    await cluster.start();
    disruptions.push({
      name: "pg_ctl stop -m fast, 5 s down, start",
      from,
      up: performance.now() - t0,
    });
    await sleep(20_000);
    stopping = true;
    await Promise.all(workers);

    const failed = (s: Sample) => s.status !== 200;
    const before = samples.filter((s) => s.end < disruptions[0].from);
    report.info(
      `load: 6 clients (/products, /product/:id, POST /api/cart signed in) for ${seconds(performance.now() - t0)}: ` +
        `${samples.length} requests, ${samples.filter(failed).length} failed`,
    );
    report.check(
      "steady state before the first restart has no errors",
      !before.some(failed),
      `${before.length} requests`,
    );
    for (const [k, d] of disruptions.entries()) {
      const until = disruptions[k + 1]?.from ?? Number.POSITIVE_INFINITY;
      // A request belongs to the disruption during which it ended.
      const window = samples.filter((s) => s.end >= d.from && s.end < until);
      const bad = window.filter(failed);
      const lastBad = bad.reduce((m, s) => Math.max(m, s.end), d.from);
      const firstOkAfterUp = window
        .filter((s) => !failed(s) && s.start >= d.up)
        .reduce((m, s) => Math.min(m, s.end), Number.POSITIVE_INFINITY);
      const lateBad = bad.filter((s) => s.start >= d.up + 5_000);
      const readyDown = ready.filter((r) => r.t >= d.from && r.t < until && r.status !== 200);
      const readyBack = ready.find(
        (r) => r.t >= d.up && r.status === 200 && r.t > (readyDown.at(-1)?.t ?? 0),
      );
      report.info(
        `${d.name}: database unavailable for ${seconds(d.up - d.from)} (until pg_ctl returned)`,
      );
      report.info(
        `  failed requests: ${bad.length} of ${window.length} (${countBy(bad, (s) => `${s.op} ${s.status || s.error}`)})`,
      );
      report.info(
        `  last failure ended ${seconds(lastBad - d.up)} after pg_ctl returned (negative: before); first success ` +
          `${seconds(firstOkAfterUp - d.up)} after; /readyz non-200 ×${readyDown.length} ` +
          `(${countBy(readyDown, (r) => String(r.status))}), 200 again ${readyBack ? seconds(readyBack.t - d.up) : "never"} after`,
      );
      const buckets: string[] = [];
      for (let s = Math.floor(d.from / 1000) - 1; s <= Math.floor(d.up / 1000) + 4; s++) {
        const inSec = samples.filter((x) => Math.floor(x.end / 1000) === s);
        buckets.push(
          `${s}s ${inSec.filter((x) => !failed(x)).length}/${inSec.filter(failed).length}`,
        );
      }
      report.info(
        `  per second (ok/failed), restart began at ${seconds(d.from)}: ${buckets.join("  ")}`,
      );
      report.check(
        `recovers after "${d.name}" (no failure starting 5 s after the database is back)`,
        lateBad.length === 0,
        `${lateBad.length} late failures`,
      );
      report.check(`/readyz back to 200 after "${d.name}"`, Boolean(readyBack));
    }
    const after = samples.filter((s) => s.start >= disruptions[1].up + 5_000);
    report.check(
      "all request kinds succeed at the end",
      after.length > 0 && !after.some(failed),
      `${after.length} requests (${countBy(after, (s) => s.op)})`,
    );
    const alive = server.child.exitCode === null && server.child.signalCode === null;
    report.check(
      "the app process was never restarted (same pid, still running)",
      alive && server.pid === appPid,
      `pid ${appPid}`,
    );
    report.info(`app error log lines: ${errorLogs.length}: ${logSummary(errorLogs)}`);
  } finally {
    await server?.stop().catch(() => {});
    await cluster.destroy();
    if (!keep) await rm(path.join(root, dataDir), { recursive: true, force: true });
  }
  return report;
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  const scenarios: Scenario[] =
    scenarioArg === "all" ? [...SCENARIOS] : (scenarioArg.split(",") as Scenario[]);
  for (const s of scenarios) {
    if (!SCENARIOS.includes(s))
      throw new Error(`unknown scenario ${s}: ${SCENARIOS.join("|")}|all`);
  }
  const kinds: DbKind[] = dbArg === "both" ? ["pglite", "postgres"] : [dbArg as DbKind];
  if (!existsSync(path.join(root, buildDir, "server/index.js"))) {
    throw new Error(`no build in ${buildDir}: BUILD_DIR=${buildDir} npx react-router build`);
  }
  // server/index.ts runs from the tree and destructures the build's entry: they must match.
  const built = statSync(path.join(root, buildDir, "server/index.js")).mtimeMs;
  if (statSync(path.join(root, "server/index.ts")).mtimeMs > built) {
    console.log(
      `!! server/index.ts changed after ${buildDir} was built: rebuild if the server fails`,
    );
  }
  const cpus = os.cpus();
  console.log(
    `LayerKart reliability, ${new Date().toISOString()}, ${cpus[0]?.model} × ${cpus.length}, ` +
      `Node ${process.version}, build ${buildDir}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  await mkdir(path.join(root, workRoot), { recursive: true });
  const reports: Report[] = [];
  const run = async (title: string, fn: () => Promise<Report>) => {
    try {
      reports.push(await fn());
    } catch (error) {
      // A scenario that can't finish is a failure too; the others still run.
      const report = new Report(`${title} (did not finish)`);
      report.check("scenario ran to the end", false, (error as Error)?.stack ?? String(error));
      reports.push(report);
    }
  };
  for (const scenario of scenarios) {
    if (scenario === "pg-restart") {
      await run("pg-restart", pgRestart);
      continue;
    }
    for (const kind of kinds) {
      if (scenario === "kill-checkout")
        await run(`kill-checkout on ${kind}`, () => killCheckout(kind));
      if (scenario === "kill-webhook")
        await run(`kill-webhook on ${kind}`, () => killWebhook(kind));
      if (scenario === "race") await run(`race on ${kind}`, () => race(kind));
    }
  }
  console.log("\n=== summary ===");
  for (const r of reports) {
    const failed = r.checks.filter((c) => !c.ok);
    console.log(
      `  ${r.failed ? "FAIL" : "PASS"}  ${r.title}: ${r.checks.length - failed.length}/${r.checks.length} checks` +
        (r.gaps.length ? `, ${r.gaps.length} known gap(s)` : "") +
        (failed.length ? ` — failed: ${failed.map((c) => c.name).join("; ")}` : ""),
    );
  }
  process.exitCode = reports.some((r) => r.failed) ? 1 : 0;
}

await main();
