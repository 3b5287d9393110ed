import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertProduct } from "../../../tests/support/factories.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { giveOptions } from "../../../tests/support/variants.ts";
import { withVariantSummaries } from "./card-variants.server.ts";
import {
  listLatestProducts,
  listProducts,
  listProductsByIds,
  listRelatedProducts,
  searchProducts,
} from "./products.server.ts";

/*
 * Issue 22: search finds a product by its option values ("red dragon", "petg") as by its name,
 * and cards know a product's price spread and colours, on both databases.
 */

let t: TestDatabase;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestDatabase();
  for (const name of ["Low-Poly Dragon", "Blue Dragon Bust", "Red Lotus Lamp", "Hex Planter"]) {
    ids[name] = (await insertProduct(t.db, { name, category: "3D Prints" })).id;
  }
  await giveOptions(
    t.db,
    ids["Low-Poly Dragon"] as string,
    [
      {
        name: "Colour",
        values: [
          { value: "Red", swatch: "#cc2222" },
          { value: "Jade Green", swatch: "#22aa66" },
          { value: "Gold", swatch: "#ccaa22" },
        ],
      },
    ],
    [
      { values: ["Red"], pricePaise: 49_900 },
      { values: ["Jade Green"], pricePaise: 59_900 },
      // Gold isn't sold any longer: no swatch on the card.
      { values: ["Gold"], pricePaise: 99_900, isActive: false },
    ],
  );
  await giveOptions(
    t.db,
    ids["Hex Planter"] as string,
    [{ name: "Material", values: [{ value: "Matte PLA" }, { value: "PETG" }] }],
    [
      { values: ["Matte PLA"], pricePaise: 29_900 },
      { values: ["PETG"], pricePaise: 29_900 },
    ],
  );
});

afterAll(() => t?.destroy());

const names = async (query: string) => {
  const { items } = await searchProducts(t.db, query, 1, 10);
  return items.map((p) => p.name);
};

