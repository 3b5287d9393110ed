/**
 * Where the server's CPU time goes while it serves one page under load: starts the built server
 * with a V8 CPU profile (--cpu-prof), runs autocannon against the page, stops the server and prints
 * the self time by package/file and the hottest functions.
 *
 *   node bench/profile.ts --data-dir .tmp/bench/pglite [--database-url URL] --path /products
 *        [--duration 10] [--connections 10] [--top 25] [--signed-in]
 *
 * --signed-in: every request carries the session cookie of a customer the script registers (3
 * favourites, 3 items in the cart), so every request is rendered as for a signed-in customer.
 *
 * The raw profile is kept in .tmp/bench/profiles/ (open it in Chromium DevTools' Performance tab).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { customerCookie, parseArgs, productIds, root, startServer } from "./lib.ts";

const args = parseArgs();
const dataDir = args.get("data-dir");
if (!dataDir) throw new Error("--data-dir DIR required");
const databaseUrl = args.get("database-url");
let pagePath = args.get("path") ?? "/products";
const duration = Math.min(15, Number(args.get("duration") ?? 10));
const connections = Number(args.get("connections") ?? 10);
const top = Number(args.get("top") ?? 25);
const encoding = args.get("encoding") ?? "gzip, deflate, br, zstd";
const profileDir = path.join(root, ".tmp/bench/profiles");
rmSync(profileDir, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });

const server = await startServer({
  dataDir,
  databaseUrl,
  buildDir: args.get("build-dir"),
  extraEnv: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` },
});
let result: autocannon.Result;
let loadStarted = 0;
let stopped = 0;
try {
  if (pagePath === "product") pagePath = `/product/${(await productIds(server.baseUrl, 1))[0]}`;
  const cookie = args.has("signed-in")
    ? `${await customerCookie(server.baseUrl, path.resolve(root, dataDir, "outbox"), 3)}; lk_cart_count=3`
    : undefined;
  loadStarted = Date.now();
  result = await autocannon({
    url: server.baseUrl + pagePath,
    connections,
    duration,
    headers: { "accept-encoding": encoding, ...(cookie ? { cookie } : {}) },
  });
} finally {
  await server.stop();
  stopped = Date.now();
}
console.log(
  `${pagePath}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (with profiling on)`,
);

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};
const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no .cpuprofile written (did the server exit cleanly?)");
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Only the load window: start-up (module loading, migrations) and shutdown are left out. The
// profile ends when the process exits, just before `stopped`.
const windowStart = profile.endTime - (stopped - loadStarted) * 1000;
const selfUs = new Map<number, number>();
let t = profile.startTime;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i] ?? 0;
  if (t < windowStart) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

function area(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return url;
  return path.relative(root, url.replace(/^file:\/\//, ""));
}

const byArea = new Map<string, number>();
const byFn = new Map<string, number>();
let total = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const { functionName, url, lineNumber } = n.callFrame;
  if (functionName === "(idle)") continue;
  total += us;
  const a = area(url, functionName);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
  const key = `${functionName || "(anonymous)"}  ${a}:${lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
console.log(
  `\nbusy main-thread time during the load: ${(total / 1e6).toFixed(1)} s of ${((stopped - loadStarted) / 1000).toFixed(1)} s\n\nself time by area:`,
);
for (const [a, us] of [...byArea].sort((x, y) => y[1] - x[1]).slice(0, top)) {
  console.log(`${pct(us)}  ${a}`);
}
console.log("\nhottest functions (self time):");
for (const [f, us] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, top)) {
  console.log(`${pct(us)}  ${f}`);
}
console.log(`\nprofile: ${path.relative(root, path.join(profileDir, file))}`);
