/**
 * Lighthouse (mobile, the default form factor and simulated throttling) on the home page,
 * /products, a product page, /cart and /checkout, with Debian's Chromium. Prints the four category scores per page,
 * the performance metrics, and for every category below its target the audits that are not
 * passed, with their details (elements, resources), so they can be fixed.
 *
 *   node bench/lighthouse.ts --data-dir .tmp/bench/pglite       (starts the built server itself)
 *   node bench/lighthouse.ts --base-url http://localhost:3000   (a server that is already running)
 *
 * Options: --runs 1 (per page; the run with the median performance score is reported),
 * --database-url URL (with --data-dir), --pages /,/products,product,/cart,/checkout ("product" =
 * the first product on /products), --build-dir .tmp/build-bench. Reports: .tmp/bench/lighthouse/*.json.
 *
 * /cart and /checkout are measured signed in, for a customer with two products in the stored cart
 * and a saved address (else /checkout redirects): for those two pages Lighthouse attaches to a
 * fresh Chromium whose cookie jar holds that customer's session (set over the DevTools protocol). With --data-dir the script registers such a customer
 * itself (sign-up, the verification link from DATA_DIR/outbox, sign-in, /api/cart, /addresses);
 * with --base-url give --cookie "name=value; …" of such a customer, or --outbox DIR (the running
 * server's DATA_DIR/outbox) to let it register one. The data set gains that customer.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  chromeFlags,
  chromePath,
  customerCookie,
  freePort,
  parseArgs,
  productIds,
  root,
  startServer,
} from "./lib.ts";

const args = parseArgs();
const runs = Number(args.get("runs") ?? 1);
const outDir = path.join(root, ".tmp/bench/lighthouse");
mkdirSync(outDir, { recursive: true });

const targets = { performance: 0.95, accessibility: 1, "best-practices": 1, seo: 1 } as const;
type CategoryId = keyof typeof targets;

type Audit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  details?: {
    type: string;
    headings?: Array<{ key: string | null; label?: string | { formattedDefault?: string } }>;
    items?: Array<Record<string, unknown>>;
  };
};
type Lhr = {
  finalDisplayedUrl: string;
  runWarnings: string[];
  categories: Record<
    CategoryId,
    { score: number | null; auditRefs: Array<{ id: string; weight: number; group?: string }> }
  >;
  audits: Record<string, Audit>;
};

/** Lighthouse now and then fails to record a trace (NO_NAVSTART); such a run is tried again. */
async function runLighthouse(url: string, file: string, cookie?: string): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    try {
      return cookie
        ? await withCookieBrowser(url, cookie, (port) => runLighthouseOnce(url, file, port))
        : await runLighthouseOnce(url, file);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`  (retrying: ${(error as Error).message})`);
    }
  }
}

/**
 * A fresh Chromium (empty profile, so a cold cache) whose cookie jar holds `cookie` for `url`'s
 * origin: the page's own requests (fetches to /api/cart too) then carry the session as a
 * browser's would. Lighthouse attaches to it with --port and --disable-storage-reset (a storage
 * reset would delete the cookie).
 */
async function withCookieBrowser<T>(
  url: string,
  cookie: string,
  run: (port: number) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), "lighthouse-chrome-"));
  const chrome = spawn(
    chromePath,
    [
      ...chromeFlags,
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  try {
    let wsUrl = "";
    for (let i = 0; !wsUrl && i < 100; i++) {
      try {
        const version = await fetch(`http://127.0.0.1:${port}/json/version`);
        wsUrl = ((await version.json()) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!wsUrl) throw new Error("Chromium's DevTools endpoint did not come up");
    const cookies = cookie.split("; ").map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url, httpOnly: true };
    });
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      ws.onopen = () =>
        ws.send(JSON.stringify({ id: 1, method: "Storage.setCookies", params: { cookies } }));
      ws.onmessage = (event) => {
        const reply = JSON.parse(String(event.data)) as { id?: number; error?: unknown };
        if (reply.id !== 1) return;
        ws.close();
        if (reply.error) reject(new Error(`Storage.setCookies: ${JSON.stringify(reply.error)}`));
        else resolve();
      };
      ws.onerror = () => reject(new Error("DevTools WebSocket failed"));
    });
    return await run(port);
  } finally {
    chrome.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    rmSync(profile, { recursive: true, force: true });
  }
}

