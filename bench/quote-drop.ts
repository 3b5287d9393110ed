/**
 * From file drop to price on screen, in Debian's Chromium: picks a generated binary STL of about
 * 1,000,000 triangles on /custom-printing (signed out, so nothing is uploaded and the time is the
 * page's own: reading the file, the Web Worker's parse and analysis, the price) and times, in the
 * page, from the file input's change event to the total being shown, to the 3D preview's
 * canvas, and to the printability checks (walls, overhangs) that follow the price. Several runs, each in a fresh page; prints each and the median.
 * Each run also prints the Web Worker's own times (from its messages), when the page received
 * the checks, and the page's long tasks: with software WebGL, drawing the preview holds the main
 * thread for a second or more, and the checks' message waits behind it.
 *
 *   node bench/quote-drop.ts --data-dir .tmp/bench/quote      (starts the built server itself)
 *   node bench/quote-drop.ts --base-url http://localhost:3000 [--triangles 1000000] [--runs 5]
 */
import { chromium } from "@playwright/test";
import { manyTriangleStl } from "../app/rules/model3d/testing/shapes.ts";
import { chromeFlags, chromePath, parseArgs, startServer } from "./lib.ts";

const args = parseArgs();
const triangles = Number(args.get("triangles") ?? 1_000_000);
const runs = Number(args.get("runs") ?? 5);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

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
      seedDemo: "never",
      publicHost: "localhost",
    });
    baseUrl = server.baseUrl;
    stop = server.stop;
  }
  const stl = Buffer.from(manyTriangleStl(triangles));
  const count = stl.readUInt32LE(80);
  console.log(
    `file: binary STL, ${count.toLocaleString("en-IN")} triangles, ${(stl.byteLength / 1024 / 1024).toFixed(1)} MB`,
  );
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: chromeFlags.filter((f) => f !== "--headless"),
  });
  const priceMs: number[] = [];
  const previewMs: number[] = [];
  const checksMs: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // The Web Worker's own times (its messages carry them): how long the checks took there,
      // apart from the page's drawing them.
      await page.addInitScript(() => {
        const w = window as unknown as Record<string, unknown>;
        const Original = window.Worker;
        w.__workerMs = {};
        // The page's long tasks (drawing the preview in software WebGL holds the main thread).
        w.__long = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            (w.__long as number[][]).push([e.startTime, e.duration]);
          }
        }).observe({ type: "longtask", buffered: true });
        window.Worker = class extends Original {
          constructor(url: string | URL, options?: WorkerOptions) {
            super(url, options);
            this.addEventListener("message", (e: MessageEvent) => {
              const times = w.__workerMs as Record<string, number>;
              if (e.data?.kind && typeof e.data.ms === "number") {
                times[e.data.kind] = e.data.ms;
                times[`${e.data.kind}At`] = performance.now();
              }
            });
          }
        };
      });
      await page.goto(`${baseUrl}/custom-printing`, { waitUntil: "networkidle" });
      // Times kept in the page: the change event, then the first frame with a total / a canvas.
      await page.evaluate(() => {
        const w = window as unknown as Record<string, number>;
        const input = document.querySelector("#model-file");
        input?.addEventListener(
          "change",
          () => {
            w.__t0 = performance.now();
          },
          { capture: true },
        );
        new MutationObserver(() => {
          if (!w.__price && document.querySelector("[data-testid=quote-total]")) {
            w.__price = performance.now();
          }
          if (!w.__preview && document.querySelector("[data-testid=model-preview] canvas")) {
            w.__preview = performance.now();
          }
          if (!w.__checks && document.querySelector("[data-testid=printability]")) {
            w.__checks = performance.now();
          }
        }).observe(document.body, { childList: true, subtree: true });
      });
      // 48 MB through the browser protocol: slow on a busy machine (not part of the time).
      await page
        .locator("#model-file")
        .setInputFiles(
          { name: "big.stl", mimeType: "model/stl", buffer: stl },
          { timeout: 180_000 },
        );
      await page.getByTestId("quote-total").waitFor({ timeout: 60_000 });
      await page
        .locator("[data-testid=model-preview] canvas")
        .waitFor({ timeout: 60_000 })
        .catch(() => {});
      await page
        .getByTestId("printability")
        .waitFor({ timeout: 60_000 })
        .catch(() => {});
      const t = await page.evaluate(() => {
        const w = window as unknown as Record<string, number>;
        const inWorker = w.__workerMs as unknown as Record<string, number>;
        return {
          t0: w.__t0,
          price: w.__price,
          preview: w.__preview,
          checks: w.__checks,
          workerAnalysis: inWorker.analysis,
          workerChecks: inWorker.checks,
          checksArrived: inWorker.checksAt - w.__t0,
          longTasks: (w.__long as unknown as number[][])
            .filter(([start]) => start >= w.__t0)
            .map(([start, duration]) => `${(start - w.__t0).toFixed(0)}+${duration.toFixed(0)}`)
            .join(", "),
        };
      });
      const price = t.price - t.t0;
      const preview = t.preview ? t.preview - t.t0 : Number.NaN;
      const checks = t.checks ? t.checks - t.t0 : Number.NaN;
      priceMs.push(price);
      previewMs.push(preview);
      checksMs.push(checks);
      console.log(
        `run ${i + 1}: price on screen ${price.toFixed(0)} ms, 3D preview ${preview.toFixed(0)} ms, checks ${checks.toFixed(0)} ms (in the worker: analysis ${t.workerAnalysis?.toFixed(0)} ms, checks ${t.workerChecks?.toFixed(0)} ms, received at ${t.checksArrived?.toFixed(0)} ms); main thread's long tasks (start+ms): ${t.longTasks}`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await stop?.();
  }
  console.log(
    `median: price on screen ${median(priceMs).toFixed(0)} ms, 3D preview ${median(previewMs).toFixed(0)} ms, checks ${median(checksMs).toFixed(0)} ms (target: price < 1000 ms)`,
  );
}

await main();
