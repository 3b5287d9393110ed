/**
 * HTTP throughput and latency of the server-rendered storefront pages, with autocannon against
 * the built server in production mode on a free port of 127.0.0.1.
 *
 *   # a data set prepared by bench/prepare.ts (PGlite: the folder; PostgreSQL: folder + URL)
 *   node bench/http.ts --data-dir .tmp/bench/pglite
 *   node bench/http.ts --data-dir .tmp/bench/postgres --database-url postgres://…/layerkart_bench_x
 *   # or everything from scratch (PostgreSQL: a fresh database, dropped afterwards)
 *   node bench/http.ts --fresh pglite
 *   node bench/http.ts --fresh postgres
 *
 * Options: --duration 15 (s per page, at most 15), --connections 10, --warmup 3 (s),
 * --ids 20 (product ids, round-robin), --count 10000 (with --fresh), --deep-page (also
 * /products?page=200), --extra /contact,/healthz (more single paths, e.g. baselines), --encoding "gzip, deflate, br, zstd" (Accept-Encoding; "identity" for none),
 * --build-dir .tmp/build-bench, --json FILE (write the results), --rendered (every request
 * carries a cookie the page cache doesn't know, so each page is rendered: the cost without the
 * cache), --bare (after each page, the same load against a bare `node:http` server,
 * bench/bare-server.ts, sending the very bytes and headers the shop sent for it: the ceiling a
 * page cache hit is compared with; the two take turns, 3 rounds of duration/3 each, after each
 * one's CPU use is measured idle for 3 s: the shop's background work), --signed-in
 * (every request carries the session cookie of a customer the script registers, with 3
 * favourites on the first listing page and 3 items in the cart: the page a signed-in customer
 * gets; the query count and HTML size are then that customer's).
 *
 * The query count is always the render's (a request the page cache can't answer); "served"
 * says where the measured requests were answered from (X-Page-Cache after the warm-up).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import {
  customerCookie,
  dropDatabase,
  freePort,
  parseArgs,
  productIds,
  queryCount,
  type RunningServer,
  root,
  startServer,
} from "./lib.ts";
import { prepare } from "./prepare.ts";

const args = parseArgs();
const duration = Math.min(15, Number(args.get("duration") ?? 15));
const connections = Number(args.get("connections") ?? 10);
const warmup = Number(args.get("warmup") ?? 3);
const idCount = Number(args.get("ids") ?? 20);
const encoding = args.get("encoding") ?? "gzip, deflate, br, zstd";
const buildDir = args.get("build-dir");
const fresh = args.get("fresh");
const rendered = args.has("rendered");
const bare = args.has("bare");
const signedIn = args.has("signed-in");
/** An unknown cookie: the page cache answers no request that carries one. */
const RENDER_COOKIE = "bench=render";
/**
 * The cookie every measured request carries: none (visitors, page cache), RENDER_COOKIE
 * (--rendered), or a signed-in customer's session with favourites and a cart (--signed-in).
 */
let loadCookie: string | null = rendered ? RENDER_COOKIE : null;

type Target = { label: string; paths: string[] };
type Row = {
  page: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  queries: string;
  /** Queries per page for the signed-in demo admin (not load-tested). */
  signedInQueries: string;
  /** The server process's CPU time (user + system) per request: contention-free cost. */
  cpuMsPerRequest: number;
  /** X-Page-Cache of a request like the measured ones, after the warm-up ("hit", or "rendered"). */
  served: string;
  contentEncoding: string;
  htmlBytes: number;
  /** With --bare: the same load against a bare node:http server sending the same bytes. */
  bare?: {
    requestsPerSecond: number;
    p50: number;
    p99: number;
    cpuMsPerRequest: number;
    /** CPU ms per second each process used with no requests, just before the rounds. */
    idleShop: number;
    idleBare: number;
  };
};

/**
 * CPU ms per second a process uses while nobody asks it anything: the shop's background work
 * (job and reconciliation loops, timers, garbage collection after start-up), which a bare server
 * doesn't have and which a busy machine's slow rounds add to the shop's CPU per request.
 */
