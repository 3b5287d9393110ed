import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit, orderItems, products, productVariants, userProfiles } from "~/db/schema.ts";
import { productsCsv } from "~/rules/product-csv.ts";
import { productOptionsSchema, variantRowsSchema, variantText } from "~/rules/variant-schema.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { listAdminProducts, ProductInputError } from "./admin-products.server.ts";
import { listProductsForExport, runImport } from "./import.server.ts";
import { adminVariantTable, setProductOptions, updateVariants } from "./variant-admin.server.ts";

/*
 * Staff's options and variant table (issue 22): generating combinations, keeping what staff set,
 * deactivating a combination an order names, per-variant prices and stock, and the product
 * row's summary, on the database this project runs on.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
const staff = { id: "", email: "staff@example.com" };
let adminCookie = "";
let customerCookie = "";

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const a = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("variants-admin") });
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, a.id));
  staff.id = a.id;
  staff.email = a.email;
  adminCookie = await signInCookie(harness.rt.auth, a);
  const c = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("variants-cust") });
  customerCookie = await signInCookie(harness.rt.auth, c);
});

/** A POST to /admin/items/:id as the browser sends it. */
const post = (id: string, fields: Record<string, string>, cookie = adminCookie) =>
  outcome(async () =>
    (await import("~/routes/admin/item.tsx")).action({
      request: formPost(`/admin/items/${id}`, fields, { cookie }),
      params: { id },
      context: {},
    } as never),
  );
afterAll(async () => {
  await harness?.stop();
});

const options = (raw: unknown) => productOptionsSchema.parse(raw);
const rows = (raw: unknown) => variantRowsSchema.parse(raw);
const row = (id: string) =>
  db
    .select()
    .from(products)
    .where(eq(products.id, id))
    .then((r) => r[0]);

async function refused(promise: Promise<unknown>): Promise<ProductInputError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProductInputError);
  return error as ProductInputError;
}

