/**
 * Shared helpers for the bench scripts: argument parsing, starting and stopping the built server,
 * and throw-away PostgreSQL databases. Only for bench/: the app never imports this.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import pg from "pg";

// Ctrl-C or a kill: exit normally, so "exit" handlers stop the servers this script started.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => process.exit(130));
}

export const root = path.resolve(import.meta.dirname, "..");
export const defaultBuildDir = ".tmp/build-bench";
export const defaultPostgresAdminUrl = "postgres://postgres@127.0.0.1:5432/postgres";

/** Chromium flags for headless runs on this machine (no sandbox, no network chatter). */
export const chromeFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
export const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/** `--name value` and `--flag` arguments into a map. */
export function parseArgs(argv = process.argv.slice(2)): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument: ${a}`);
    const eq = a.indexOf("=");
    if (eq > 0) {
      out.set(a.slice(2, eq), a.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
      out.set(a.slice(2), argv[++i]);
    } else {
      out.set(a.slice(2), "true");
    }
  }
  return out;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type ServerOptions = {
  /** DATA_DIR: uploads (product images) and, without databaseUrl, the PGlite folder. */
  dataDir: string;
  databaseUrl?: string;
  buildDir?: string;
  seedDemo?: "auto" | "never";
  /** Host name used in PUBLIC_URL and the returned base URL (the server listens on 127.0.0.1). */
  publicHost?: string;
  logLevel?: "verbose" | "info" | "warning" | "error";
  /** Extra environment, e.g. NODE_OPTIONS for a CPU profile. */
  extraEnv?: Record<string, string>;
  /** Print the server's output (default: only when it fails to start). */
  verbose?: boolean;
};

export type RunningServer = {
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  stop: () => Promise<void>;
};

/**
 * How long a server may take to answer /readyz (a first start migrates and draws the demo
 * images: minutes on a shared, busy machine). BENCH_READY_TIMEOUT_S changes it.
 */
const readyTimeoutSeconds = Number(process.env.BENCH_READY_TIMEOUT_S) || 120;

/** Starts the built server in production mode on a free port and waits for /readyz. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const buildDir = options.buildDir ?? defaultBuildDir;
  if (!existsSync(path.resolve(root, buildDir, "server/index.js"))) {
    throw new Error(
      `no build in ${buildDir}: run \`BUILD_DIR=${buildDir} npx react-router build\` first`,
    );
  }
  const port = await freePort();
  const host = options.publicHost ?? "127.0.0.1";
  const baseUrl = `http://${host}:${port}`;
  // SERVER_ENTRY runs another copy of the server (an older one, to compare), as in tests/support.
  const entry = path.resolve(root, process.env.SERVER_ENTRY ?? "server/index.ts");
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATA_DIR: path.resolve(root, options.dataDir),
      DATABASE_URL: options.databaseUrl ?? "",
      BUILD_DIR: buildDir,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      DEMO_ADMIN_EMAIL: "admin@example.com",
      DEMO_ADMIN_PASSWORD: "bench-admin-password",
      ALLOW_SANDBOX_PAYMENTS: "true",
      // The query counts the benches record come from this header.
      SERVER_TIMING: "true",
      SEED_DEMO: options.seedDemo ?? "never",
      ALLOW_DEMO_SEED: "true",
      LOG_LEVEL: options.logLevel ?? "warning",
      ...options.extraEnv,
    },
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    const s = chunk.toString();
    if (options.verbose) process.stderr.write(s);
    else if (output.length < 20_000) output += s;
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let exited: number | null | undefined;
  // If this script dies (an exception, Ctrl-C), the server goes with it.
  const killOnExit = () => {
    if (exited === undefined) child.kill("SIGTERM");
  };
  process.once("exit", killOnExit);
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", (code) => {
      exited = code;
      process.off("exit", killOnExit);
      resolve();
    });
  });

  const started = Date.now();
  for (;;) {
    if (exited !== undefined) {
      throw new Error(`server exited (code ${exited}) before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > readyTimeoutSeconds * 1000) {
      child.kill("SIGTERM");
      throw new Error(`server not ready after ${readyTimeoutSeconds} s:\n${output}`);
    }
    await sleep(200);
  }

  const stop = async () => {
    if (exited !== undefined) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 8_000);
    await exitPromise;
    clearTimeout(timer);
  };
  return { baseUrl, pid: child.pid ?? -1, child, stop };
}

/** Runs a bench script (a .ts file beside this one) with the same Node; rejects on failure. */
export function runScript(script: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bench", script), ...args], {
      cwd: root,
      stdio: "inherit",
    });
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

/** A new, empty database on the PostgreSQL server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl = defaultPostgresAdminUrl): Promise<string> {
  const name = `layerkart_bench_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(databaseUrl: string, adminUrl = defaultPostgresAdminUrl) {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^layerkart_bench_[a-z0-9]+$/.test(name)) {
    throw new Error(`refusing to drop ${name}: not a bench database`);
  }
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
}

/** `db;desc="N queries"` from a Server-Timing header; null when absent. */
export function queryCount(serverTiming: string | null): number | null {
  const m = serverTiming?.match(/db;desc="(\d+) queries"/);
  return m ? Number(m[1]) : null;
}

/**
 * Active product ids from the /products listing (its links to /product/:id), taken from pages
 * spread over the whole catalogue so the bench doesn't only read the newest rows.
 */
export async function productIds(baseUrl: string, max = 20): Promise<string[]> {
  const first = await fetch(`${baseUrl}/products`);
  const firstHtml = await first.text();
  // "9519<!-- --> <!-- -->products": React puts comments between text parts.
  const total = Number(
    firstHtml.match(/([\d,]+)(?:<!-- -->)?\s*(?:<!-- -->)?products?</)?.[1]?.replace(/,/g, "") ??
      24,
  );
  const pages = Math.max(1, Math.ceil(total / 24));
  const wanted = Math.min(max, pages);
  const ids: string[] = [];
  for (let k = 0; k < wanted; k++) {
    const page = 1 + Math.floor((k * pages) / wanted);
    const html =
      page === 1 ? firstHtml : await (await fetch(`${baseUrl}/products?page=${page}`)).text();
    const found = [...html.matchAll(/\/product\/([0-9a-f-]{36})/g)].map((m) => m[1]);
    const id = found.find((x) => !ids.includes(x));
    if (id) ids.push(id);
  }
  if (ids.length === 0) throw new Error("no product links found on /products");
  return ids;
}

/**
 * Registers a verified customer through the shop's own endpoints (the verification link from the
 * outbox), puts two products in their stored cart, saves an address, marks `favourites` products
 * as favourites, and returns their cookie.
 */
export async function customerCookie(
  baseUrl: string,
  outbox: string,
  favourites = 0,
): Promise<string> {
  const email = `bench-${Date.now()}@example.com`;
  const password = "bench-lighthouse-password";
  const json = { "content-type": "application/json", origin: baseUrl };
  const post = async (url: string, body: string, headers: Record<string, string>) => {
    const res = await fetch(baseUrl + url, { method: "POST", headers, body });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return res;
  };
  await post(
    "/api/auth/sign-up/email",
    JSON.stringify({ name: "Lighthouse Customer", email, password }),
    json,
  );
  let link: string | undefined;
  for (let attempt = 0; !link && attempt < 40; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, 250));
    for (const file of (await readdir(outbox)).filter((f) => f.endsWith(".eml"))) {
      const raw = await readFile(path.join(outbox, file), "utf8");
      if (!raw.includes(email)) continue;
      link = (await simpleParser(raw)).text?.match(/https?:\/\/\S*verify-email\S*/)?.[0];
    }
  }
  if (!link) throw new Error(`no verification e-mail for ${email} in ${outbox}`);
  const verified = await fetch(link, { redirect: "manual" });
  await verified.arrayBuffer();
  if (verified.status >= 400) throw new Error(`verification link: HTTP ${verified.status}`);
  const signedIn = await post("/api/auth/sign-in/email", JSON.stringify({ email, password }), json);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const lines = (await productIds(baseUrl, 2)).map((productId, i) => ({
    productId,
    quantity: i + 1,
  }));
  await post("/api/cart", JSON.stringify({ intent: "set-all", lines }), { ...json, cookie });
  await post(
    "/addresses",
    new URLSearchParams({
      intent: "save",
      label: "Home",
      name: "Lighthouse Customer",
      line1: "12 MG Road",
      city: "Bengaluru",
      state: "Karnataka",
      postalCode: "560001",
      country: "India",
      phone: "9876543210",
    }).toString(),
    { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
  );
  // Favourites from the first listing page, so /products shows some of them as such.
  const listing = await (await fetch(`${baseUrl}/products`)).text();
  const firstPage = [
    ...new Set([...listing.matchAll(/\/product\/([0-9a-f-]{36})/g)].map((m) => m[1])),
  ];
  for (const productId of firstPage.slice(0, favourites)) {
    await post("/api/favourites", new URLSearchParams({ intent: "add", productId }).toString(), {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      cookie,
    });
  }
  const checkout = await fetch(`${baseUrl}/checkout`, { headers: { cookie }, redirect: "manual" });
  await checkout.arrayBuffer();
  if (checkout.status !== 200)
    throw new Error(`/checkout for the customer: HTTP ${checkout.status}`);
  return cookie;
}