describe(`search and cards with options (${testDbKind()})`, () => {
  it("finds a product by its option values", async () => {
    expect(await names("red dragon")).toEqual(["Low-Poly Dragon"]);
    expect(await names("petg")).toEqual(["Hex Planter"]);
    expect(await names("jade")).toEqual(["Low-Poly Dragon"]);
    // Misspelt, as a name may be.
    expect(await names("red dargon")).toEqual(["Low-Poly Dragon"]);
    expect(await names("jadee dragon")).toEqual(["Low-Poly Dragon"]);
    expect(await names("matte pla planter")).toEqual(["Hex Planter"]);
  });

  it("ranks products found by a value with those found by their name", async () => {
    // Both contain "red"; ranked by similarity, then name, as any two products are.
    expect((await names("red")).sort()).toEqual(["Low-Poly Dragon", "Red Lotus Lamp"]);
    expect(await names("dragon")).toEqual(["Blue Dragon Bust", "Low-Poly Dragon"]);
    // Values add to a product's words: the names' matches are unchanged.
    expect(await names("lotus")).toEqual(["Red Lotus Lamp"]);
    expect(await names("blue")).toEqual(["Blue Dragon Bust"]);
  });

  it("says 'from' when the active prices differ, with the active colours' swatches", async () => {
    const { items } = await listProducts(t.db, {}, 1);
    const card = (name: string) => items.find((p) => p.name === name);
    expect(card("Low-Poly Dragon")).toMatchObject({
      pricePaise: 49_900,
      priceVaries: true,
      swatches: [
        { value: "Red", swatch: "#cc2222" },
        { value: "Jade Green", swatch: "#22aa66" },
      ],
    });
    expect(card("Hex Planter")).toMatchObject({ priceVaries: false, swatches: [] });
    expect(card("Red Lotus Lamp")?.priceVaries).toBeUndefined();
    const latest = await listLatestProducts(t.db);
    expect(latest.find((p) => p.name === "Low-Poly Dragon")?.priceVaries).toBe(true);
    const { items: found } = await searchProducts(t.db, "dragon", 1, 10);
    expect(found.find((p) => p.name === "Low-Poly Dragon")).toMatchObject({
      priceVaries: true,
      swatches: [
        { value: "Red", swatch: "#cc2222" },
        { value: "Jade Green", swatch: "#22aa66" },
      ],
    });
    expect(found.find((p) => p.name === "Blue Dragon Bust")?.priceVaries).toBeUndefined();
  });

  it("marks every card of a product with options, wherever cards are listed, and only those", async () => {
    // The card then links to the product page ("Choose options") instead of adding a variant.
    const optioned = ["Low-Poly Dragon", "Hex Planter"];
    const check = (cards: Array<{ name: string; hasOptions?: boolean }>) => {
      expect(cards.length).toBeGreaterThan(0);
      for (const c of cards) expect(Boolean(c.hasOptions), c.name).toBe(optioned.includes(c.name));
    };
    check((await listProducts(t.db, {}, 1)).items);
    check((await listProducts(t.db, { categoryText: "3d prints" }, 1)).items);
    check(await listLatestProducts(t.db));
    check((await searchProducts(t.db, "dragon", 1, 10)).items);
    check((await searchProducts(t.db, "petg", 1, 10)).items);
    const related = await listRelatedProducts(t.db, {
      id: ids["Red Lotus Lamp"] as string,
      category: "3D Prints",
    });
    expect(related.map((c) => c.name)).toEqual(expect.arrayContaining(optioned));
    check(related);
  });

  it("gives a search's cards as every other listing reads them (drizzle/0021's layerkart_cards)", async () => {
    // (Last: it adds products.) Every card column set and a rating that isn't whole; options
    // whose only variant is no longer sold, and options with no variant at all; the same active
    // prices beside another one no longer sold (not "from"); two options with swatches (the
    // first one's show).
    const full = await insertProduct(t.db, {
      name: "Compared Lantern",
      subcategory: "Lamps",
      originalPricePaise: 59_900,
      discount: 17,
      rating: 4.3,
      reviewsCount: 12,
      badge: "New",
      inStock: false,
      stockCount: 0,
    });
    const bare = await insertProduct(t.db, { name: "Compared Bare Vase", image: null });
    await giveOptions(
      t.db,
      bare!.id,
      [{ name: "Size", values: [{ value: "Tall" }] }],
      [{ values: ["Tall"], pricePaise: 19_900, isActive: false }],
    );
    const plain = await insertProduct(t.db, { name: "Compared Plain Bowl" });
    await giveOptions(t.db, plain!.id, [{ name: "Size", values: [{ value: "Wide" }] }], []);
    const even = await insertProduct(t.db, { name: "Compared Even Stand" });
    await giveOptions(
      t.db,
      even!.id,
      [
        {
          name: "Colour",
          values: [
            { value: "Teal", swatch: "#118888" },
            { value: "Plum", swatch: "#663366" },
          ],
        },
        {
          name: "Trim",
          values: [
            { value: "Brass", swatch: "#b08d57" },
            { value: "Steel", swatch: "#8a9597" },
          ],
        },
      ],
      [
        { values: ["Teal", "Brass"], pricePaise: 24_900 },
        { values: ["Plum", "Steel"], pricePaise: 24_900 },
        { values: ["Teal", "Steel"], pricePaise: 39_900, isActive: false },
      ],
    );
    const all = [...Object.values(ids), full!.id, bare!.id, plain!.id, even!.id];
    const expected = await withVariantSummaries(t.db, await listProductsByIds(t.db, all));
    const byId = new Map(expected.map((c) => [c.id, c]));
    // What the fixtures are for, as every other listing reads them.
    expect(byId.get(even!.id)).toMatchObject({
      priceVaries: false,
      swatches: [
        { value: "Teal", swatch: "#118888" },
        { value: "Plum", swatch: "#663366" },
      ],
    });
    expect(byId.get(bare!.id)).toMatchObject({ hasOptions: true, priceVaries: false });
    expect(byId.get(plain!.id)?.hasOptions).toBeUndefined();
    const found = new Set<string>();
    for (const query of ["dragon", "planter", "lotus", "compared", "petg"]) {
      const { items } = await searchProducts(t.db, query, 1, 10);
      expect(items.length, query).toBeGreaterThan(0);
      for (const card of items) {
        expect(card, `${query}: ${card.name}`).toEqual(byId.get(card.id));
        found.add(card.id);
      }
    }
    // Every one of them was found, and compared.
    expect([...found].sort()).toEqual([...all].sort());
  });
});
