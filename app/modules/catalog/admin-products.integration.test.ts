import { readdir } from "node:fs/promises";
import path from "node:path";
import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit, categories, products, productVariants, userProfiles } from "~/db/schema.ts";
import { MAX_UPLOAD_BYTES } from "~/rules/admin-uploads.ts";
import { IMAGE_FORMATS, IMAGE_WIDTHS, variantSuffix } from "~/rules/images.ts";
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
import { insertProduct, staticReviews } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { giveOptions } from "../../../tests/support/variants.ts";
import { listAdminProducts } from "./admin-products.server.ts";

/*
 * The admin catalogue: /admin/items (add item, grid), /admin/items/:id (edit) and the image upload
 * endpoint /api/admin/uploads, through their route modules as the browser reaches them.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let admin: { id: string; email: string; cookie: string };
let customerCookie: string;

const items = () => import("~/routes/admin/items.tsx");
const item = () => import("~/routes/admin/item.tsx");
const uploads = () => import("~/routes/admin/api.uploads.ts");

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const a = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("items-admin") });
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, a.id));
  admin = { ...a, cookie: await signInCookie(harness.rt.auth, a) };
  const c = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("items-cust") });
  customerCookie = await signInCookie(harness.rt.auth, c);
  await db.insert(categories).values([{ name: "3D Prints" }, { name: "3D Characters" }]);
});
afterAll(async () => {
  await harness?.stop();
});

const png = (color = "#e11d48", size = 48) =>
  sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();

type UploadAnswer = {
  status: number;
  body: { url?: string; storagePath?: string; error?: string };
};

async function uploadRequest(
  fields: Record<string, string>,
  file: { name: string; bytes: Buffer | Uint8Array; type?: string } | null,
  cookie: string | undefined,
  method = "POST",
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) {
    form.set(
      "file",
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "image/png" }),
      file.name,
    );
  }
  const headers = browserHeaders({ cookie, origin: TEST_ORIGIN, site: "same-origin" });
  // Encoded up front, as a browser's bytes arrive: a FormData body's encoder keeps writing after
  // the action stops reading (the 413 below), which Node reports as an unhandled rejection
  // ("ReadableStream is already closed") that fails the whole run.
  const encoded = new Response(form);
  headers.set("content-type", encoded.headers.get("content-type") ?? "");
  const body = await encoded.arrayBuffer();
  return new Request(`${TEST_ORIGIN}/api/admin/uploads`, { method, headers, body });
}

async function upload(
  productId: string,
  file: { name: string; bytes: Buffer | Uint8Array; type?: string },
  cookie: string | null = admin.cookie,
): Promise<UploadAnswer> {
  const request = await uploadRequest({ scope: "product", productId }, file, cookie ?? undefined);
  return (await outcome(async () =>
    (await uploads()).action(routeArgs(request) as never),
  )) as UploadAnswer;
}

async function discard(storagePath: string, cookie: string | null = admin.cookie) {
  const headers = browserHeaders({
    cookie: cookie ?? undefined,
    origin: TEST_ORIGIN,
    site: "same-origin",
  });
  headers.set("content-type", "application/x-www-form-urlencoded");
  const request = new Request(`${TEST_ORIGIN}/api/admin/uploads`, {
    method: "DELETE",
    headers,
    body: new URLSearchParams({ storagePath }).toString(),
  });
  return outcome(async () => (await uploads()).action(routeArgs(request) as never));
}

const createItem = (fields: Record<string, string>, cookie: string | null = admin.cookie) =>
  outcome(async () =>
    (await items()).action(
      routeArgs(
        formPost("/admin/items", { intent: "create", ...fields }, { cookie: cookie ?? undefined }),
      ) as never,
    ),
  );

const editItem = (
  id: string,
  fields: Record<string, string>,
  cookie: string | null = admin.cookie,
) =>
  outcome(async () =>
    (await item()).action({
      request: formPost(
        `/admin/items/${id}`,
        { intent: "update", ...fields },
        { cookie: cookie ?? undefined },
      ),
      params: { id },
      context: {},
    } as never),
  );

const stored = (p: string) => harness.rt.storage.exists(p);
const variantsOf = (p: string) => [
  p,
  ...IMAGE_WIDTHS.flatMap((w) => IMAGE_FORMATS.map((f) => p + variantSuffix(w, f))),
];
const folderOf = (productId: string) =>
  path.join(harness.rt.env.dataDir, "uploads", "products", productId);
async function filesIn(productId: string): Promise<string[]> {
  try {
    return await readdir(folderOf(productId));
  } catch {
    return [];
  }
}
const productCount = async () => (await db.select({ n: count() }).from(products))[0].n;
const auditFor = (targetId: string) =>
  db.select().from(adminAudit).where(eq(adminAudit.targetId, targetId));

const base = (productId: string) => ({
  productId,
  name: "Lotus Planter",
  price: "349.999",
  category: "3d prints",
  description: "A self-watering lotus planter.",
});

describe(`admin catalogue on ${testDbKind()}`, () => {
  it("refuses invalid products with 400 and writes nothing", async () => {
    const before = await productCount();
    const id = crypto.randomUUID();
    const bad = await createItem({ productId: id, name: "", price: "0", category: "" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      kind: "invalid",
      fieldErrors: {
        name: "Please enter the product name.",
        price: "Price must be a positive number",
        category: "Current category is not valid (NA). Please select or add a category.",
        description: "Please enter a description.",
      },
    });
    // a category that is not in the list
    const unknown = await createItem({ ...base(id), category: "Jewellery" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      fieldErrors: {
        category: "Current category is not valid (Jewellery). Please select or add a category.",
      },
    });
    expect(await productCount()).toBe(before);
    expect(await auditFor(id)).toHaveLength(0);
  });

  it("creates a product with uploaded images under the id the form made", async () => {
    const id = crypto.randomUUID();
    const first = await upload(id, { name: "Lotus Front.PNG", bytes: await png() });
    const second = await upload(id, { name: "lotus side.png", bytes: await png("#2563eb") });
    expect(first.status).toBe(200);
    expect(first.body.storagePath).toMatch(
      new RegExp(`^products/${id}/\\d{13}_lotus-front\\.webp$`),
    );
    expect(first.body.url).toBe(`/uploads/${first.body.storagePath}`);
    for (const p of variantsOf(first.body.storagePath!)) expect(await stored(p)).toBe(true);

    const res = await createItem({
      ...base(id),
      discount: "150",
      rating: "4",
      reviewsCount: "12",
      features: "Hand-finished\nMaterial: PLA",
      badge: "New",
      stockCount: "",
      isActive: "true",
      images: JSON.stringify([first.body.storagePath, second.body.storagePath]),
    });
    expect(res).toMatchObject({
      status: 200,
      body: { kind: "created", id, name: "Lotus Planter" },
    });
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({
      name: "Lotus Planter",
      slug: "lotus-planter",
      pricePaise: 35_000,
      category: "3D Prints",
      discount: 100,
      rating: 4,
      reviewsCount: 12,
      features: ["Hand-finished", "Material: PLA"],
      badge: "New",
      stockCount: null,
      currency: "INR",
      isActive: true,
      image: first.body.url,
      images: [
        { url: first.body.url, storagePath: first.body.storagePath },
        { url: second.body.url, storagePath: second.body.storagePath },
      ],
    });
    const audit = await auditFor(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "product.create", actorId: admin.id });

    // The same form sent twice saves once.
    const again = await createItem({ ...base(id) });
    expect(again.status).toBe(409);
  });

  it("stores uploads re-encoded as WebP without the original's metadata", async () => {
    const id = crypto.randomUUID();
    const jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: "#0a0" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret-owner", Artist: "someone" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload(id, { name: "photo.jpg", bytes: jpeg, type: "image/jpeg" });
    expect(res.status).toBe(200);
    const bytes = await harness.rt.storage.get(res.body.storagePath!);
    const meta = await sharp(bytes!).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(bytes!.includes(Buffer.from("secret-owner"))).toBe(false);
  });

  it("updates fields, removes images marked for deletion (files too) and adds new ones", async () => {
    const id = crypto.randomUUID();
    const a = await upload(id, { name: "a.png", bytes: await png() });
    const b = await upload(id, { name: "b.png", bytes: await png("#111") });
    await createItem({
      ...base(id),
      name: "Moon Lamp",
      images: JSON.stringify([a.body.storagePath, b.body.storagePath]),
    });
    const c = await upload(id, { name: "c.png", bytes: await png("#fa0") });

    const res = await editItem(id, {
      name: "",
      price: "1299.5",
      description: "",
      stockCount: "7",
      badge: "Limited",
      isActive: "false",
      removeImages: JSON.stringify([a.body.storagePath]),
      images: JSON.stringify([c.body.storagePath]),
      reviewsList: JSON.stringify([
        { rating: 0, name: " Asha ", title: "", review: "Glows nicely" },
        { rating: 5, name: "", title: "", review: "" },
      ]),
    });
    expect(res).toMatchObject({ status: 200, body: { kind: "saved" } });
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({
      name: "Moon Lamp",
      description: "A self-watering lotus planter.",
      pricePaise: 129_950,
      stockCount: 7,
      badge: "Limited",
      isActive: false,
      image: b.body.url,
      images: [
        { url: b.body.url, storagePath: b.body.storagePath },
        { url: c.body.url, storagePath: c.body.storagePath },
      ],
    });
    expect(row.reviewsList).toHaveLength(1);
    expect(row.reviewsList[0]).toMatchObject({ rating: 0, name: "Asha", review: "Glows nicely" });
    expect(row.reviewsList[0]).not.toHaveProperty("title");
    for (const p of variantsOf(a.body.storagePath!)) expect(await stored(p)).toBe(false);
    expect(await stored(b.body.storagePath!)).toBe(true);
    expect(await stored(c.body.storagePath!)).toBe(true);
    const audit = await auditFor(id);
    expect(audit.map((e) => e.action).sort()).toEqual(["product.create", "product.update"]);
  });

  it("an edit that changes only the stock names only that in the audit log, and stock goes through inventory", async () => {
    const id = crypto.randomUUID();
    await createItem({ ...base(id), stockCount: "5" });
    // The form sends every field back; only the count differs.
    const res = await editItem(id, { ...base(id), stockCount: "3" });
    expect(res).toMatchObject({ status: 200, body: { kind: "saved" } });
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ stockCount: 3, pricePaise: 35_000 });
    const update = (await auditFor(id)).find((e) => e.action === "product.update");
    expect(update?.summary).toBe('Updated "Lotus Planter" (stockCount)');
  });

  it("saves the packed weight and box; blank goes back to the shop's defaults; bad sizes are refused", async () => {
    const id = crypto.randomUUID();
    await createItem({
      ...base(id),
      weightGrams: "420",
      boxLengthCm: "20",
      boxWidthCm: "15",
      boxHeightCm: "8",
    });
    const [made] = await db.select().from(products).where(eq(products.id, id));
    expect(made).toMatchObject({
      weightGrams: 420,
      boxLengthCm: 20,
      boxWidthCm: 15,
      boxHeightCm: 8,
    });
    const refused = await editItem(id, { ...base(id), weightGrams: "0", boxHeightCm: "301" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      fieldErrors: { weightGrams: expect.any(String), boxHeightCm: expect.any(String) },
    });
    const cleared = await editItem(id, {
      ...base(id),
      weightGrams: "",
      boxLengthCm: "",
      boxWidthCm: "",
      boxHeightCm: "",
    });
    expect(cleared).toMatchObject({ status: 200, body: { kind: "saved" } });
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({
      weightGrams: null,
      boxLengthCm: null,
      boxWidthCm: null,
      boxHeightCm: null,
    });
  });

  it("the item form changes no price or stock of a product with options: its variants hold them", async () => {
    const p = await insertProduct(db, { name: "Options Vase", category: "3D Prints" });
    await giveOptions(
      db,
      p.id,
      [{ name: "Colour", values: [{ value: "Red" }, { value: "Blue" }] }],
      [
        { values: ["Red"], pricePaise: 30_000, stockCount: 4 },
        { values: ["Blue"], pricePaise: 45_000, stockCount: 6 },
      ],
    );
    const [before] = await db.select().from(products).where(eq(products.id, p.id));
    expect(before).toMatchObject({ pricePaise: 30_000, stockCount: 10, inStock: true });
    // A form (an old tab, or a forged request) sending a price, stock and flag with a new name.
    const res = await editItem(p.id, {
      name: "Options Vase II",
      price: "999",
      originalPrice: "1999",
      stockCount: "0",
      inStock: "false",
    });
    expect(res).toMatchObject({ status: 200, body: { kind: "saved" } });
    const [row] = await db.select().from(products).where(eq(products.id, p.id));
    expect(row).toMatchObject({
      name: "Options Vase II",
      pricePaise: 30_000,
      originalPricePaise: null,
      stockCount: 10,
      inStock: true,
    });
    const variants = await db
      .select({ pricePaise: productVariants.pricePaise, stockCount: productVariants.stockCount })
      .from(productVariants)
      .where(eq(productVariants.productId, p.id));
    expect(variants.sort((a, b) => a.pricePaise - b.pricePaise)).toEqual([
      { pricePaise: 30_000, stockCount: 4 },
      { pricePaise: 45_000, stockCount: 6 },
    ]);
    const update = (await auditFor(p.id)).find((e) => e.action === "product.update");
    expect(update?.summary).toBe('Updated "Options Vase II" (name)');
  });

  it("an invalid price edit is refused with the spec's message and changes nothing", async () => {
    const p = await insertProduct(db, { name: "Fixed Price", pricePaise: 50_000 });
    const res = await editItem(p.id, { price: "0", name: "Renamed" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      fieldErrors: { price: "Price must be a positive number." },
    });
    const [row] = await db.select().from(products).where(eq(products.id, p.id));
    expect(row).toMatchObject({ name: "Fixed Price", pricePaise: 50_000 });
  });

  it("edits keep a legacy category until another listed one is chosen", async () => {
    const p = await insertProduct(db, { category: "Old Shelf", reviewsList: staticReviews(4) });
    expect((await editItem(p.id, { category: "Old Shelf", discount: "20" })).status).toBe(200);
    const bad = await editItem(p.id, { category: "Nowhere" });
    expect(bad.status).toBe(400);
    expect((await editItem(p.id, { category: "3d characters" })).status).toBe(200);
    const [row] = await db.select().from(products).where(eq(products.id, p.id));
    expect(row).toMatchObject({ category: "3D Characters", discount: 20 });
    // reviews not sent: kept
    expect(row.reviewsList).toHaveLength(1);
  });

  it("accepts JPEG, WebP and AVIF by their content", async () => {
    const id = crypto.randomUUID();
    const pixels = () =>
      sharp({ create: { width: 32, height: 32, channels: 3, background: "#123456" } });
    const files = [
      { name: "a.jpg", bytes: await pixels().jpeg().toBuffer() },
      { name: "b.webp", bytes: await pixels().webp().toBuffer() },
      // named and typed as something else: the content decides
      { name: "c.gif", bytes: await pixels().avif().toBuffer(), type: "image/gif" },
    ];
    for (const file of files) expect((await upload(id, file)).status).toBe(200);
    expect((await filesIn(id)).filter((f) => /^\d+_[a-z]\.webp$/.test(f))).toHaveLength(3);
  });

  it("refuses a file that is not an image, whatever its name and type say", async () => {
    const id = crypto.randomUUID();
    const text = await upload(id, {
      name: "notes.png",
      bytes: Buffer.from("this is a text file, not a picture"),
      type: "image/png",
    });
    expect(text.status).toBe(415);
    expect(text.body.error).toBe("Only JPEG, PNG, WebP and AVIF images can be uploaded.");
    const svg = await upload(id, {
      name: "x.png",
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
    });
    expect(svg.status).toBe(415);
    // a PNG signature in front of junk
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 7),
    ]);
    expect((await upload(id, { name: "fake.png", bytes: fake })).status).toBe(422);
    expect(await filesIn(id)).toEqual([]);
  });

  it("refuses an oversized upload with 413 and stores nothing", async () => {
    const id = crypto.randomUUID();
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const res = await upload(id, { name: "huge.png", bytes: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("This image is too large. The limit is 10 MB.");
    expect(await filesIn(id)).toEqual([]);
  });

  it("refuses an upload path of another product, or one that is not there", async () => {
    const mine = crypto.randomUUID();
    const other = crypto.randomUUID();
    const theirs = await upload(other, { name: "theirs.png", bytes: await png() });
    const before = await productCount();
    const res = await createItem({
      ...base(mine),
      images: JSON.stringify([theirs.body.storagePath]),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      fieldErrors: { images: "An image does not belong to this product." },
    });
    const missing = await createItem({
      ...base(mine),
      images: JSON.stringify([`products/${mine}/1700000000000_gone.webp`]),
    });
    expect(missing.status).toBe(400);
    const sneaky = await createItem({
      ...base(mine),
      images: JSON.stringify([`products/${mine}/../${other}/x.webp`]),
    });
    expect(sneaky.status).toBe(400);
    expect(await productCount()).toBe(before);

    const existing = await insertProduct(db);
    const edit = await editItem(existing.id, {
      images: JSON.stringify([theirs.body.storagePath]),
    });
    expect(edit.status).toBe(400);
    expect(await stored(theirs.body.storagePath!)).toBe(true);
  });

  it("deletes an unsaved upload on request, never a saved image", async () => {
    const id = crypto.randomUUID();
    const kept = await upload(id, { name: "kept.png", bytes: await png() });
    const dropped = await upload(id, { name: "dropped.png", bytes: await png("#333") });
    await createItem({ ...base(id), images: JSON.stringify([kept.body.storagePath]) });

    expect(await discard(dropped.body.storagePath!)).toMatchObject({ status: 200 });
    for (const p of variantsOf(dropped.body.storagePath!)) expect(await stored(p)).toBe(false);
    expect((await discard(kept.body.storagePath!)).status).toBe(409);
    expect(await stored(kept.body.storagePath!)).toBe(true);
    expect((await discard(`products/${id}/../../secret`)).status).toBe(400);
    expect((await discard("promotions/1700000000000_x.webp")).status).toBe(400);
  });

  it("adds categories from the form's dialog: blank ignored, duplicates not re-added", async () => {
    const add = (name: string) =>
      outcome(async () =>
        (await items()).action(
          routeArgs(
            formPost("/admin/items", { intent: "add-category", name }, { cookie: admin.cookie }),
          ) as never,
        ),
      );
    expect((await add("   ")).status).toBe(400);
    expect(await add("Desk Toys")).toMatchObject({
      body: { kind: "category", name: "Desk Toys", created: true },
    });
    expect(await add("  desk toys ")).toMatchObject({
      body: { kind: "category", name: "Desk Toys", created: false },
    });
    const rows = await db
      .select()
      .from(categories)
      .where(and(eq(categories.isDeleted, false)));
    expect(rows.filter((r) => r.name.toLowerCase() === "desk toys")).toHaveLength(1);
  });

  it("lists every product newest first, filtered by name and paged", async () => {
    // Distinct creation times: two inserts in the same millisecond would tie (then the order is by id).
    const start = Date.now() - 60_000;
    for (let i = 0; i < 5; i++) {
      await insertProduct(db, { name: `Paging Gnome ${i}`, createdAt: new Date(start + i * 1000) });
    }
    const page1 = await listAdminProducts(db, { query: "paging gnome", pageSize: 2 });
    expect(page1).toMatchObject({ total: 5, page: 1, pages: 3 });
    expect(page1.items.map((p) => p.name)).toEqual(["Paging Gnome 4", "Paging Gnome 3"]);
    const page3 = await listAdminProducts(db, { query: "PAGING", page: 9, pageSize: 2 });
    expect(page3.page).toBe(3);
    expect(page3.items.map((p) => p.name)).toEqual(["Paging Gnome 0"]);
    expect((await listAdminProducts(db, { query: "%" })).total).toBe(0);

    const res = await outcome(async () =>
      (await items()).loader(
        routeArgs(pageGet("/admin/items?q=paging+gnome", { cookie: admin.cookie })) as never,
      ),
    );
    expect(res.status).toBe(200);
    expect((res.body as { total: number }).total).toBe(5);
  });

  it("the edit screen loads a product; an unknown or malformed id is 404", async () => {
    const p = await insertProduct(db, { name: "Loadable" });
    const load = (id: string) =>
      outcome(async () =>
        (await item()).loader({
          request: pageGet(`/admin/items/${id}`, { cookie: admin.cookie }),
          params: { id },
          context: {},
        } as never),
      );
    expect(await load(p.id)).toMatchObject({
      status: 200,
      body: { product: { id: p.id, name: "Loadable" } },
    });
    expect((await load(crypto.randomUUID())).status).toBe(404);
    expect((await load("not-an-id")).status).toBe(404);
  });

  it("only admins: customers get 403, visitors 401 or the sign-in page", async () => {
    const id = crypto.randomUUID();
    const p = await insertProduct(db);
    const file = { name: "a.png", bytes: await png() };
    expect((await upload(id, file, customerCookie)).status).toBe(403);
    expect((await upload(id, file, null)).status).toBe(401);
    expect((await discard(`products/${id}/1700000000000_a.webp`, customerCookie)).status).toBe(403);
    expect((await discard(`products/${id}/1700000000000_a.webp`, null)).status).toBe(401);
    const uploadGet = (cookie?: string) =>
      outcome(async () =>
        (await uploads()).loader(routeArgs(pageGet("/api/admin/uploads", { cookie })) as never),
      );
    expect((await uploadGet(customerCookie)).status).toBe(403);
    expect((await uploadGet()).status).toBe(401);

    expect((await createItem(base(id), customerCookie)).status).toBe(403);
    expect(await createItem(base(id), null)).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^\/auth\?redirectTo=/),
    });
    expect((await editItem(p.id, { price: "1" }, customerCookie)).status).toBe(403);
    expect((await editItem(p.id, { price: "1" }, null)).status).toBe(302);

    const pages = [() => items().then((m) => m.loader), () => item().then((m) => m.loader)];
    for (const loaderOf of pages) {
      const run = async (cookie?: string) =>
        outcome(async () =>
          (await loaderOf())({
            request: pageGet(`/admin/items/${p.id}`, { cookie }),
            params: { id: p.id },
            context: {},
          } as never),
        );
      expect(await run(customerCookie)).toMatchObject({ status: 302, location: "/" });
      expect((await run()).location).toMatch(/^\/auth\?redirectTo=/);
    }
    expect(await filesIn(id)).toEqual([]);
    const [row] = await db.select().from(products).where(eq(products.id, p.id));
    expect(row.pricePaise).toBe(p.pricePaise);
  });
});
