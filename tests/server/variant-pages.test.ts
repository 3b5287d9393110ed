import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/adapters/db/index.server.ts";
import type { DatabaseHandle } from "~/adapters/db/types.ts";
import { insertProduct } from "../support/factories.ts";
import { freePort, type Started, startServer, waitReady } from "../support/server-process.ts";
import { createPostgresDatabase } from "../support/test-database.ts";
import { giveOptions } from "../support/variants.ts";

/*
 * The storefront's pages of a product with options (issue 22) in the built server, on
 * PostgreSQL: the product page renders the variant its address names (and the page cache keeps
 * each variant's page apart), the structured data describes the group, cards say "from" and show
 * the colours; a product without options is described as before.
 */
let dir: string;
let server: Started;
let base: string;
let created: { url: string; drop(): Promise<void> };
let database: DatabaseHandle;
let dragonId: string;
let plainId: string;
let variantIds: string[];

const get = (pathname: string) =>
  fetch(`${base}${pathname}`, { headers: { "accept-encoding": "br, gzip" } });

async function cached(pathname: string): Promise<Response> {
  let res = await get(pathname);
  const deadline = Date.now() + 5_000;
  while (res.headers.get("x-page-cache") !== "hit" && Date.now() < deadline) {
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 20));
    res = await get(pathname);
  }
  expect(res.headers.get("x-page-cache")).toBe("hit");
  return res;
}

const productLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
    .map((m) => JSON.parse(m[1] ?? "{}"))
    .find((ld) => ld["@type"] === "Product" || ld["@type"] === "ProductGroup");

const badge = (html: string) => html.match(/data-testid="stock-badge"[^>]*>([^<]+)</)?.[1];

beforeAll(async () => {
  created = await createPostgresDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "lk-variant-pages-"));
  const port = await freePort();
  server = startServer({
    DATA_DIR: dir,
    PORT: String(port),
    DATABASE_URL: created.url,
    AUTH_SECRET: "variant-pages-test-secret-variant-pages-test",
    SEED_DEMO: "never",
  });
  base = `http://127.0.0.1:${port}`;
  await waitReady(port, server.child);
  database = await openDatabase({ databaseUrl: created.url });
  plainId = (await insertProduct(database.db, { name: "Plain Lotus Lamp", pricePaise: 34_900 })).id;
  dragonId = (await insertProduct(database.db, { name: "Variant Dragon", pricePaise: 49_900 })).id;
  ({ variantIds } = await giveOptions(
    database.db,
    dragonId,
    [
      {
        name: "Colour",
        values: [
          { value: "Red", swatch: "#cc2222" },
          { value: "Blue", swatch: "#2244cc" },
        ],
      },
      { name: "Size", values: [{ value: "4 cm" }, { value: "7 cm" }] },
    ],
    [
      { values: ["Red", "4 cm"], pricePaise: 49_900, stockCount: 3 },
      { values: ["Red", "7 cm"], pricePaise: 69_900, originalPricePaise: 79_900, stockCount: 0 },
      { values: ["Blue", "4 cm"], pricePaise: 49_900 },
      { values: ["Blue", "7 cm"], pricePaise: 69_900, isActive: false },
    ],
  ));
});

afterAll(async () => {
  server?.child.kill("SIGKILL");
  await database?.close();
  await created?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("a product with options on the storefront (PostgreSQL)", () => {
  it("shows the default variant and the pickers, and describes the group and its offers", async () => {
    const res = await get(`/product/${dragonId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="option-picker"');
    expect(html).toMatch(/<legend[^>]*>Colour(<!-- -->)?<span[^>]*>: <!-- -->Red/);
    expect(html).toContain("₹499.00");
    expect(badge(html)).toBe("In Stock");
    const ld = productLd(html);
    expect(ld["@type"]).toBe("ProductGroup");
    expect(ld.productGroupID).toBe(dragonId);
    expect(ld.variesBy).toEqual(["https://schema.org/color", "https://schema.org/size"]);
    // The inactive variant isn't offered.
    expect(ld.hasVariant).toHaveLength(3);
    const redBig = ld.hasVariant.find((v: { color: string; size: string }) => v.size === "7 cm");
    expect(redBig).toMatchObject({
      "@type": "Product",
      name: "Variant Dragon (Red, 7 cm)",
      color: "Red",
      size: "7 cm",
      offers: {
        "@type": "Offer",
        price: "699.00",
        priceCurrency: "INR",
        availability: "https://schema.org/OutOfStock",
        url: expect.stringMatching(new RegExp(`/product/${dragonId}\\?variant=${variantIds[1]}$`)),
      },
    });
  });

  it("renders the variant its address names, and caches each variant's page apart", async () => {
    const first = await get(`/product/${dragonId}?variant=${variantIds[1]}`);
    const html = await first.text();
    expect(html).toContain("₹699.00");
    expect(html).toContain("₹799.00");
    expect(html).toMatch(/13(<!-- -->)?% off/);
    expect(badge(html)).toBe("Out of Stock");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Unavailable<\/button>/);
    const hit = await cached(`/product/${dragonId}?variant=${variantIds[1]}`);
    expect(await hit.text()).toContain("₹699.00");
    const other = await cached(`/product/${dragonId}?variant=${variantIds[2]}`);
    const otherHtml = await other.text();
    expect(otherHtml).not.toContain("₹699.00");
    expect(badge(otherHtml)).toBe("In Stock");
  });

  it("shows the default for a variant that isn't the product's, and doesn't keep that page", async () => {
    for (const id of [randomUUID(), variantIds[1]?.toUpperCase()]) {
      for (let i = 0; i < 3; i++) {
        const res = await get(`/product/${plainId}?variant=${id}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("x-page-cache")).not.toBe("hit");
        expect(await res.text()).toContain("Plain Lotus Lamp");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });

  it("says 'from' on the card when the prices differ, with the colours", async () => {
    const html = await (await get("/products")).text();
    const card = html.slice(
      html.indexOf("Variant Dragon") - 2000,
      html.indexOf("Variant Dragon") + 3000,
    );
    expect(card).toMatch(/from <\/span>(<!-- -->)?₹499\.00/);
    expect(card).toContain("Colours: <!-- -->Red, Blue");
    const plain = html.slice(
      html.indexOf("Plain Lotus Lamp"),
      html.indexOf("Plain Lotus Lamp") + 3000,
    );
    expect(plain).not.toContain("from </span>");
    expect(plain).not.toContain("Colours:");
  });

  it("describes a product without options as before: one Product, one Offer, no pickers", async () => {
    const html = await (await get(`/product/${plainId}`)).text();
    expect(html).not.toContain('data-testid="option-picker"');
    const ld = productLd(html);
    expect(Object.keys(ld)).toEqual([
      "@context",
      "@type",
      "name",
      "description",
      "sku",
      "image",
      "category",
      "brand",
      "offers",
    ]);
    expect(ld).toMatchObject({
      "@type": "Product",
      sku: plainId,
      offers: { "@type": "Offer", price: "349.00", availability: "https://schema.org/InStock" },
    });
  });
});