describe(`options and variants on ${testDbKind()}`, () => {
  it("generates 2×3 variants, the default variant becoming the first, and keeps them on a re-save", async () => {
    const p = await insertProduct(db, {
      name: "Variant Dragon",
      pricePaise: 49_900,
      stockCount: 7,
    });
    const [defaultVariant] = await db
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, p.id));
    const result = await setProductOptions(
      db,
      staff,
      p.id,
      options([
        {
          name: "Colour",
          values: [
            { value: "Red", swatch: "#e11d48" },
            { value: "Blue", swatch: "#1e88e5" },
          ],
        },
        { name: "Size", values: [{ value: "S" }, { value: "M" }, { value: "L" }] },
      ]),
    );
    expect(result).toEqual({ variants: 6, created: 5, deactivated: 0, deleted: 0 });
    const table = await adminVariantTable(db, p.id);
    expect(table.options.map((o) => o.name)).toEqual(["Colour", "Size"]);
    expect(table.options[0].values.map((v) => v.swatch)).toEqual(["#e11d48", "#1e88e5"]);
    expect(table.variants.map((v) => v.label)).toEqual([
      "Red / S",
      "Red / M",
      "Red / L",
      "Blue / S",
      "Blue / M",
      "Blue / L",
    ]);
    // The default variant kept its id and count; new ones are counted from 0 (the product counts).
    expect(table.variants[0].id).toBe(defaultVariant.id);
    expect(table.variants[0].stockCount).toBe(7);
    expect(table.variants.slice(1).every((v) => v.stockCount === 0 && !v.inStock)).toBe(true);
    expect(table.variants.every((v) => v.pricePaise === 49_900)).toBe(true);
    expect(await row(p.id)).toMatchObject({ pricePaise: 49_900, stockCount: 7, inStock: true });

    // Saving the same options again, values reordered, changes no variant's identity.
    const again = await setProductOptions(
      db,
      staff,
      p.id,
      options([
        {
          id: table.options[0].id,
          name: "Colour",
          values: [
            { id: table.options[0].values[1].id, value: "Blue", swatch: "#1e88e5" },
            { id: table.options[0].values[0].id, value: "Red", swatch: "#e11d48" },
          ],
        },
        { name: "size", values: [{ value: "S" }, { value: "M" }, { value: "L" }] },
      ]),
    );
    expect(again).toEqual({ variants: 6, created: 0, deactivated: 0, deleted: 0 });
    const reordered = await adminVariantTable(db, p.id);
    expect(reordered.variants.map((v) => v.label)).toEqual([
      "Blue / S",
      "Blue / M",
      "Blue / L",
      "Red / S",
      "Red / M",
      "Red / L",
    ]);
    expect(new Set(reordered.variants.map((v) => v.id))).toEqual(
      new Set(table.variants.map((v) => v.id)),
    );
    const audit = await db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.targetId, p.id), eq(adminAudit.action, "product.options")));
    expect(audit).toHaveLength(2);
  });

  it("sets SKU, prices, stock, active and image per variant and keeps the product's summary", async () => {
    const p = await insertProduct(db, {
      name: "Variant Vase",
      images: [
        { url: "/images/vase-red.png", storagePath: null },
        { url: "/images/vase-blue.png", storagePath: null },
      ],
    });
    await setProductOptions(
      db,
      staff,
      p.id,
      options([{ name: "Colour", values: [{ value: "Red" }, { value: "Blue" }] }]),
    );
    const [red, blue] = (await adminVariantTable(db, p.id)).variants;
    await updateVariants(
      db,
      staff,
      p.id,
      rows([
        {
          id: red.id,
          sku: "VASE-RED",
          price: "599",
          originalPrice: "799",
          stockCount: "3",
          image: "/images/vase-red.png",
        },
        { id: blue.id, sku: "VASE-BLUE", price: "499", stockCount: "0" },
      ]),
    );
    const [r, b] = (await adminVariantTable(db, p.id)).variants;
    expect(r).toMatchObject({
      sku: "VASE-RED",
      pricePaise: 59_900,
      originalPricePaise: 79_900,
      stockCount: 3,
      inStock: true,
      images: [{ url: "/images/vase-red.png", storagePath: null }],
    });
    expect(b).toMatchObject({
      sku: "VASE-BLUE",
      pricePaise: 49_900,
      stockCount: 0,
      inStock: false,
    });
    // The row: the lowest active price, the active counts summed, in stock while one sells.
    expect(await row(p.id)).toMatchObject({ pricePaise: 49_900, stockCount: 3, inStock: true });

    // Deactivating the cheap one moves the "from" price; deactivating both: out of stock.
    await updateVariants(db, staff, p.id, rows([{ id: blue.id, isActive: "false" }]));
    expect(await row(p.id)).toMatchObject({ pricePaise: 59_900, stockCount: 3, inStock: true });
    await updateVariants(db, staff, p.id, rows([{ id: red.id, isActive: "false" }]));
    expect(await row(p.id)).toMatchObject({ inStock: false, stockCount: 0 });
    await updateVariants(db, staff, p.id, rows([{ id: red.id, isActive: "true" }]));

    // Two variants may swap their SKUs in one save.
    await updateVariants(
      db,
      staff,
      p.id,
      rows([
        { id: red.id, sku: "VASE-BLUE" },
        { id: blue.id, sku: "vase-red" },
      ]),
    );
    const swapped = (await adminVariantTable(db, p.id)).variants;
    expect(swapped.map((v) => v.sku)).toEqual(["VASE-BLUE", "vase-red"]);
  });

  it("refuses another product's SKU, a variant of another product, an original price below the price, a foreign image; nothing written", async () => {
    const a = await insertProduct(db, { name: "Variant Owl" });
    const b = await insertProduct(db, { name: "Variant Cat" });
    await setProductOptions(db, staff, a.id, options([{ name: "Size", values: [{ value: "S" }] }]));
    await setProductOptions(db, staff, b.id, options([{ name: "Size", values: [{ value: "S" }] }]));
    const [va] = (await adminVariantTable(db, a.id)).variants;
    const [vb] = (await adminVariantTable(db, b.id)).variants;
    await updateVariants(db, staff, a.id, rows([{ id: va.id, sku: "OWL-S", price: "300" }]));
    const before = await db.select().from(productVariants).where(eq(productVariants.id, vb.id));

    const sku = await refused(
      updateVariants(db, staff, b.id, rows([{ id: vb.id, sku: "owl-s", price: "999" }])),
    );
    expect(sku.fieldErrors["variants.0.sku"]).toBe(variantText.skuTaken("owl-s"));
    const foreign = await refused(
      updateVariants(db, staff, b.id, rows([{ id: va.id, price: "1" }])),
    );
    expect(foreign.fieldErrors["variants.0.id"]).toBe(variantText.unknownVariant);
    // The module checks again what a browser may skip.
    const original = await refused(
      updateVariants(db, staff, b.id, [{ id: vb.id, originalPrice: 10_000, price: 99_900 }]),
    );
    expect(original.fieldErrors["variants.0.originalPrice"]).toBe(variantText.originalBelowPrice);
    // The stored price (₹349) is above a new original price of ₹200.
    const storedPrice = await refused(
      updateVariants(db, staff, b.id, rows([{ id: vb.id, originalPrice: "200" }])),
    );
    expect(storedPrice.fieldErrors["variants.0.originalPrice"]).toBe(
      variantText.originalBelowPrice,
    );
    const image = await refused(
      updateVariants(
        db,
        staff,
        b.id,
        rows([{ id: vb.id, image: "https://elsewhere.example/x.png" }]),
      ),
    );
    expect(image.fieldErrors["variants.0.image"]).toBe(variantText.image);
    expect(await db.select().from(productVariants).where(eq(productVariants.id, vb.id))).toEqual(
      before,
    );
  });

  it("a combination that disappears is deleted, or deactivated while an order names it", async () => {
    const p = await insertProduct(db, { name: "Variant Robot" });
    await setProductOptions(
      db,
      staff,
      p.id,
      options([
        { name: "Colour", values: [{ value: "Red" }, { value: "Blue" }] },
        { name: "Size", values: [{ value: "S" }, { value: "M" }] },
      ]),
    );
    const variants = (await adminVariantTable(db, p.id)).variants;
    const blueS = variants.find((v) => v.label === "Blue / S")!;
    const user = await createVerifiedUser(harness.rt.auth, db, {
      email: uniqueEmail("variants-buyer"),
    });
    const order = await insertOrder(db, user.id, [p.id]);
    await db
      .update(orderItems)
      .set({ variantId: blueS.id })
      .where(eq(orderItems.orderId, order.id));

    // Blue goes: Blue / S is ordered (deactivated), Blue / M is not (deleted).
    const result = await setProductOptions(
      db,
      staff,
      p.id,
      options([
        { name: "Colour", values: [{ value: "Red" }] },
        { name: "Size", values: [{ value: "S" }, { value: "M" }] },
      ]),
    );
    expect(result).toEqual({ variants: 2, created: 0, deactivated: 1, deleted: 1 });
    const after = (await adminVariantTable(db, p.id)).variants;
    expect(after.map((v) => [v.label, v.isActive])).toEqual([
      ["Red / S", true],
      ["Red / M", true],
      ["", false],
    ]);
    expect(after[2].id).toBe(blueS.id);
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item.variantId).toBe(blueS.id);

    // All options removed: the first variant is the product again, sold at its price and with
    // its own stock, never the total the other variants made (that would sell units that
    // don't exist).
    await updateVariants(
      db,
      staff,
      p.id,
      rows([
        { id: after[0].id, price: "250", stockCount: "3" },
        { id: after[1].id, price: "200", stockCount: "5" },
      ]),
    );
    expect(await row(p.id)).toMatchObject({ pricePaise: 20_000, stockCount: 8 });
    const none = await setProductOptions(db, staff, p.id, []);
    expect(none.variants).toBe(1);
    const table = await adminVariantTable(db, p.id);
    expect(table.options).toEqual([]);
    const active = table.variants.filter((v) => v.isActive);
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ stockCount: 3, inStock: true });
    expect(await row(p.id)).toMatchObject({ pricePaise: 25_000, stockCount: 3, inStock: true });
  });

  it("refuses an option or value id of another product, and a missing product", async () => {
    const a = await insertProduct(db, { name: "Variant Frog" });
    const b = await insertProduct(db, { name: "Variant Toad" });
    await setProductOptions(db, staff, a.id, options([{ name: "Size", values: [{ value: "S" }] }]));
    const [foreign] = (await adminVariantTable(db, a.id)).options;
    const error = await refused(
      setProductOptions(
        db,
        staff,
        b.id,
        options([{ id: foreign.id, name: "Size", values: [{ value: "S" }] }]),
      ),
    );
    expect(error.fieldErrors["options.0.name"]).toBe(variantText.badList);
    expect((await adminVariantTable(db, b.id)).options).toEqual([]);
    const missing = await refused(
      setProductOptions(db, staff, "00000000-0000-4000-8000-000000000000", []),
    );
    expect(missing.status).toBe(404);
  });

  it("/admin/items/:id: staff generate and edit variants; bad input is a 400 with messages and writes nothing; customers are refused", async () => {
    const p = await insertProduct(db, { name: "Variant Lamp" });
    const generate = await post(p.id, {
      intent: "variant-options",
      options: JSON.stringify([
        { name: "Colour", values: [{ value: "Red", swatch: "#ff0000" }, { value: "Blue" }] },
      ]),
    });
    expect(generate.status).toBe(200);
    expect(generate.body).toEqual({ kind: "variants", message: variantText.optionsSaved });
    const [red, blue] = (await adminVariantTable(db, p.id)).variants;

    const before = await db
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, p.id));
    const bad = await post(p.id, {
      intent: "variant-update",
      variants: JSON.stringify([
        { id: red.id, price: "0.50" },
        { id: blue.id, price: "10", originalPrice: "5" },
      ]),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      kind: "invalid",
      fieldErrors: {
        "variants.0.price": variantText.price,
        "variants.1.originalPrice": variantText.originalBelowPrice,
      },
    });
    const bodies: Record<string, string>[] = [
      { intent: "variant-update", variants: "not json" },
      { intent: "variant-update", variants: JSON.stringify([{ id: red.id, sku: "A\u0000B" }]) },
      { intent: "variant-options", options: JSON.stringify([{ name: "a" }]) },
      {
        intent: "variant-options",
        options: JSON.stringify(
          ["A", "B", "C", "D"].map((name) => ({ name, values: [{ value: "x" }] })),
        ),
      },
    ];
    for (const body of bodies) expect((await post(p.id, body)).status).toBe(400);
    expect(
      await db.select().from(productVariants).where(eq(productVariants.productId, p.id)),
    ).toEqual(before);

    const ok = await post(p.id, {
      intent: "variant-update",
      variants: JSON.stringify([
        { id: red.id, price: "150", stockCount: "2" },
        { id: blue.id, price: "120", stockCount: "9" },
      ]),
    });
    expect(ok.body).toEqual({ kind: "variants", message: variantText.variantsSaved });
    expect(await row(p.id)).toMatchObject({ pricePaise: 12_000, stockCount: 11 });

    const customer = await post(
      p.id,
      { intent: "variant-update", variants: JSON.stringify([{ id: red.id, price: "1" }]) },
      customerCookie,
    );
    expect(customer.status).not.toBe(200);
    expect((await adminVariantTable(db, p.id)).variants[0].pricePaise).toBe(15_000);
  });

  it("the admin's low-stock filter shows a product when one of its active variants runs low", async () => {
    const low = await insertProduct(db, { name: "Variant Lowstock Boat", stockCount: 50 });
    await setProductOptions(
      db,
      staff,
      low.id,
      options([{ name: "Size", values: [{ value: "S" }, { value: "L" }] }]),
    );
    const [s, l] = (await adminVariantTable(db, low.id)).variants;
    await updateVariants(
      db,
      staff,
      low.id,
      rows([
        { id: s.id, stockCount: "40" },
        { id: l.id, stockCount: "3" },
      ]),
    );
    const plenty = await insertProduct(db, { name: "Variant Lowstock Ship", stockCount: 50 });
    const untracked = await insertProduct(db, { name: "Variant Lowstock Raft" });
    const found = async () =>
      (
        await listAdminProducts(db, { query: "Variant Lowstock", lowStock: true, pageSize: 100 })
      ).items.map((i) => i.id);
    expect(await found()).toEqual([low.id]);
    // An inactive variant running low doesn't count; a product without options counts its one.
    await updateVariants(db, staff, low.id, rows([{ id: l.id, isActive: "false" }]));
    await db.update(products).set({ stockCount: 2 }).where(eq(products.id, plenty.id));
    expect(await found()).toEqual([plenty.id]);
    expect(await found()).not.toContain(untracked.id);
  });

  it("the products CSV carries variants: export then import of a 2×3 product changes nothing; an edited row changes its variant", async () => {
    const p = await insertProduct(db, { name: "Variant Csv Knight", stockCount: 4 });
    await setProductOptions(
      db,
      staff,
      p.id,
      options([
        { name: "Colour", values: [{ value: "Red", swatch: "#e11d48" }, { value: "Blue" }] },
        { name: "Size", values: [{ value: "S" }, { value: "M" }, { value: "L" }] },
      ]),
    );
    const ids = (await adminVariantTable(db, p.id)).variants.map((v) => v.id);
    await updateVariants(
      db,
      staff,
      p.id,
      rows(
        ids.map((id, i) => ({
          id,
          sku: `KNIGHT-${i}`,
          price: String(300 + i * 10),
          originalPrice: i === 2 ? "999" : "",
          stockCount: String(i),
          isActive: i === 5 ? "false" : "true",
        })),
      ),
    );
    const snapshot = async () => {
      const { updatedAt: _u, ...product } = await row(p.id);
      const table = await adminVariantTable(db, p.id);
      return { product, options: table.options, variants: table.variants };
    };
    const before = await snapshot();
    const csv = productsCsv((await listProductsForExport(db)).filter((x) => x.id === p.id));
    expect(csv.split("\r\n")[0]).toContain("Option1 Name,Option1 Value,Option2 Name");
    expect(csv.trim().split("\r\n")).toHaveLength(7);
    expect(csv).toContain("Red,Size,S,,,KNIGHT-0,300.00,,0,true");

    const result = await runImport(db, harness.rt.storage, staff, { text: csv, filename: "p.csv" });
    expect(result).toMatchObject({ ok: true, toUpdate: 1, toCreate: 0, failures: [] });
    expect(await snapshot()).toEqual(before);

    // One variant's price and stock edited in the file: that variant changes, and the summary.
    const edited = csv.replace("KNIGHT-0,300.00,,0,true", "KNIGHT-0,250.00,,8,true");
    const again = await runImport(db, harness.rt.storage, staff, {
      text: edited,
      filename: "p.csv",
    });
    expect(again).toMatchObject({ ok: true, toUpdate: 1 });
    const after = await adminVariantTable(db, p.id);
    expect(after.variants[0]).toMatchObject({ id: ids[0], pricePaise: 25_000, stockCount: 8 });
    expect(after.options[0].values[0].swatch).toBe("#e11d48");
    expect(await row(p.id)).toMatchObject({ pricePaise: 25_000 });

    // A SKU another product's variant has refuses the whole file, writing nothing.
    const other = await insertProduct(db, { name: "Variant Csv Rook" });
    await setProductOptions(
      db,
      staff,
      other.id,
      options([{ name: "Size", values: [{ value: "S" }] }]),
    );
    const [rook] = (await adminVariantTable(db, other.id)).variants;
    await updateVariants(db, staff, other.id, rows([{ id: rook.id, sku: "ROOK-S" }]));
    const clash = await runImport(db, harness.rt.storage, staff, {
      text: edited.replace("KNIGHT-1,", "ROOK-S,").replace("KNIGHT-0,250.00", "KNIGHT-0,260.00"),
      filename: "p.csv",
    });
    expect(clash).toEqual({ ok: false, error: variantText.skuTaken("ROOK-S") });
    expect((await adminVariantTable(db, p.id)).variants[0].pricePaise).toBe(25_000);
  });
});
