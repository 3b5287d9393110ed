import { eq, inArray, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { products } from "~/db/schema.ts";
import { codedWindows } from "~/rules/search-similarity.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { giveOptions } from "../../../tests/support/variants.ts";
import { searchProducts } from "./products.server.ts";
import {
  CANDIDATE_BOUND,
  containingWordPattern,
  containingWordPatterns,
  MAX_WALKED_WORDS,
} from "./search-candidates.server.ts";
import { keepSearchIndex } from "./search-index.server.ts";

/*
 * The search's postings (drizzle/0018, decision 0021 amended 2026-11-27 b) are one row per word
 * (numbers aside) of each active product, with its name, kept by triggers: after every kind of
 * catalogue change they are exactly what the products say, on both databases.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  // These tests hear the statements the search sends: the kept copy of the products
  // (search-index.integration.test.ts) would send none of the candidates' statements.
  keepSearchIndex(t.db, false);
});
afterAll(() => t?.destroy());

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const line = (r: Row) => `${r.word}|${r.name}|${r.product_id}`;

/**
 * What `run` asks the database, each statement's text with its whitespace folded: outside a
 * transaction, and inside one (the trigram passes run in a transaction).
 */
async function heard<T>(run: () => Promise<T>) {
  const dialect = new PgDialect();
  const text = (query: SQL) => dialect.sqlToQuery(query).sql.replace(/\s+/g, " ");
  const inTransaction: string[] = [];
  const execute = vi.spyOn(t.db, "execute");
  const original = t.db.transaction.bind(t.db);
  const transaction = vi.spyOn(t.db, "transaction").mockImplementation(((
    body: (tx: unknown) => Promise<unknown>,
  ) =>
    original(async (tx) => {
      const inner = tx.execute.bind(tx);
      tx.execute = ((query: SQL) => {
        inTransaction.push(text(query));
        return inner(query);
      }) as typeof tx.execute;
      return body(tx);
    })) as unknown as typeof t.db.transaction);
  try {
    const result = await run();
    const outside = execute.mock.calls.map(([query]) => text(query as SQL));
    return { result, outside, inTransaction };
  } finally {
    execute.mockRestore();
    transaction.mockRestore();
  }
}

/** The rows the table holds, and the rows the active products' words say it should hold. */
async function postingsAndExpected() {
  const held = rowsOf(
    await t.db.execute(sql`select word, name, product_id from search_postings`),
  ).map(line);
  const expected = rowsOf(
    await t.db.execute(sql`
      select distinct w as word, p.name, p.id as product_id
        from products p, unnest(p.search_words) as w
       where p.is_active and w !~ '^[0-9]*$'`),
  ).map(line);
  return { held: held.sort(), expected: expected.sort() };
}

async function expectInStep() {
  const { held, expected } = await postingsAndExpected();
  expect(held).toEqual(expected);
  // And the search's narrow copy of the active products (drizzle/0019).
  const copy = (rows: Row[]) =>
    rows
      .map(
        (r) =>
          `${r.id}|${r.name}|${r.search_text}|${JSON.stringify(r.search_words)}|${r.search_coded}`,
      )
      .sort();
  expect(
    copy(
      rowsOf(
        await t.db.execute(
          sql`select id, name, search_text, search_words, search_coded from search_products`,
        ),
      ),
    ),
  ).toEqual(
    copy(
      rowsOf(
        await t.db.execute(
          sql`select id, name, search_text, search_words,
                     layerkart_search_coded(search_text) as search_coded
                from products where is_active`,
        ),
      ),
    ),
  );
  return held;
}

/** The row version of a product's search copy (unchanged when nothing was written to it). */
const copyVersion = async (id: string) =>
  rowsOf(await t.db.execute(sql`select xmin::text as v from search_products where id = ${id}`))[0]
    ?.v;

const wordsOf = async (id: string) =>
  rowsOf(
    await t.db.execute(
      sql`select word from search_postings where product_id = ${id} order by word`,
    ),
  ).map((r) => String(r.word));

describe(`search postings (${testDbKind()})`, () => {
  it("(and the search's copy of the products) follow inserts, renames, category changes, deactivation, deletes and bulk changes", async () => {
    const vase = await insertProduct(t.db, { name: "Spiral Vase 12", category: "3D Prints" });
    const draft = await insertProduct(t.db, { name: "Hidden Draft", isActive: false });
    await expectInStep();
    // Numbers have no rows; the category's words do; an inactive product has none.
    expect(await wordsOf(vase!.id)).toEqual(["3d", "prints", "spiral", "vase"]);
    expect(await wordsOf(draft!.id)).toEqual([]);

    await t.db.update(products).set({ name: "Twisted Vase" }).where(eq(products.id, vase!.id));
    expect(await wordsOf(vase!.id)).toEqual(["3d", "prints", "twisted", "vase"]);
    await t.db
      .update(products)
      .set({ category: "3D Characters", subcategory: "Mythology" })
      .where(eq(products.id, vase!.id));
    expect(await wordsOf(vase!.id)).toEqual(["3d", "characters", "mythology", "twisted", "vase"]);
    await expectInStep();

    // A sale's stock change writes nothing and keeps the rows.
    const version = await copyVersion(vase!.id);
    expect(version).toBeDefined();
    await t.db.update(products).set({ stockCount: 3 }).where(eq(products.id, vase!.id));
    expect(await wordsOf(vase!.id)).toEqual(["3d", "characters", "mythology", "twisted", "vase"]);
    expect(await copyVersion(vase!.id)).toBe(version);

    await t.db.update(products).set({ isActive: false }).where(eq(products.id, vase!.id));
    expect(await wordsOf(vase!.id)).toEqual([]);
    await t.db.update(products).set({ isActive: true }).where(eq(products.id, draft!.id));
    expect(await wordsOf(draft!.id)).toEqual(["3d", "draft", "hidden", "prints"]);
    await expectInStep();

    // Many rows in one statement each way.
    const many = await t.db
      .insert(products)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          name: `Lotus Lamp ${i}`,
          slug: `lotus-lamp-${i}`,
          category: "3D Prints",
          subcategory: "Home Decor",
          pricePaise: 10_000,
          isActive: i % 5 !== 0,
        })),
      )
      .returning({ id: products.id });
    await expectInStep();
    await t.db
      .update(products)
      .set({ name: sql`replace(${products.name}, 'Lotus', 'Peacock')`, isActive: true })
      .where(
        inArray(
          products.id,
          many.slice(0, 20).map((r) => r.id),
        ),
      );
    await expectInStep();
    await t.db.delete(products).where(
      inArray(
        products.id,
        many.slice(10, 30).map((r) => r.id),
      ),
    );
    await t.db.delete(products).where(eq(products.id, draft!.id));
    const held = await expectInStep();
    expect(held.some((r) => r.startsWith("peacock|"))).toBe(true);
    expect(held.some((r) => r.includes(draft!.id))).toBe(false);
  });

  it("is unchanged by options (their values are matched from the options), and the search finds both", async () => {
    const lamp = await insertProduct(t.db, { name: "Moon Lamp", category: "3D Prints" });
    const before = await wordsOf(lamp!.id);
    await giveOptions(
      t.db,
      lamp!.id,
      [{ name: "Colour", values: [{ value: "Crimson" }, { value: "Teal" }] }],
      [
        { values: ["Crimson"], pricePaise: 10_000 },
        { values: ["Teal"], pricePaise: 10_000 },
      ],
    );
    expect(await wordsOf(lamp!.id)).toEqual(before);
    await expectInStep();
    expect((await searchProducts(t.db, "crimson moon")).items.map((p) => p.name)).toEqual([
      "Moon Lamp",
    ]);
    expect((await searchProducts(t.db, "moon lam")).items.map((p) => p.name)).toContain(
      "Moon Lamp",
    );
  });

  it("gives every product containing a query one of the words its pattern names", async () => {
    expect(containingWordPattern("phone stand")).toBe("stand%");
    expect(containingWordPattern("phones stand")).toBe("%phones");
    expect(containingWordPattern("holder for tealight")).toBe("for");
    expect(containingWordPattern("lamp")).toBe("%lamp%");
    expect(containingWordPattern("desk &")).toBe("%desk");
    expect(containingWordPattern("_a")).toBe("a%");
    // Numbers have no postings; a separator some locale may not split at leaves it to the text.
    expect(containingWordPattern("4821")).toBeUndefined();
    expect(containingWordPattern("mecha pilot 4821")).toBe("pilot");
    // Every token's, best first: a product containing the query has a word matching each.
    expect(containingWordPatterns("self watering pot")).toEqual(["watering", "%self", "pot%"]);
    expect(containingWordPatterns("गणेश")).toEqual([]);
    // PostgreSQL splits "लक्ष्मी" at its virama, PGlite doesn't: no pattern outside ASCII.
    expect(containingWordPattern("गणेश")).toBeUndefined();
    expect(containingWordPattern("लक्ष्मी")).toBeUndefined();
    expect(containingWordPattern("a₹b")).toBeUndefined();
    expect(containingWordPattern("%")).toBeUndefined();
    // On the catalogue: each query's products (by the text) all have such a word.
    // Every token's pattern (the others' filter the walks, and one naming no word of the
    // catalogue means no product contains the query), and the coded windows.
    for (const q of ["lamp", "moon lamp", "oon la", "lotus lamp 1", "3d prints", "ase", "d p"]) {
      for (const pattern of containingWordPatterns(q)) {
        const missed = rowsOf(
          await t.db.execute(sql`
            select id from products p
             where is_active and search_text like ${`%${q}%`}
               and not exists (select 1 from unnest(p.search_words) w where w like ${pattern})`),
        );
        expect(missed, `${q}: ${pattern}`).toEqual([]);
      }
      for (const w of codedWindows(q)) {
        const missed = rowsOf(
          await t.db.execute(sql`
            select id from search_products
             where search_text like ${`%${q}%`} and search_coded not like ${`%${w}%`}`),
        );
        expect(missed, `${q}: ${w}`).toEqual([]);
      }
    }
  });

  it("finishes a word whose first postings by name hold none of the other words from the indexes", async () => {
    // More "holder" and "lantern" products first by name than a walk reads, none with both; the
    // products with both come last by name.
    const filler = (word: string) =>
      Array.from({ length: 4 * CANDIDATE_BOUND + 30 }, (_, i) => ({
        name: `Aardvark ${word} ${String(i).padStart(3, "0")}`,
        slug: `aardvark-${word.toLowerCase()}-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      }));
    await t.db.insert(products).values([...filler("Holder"), ...filler("Lantern")]);
    const both = Array.from(
      { length: 12 },
      (_, i) => `Zebu Lantern Holder ${String(i).padStart(2, "0")}`,
    );
    await t.db.insert(products).values(
      both.map((name, i) => ({
        name,
        slug: `zebu-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    const { result, outside } = await heard(() => searchProducts(t.db, "lantern holder", 1, 10));
    expect(result.items.map((p) => p.name)).toEqual(both.slice(0, 10));
    expect(result.hasNext).toBe(true);
    // The walks didn't settle it: the second statement read the words' index.
    expect(outside.some((q) => q.includes("unsettled"))).toBe(true);
    expect(
      outside.filter((q) => !q.includes("unsettled") && q.includes("offset 0) holding")),
    ).toHaveLength(1);
  });
  it("walks the other word's postings when the first ones of a word hold none of it", async () => {
    // More "holder" products first by name than a walk reads, none a "teacup"; every "teacup"
    // product is a holder, last by name.
    await t.db.insert(products).values(
      Array.from({ length: 4 * CANDIDATE_BOUND + 30 }, (_, i) => ({
        name: `Abacus Holder ${String(i).padStart(3, "0")}`,
        slug: `abacus-holder-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    const both = Array.from(
      { length: CANDIDATE_BOUND + 5 },
      (_, i) => `Zinnia Teacup Holder ${String(i).padStart(2, "0")}`,
    );
    await t.db.insert(products).values(
      both.map((name, i) => ({
        name,
        slug: `zinnia-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    const { result, outside } = await heard(() => searchProducts(t.db, "teacup holder", 1, 10));
    expect(result.items.map((p) => p.name)).toEqual(both.slice(0, 10));
    expect(result.hasNext).toBe(true);
    // Settled in the first statement: no second one reads the words' index (before: it did).
    expect(outside.filter((q) => q.includes("offset 0) holding"))).toEqual([]);
  });

  it("finds the few products containing a query of several words by its coded text's trigrams", async () => {
    // Many products have all three words, written with a hyphen; two contain the query as typed.
    await t.db.insert(products).values([
      ...Array.from({ length: 4 * CANDIDATE_BOUND + 30 }, (_, i) => ({
        name: `Self-Watering Pot ${String(i).padStart(3, "0")}`,
        slug: `self-watering-pot-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
      {
        name: "Zesty Self Watering Pot",
        slug: "zesty-1",
        category: "3D Prints",
        pricePaise: 10_000,
      },
      {
        name: "Zinc Self Watering Pots",
        slug: "zinc-1",
        category: "3D Prints",
        pricePaise: 10_000,
      },
    ]);
    const { result, outside } = await heard(() => searchProducts(t.db, "self watering pot", 1, 10));
    // Those containing it first (by similarity, then name), then the most similar.
    expect(result.items.slice(0, 2).map((p) => p.name)).toEqual([
      "Zesty Self Watering Pot",
      "Zinc Self Watering Pots",
    ]);
    // Not every "watering" product's text read (before: the words' index, then the text).
    expect(outside.filter((q) => q.includes("offset 0) holding"))).toEqual([]);
    // In the candidates' statement: no second one.
    expect(outside.filter((q) => q.includes("extra_0"))).toEqual([]);
  });

  it("a letter or two in many of the catalogue's words stays one small statement, with the rules' answer", async () => {
    // 60 words with "e" and "ve" in them (the vocabulary grows with the catalogue).
    const letters = (i: number) =>
      String.fromCharCode(97 + Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));
    await t.db.insert(products).values(
      Array.from({ length: 60 }, (_, i) => ({
        name: `Ve${letters(i)}x Lamp`,
        slug: `ve-lamp-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    const dialect = new PgDialect();
    for (const q of ["e", "ve", "ve lamp", "vea lamp"]) {
      const execute = vi.spyOn(t.db, "execute");
      let items: Array<{ name: string }>;
      try {
        ({ items } = await searchProducts(t.db, q, 1, 10));
        for (const [query] of execute.mock.calls) {
          const { sql: text, params } = dialect.sqlToQuery(query as SQL);
          // 521 walks for "e" made a 319 KB statement of 4,708 parameters before.
          expect(params.length, q).toBeLessThan(200);
          expect((text.match(/walk_\d+ as materialized/g) ?? []).length, q).toBeLessThanOrEqual(
            3 * MAX_WALKED_WORDS,
          );
        }
      } finally {
        execute.mockRestore();
      }
      if (q.includes(" ")) {
        expect(items.length, q).toBeGreaterThan(0);
        continue;
      }
      // Every product containing the query ranks first, by its similarity to it, then by name.
      const expected = rowsOf(
        await t.db.execute(sql`select name from products
           where is_active and search_text like ${`%${q}%`}
           order by word_similarity(${q}, search_text) desc, name, id limit 10`),
      ).map((r) => String(r.name));
      expect(
        items.map((p) => p.name),
        q,
      ).toEqual(expected);
    }
  });

  // Review of amendment (c): two ways the bounded candidates lost the best product.
  const letters = (i: number) => String.fromCharCode(97 + (Math.floor(i / 26) % 26), 97 + (i % 26));
  const named = (name: string, i: number) => ({
    name,
    slug: `named-${i}-${name.toLowerCase().replaceAll(" ", "-")}`,
    category: "Home",
    pricePaise: 100,
  });

  it("finds the product having every word when a number of the query is in many products", async () => {
    await t.db
      .insert(products)
      .values([
        ...Array.from({ length: 220 }, (_, i) => named(`Alpha 100 ${letters(i)}`, i)),
        ...Array.from({ length: 20 }, (_, i) => named(`Beta Lamp 10 ${letters(i)}`, 1000 + i)),
        ...Array.from({ length: 60 }, (_, i) => named(`Gamma Lamp ${letters(i)}`, 2000 + i)),
        named("Zulu 100 Lamp", 9999),
      ]);
    const { items } = await searchProducts(t.db, "lamp 100", 1, 10);
    // Read unfiltered, the number's first 200 products by name were all "Alpha 100 …".
    expect(items[0]?.name).toBe("Zulu 100 Lamp");
  });

  it("keeps the most similar product containing the query when more than a bound contain it", async () => {
    await t.db
      .insert(products)
      .values([
        ...Array.from({ length: 60 }, (_, i) => named(`Aa Desk Lamps ${letters(i)}`, i)),
        ...Array.from({ length: 220 }, (_, i) => named(`Ab Lamp Desk ${letters(i)}`, 1000 + i)),
        named("Zz Desk Lamp", 9999),
      ]);
    const { result, outside } = await heard(() => searchProducts(t.db, "desk lamp", 1, 10));
    // It contains the query and is its best match, last by name.
    expect(result.items[0]?.name).toBe("Zz Desk Lamp");
    // Asked afresh, the generation and the vocabulary are read in one statement (one snapshot).
    expect(
      outside.filter((q) => q.includes("search_generation") && q.includes("search_vocabulary")),
    ).toHaveLength(1);
  });

  it("settles a query with few answers by the products passing every word's test at once", async () => {
    // Numbered products: every one has the words, the number is in one.
    await t.db
      .insert(products)
      .values(
        Array.from({ length: 3 * CANDIDATE_BOUND }, (_, i) =>
          named(`Mecha Pilot ${String(1000 + i * 37)}`, 5000 + i),
        ),
      );
    const { result, inTransaction } = await heard(() =>
      searchProducts(t.db, "mecha pilot 1259", 1, 10),
    );
    const names = result.items.map((p) => p.name);
    // Not every word's trigram source (three of them: extra_0 to extra_2).
    expect(inTransaction.some((text) => text.includes("extra_0"))).toBe(true);
    expect(inTransaction.filter((text) => text.includes("extra_2"))).toEqual([]);
    // The rules over every product (decision 0004) give the same page.
    const expected = rowsOf(
      await t.db.execute(sql`select name from products
         where is_active and (search_text like '%mecha pilot 1259%'
           or (word_similarity('mecha', search_text) >= 0.25
               and (search_words && '{mecha}' or strict_word_similarity('mecha', search_text) >= 0.4)
               and word_similarity('pilot', search_text) >= 0.25
               and (search_words && '{pilot}' or strict_word_similarity('pilot', search_text) >= 0.4)
               and word_similarity('1259', search_text) >= 0.25
               and (exists (select 1 from unnest(search_words) as w(word)
                             where word like '1259%' or levenshtein(word, '1259') <= 1)
                    or strict_word_similarity('1259', search_text) >= 0.4)))
         order by (search_text like '%mecha pilot 1259%') desc,
                  word_similarity('mecha pilot 1259', search_text) desc, name, id
         limit 10`),
    ).map((r) => String(r.name));
    expect(names[0]).toBe("Mecha Pilot 1259");
    expect(names).toEqual(expected);
  });

  it("a word near nothing in the catalogue settles the search with its own trigram source", async () => {
    // More "Quokka" products than a source reads, none near "zebra".
    await t.db.insert(products).values(
      Array.from({ length: 2 * CANDIDATE_BOUND + 10 }, (_, i) => ({
        name: `Quokka ${String(i).padStart(3, "0")}`,
        slug: `quokka-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    const { result, inTransaction } = await heard(() =>
      searchProducts(t.db, "zebra quokka", 1, 10),
    );
    expect(result.items).toEqual([]);
    // No product is similar enough to "zebra", so none can match: "quokka"'s trigram source
    // (every "Quokka" product similar to it, sorted) isn't read (before: a second pass did).
    expect(inTransaction.filter((text) => text.includes("extra_0"))).toHaveLength(1);
    // The rules over every product agree.
    const rule = rowsOf(
      await t.db.execute(sql`select count(*)::int as n from products
         where is_active and (search_text like '%zebra quokka%'
           or (word_similarity('zebra', search_text) >= 0.25
               and strict_word_similarity('zebra', search_text) >= 0.4
               and word_similarity('quokka', search_text) >= 0.25))`),
    );
    expect(rule[0]?.n).toBe(0);
  });
});
