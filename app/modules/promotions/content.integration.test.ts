import { readFile } from "node:fs/promises";
import { and, eq, like } from "drizzle-orm";
import Papa from "papaparse";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  adminAudit,
  categories,
  jobs,
  products,
  promotions,
  sponsoredProducts,
  userProfiles,
} from "~/db/schema.ts";
import { legacyProductId, uuidV5 } from "~/modules/catalog/import.server.ts";
import { listLivePromotions } from "~/modules/promotions/promotions.server.ts";
import { listSponsoredSlides } from "~/modules/sponsored/sponsored.server.ts";
import {
  browserHeaders,
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * The admin content screens on the process runtime: categories (staged adds and deletes applied
 * together), sponsored products (the home carousel), promotions (with an uploaded image), product
 * import (the old shop's JSON and CSV) and the products CSV export.
 */

type RouteModule = {
  loader?: (args: never) => Promise<unknown>;
  action?: (args: never) => Promise<unknown>;
};

const routes: Record<string, () => Promise<RouteModule>> = {
  "/admin/categories": () => import("~/routes/admin/categories.tsx"),
  "/admin/sponsored-products": () => import("~/routes/admin/sponsored-products.tsx"),
  "/admin/promotions": () => import("~/routes/admin/promotions.tsx"),
  "/admin/import": () => import("~/routes/admin/import.tsx"),
  "/admin/products.csv": () => import("~/routes/admin/products-csv.ts"),
};

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let adminCookie: string;
let customerCookie: string;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const { auth } = harness.rt;
  const admin = await createVerifiedUser(auth, db, { email: uniqueEmail("content-admin") });
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
  adminCookie = await signInCookie(auth, admin);
  const customer = await createVerifiedUser(auth, db, { email: uniqueEmail("content-customer") });
  customerCookie = await signInCookie(auth, customer);
});
afterAll(async () => {
  await harness?.stop();
});

async function load(path: string, cookie?: string) {
  const mod = await routes[path.split("?")[0]]();
  return outcome(async () => mod.loader!(routeArgs(pageGet(path, { cookie })) as never));
}

async function post(path: string, fields: Record<string, string | string[]>, cookie?: string) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  }
  const headers = browserHeaders({ origin: TEST_ORIGIN, site: "same-origin", cookie });
  headers.set("content-type", "application/x-www-form-urlencoded");
  const request = new Request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers,
    body: body.toString(),
  });
  const mod = await routes[path]();
  return outcome(async () => mod.action!(routeArgs(request) as never));
}

async function multipart(path: string, form: FormData, cookie?: string) {
  const headers = browserHeaders({ origin: TEST_ORIGIN, site: "same-origin", cookie });
  // The form encoded up front, as a browser's bytes arrive: a FormData body is encoded by a
  // stream that keeps writing after an action stops reading (a 413), which Node reports as an
  // unhandled rejection ("ReadableStream is already closed") that fails the whole run.
  const encoded = new Response(form);
  headers.set("content-type", encoded.headers.get("content-type") ?? "");
  const body = await encoded.arrayBuffer();
  const request = new Request(`${TEST_ORIGIN}${path}`, { method: "POST", headers, body });
  const mod = await routes[path]();
  return outcome(async () => mod.action!(routeArgs(request) as never));
}

const auditOf = (action: string) =>
  db.select().from(adminAudit).where(eq(adminAudit.action, action));

