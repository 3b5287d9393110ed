/**
 * JavaScript weight per page: loads each page in Debian's Chromium (Playwright), waits for the
 * network to go idle, and sums the JavaScript responses: bytes on the wire (as the server encoded
 * them for Chromium's Accept-Encoding), and each body gzipped here (zlib level 6), which is what
 * the "≤ 90 KB gzipped" budget is measured in. Lists the files of the product page, largest first.
 *
 *   node bench/js-size.ts --data-dir .tmp/bench/pglite        (starts the built server itself)
 *   node bench/js-size.ts --base-url http://localhost:3000
 *
 * Options: --pages /,/products,product,/contact,/auth ("product" = the first product on
 * /products), --budget 90 (KB gzipped, checked on the product page), --database-url, --build-dir.
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromeFlags, chromePath, parseArgs, productIds, startServer } from "./lib.ts";

const args = parseArgs();
const budgetKb = Number(args.get("budget") ?? 90);
const kb = (n: number) => (n / 1024).toFixed(1);

type Script = { url: string; wire: number; raw: number; gzip: number; encoding: string };

async function main() {
  let baseUrl = args.get("base-url");
  let stop: (() => Promise<void>) | undefined;
  if (!baseUrl) {
    const dataDir = args.get("data-dir");
    if (!dataDir) throw new Error("--base-url URL or --data-dir DIR");
    const server = await startServer({
      dataDir,
      databaseUrl: args.get("database-url"),
      buildDir: args.get("build-dir"),
      publicHost: "localhost",
    });
    baseUrl = server.baseUrl;
    stop = server.stop;
  }
  // chromeFlags' --headless is Playwright's own `headless` option.
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: chromeFlags.filter((f) => f !== "--headless"),
  });
  try {
    const pages = (args.get("pages") ?? "/,/products,product,/contact,/auth").split(",");
    const rows: string[] = [];
    let productScripts: Script[] = [];
    let productGzip = 0;
    for (const p of pages) {
      const pagePath = p === "product" ? `/product/${(await productIds(baseUrl, 1))[0]}` : p;
      const context = await browser.newContext();
      const page = await context.newPage();
      const pending: Array<Promise<Script | null>> = [];
      page.on("response", (response) => {
        const type = response.request().resourceType();
        const contentType = response.headers()["content-type"] ?? "";
        if (type !== "script" && !contentType.includes("javascript")) return;
        pending.push(
          (async () => {
            const body = await response.body().catch(() => null);
            if (!body) return null;
            const sizes = await response.request().sizes();
            return {
              url: response.url(),
              wire: sizes.responseBodySize,
              raw: body.length,
              gzip: gzipSync(body, { level: 6 }).length,
              encoding: response.headers()["content-encoding"] ?? "none",
            };
          })(),
        );
      });
      const res = await page.goto(baseUrl + pagePath, { waitUntil: "networkidle" });
      if (!res?.ok()) throw new Error(`${pagePath}: HTTP ${res?.status()}`);
      // Inline scripts (hydration data, route manifest) count as page weight too.
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll("script:not([src])")].map((s) => s.textContent ?? ""),
      );
      const inlineGzip = gzipSync(Buffer.from(inline.join("\n"))).length;
      const scripts = (await Promise.all(pending)).filter((s): s is Script => s !== null);
      await context.close();
      const sum = (k: "wire" | "raw" | "gzip") => scripts.reduce((a, s) => a + s[k], 0);
      const encodings = [...new Set(scripts.map((s) => s.encoding))].join(", ");
      const label = pagePath.startsWith("/product/") ? "/product/:id" : pagePath;
      rows.push(
        `| ${label} | ${scripts.length} | ${kb(sum("gzip"))} | ${kb(sum("wire"))} (${encodings}) | ${kb(sum("raw"))} | ${kb(inlineGzip)} |`,
      );
      console.log(
        `${pagePath}: ${scripts.length} JS files, ${kb(sum("gzip"))} KB gzipped, ${kb(sum("wire"))} KB transferred (${encodings}), ${kb(sum("raw"))} KB uncompressed; inline scripts ${kb(inlineGzip)} KB gzipped`,
      );
      if (label === "/product/:id") {
        productScripts = scripts;
        productGzip = sum("gzip");
      }
    }
    console.log(
      `\n| page | JS files | gzipped KB | transferred KB | uncompressed KB | inline scripts, gzipped KB |\n| --- | ---: | ---: | ---: | ---: | ---: |\n${rows.join("\n")}`,
    );
    if (productScripts.length > 0) {
      console.log(
        `\nproduct page: ${kb(productGzip)} KB gzipped JS, budget ${budgetKb} KB: ${productGzip <= budgetKb * 1024 ? "met" : "NOT met"}`,
      );
      console.log("\n| file | gzipped KB | uncompressed KB |\n| --- | ---: | ---: |");
      for (const s of [...productScripts].sort((a, b) => b.gzip - a.gzip)) {
        console.log(`| ${new URL(s.url).pathname} | ${kb(s.gzip)} | ${kb(s.raw)} |`);
      }
    }
  } finally {
    await browser.close();
    await stop?.();
  }
}

await main();