async function idleCpu(pid: number, seconds = 3): Promise<number> {
  const before = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return Math.round(((cpuSeconds(pid) - before) * 1000) / seconds);
}

/** CPU seconds (user + system, all threads) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[11] = utime, fields[12] = stime (14th and 15th of the whole line), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A session cookie for the demo admin (bench/prepare.ts seeds it with this password). */
async function signIn(baseUrl: string): Promise<string | null> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email: "admin@example.com", password: "bench-admin-password" }),
  });
  await res.arrayBuffer();
  if (!res.ok) return null;
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function signedInCounts(baseUrl: string, paths: string[], cookie: string | null) {
  if (!cookie) return "n/a";
  const counts: number[] = [];
  for (const p of paths) {
    const res = await fetch(baseUrl + p, { headers: { cookie, "accept-encoding": "identity" } });
    await res.arrayBuffer();
    counts.push(queryCount(res.headers.get("server-timing")) ?? Number.NaN);
  }
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  return min === max ? String(min) : `${min}–${max}`;
}

async function probe(baseUrl: string, paths: string[]) {
  const counts: number[] = [];
  let contentEncoding = "";
  let htmlBytes = 0;
  for (const p of paths) {
    const res = await fetch(baseUrl + p, {
      headers: { "accept-encoding": "identity", cookie: loadCookie ?? RENDER_COOKIE },
    });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status}`);
    const n = queryCount(res.headers.get("server-timing"));
    if (n === null) throw new Error(`${p}: no Server-Timing db query count`);
    counts.push(n);
    htmlBytes = Math.max(htmlBytes, body.byteLength);
  }
  // What a browser-like Accept-Encoding gets back (Node's fetch decodes the body itself).
  const res = await fetch(baseUrl + paths[0], { headers: { "accept-encoding": encoding } });
  await res.arrayBuffer();
  contentEncoding = res.headers.get("content-encoding") ?? "none";
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  return { queries: min === max ? String(min) : `${min}–${max}`, contentEncoding, htmlBytes };
}

/** Where a request like the measured ones is answered from. */
async function servedFrom(baseUrl: string, p: string): Promise<string> {
  const res = await fetch(baseUrl + p, {
    headers: { "accept-encoding": encoding, ...(loadCookie ? { cookie: loadCookie } : {}) },
  });
  await res.arrayBuffer();
  return res.headers.get("x-page-cache") ?? "rendered";
}

/** The exact status, headers and (still compressed) body the shop sends for a path. */
function rawResponse(baseUrl: string, p: string) {
  return new Promise<{ headers: Array<[string, string]>; body: Buffer }>((resolve, reject) => {
    const req = http.get(
      `${baseUrl}${p}`,
      {
        headers: {
          "accept-encoding": encoding,
          accept: "text/html",
          ...(loadCookie ? { cookie: loadCookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`${p}: HTTP ${res.statusCode}`));
          const headers: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] as string;
            // Node's own (the bare server's Node adds its own).
            if (/^(date|connection|keep-alive|transfer-encoding)$/i.test(name)) continue;
            headers.push([name, res.rawHeaders[i + 1] as string]);
          }
          resolve({ headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
  });
}

/** A bare node:http server (bench/bare-server.ts) answering `paths` as the shop just did. */
async function startBare(baseUrl: string, paths: string[]) {
  const responses: Record<string, { headers: Array<[string, string]>; body: string }> = {};
  for (const p of paths) {
    const r = await rawResponse(baseUrl, p);
    responses[p] = { headers: r.headers, body: r.body.toString("base64") };
  }
  const dir = path.resolve(root, ".tmp/bench");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bare-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ responses }));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(root, "bench/bare-server.ts"), file, String(port)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  process.once("exit", () => child.kill("SIGTERM"));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function load(baseUrl: string, paths: string[], seconds: number) {
  let next = 0;
  return autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    headers: {
      "accept-encoding": encoding,
      accept: "text/html",
      ...(loadCookie ? { cookie: loadCookie } : {}),
    },
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      },
    ],
  });
}

async function benchServer(server: RunningServer, dataDir: string): Promise<Row[]> {
  if (signedIn) {
    const session = await customerCookie(server.baseUrl, path.resolve(root, dataDir, "outbox"), 3);
    loadCookie = `${session}; lk_cart_count=3`;
  }
  const ids = await productIds(server.baseUrl, idCount);
  const targets: Target[] = [
    { label: "/products", paths: ["/products"] },
    { label: `/product/:id (${ids.length} ids)`, paths: ids.map((id) => `/product/${id}`) },
  ];
  if (args.has("deep-page"))
    targets.push({ label: "/products?page=200", paths: ["/products?page=200"] });
  for (const p of (args.get("extra") ?? "").split(",").filter(Boolean)) {
    targets.push({ label: p, paths: [p] });
  }
  const rows: Row[] = [];
  const cookie = await signIn(server.baseUrl);
  for (const t of targets) {
    const info = await probe(server.baseUrl, t.paths);
    const signedInQueries = await signedInCounts(server.baseUrl, t.paths, cookie);
    if (warmup > 0) await load(server.baseUrl, t.paths, warmup);
    const served = await servedFrom(server.baseUrl, t.paths[0] as string);
    // With --bare, the shop and the bare server take turns (3 rounds each), so that the others'
    // load on a shared machine falls on both alike.
    const baseline = bare ? await startBare(server.baseUrl, t.paths) : null;
    try {
      if (baseline && warmup > 0) await load(baseline.baseUrl, t.paths, warmup);
      const idle = baseline
        ? { shop: await idleCpu(server.pid), bare: await idleCpu(baseline.pid) }
        : null;
      const rounds = baseline ? 3 : 1;
      const shop: Measured[] = [];
      const base: Measured[] = [];
      for (let i = 0; i < rounds; i++) {
        shop.push(await measure(server.baseUrl, server.pid, t.paths, duration / rounds));
        if (baseline) {
          base.push(await measure(baseline.baseUrl, baseline.pid, t.paths, duration / rounds));
        }
      }
      const r = combine(shop);
      const row: Row = { page: t.label, ...r, signedInQueries, served, ...info };
      rows.push(row);
      console.log(
        `${row.page}: ${row.requestsPerSecond} req/s, p50 ${row.p50} ms, p97.5 ${row.p97_5} ms, p99 ${row.p99} ms, max ${row.max} ms, ${row.queries} queries/page (signed in: ${row.signedInQueries}), server CPU ${row.cpuMsPerRequest} ms/request, served: ${row.served}, non-2xx ${row.non2xx}, errors ${row.errors}`,
      );
      if (baseline && idle) {
        const b = combine(base);
        if (b.non2xx > 0 || b.errors > 0) throw new Error(`bare server: ${b.non2xx} non-2xx`);
        row.bare = {
          requestsPerSecond: b.requestsPerSecond,
          p50: b.p50,
          p99: b.p99,
          cpuMsPerRequest: b.cpuMsPerRequest,
          idleShop: idle.shop,
          idleBare: idle.bare,
        };
        console.log(
          `  bare node:http, same bytes: ${b.requestsPerSecond} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms, CPU ${b.cpuMsPerRequest} ms/request; shop/bare ${Math.round((100 * row.requestsPerSecond) / b.requestsPerSecond)} % (rounds: shop ${shop.map((m) => Math.round(m.requests / m.seconds)).join(", ")}; bare ${base.map((m) => Math.round(m.requests / m.seconds)).join(", ")}); idle CPU: shop ${idle.shop} ms/s, bare ${idle.bare} ms/s`,
        );
      }
    } finally {
      await baseline?.stop();
    }
  }
  return rows;
}

type Measured = {
  seconds: number;
  requests: number;
  cpu: number;
  result: autocannon.Result;
};

async function measure(baseUrl: string, pid: number, paths: string[], seconds: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await load(baseUrl, paths, seconds);
  return {
    seconds,
    requests: result.requests.total,
    cpu: cpuSeconds(pid) - cpuBefore,
    result,
  } satisfies Measured;
}

/** Rounds of one server: rates over all of them, the median's mean, the tails' worst. */
function combine(rounds: Measured[]) {
  const requests = rounds.reduce((a, m) => a + m.requests, 0);
  const seconds = rounds.reduce((a, m) => a + m.seconds, 0);
  const cpu = rounds.reduce((a, m) => a + m.cpu, 0);
  const worst = (f: (r: autocannon.Result) => number) =>
    Math.max(...rounds.map((m) => f(m.result)));
  const sum = (f: (r: autocannon.Result) => number) => rounds.reduce((a, m) => a + f(m.result), 0);
  return {
    requestsPerSecond: Math.round(requests / seconds),
    p50: Math.round((10 * sum((r) => r.latency.p50)) / rounds.length) / 10,
    p97_5: worst((r) => r.latency.p97_5),
    p99: worst((r) => r.latency.p99),
    max: worst((r) => r.latency.max),
    requests,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    cpuMsPerRequest: Math.round((cpu * 1000 * 100) / Math.max(1, requests)) / 100,
  };
}

function table(rows: Row[]) {
  const lines = [
    "| page | served | req/s | p50 ms | p97.5 ms | p99 ms | max ms | requests | non-2xx/errors | DB queries per render (signed in) | server CPU ms/req | HTML KB (encoding) |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.page} | ${r.served} | ${r.requestsPerSecond} | ${r.p50} | ${r.p97_5} | ${r.p99} | ${r.max} | ${r.requests} | ${r.non2xx}/${r.errors + r.timeouts} | ${r.queries} (${r.signedInQueries}) | ${r.cpuMsPerRequest} | ${(r.htmlBytes / 1024).toFixed(1)} (${r.contentEncoding}) |`,
    );
  }
  if (rows.some((r) => r.bare)) {
    lines.push(
      "",
      "| page | shop req/s | bare node:http req/s | shop / bare | shop p99 ms | bare p99 ms | shop CPU ms/req | bare CPU ms/req | idle CPU ms/s shop / bare |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of rows) {
      if (!r.bare) continue;
      lines.push(
        `| ${r.page} | ${r.requestsPerSecond} | ${r.bare.requestsPerSecond} | ${Math.round((100 * r.requestsPerSecond) / r.bare.requestsPerSecond)} % | ${r.p99} | ${r.bare.p99} | ${r.cpuMsPerRequest} | ${r.bare.cpuMsPerRequest} | ${r.bare.idleShop} / ${r.bare.idleBare} |`,
      );
    }
  }
  return lines.join("\n");
}