describe(`admin content on ${testDbKind()}`, () => {
  describe("who may use these screens", () => {
    const pages = Object.keys(routes);
    const withActions = pages.filter((p) => p !== "/admin/products.csv");

    it("anonymous visitors are sent to sign in, from every loader and action", async () => {
      for (const path of pages) {
        const res = await load(path);
        expect(res.status, path).toBe(302);
        expect(res.location, path).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
      }
      for (const path of withActions) {
        const res = await post(path, { intent: "apply" });
        expect(res.status, path).toBe(302);
        expect(res.location, path).toMatch(/^\/auth\?redirectTo=/);
      }
    });

    it("customers are refused: pages send them home, actions get 403", async () => {
      for (const path of pages) {
        const res = await load(path, customerCookie);
        expect(res, path).toMatchObject({ status: 302, location: "/" });
      }
      const before = await db.select().from(categories);
      for (const path of withActions) {
        const res = await post(path, { intent: "apply", add: "Sneaky" }, customerCookie);
        expect(res.status, path).toBe(403);
      }
      const form = new FormData();
      form.set("intent", "create");
      form.set("name", "Sneaky promo");
      expect((await multipart("/admin/promotions", form, customerCookie)).status).toBe(403);
      expect(await db.select().from(categories)).toEqual(before);
      expect(await db.select().from(promotions)).toEqual([]);
    });

    it("a cross-site form post is refused even for an admin", async () => {
      const request = formPost(
        "/admin/categories",
        { intent: "apply", add: "Forged" },
        { cookie: adminCookie, site: "cross-site" },
      );
      const mod = await routes["/admin/categories"]();
      const res = await outcome(async () => mod.action!(routeArgs(request) as never));
      expect(res.status).toBe(403);
    });

    it("an admin posting an empty form gets a 400, not a 500", async () => {
      for (const path of withActions) {
        const res = await post(path, {}, adminCookie);
        expect(res.status, path).toBe(400);
      }
    });
  });

  describe("categories", () => {
    it("applies staged adds and deletes together; counts products; soft-deletes", async () => {
      await db.insert(categories).values([{ name: "Toys" }, { name: "Lamps" }]);
      await insertProduct(db, { name: "Toy Robot", category: "Toys" });
      await insertProduct(db, { name: "Toy Car", category: "toys" });

      const page = await load("/admin/categories", adminCookie);
      const listed = (page.body as { categories: Array<{ name: string; productCount: number }> })
        .categories;
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: "Toys", productCount: 2 }),
          expect.objectContaining({ name: "Lamps", productCount: 0 }),
        ]),
      );

      const res = await post(
        "/admin/categories",
        { intent: "apply", add: ["  Resin   Kits ", "Planters"], delete: ["toys", "Nope"] },
        adminCookie,
      );
      expect(res).toMatchObject({
        status: 200,
        body: {
          ok: true,
          result: {
            added: ["Resin Kits", "Planters"],
            deleted: ["Toys"],
            productsKeepingDeleted: 2,
          },
        },
      });
      const rows = await db.select().from(categories);
      const byName = Object.fromEntries(rows.map((r) => [r.name, r.isDeleted]));
      expect(byName).toMatchObject({
        Toys: true,
        Lamps: false,
        "Resin Kits": false,
        Planters: false,
      });
      // Products keep their category text.
      const [robot] = await db.select().from(products).where(eq(products.name, "Toy Robot"));
      expect(robot.category).toBe("Toys");
      expect((await auditOf("category.create")).map((a) => a.summary).sort()).toEqual([
        'Added category "Planters"',
        'Added category "Resin Kits"',
      ]);
      const [deletion] = await auditOf("category.delete");
      expect(deletion.summary).toBe('Deleted category "Toys" (2 products keep it)');

      const after = await load("/admin/categories", adminCookie);
      const names = (after.body as { categories: Array<{ name: string }> }).categories.map(
        (c) => c.name,
      );
      expect(names).not.toContain("Toys");
      expect(names).toEqual(expect.arrayContaining(["Lamps", "Resin Kits", "Planters"]));
    });

    it("a duplicate (any case) is 'Already exists' and nothing of the batch is saved", async () => {
      const before = await db.select().from(categories);
      const res = await post(
        "/admin/categories",
        { intent: "apply", add: ["Brand New", "LAMPS"], delete: ["Planters"] },
        adminCookie,
      );
      expect(res).toMatchObject({
        status: 409,
        body: {
          ok: false,
          title: "Already exists",
          description: 'Category "LAMPS" is already present.',
        },
      });
      expect(await db.select().from(categories)).toEqual(before);
    });

    it("adding a deleted category brings it back; the same name in both lists is refused", async () => {
      const res = await post("/admin/categories", { intent: "apply", add: "TOYS" }, adminCookie);
      expect(res).toMatchObject({ status: 200, body: { result: { restored: ["TOYS"] } } });
      const live = await db
        .select()
        .from(categories)
        .where(and(eq(categories.isDeleted, false), like(categories.name, "TOYS")));
      expect(live).toHaveLength(1);
      const both = await post(
        "/admin/categories",
        { intent: "apply", add: "Lamps", delete: "lamps" },
        adminCookie,
      );
      expect(both.status).toBe(400);
    });
  });

  describe("sponsored products", () => {
    it("sets and orders the carousel; the home page reads the new order", async () => {
      const a = await insertProduct(db, { name: "Sponsor Alpha" });
      const b = await insertProduct(db, { name: "Sponsor Beta" });
      const c = await insertProduct(db, { name: "Sponsor Gamma", isActive: false });
      let res = await post(
        "/admin/sponsored-products",
        { intent: "save", productId: [a.id, b.id, c.id] },
        adminCookie,
      );
      expect(res).toMatchObject({ status: 200, body: { ok: true } });
      // The inactive product is kept in the set but the home page leaves it out.
      expect((await listSponsoredSlides(db)).map((s) => s.name)).toEqual([
        "Sponsor Alpha",
        "Sponsor Beta",
      ]);

      res = await post(
        "/admin/sponsored-products",
        { intent: "save", productId: [b.id, a.id] },
        adminCookie,
      );
      expect(res.status).toBe(200);
      expect((await listSponsoredSlides(db)).map((s) => s.name)).toEqual([
        "Sponsor Beta",
        "Sponsor Alpha",
      ]);
      const rows = await db.select().from(sponsoredProducts);
      expect(rows.find((r) => r.productId === c.id)?.isDeleted).toBe(true);

      const page = await load("/admin/sponsored-products?q=sponsor", adminCookie);
      const body = page.body as {
        sponsored: Array<{ name: string }>;
        results: Array<{ name: string }>;
      };
      expect(body.sponsored.map((s) => s.name)).toEqual(["Sponsor Beta", "Sponsor Alpha"]);
      expect(body.results.map((r) => r.name)).toEqual([
        "Sponsor Alpha",
        "Sponsor Beta",
        "Sponsor Gamma",
      ]);

      const [audit] = await auditOf("sponsored.update").then((r) => r.slice(-1));
      expect(audit.details).toMatchObject({ after: [b.id, a.id] });

      res = await post("/admin/sponsored-products", { intent: "save" }, adminCookie);
      expect(res.status).toBe(200);
      expect(await listSponsoredSlides(db)).toEqual([]);
    });

    it("refuses unknown, malformed and repeated product ids without changing anything", async () => {
      const a = await insertProduct(db, { name: "Sponsor Delta" });
      await post("/admin/sponsored-products", { intent: "save", productId: a.id }, adminCookie);
      for (const ids of [
        [a.id, "00000000-0000-4000-8000-000000000000"],
        ["not-a-uuid"],
        [a.id, a.id],
      ]) {
        const res = await post(
          "/admin/sponsored-products",
          { intent: "save", productId: ids },
          adminCookie,
        );
        expect(res.status, ids.join()).toBe(400);
      }
      expect((await listSponsoredSlides(db)).map((s) => s.name)).toEqual(["Sponsor Delta"]);
    });
  });

  describe("promotions", () => {
    let png: Buffer;
    beforeAll(async () => {
      png = await sharp({
        create: { width: 80, height: 60, channels: 3, background: { r: 200, g: 60, b: 30 } },
      })
        .png()
        .toBuffer();
    });

    const promoForm = (fields: Record<string, string>, file?: { bytes: Buffer; name: string }) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      if (file) form.set("image", new File([new Uint8Array(file.bytes)], file.name));
      return form;
    };

    it("creates one with an uploaded image; it leads the home page's Special Offers", async () => {
      const res = await multipart(
        "/admin/promotions",
        promoForm(
          {
            intent: "create",
            name: "Monsoon Sale",
            description: "Rainy-day prints",
            discount: "15% OFF",
            cta: "Shop now",
          },
          { bytes: png, name: "Monsoon Banner!.png" },
        ),
        adminCookie,
      );
      expect(res).toMatchObject({ status: 200, body: { ok: true, message: "Promotion created" } });
      const [live] = await listLivePromotions(db);
      expect(live).toMatchObject({
        name: "Monsoon Sale",
        description: "Rainy-day prints",
        discount: "15% OFF",
        cta: "Shop now",
      });
      const [row] = await db.select().from(promotions).where(eq(promotions.id, live.id));
      expect(row.imageStoragePath).toMatch(/^promotions\/\d+_monsoon-banner\.webp$/);
      expect(live.image).toBe(harness.rt.storage.url(row.imageStoragePath!));
      const stored = await harness.rt.storage.get(row.imageStoragePath!);
      expect(stored?.subarray(8, 12).toString("ascii")).toBe("WEBP");
      expect(await auditOf("promotion.create")).toHaveLength(1);
    });

    it("refuses a file that isn't an image by its content, whatever its name", async () => {
      const before = await db.select().from(promotions);
      const res = await multipart(
        "/admin/promotions",
        promoForm(
          { intent: "create", name: "Fake" },
          { bytes: Buffer.from("<svg onload=alert(1)>"), name: "evil.png" },
        ),
        adminCookie,
      );
      expect(res).toMatchObject({ status: 400, body: { ok: false, title: "Image upload failed" } });
      // PNG magic bytes, but not a decodable image: refused, and nothing left in storage.
      const broken = Buffer.concat([png.subarray(0, 16), Buffer.alloc(64)]);
      const res2 = await multipart(
        "/admin/promotions",
        promoForm({ intent: "create", name: "Broken" }, { bytes: broken, name: "broken.png" }),
        adminCookie,
      );
      expect(res2).toMatchObject({ status: 400, body: { title: "Image upload failed" } });
      expect(await db.select().from(promotions)).toEqual(before);
    });

    it("refuses an upload over the size limit with 413", async () => {
      const big = Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024)]);
      const res = await multipart(
        "/admin/promotions",
        promoForm({ intent: "create", name: "Huge" }, { bytes: big, name: "huge.png" }),
        adminCookie,
      );
      expect(res.status).toBe(413);
      expect(await db.select().from(promotions).where(eq(promotions.name, "Huge"))).toEqual([]);
    });

    it("validates fields, edits (replacing the image) and deletes (soft)", async () => {
      const bad = await multipart(
        "/admin/promotions",
        promoForm({ intent: "create", name: "  ", discount: "x".repeat(41) }),
        adminCookie,
      );
      expect(bad).toMatchObject({
        status: 400,
        body: { fieldErrors: { name: "Please enter a name." } },
      });

      const [promo] = await listLivePromotions(db);
      const [old] = await db.select().from(promotions).where(eq(promotions.id, promo.id));
      const edit = await multipart(
        "/admin/promotions",
        promoForm(
          { intent: "update", id: promo.id, name: "Monsoon Mega Sale", discount: "", cta: "Go" },
          { bytes: png, name: "new.png" },
        ),
        adminCookie,
      );
      expect(edit).toMatchObject({ status: 200, body: { ok: true } });
      const [now] = await db.select().from(promotions).where(eq(promotions.id, promo.id));
      expect(now).toMatchObject({ name: "Monsoon Mega Sale", discount: null, cta: "Go" });
      expect(now.imageStoragePath).toMatch(/_new\.webp$/);
      expect(await harness.rt.storage.exists(old.imageStoragePath!)).toBe(false);

      const missing = await post(
        "/admin/promotions",
        { intent: "delete", id: "00000000-0000-4000-8000-000000000000" },
        adminCookie,
      );
      expect(missing.status).toBe(404);
      const del = await post("/admin/promotions", { intent: "delete", id: promo.id }, adminCookie);
      expect(del).toMatchObject({ status: 200, body: { ok: true } });
      expect((await listLivePromotions(db)).map((p) => p.id)).not.toContain(promo.id);
      const [gone] = await db.select().from(promotions).where(eq(promotions.id, promo.id));
      expect(gone.isDeleted).toBe(true);
      const again = await post(
        "/admin/promotions",
        { intent: "delete", id: promo.id },
        adminCookie,
      );
      expect(again.status).toBe(404);
    });
  });

  describe("product import and export", () => {
    const fixturePath = new URL("../../../tests/fixtures/legacy-products.json", import.meta.url);
    const fileForm = (intent: string, text: string, name: string) => {
      const form = new FormData();
      form.set("intent", intent);
      form.set("file", new File([text], name));
      return form;
    };
    type Report = {
      toCreate: number;
      toUpdate: number;
      failures: Array<{ where: string; reason: string }>;
      notes: Array<{ where: string; note: string }>;
      products: Array<{ name: string; action: string }>;
    };

    it("legacy ids map onto stable RFC 9562 v5 UUIDs", () => {
      // The RFC's own example: the DNS namespace and "www.example.com".
      expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
        "2ed6657d-e927-568b-95e1-2665a8aea6a2",
      );
      expect(legacyProductId("p-dragon-01")).toBe(legacyProductId("p-dragon-01"));
      expect(legacyProductId("p-dragon-01")).not.toBe(legacyProductId("p-lamp-02"));
    });

    it("imports the shared fixture: the unmappable document is reported, the rest imported once", async () => {
      const text = await readFile(fixturePath, "utf8");
      const preview = await multipart(
        "/admin/import",
        fileForm("preview", text, "legacy-products.json"),
        adminCookie,
      );
      expect(preview.status).toBe(200);
      const p = (preview.body as { preview: Report }).preview;
      expect(p).toMatchObject({ toCreate: 6, toUpdate: 0 });
      expect(p.failures).toEqual([{ where: "p-broken-05", reason: "missing name" }]);
      expect(p.notes).toEqual([
        {
          where: "p-knight-07",
          note: "image products/p-knight-07/1710000000000_knight.png is not in this shop's storage and was left out",
        },
      ]);
      // A preview writes nothing.
      expect(await db.select().from(products).where(eq(products.name, "Moon Lamp"))).toEqual([]);

      const run = await multipart(
        "/admin/import",
        fileForm("import", text, "legacy-products.json"),
        adminCookie,
      );
      expect(run).toMatchObject({
        status: 200,
        body: { ok: true, kind: "imported", result: { toCreate: 6, toUpdate: 0 } },
      });
      const [lamp] = await db.select().from(products).where(eq(products.name, "Moon Lamp"));
      expect(lamp).toMatchObject({
        id: legacyProductId("p-lamp-02"),
        pricePaise: 149_950,
        category: "3D Prints",
        slug: "moon-lamp",
        reviewsCount: 1,
        image: "https://files.example/moon.jpg",
      });
      const [goku] = await db
        .select()
        .from(products)
        .where(eq(products.id, legacyProductId("p-goku-03")));
      expect(goku).toMatchObject({ discount: 100, inStock: false, badge: "New" });
      expect(goku.createdAt.toISOString()).toBe("2025-01-11T08:00:00.000Z");
      const [knight] = await db
        .select()
        .from(products)
        .where(eq(products.id, legacyProductId("p-knight-07")));
      expect(knight.images).toEqual([]);
      // Categories the products use become choices (the fixture's "3D Characters" etc.).
      const cats = (await db.select().from(categories)).map((c) => c.name);
      expect(cats).toEqual(expect.arrayContaining(["3D Prints", "3D Characters"]));

      const [audit] = await auditOf("product.import");
      expect(audit.summary).toBe(
        'Imported 6 products from JSON "legacy-products.json" (6 new, 0 updated, 1 failed)',
      );
      expect(audit.details).toMatchObject({ created: 6, updated: 0, failed: 1 });

      // Importing the same documents again (one renamed in the old shop) updates, never duplicates.
      const count = async () => (await db.select({ id: products.id }).from(products)).length;
      const before = await count();
      const renamed = text.replace('"name": "Moon Lamp"', '"name": "Moon Lamp XL"');
      const again = await multipart(
        "/admin/import",
        fileForm("import", renamed, "legacy-products.json"),
        adminCookie,
      );
      expect(again).toMatchObject({ status: 200, body: { result: { toCreate: 0, toUpdate: 6 } } });
      expect(await count()).toBe(before);
      const [xl] = await db
        .select()
        .from(products)
        .where(eq(products.id, legacyProductId("p-lamp-02")));
      expect(xl.name).toBe("Moon Lamp XL");
      expect(xl.slug).toBe("moon-lamp-xl");
    });

    it("an image copied across without its sizes gets them from a background job", async () => {
      const storagePath = "products/p-copied-09/1710000000000_copied.png";
      const png = await sharp({
        create: { width: 900, height: 700, channels: 3, background: "#2e86c1" },
      })
        .png()
        .toBuffer();
      await harness.rt.storage.put(storagePath, png, "image/png");
      const text = JSON.stringify({
        products: {
          "p-copied-09": {
            name: "Copied Vase",
            price: 799,
            category: "3D Prints",
            images: [{ url: "", storagePath }],
            isActive: true,
          },
        },
      });
      const run = await multipart(
        "/admin/import",
        fileForm("import", text, "copied.json"),
        adminCookie,
      );
      expect(run).toMatchObject({ status: 200, body: { ok: true, kind: "imported" } });
      const [vase] = await db
        .select()
        .from(products)
        .where(eq(products.id, legacyProductId("p-copied-09")));
      expect(vase.images).toEqual([{ url: harness.rt.storage.url(storagePath), storagePath }]);
      const [job] = await db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `image-variants:${storagePath}`));
      expect(job).toMatchObject({ kind: "image-variants", status: "queued" });

      await harness.rt.jobRunner.runDue();
      for (const suffix of [".w320.avif", ".w320.webp", ".w640.avif", ".w640.webp"]) {
        const variant = await harness.rt.storage.get(storagePath + suffix);
        expect(variant, suffix).not.toBeNull();
        const meta = await sharp(variant!).metadata();
        expect(meta.width).toBe(suffix.includes("320") ? 320 : 640);
      }
      // The stored original is left as it was.
      expect(Buffer.compare((await harness.rt.storage.get(storagePath))!, png)).toBe(0);
      const [done] = await db.select().from(jobs).where(eq(jobs.id, job.id));
      expect(done.status).toBe("done");
    });

    it("reads an array export and reports bad files clearly", async () => {
      const arr = JSON.stringify([
        { id: "arr-1", name: "Array Vase", price: "250" },
        { name: "No Id Here", price: 10 },
        { id: "arr-3", name: "Dollar Thing", price: 5, currency: "USD" },
      ]);
      const res = await multipart("/admin/import", fileForm("preview", arr, "a.json"), adminCookie);
      const p = (res.body as { preview: Report }).preview;
      expect(p.toCreate).toBe(1);
      expect(p.failures).toEqual([
        { where: "item 2", reason: "missing document id" },
        { where: "arr-3 (item 3)", reason: "prices in USD: the shop sells in INR" },
      ]);
      const broken = await multipart(
        "/admin/import",
        fileForm("preview", "{not json", "b.json"),
        adminCookie,
      );
      expect(broken).toMatchObject({
        status: 400,
        body: { ok: false, description: "The file is not valid JSON." },
      });
      const none = await post("/admin/import", { intent: "preview" }, adminCookie);
      expect(none.status).toBe(400);
    });

    it("imports CSV: new rows, updates by id and by name, failures listed", async () => {
      const existing = await insertProduct(db, { name: "Csv Existing", pricePaise: 10_000 });
      const csv = [
        "name,price,category,subcategory,description,discount,inStock,stockCount,isActive,badge,features,image URL",
        'Csv Planter,349.50,3D Prints,Planters,"Self-watering, 1 L",10,true,5,true,New,PETG | 1 L,https://files.example/p.jpg',
        "csv existing,120,,,,,,,,,,",
        "Bad Row,12.345,,,,,,,,,,",
        "Csv Planter,1,,,,,,,,,,",
      ].join("\n");
      const preview = await multipart(
        "/admin/import",
        fileForm("preview", csv, "p.csv"),
        adminCookie,
      );
      const p = (preview.body as { preview: Report }).preview;
      expect(p).toMatchObject({ toCreate: 1, toUpdate: 1 });
      expect(p.failures).toEqual([
        { where: "row 4", reason: 'Invalid price "12.345": use rupees with at most 2 decimals.' },
        { where: "row 5", reason: "the same product as row 2" },
      ]);
      const run = await multipart("/admin/import", fileForm("import", csv, "p.csv"), adminCookie);
      expect(run.status).toBe(200);
      const [planter] = await db.select().from(products).where(eq(products.name, "Csv Planter"));
      expect(planter).toMatchObject({
        pricePaise: 34_950,
        category: "3D Prints",
        subcategory: "Planters",
        description: "Self-watering, 1 L",
        discount: 10,
        stockCount: 5,
        badge: "New",
        features: ["PETG", "1 L"],
        image: "https://files.example/p.jpg",
      });
      const [updated] = await db.select().from(products).where(eq(products.id, existing.id));
      // Only the given cells change; the rest stays as it was.
      expect(updated).toMatchObject({
        name: "csv existing",
        pricePaise: 12_000,
        category: existing.category,
        image: existing.image,
      });
    });

    it("exports every product as CSV, safe for spreadsheets, and the export re-imports as updates", async () => {
      await insertProduct(db, { name: '=HYPERLINK("http://evil")', category: "@Risky" });
      const res = (await (
        await routes["/admin/products.csv"]()
      ).loader!(
        routeArgs(pageGet("/admin/products.csv", { cookie: adminCookie })) as never,
      )) as Response;
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const text = await res.text();
      const [header, ...rows] = Papa.parse<string[]>(text.replace(/^\uFEFF/, "").trim()).data;
      expect(header).toEqual([
        "id",
        "name",
        "slug",
        "price",
        "category",
        "subcategory",
        "stockCount",
        "inStock",
        "isActive",
        "rating",
        "reviews",
        "createdAt",
        "weightGrams",
        "boxLengthCm",
        "boxWidthCm",
        "boxHeightCm",
      ]);
      const total = (await db.select({ id: products.id }).from(products)).length;
      expect(rows).toHaveLength(total);
      const evil = rows.find((r) => r[1].includes("HYPERLINK"))!;
      expect(evil[1]).toBe('\'=HYPERLINK("http://evil")');
      expect(evil[4]).toBe("'@Risky");

      const again = await multipart(
        "/admin/import",
        fileForm("import", text, "products.csv"),
        adminCookie,
      );
      expect(again).toMatchObject({
        status: 200,
        body: { result: { toCreate: 0, toUpdate: total, failures: [] } },
      });
      expect((await db.select({ id: products.id }).from(products)).length).toBe(total);
      const [still] = await db.select().from(products).where(like(products.category, "@Risky"));
      expect(still.name).toBe('=HYPERLINK("http://evil")');
    });

    it("refuses an import file over the size limit with 413", async () => {
      const big = "x".repeat(10 * 1024 * 1024 + 100_000);
      const res = await multipart(
        "/admin/import",
        fileForm("preview", big, "big.csv"),
        adminCookie,
      );
      expect(res.status).toBe(413);
    });
  });
});
