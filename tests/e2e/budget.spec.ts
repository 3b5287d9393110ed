import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/*
 * JavaScript budgets per route (issue #9): the gzipped JavaScript a first visit downloads —
 * script files plus inline scripts — must stay within bench/budgets.json. Sizes are stable
 * between runs, so this is asserted; timings are only recorded (bench/, docs/performance.md).
 */

const budgets = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../bench/budgets.json"), "utf8"),
) as {
  note: string;
  javascriptGzipKb: Record<string, number>;
  javascriptFiles: Record<string, number>;
};

/** The gzipped KB of JavaScript a first visit to a page downloads, and in how many files. */
async function javascriptWeight(opener: Page, url: string): Promise<{ kb: number; files: number }> {
  // A fresh tab for each page, so only that page's downloads count.
  const page = await opener.context().newPage();
  const bodies: Array<Promise<Buffer | null>> = [];
  page.on("response", (response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()["content-type"] ?? "";
    if (type === "script" || contentType.includes("javascript")) {
      bodies.push(response.body().catch(() => null));
    }
  });
  await page.goto(url, { waitUntil: "load" });
  // Route modules load after hydration starts; give them a moment.
  await page.waitForTimeout(1500);
  const inline = await page.evaluate(() =>
    [...document.querySelectorAll("script:not([src])")].map((s) => s.textContent ?? "").join("\n"),
  );
  let total = gzipSync(Buffer.from(inline), { level: 6 }).length;
  for (const body of await Promise.all(bodies)) {
    if (body) total += gzipSync(body, { level: 6 }).length;
  }
  await page.close();
  return { kb: Math.round((total / 1024) * 10) / 10, files: bodies.length };
}

async function productPath(page: Page) {
  const res = await page.request.get("/api/search?q=Lotus");
  const { suggestions } = (await res.json()) as { suggestions: Array<{ id: string }> };
  return `/product/${suggestions[0].id}`;
}

test("every route's JavaScript stays within its gzipped budget and file count", async ({
  page,
  login,
}) => {
  const measured: Record<string, number> = {};
  const files: Record<string, number> = {};
  const visit = async (route: string, url: string) => {
    const weight = await javascriptWeight(page, url);
    measured[route] = weight.kb;
    files[route] = weight.files;
  };
  for (const route of ["/", "/products", "product", "/cart"]) {
    await visit(route, route === "product" ? await productPath(page) : route);
  }
  await login();
  await visit("/orders", "/orders");
  console.log("JavaScript (KB gzipped):", JSON.stringify(measured));
  console.log("JavaScript files:", JSON.stringify(files));
  const over = Object.entries(measured).filter(
    ([route, kb]) => kb > (budgets.javascriptGzipKb[route] ?? Number.POSITIVE_INFINITY),
  );
  expect(over, "routes over their JavaScript budget").toEqual([]);
  // Each file is a round trip on a phone's connection (vite.chunks.ts groups them).
  const tooMany = Object.entries(files).filter(
    ([route, n]) => n > (budgets.javascriptFiles[route] ?? Number.POSITIVE_INFINITY),
  );
  expect(tooMany, "routes over their JavaScript file count").toEqual([]);
});
