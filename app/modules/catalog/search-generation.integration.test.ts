import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productOptions, productOptionValues, products, searchGeneration } from "~/db/schema.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { giveOptions } from "../../../tests/support/variants.ts";
import { searchProducts, suggestProducts } from "./products.server.ts";

/*
 * Decision 0021: a query's ranking is kept under the search generation, which every change to
 * what a search matches or ranks by raises. Each test asks a query first (so its ranking is kept),
 * changes the catalogue as the shop does, and asks again: the answer is the new one.
 */

let t: TestDatabase;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDatabase();
  for (const name of ["Spiral Vase", "Hex Planter", "Moon Lamp", "Temple Bell"]) {
    ids[name] = (await insertProduct(t.db, { name, category: "3D Prints" })).id;
  }
});

afterAll(() => t?.destroy());

const names = async (query: string, page = 1) =>
  (await searchProducts(t.db, query, page, 10)).items.map((p) => p.name);

const generation = async () => {
  const [row] = await t.db.select().from(searchGeneration);
  return Number(row?.generation);
};

const rename = (id: string, changes: Partial<typeof products.$inferInsert>) =>
  t.db.update(products).set(changes).where(eq(products.id, id));

describe(`kept search rankings (${testDbKind()})`, () => {
  it("finds a product by its new name, and no longer by its old one", async () => {
    expect(await names("spiral")).toEqual(["Spiral Vase"]);
    expect(await names("sprial")).toEqual(["Spiral Vase"]);
    await rename(ids["Spiral Vase"] as string, { name: "Twisted Vase" });
    expect(await names("spiral")).toEqual([]);
    expect(await names("sprial")).toEqual([]);
    expect(await names("twisted")).toEqual(["Twisted Vase"]);
    await rename(ids["Spiral Vase"] as string, { name: "Spiral Vase" });
    expect(await names("spiral")).toEqual(["Spiral Vase"]);
  });

  it("finds a product by its new category and subcategory", async () => {
    expect(await names("mythology")).toEqual([]);
    await rename(ids["Temple Bell"] as string, {
      category: "3D Characters",
      subcategory: "Mythology",
    });
    expect(await names("mythology")).toEqual(["Temple Bell"]);
    expect(await names("characters")).toEqual(["Temple Bell"]);
    await rename(ids["Temple Bell"] as string, { category: "3D Prints", subcategory: null });
    expect(await names("mythology")).toEqual([]);
  });

  it("leaves out a deactivated product, and finds it again once active", async () => {
    expect(await suggestProducts(t.db, "moon")).toEqual([
      expect.objectContaining({ name: "Moon Lamp" }),
    ]);
    await rename(ids["Moon Lamp"] as string, { isActive: false });
    expect(await suggestProducts(t.db, "moon")).toEqual([]);
    expect(await names("moon")).toEqual([]);
    await rename(ids["Moon Lamp"] as string, { isActive: true });
    expect(await names("moon")).toEqual(["Moon Lamp"]);
  });

  it("finds a product by option values given, changed and removed", async () => {
    expect(await names("petg")).toEqual([]);
    await giveOptions(
      t.db,
      ids["Hex Planter"] as string,
      [{ name: "Material", values: [{ value: "PETG" }, { value: "Matte PLA" }] }],
      [
        { values: ["PETG"], pricePaise: 29_900 },
        { values: ["Matte PLA"], pricePaise: 29_900 },
      ],
    );
    expect(await names("petg")).toEqual(["Hex Planter"]);
    expect(await names("silk")).toEqual([]);
    expect(await names("matte")).toEqual(["Hex Planter"]);
    await t.db
      .update(productOptionValues)
      .set({ value: "Silk PLA" })
      .where(eq(productOptionValues.value, "Matte PLA"));
    expect(await names("silk")).toEqual(["Hex Planter"]);
    expect(await names("matte")).toEqual([]);
    await t.db
      .delete(productOptions)
      .where(eq(productOptions.productId, ids["Hex Planter"] as string));
    expect(await names("petg")).toEqual([]);
  });

  it("finds a new product at once, and not one deleted", async () => {
    expect(await names("origami")).toEqual([]);
    const added = await insertProduct(t.db, { name: "Origami Crane", category: "3D Prints" });
    expect(await names("origami")).toEqual(["Origami Crane"]);
    await t.db.delete(products).where(eq(products.id, added.id));
    expect(await names("origami")).toEqual([]);
  });

  it("keeps every ranking when an inactive product (a custom part in a cart) is added, renamed or deleted", async () => {
    const before = await generation();
    const part = await insertProduct(t.db, {
      name: "Custom part: bracket.stl",
      category: "Custom 3D Print",
      isActive: false,
    });
    await rename(part.id, { name: "Custom part: bracket v2.stl" });
    await t.db.delete(products).where(eq(products.id, part.id));
    expect(await generation()).toBe(before);
    // Activated, it is searchable at once; deactivated, gone at once.
    const draft = await insertProduct(t.db, { name: "Lotus Bowl", isActive: false });
    expect(await names("lotus")).toEqual([]);
    await rename(draft.id, { isActive: true });
    expect(await names("lotus")).toEqual(["Lotus Bowl"]);
    await rename(draft.id, { isActive: false });
    expect(await names("lotus")).toEqual([]);
    await t.db.delete(products).where(eq(products.id, draft.id));
  });

  it("keeps the ranking through a stock change, and shows the stock as it is now", async () => {
    const card = async () => (await searchProducts(t.db, "temple", 1, 10)).items[0];
    expect(await card()).toMatchObject({ name: "Temple Bell", inStock: true });
    const before = await generation();
    // What a sale does to a product row (app/modules/inventory): the ranking doesn't depend on it.
    await t.db.execute(
      sql`update products set in_stock = false, stock_count = 0 where id = ${ids["Temple Bell"]}`,
    );
    expect(await generation()).toBe(before);
    expect(await card()).toMatchObject({ name: "Temple Bell", inStock: false, stockCount: 0 });
    await t.db.execute(
      sql`update products set in_stock = true, stock_count = null where id = ${ids["Temple Bell"]}`,
    );
  });

  it("answers a kept query as a new one, page by page", async () => {
    for (let i = 0; i < 14; i++) {
      await insertProduct(t.db, { name: `Garden Planter ${i}`, category: "3D Prints" });
    }
    const first = [await names("planter", 1), await names("planter", 2)];
    const kept = [await names("planter", 1), await names("planter", 2)];
    expect(kept).toEqual(first);
    expect(first[0]).toHaveLength(10);
    expect(first[1]).toHaveLength(5);
    // Raised by hand: the same query ranked afresh gives the same answer.
    await t.db
      .update(searchGeneration)
      .set({ generation: sql`${searchGeneration.generation} + 1` });
    expect([await names("planter", 1), await names("planter", 2)]).toEqual(first);
  });
});