async function main() {
  let dataDir = args.get("data-dir");
  let databaseUrl = args.get("database-url") ?? process.env.DATABASE_URL ?? undefined;
  let dropAfter: string | undefined;
  if (fresh) {
    if (fresh !== "pglite" && fresh !== "postgres") throw new Error("--fresh pglite|postgres");
    const prepared = await prepare({
      db: fresh,
      dataDir: dataDir ?? `.tmp/bench/${fresh}-fresh`,
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
    const server = await startServer({ dataDir, databaseUrl, buildDir });
    console.log(
      `server pid ${server.pid} at ${server.baseUrl} on ${databaseUrl ? "PostgreSQL" : "PGlite"}; load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
    let rows: Row[];
    try {
      rows = await benchServer(server, dataDir);
    } finally {
      await server.stop();
    }
    const db = databaseUrl ? "PostgreSQL" : "PGlite";
    console.log(`\n${db}, ${connections} connections, ${duration} s per page:\n${table(rows)}`);
    const jsonFile = args.get("json");
    if (jsonFile) {
      writeFileSync(
        path.resolve(root, jsonFile),
        JSON.stringify({ db, connections, duration, encoding, rows }, null, 2),
      );
    }
  } finally {
    if (dropAfter) {
      await dropDatabase(dropAfter);
      console.log("dropped the bench database");
    }
  }
}

await main();