function runLighthouseOnce(url: string, file: string, port?: number): Promise<Lhr> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "node_modules/lighthouse/cli/index.js"),
        url,
        "--quiet",
        "--output=json",
        `--output-path=${file}`,
        "--only-categories=performance,accessibility,best-practices,seo",
        ...(port
          ? [`--port=${port}`, "--disable-storage-reset"]
          : [`--chrome-flags=${chromeFlags.join(" ")}`]),
      ],
      {
        cwd: root,
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, CHROME_PATH: chromePath },
      },
    );
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with ${code} for ${url}`));
      resolve(JSON.parse(readFileSync(file, "utf8")) as Lhr);
    });
  });
}

const clip = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** One table cell of an audit's details, readable as plain text. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(Math.round(value));
  if (typeof value === "string") return clip(value.replace(/\s+/g, " "));
  if (typeof value === "object") {
    const v = value as Record<string, unknown>;
    if (v.type === "node") {
      return clip(
        `${v.selector ?? ""} ${String(v.snippet ?? "")}`.trim().replace(/\s+/g, " "),
        220,
      );
    }
    if (v.type === "source-location") return `${v.url}:${Number(v.line) + 1}`;
    if (v.type === "url") return String(v.value);
    if (v.type === "code") return clip(String(v.value));
    if (typeof v.text === "string") return clip(v.text);
  }
  return clip(JSON.stringify(value));
}

type Details = NonNullable<Audit["details"]>;
type TreeNode = {
  url: string;
  navStartToEndTime: number;
  transferSize: number;
  isLongest?: boolean;
  children?: Record<string, TreeNode>;
};

/** The critical request chain of a network-tree, longest branch first, as indented lines. */
function treeLines(chains: Record<string, TreeNode>, depth: number): string[] {
  const out: string[] = [];
  const nodes = Object.values(chains).sort((a, b) => b.navStartToEndTime - a.navStartToEndTime);
  for (const n of nodes.slice(0, 6)) {
    out.push(
      `${"  ".repeat(depth)}        · ${new URL(n.url).pathname} (ends at ${Math.round(n.navStartToEndTime)} ms, ${(n.transferSize / 1024).toFixed(1)} KB)`,
    );
    if (n.children) out.push(...treeLines(n.children, depth + 1));
  }
  if (nodes.length > 6) out.push(`${"  ".repeat(depth)}        · … ${nodes.length - 6} more`);
  return out;
}

function detailLines(d: Details | undefined): string[] {
  const lines: string[] = [];
  // Some audits' details (a checklist) hold their items in an object, not a list: nothing to list.
  const items = Array.isArray(d?.items) ? d.items : [];
  if (d?.type === "list") {
    // Insight audits: a list of tables, nodes and sections.
    for (const item of items) {
      if (item.type === "table" || item.type === "opportunity") {
        lines.push(...detailLines(item as unknown as Details));
      } else if (item.type === "node") {
        lines.push(`        · element: ${cell(item)}`);
      } else if (item.type === "list-section") {
        const value = item.value as { type?: string; chains?: Record<string, TreeNode> };
        if (value?.type === "network-tree" && value.chains)
          lines.push(...treeLines(value.chains, 0));
        else if (item.title) lines.push(`        · ${cell(item.title)}: ${cell(value)}`);
      }
    }
    return lines;
  }
  const keys = (d?.headings ?? []).map((h) => h.key).filter((k): k is string => Boolean(k));
  for (const item of items.slice(0, 10)) {
    const fields = (keys.length > 0 ? keys : Object.keys(item))
      .map((k) => [k, cell(item[k])] as const)
      .filter(([, v]) => v !== "");
    if (fields.length > 0)
      lines.push(`        · ${fields.map(([k, v]) => `${k}: ${v}`).join(" | ")}`);
    // Accessibility/best-practice items often hold the failing element under subItems.
    const sub = (item.subItems as { items?: Array<Record<string, unknown>> } | undefined)?.items;
    for (const s of sub?.slice(0, 5) ?? []) {
      lines.push(
        `            ${Object.entries(s)
          .map(([k, v]) => `${k}: ${cell(v)}`)
          .join(" | ")}`,
      );
    }
  }
  if (items.length > 10) lines.push(`        · … ${items.length - 10} more`);
  return lines;
}

function describe(audit: Audit): string[] {
  return [
    `    - ${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}${audit.score === null ? "" : ` [score ${audit.score}]`}`,
    ...detailLines(audit.details),
  ];
}

const metricIds = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];

/** Pages measured as the signed-in customer with a cart and an address. */
const signedInPages = new Set(["/cart", "/checkout"]);

async function main() {
  let baseUrl = args.get("base-url");
  let stop: (() => Promise<void>) | undefined;
  let outbox = args.get("outbox");
  if (!baseUrl) {
    const dataDir = args.get("data-dir");
    if (!dataDir) throw new Error("--base-url URL or --data-dir DIR");
    const server = await startServer({
      dataDir,
      databaseUrl: args.get("database-url"),
      buildDir: args.get("build-dir"),
      // Lighthouse treats localhost as a secure origin; canonical links match the loaded origin.
      publicHost: "localhost",
    });
    console.log(`server pid ${server.pid} at ${server.baseUrl}`);
    baseUrl = server.baseUrl;
    stop = server.stop;
    outbox ??= path.resolve(root, dataDir, "outbox");
  }
  try {
    const pages = (args.get("pages") ?? "/,/products,product,/cart,/checkout").split(",");
    const summary: string[] = [];
    let cookie = args.get("cookie");
    if (pages.some((p) => signedInPages.has(p))) {
      if (!cookie) {
        if (!outbox)
          throw new Error("/cart and /checkout need --cookie or --outbox (or --data-dir)");
        cookie = await customerCookie(baseUrl, outbox);
      }
    }
    for (const p of pages) {
      const pagePath = p === "product" ? `/product/${(await productIds(baseUrl, 1))[0]}` : p;
      const name = p === "/" ? "home" : p.replace(/\W+/g, "-").replace(/^-|-$/g, "");
      const results: Lhr[] = [];
      for (let i = 0; i < runs; i++) {
        results.push(
          await runLighthouse(
            baseUrl + pagePath,
            path.join(outDir, `${name}-${i + 1}.json`),
            signedInPages.has(p) ? cookie : undefined,
          ),
        );
      }
      results.sort(
        (a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0),
      );
      const lhr = results[Math.floor(results.length / 2)];
      const score = (c: CategoryId) => Math.round((lhr.categories[c].score ?? 0) * 100);
      const perfAll = results.map((r) => Math.round((r.categories.performance.score ?? 0) * 100));
      console.log(
        `\n${pagePath}${signedInPages.has(p) ? " (signed in, 2 products in the cart)" : ""}`,
      );
      console.log(
        `  performance ${score("performance")}${runs > 1 ? ` (runs: ${perfAll.join(", ")})` : ""}, accessibility ${score("accessibility")}, best practices ${score("best-practices")}, SEO ${score("seo")}`,
      );
      console.log(
        `  ${metricIds.map((id) => `${lhr.audits[id].title.replace(/ /g, "\u00a0")} ${lhr.audits[id].displayValue}`).join(", ")}`,
      );
      for (const w of lhr.runWarnings) console.log(`  warning: ${w}`);
      // What the LCP is and where its time goes, whatever the score.
      const lcp = lhr.audits["lcp-breakdown-insight"];
      if (lcp) console.log(`  LCP:\n${detailLines(lcp.details).join("\n")}`);
      summary.push(
        `| ${pagePath.startsWith("/product/") ? "/product/:id" : pagePath} | ${score("performance")} | ${score("accessibility")} | ${score("best-practices")} | ${score("seo")} | ${metricIds.map((id) => lhr.audits[id].displayValue).join(" / ")} |`,
      );
      for (const [cat, target] of Object.entries(targets) as Array<[CategoryId, number]>) {
        if ((lhr.categories[cat].score ?? 0) >= target) continue;
        console.log(`  ${cat} below ${target * 100}: audits not passed`);
        for (const ref of lhr.categories[cat].auditRefs) {
          const audit = lhr.audits[ref.id];
          const failing =
            audit.score !== null &&
            audit.scoreDisplayMode !== "informative" &&
            audit.scoreDisplayMode !== "manual" &&
            audit.scoreDisplayMode !== "notApplicable" &&
            audit.score < (cat === "performance" ? 0.9 : 1);
          if (failing) console.log(describe(audit).join("\n"));
        }
        if (cat === "performance") {
          // Opportunities and diagnostics that carry no weight but explain the metrics.
          for (const audit of Object.values(lhr.audits)) {
            const inCategory = lhr.categories.performance.auditRefs.some((r) => r.id === audit.id);
            if (inCategory) continue;
            if (
              audit.score !== null &&
              audit.score < 0.9 &&
              audit.scoreDisplayMode !== "informative" &&
              audit.details
            ) {
              console.log(describe(audit).join("\n"));
            }
          }
        }
      }
    }
    console.log(
      `\n| page | performance | accessibility | best practices | SEO | FCP / LCP / TBT / CLS / SI |\n| --- | ---: | ---: | ---: | ---: | --- |\n${summary.join("\n")}`,
    );
  } finally {
    await stop?.();
  }
}

await main();
