/**
 * Whether two builds draw the storefront alike: for each build, starts the built server on the
 * same data set (one after the other), takes full-page screenshots of `/`, `/products` and a
 * product page as a visitor, on a desktop (1280 px) and a phone (390 px) in Debian's Chromium,
 * then compares the two sets pixel by pixel and writes an image of the differences.
 *
 *   node bench/screenshots.ts --data-dir .tmp/bench/pglite --build-dir .tmp/build-a \
 *        --compare-build-dir .tmp/build-b [--out .tmp/bench/screenshots] [--cookie "name=value"] \
 *        [--color-schemes light,dark]
 *
 * Both runs show the same product (the first one on /products). Animations are off (reduced
 * motion), the page is loaded until the network is idle (at most 5 s after load) and every image (lazy ones too) decoded. --cookie (e.g. a signed-in customer's
 * session) is sent with every page; --product /product/ID shows that product page instead. Exit status 1 when any pair differs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { chromeFlags, chromePath, parseArgs, productIds, root, startServer } from "./lib.ts";

const args = parseArgs();
const [dataDir, buildA, buildB] = ["data-dir", "build-dir", "compare-build-dir"].map((name) => {
  const value = args.get(name);
  if (!value) throw new Error("--data-dir DIR --build-dir A --compare-build-dir B");
  return value;
}) as [string, string, string];
const outDir = path.resolve(root, args.get("out") ?? ".tmp/bench/screenshots");
const cookie = args.get("cookie");
/** The product page to show (e.g. one with reviews); by default the first product on /products. */
const productArg = args.get("product");
/** The device colour schemes to shoot in (the shop's "System" theme follows them); light by default. */
const colorSchemes = (args.get("color-schemes") ?? "light")
  .split(",")
  .filter((c): c is "light" | "dark" => c === "light" || c === "dark");
const viewports = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

async function shoot(buildDir: string, label: string, productPath?: string) {
  const server = await startServer({ dataDir, buildDir, publicHost: "localhost" });
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: chromeFlags.filter((f) => f !== "--headless"),
  });
  const shots: Record<string, Buffer> = {};
  try {
    const product = productPath ?? `/product/${(await productIds(server.baseUrl, 1))[0]}`;
    for (const vp of viewports.flatMap((v) =>
      colorSchemes.map((colorScheme) => ({
        ...v,
        colorScheme,
        // Light keeps the names the shots had before there was a choice.
        name: colorScheme === "light" ? v.name : `${v.name}-${colorScheme}`,
      })),
    )) {
      const context = await browser.newContext({
        viewport: { width: vp.width, height: vp.height },
        reducedMotion: "reduce",
        colorScheme: vp.colorScheme,
      });
      if (cookie) {
        await context.addCookies(
          cookie.split(";").map((c) => {
            const [name, ...value] = c.trim().split("=");
            return { name: name as string, value: value.join("="), url: server.baseUrl };
          }),
        );
      }
      const page = await context.newPage();
      for (const [name, p] of [
        ["home", "/"],
        ["products", "/products"],
        ["product", product],
      ] as const) {
        await page.goto(server.baseUrl + p, { waitUntil: "load" });
        // A signed-in page keeps talking to the server (the cart's sync): idle, or 5 s.
        await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
        // Every image loaded and decoded, lazy ones too (a full-page shot doesn't scroll).
        await page.evaluate(async () => {
          await document.fonts.ready;
          const images = [...document.images];
          for (const img of images) img.loading = "eager";
          await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
        });
        const file = path.join(outDir, `${label}-${vp.name}-${name}.png`);
        shots[`${vp.name}-${name}`] = await page.screenshot({ path: file, fullPage: true });
      }
      await context.close();
    }
    return { shots, product };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Pixels that differ (any channel by more than 2 of 255), and an image marking them in red. */
async function compare(a: Buffer, b: Buffer) {
  const [ra, rb] = await Promise.all(
    [a, b].map((x) => sharp(x).ensureAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (!ra || !rb) throw new Error("no image");
  if (ra.info.width !== rb.info.width || ra.info.height !== rb.info.height) {
    return {
      differing: -1,
      size: `${ra.info.width}×${ra.info.height} vs ${rb.info.width}×${rb.info.height}`,
      diff: null,
    };
  }
  const diff = Buffer.from(ra.data);
  let differing = 0;
  for (let i = 0; i < ra.data.length; i += 4) {
    let same = true;
    for (let c = 0; c < 3; c++) {
      if (Math.abs((ra.data[i + c] as number) - (rb.data[i + c] as number)) > 2) same = false;
    }
    if (!same) {
      differing++;
      diff[i] = 255;
      diff[i + 1] = 0;
      diff[i + 2] = 0;
    }
  }
  const png = await sharp(diff, {
    raw: { width: ra.info.width, height: ra.info.height, channels: 4 },
  })
    .png()
    .toBuffer();
  return { differing, size: `${ra.info.width}×${ra.info.height}`, diff: png };
}

mkdirSync(outDir, { recursive: true });
const a = await shoot(buildA, "a", productArg);
const b = await shoot(buildB, "b", a.product);
let failed = false;
for (const key of Object.keys(a.shots)) {
  const r = await compare(a.shots[key] as Buffer, b.shots[key] as Buffer);
  if (r.differing !== 0) failed = true;
  if (r.diff) writeFileSync(path.join(outDir, `diff-${key}.png`), r.diff);
  console.log(
    `${key}: ${r.differing === -1 ? `sizes differ (${r.size})` : `${r.differing} pixels differ (${r.size})`}`,
  );
}
console.log(`screenshots in ${path.relative(root, outDir)}`);
process.exitCode = failed ? 1 : 0;
