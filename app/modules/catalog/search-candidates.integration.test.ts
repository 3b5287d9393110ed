import { and, asc, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { products } from "~/db/schema.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { searchProducts } from "./products.server.ts";
import { CANDIDATE_BOUND, NOT_ASCII_CANDIDATES } from "./search-candidates.server.ts";
import { keepSearchIndex, keptSearchIndex, numbersOf } from "./search-index.server.ts";

/** A catalogue change as the kept rankings see it: the next search ranks afresh. */
const rankAfresh = (db: Database) =>
  db.execute(sql`update search_generation set generation = generation + 1`);

/*
 * The bounded candidates (docs/decisions/0021, amended 2026-11-27) on a generated catalogue where
 * a common word is in many times more products than a source's bound: typos, prefixes,
 * Devanagari and fillers still find their products, and the product the rules over every product
 * put first is first here too, on both databases.
 */

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const FILLERS = new Set(["and", "for", "the", "with", "from", "you", "your", "set"]);

/** Decision 0004's rules over every active product, in their order (ids). */
async function reference(db: Database, query: string, limit: number) {
  const q = query.trim().toLowerCase().slice(0, 100);
  const haystack = sql`lower(${products.name} || ' ' || ${products.category} || ' ' || coalesce(${products.subcategory}, ''))`;
  const contains = sql`${haystack} like ${`%${escapeLike(q)}%`}`;
  const words = [
    ...new Set(q.split(/[\s\p{P}\p{S}]+/u).filter((w) => [...w].length >= 3 && !FILLERS.has(w))),
  ].slice(0, 5);
  const near = words.map((w) => {
    const edits = [...w].length <= 3 ? 0 : [...w].length <= 4 ? 1 : 2;
    return sql`(word_similarity(${w}, ${haystack}) >= 0.25 and (strict_word_similarity(${w}, ${haystack}) >= 0.4 or exists (
      select 1 from regexp_split_to_table(${haystack}, '[[:space:][:punct:]]+') as t(word)
      where t.word like ${`${escapeLike(w)}%`} or levenshtein(t.word, ${w}) <= ${edits})))`;
  });
  const matches =
    near.length > 0
      ? sql`(${contains} or (${sql.join(near, sql` and `)}))`
      : sql`(${contains} or word_similarity(${q}, ${haystack}) >= 0.25)`;
  const rows = await db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(and(eq(products.isActive, true), matches))
    .orderBy(
      sql`(${contains}) desc`,
      desc(sql`word_similarity(${q}, ${haystack})`),
      asc(products.name),
    )
    .limit(limit);
  return rows;
}

let state = 20261127;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let x = state;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

// As bench/seed-catalog.ts names products, on a smaller scale: few words, each in many products.
const adjectives = ["Lotus", "Peacock", "Mandala", "Temple", "Saffron", "Midnight", "Jade"];
const places: Array<[string, string, string[]]> = [
  ["3D Prints", "Home Decor", ["Tealight Holder", "Vase", "Diya Stand", "Lamp Shade"]],
  ["3D Prints", "Planters", ["Succulent Planter", "Self-Watering Pot", "Hanging Planter"]],
  ["3D Prints", "Gadgets", ["Phone Stand", "Cable Organiser", "Key Holder"]],
  ["3D Characters", "Fantasy", ["Dragon", "Wizard Miniature", "Griffin"]],
  ["3D Characters", "Mythology", ["Garuda Statue", "Ganesha Idol", "गणेश मूर्ति", "Nandi"]],
];

const QUERIES = [
  "plnter",
  "planter",
  "plan",
  "pl",
  "dargon",
  "drag",
  "tealite",
  "holder for tealight",
  "statue garuda",
  "garuda statue",
  "gaurda",
  "lotsu",
  "गणेश",
  "गणे",
  "मूर्ति गणेश",
  "ganesh",
  "phone stand",
  "stand for phone",
  "te",
  "the",
  "wizrd miniture",
  "self watering",
  "zanzibra",
];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const rows: Array<typeof products.$inferInsert> = [];
  for (let i = 0; i < 2_400; i++) {
    const [category, subcategory, nouns] = pick(places);
    rows.push({
      name: `${pick(adjectives)} ${pick(nouns)} ${i}`,
      slug: `g-${i}`,
      category,
      subcategory,
      pricePaise: 10_000,
      isActive: random() > 0.05,
    });
  }
  // One product whose only word near the typo is its own, last by name.
  rows.push({
    name: "Zanzibar Lantern",
    slug: "zanzibar-lantern",
    category: "3D Prints",
    subcategory: "Home Decor",
    pricePaise: 10_000,
  });
  for (let i = 0; i < rows.length; i += 500) {
    await t.db.insert(products).values(rows.slice(i, i + 500));
  }
  await t.db.execute(sql`analyze products`);
}, 300_000);
afterAll(() => t?.destroy());

describe(`bounded search candidates on ${testDbKind()}`, () => {
  it("puts first what the rules over every product put first, and finds only matches", async () => {
    let cut = 0;
    // Ranked on the kept copy of the products and by the statements alone (the copy turned off).
    for (const [query, kept] of QUERIES.flatMap((q) => [[q, true] as const, [q, false] as const])) {
      keepSearchIndex(t.db, kept);
      await rankAfresh(t.db);
      const expected = await reference(t.db, query, 100_000);
      const { items } = await searchProducts(t.db, query, 1, 10);
      const matching = new Set(expected.map((r) => r.id));
      expect(items[0]?.id, `${query}: first`).toBe(expected[0]?.id);
      expect(items.length, `${query}: how many`).toBe(Math.min(10, expected.length));
      for (const item of items) expect(matching.has(item.id), `${query}: ${item.name}`).toBe(true);
      // The whole page, in order, as the rules give it.
      expect(
        items.map((p) => p.name),
        `${query} (${kept ? "kept" : "statements"})`,
      ).toEqual(expected.slice(0, 10).map((r) => r.name));
      if (expected.length > CANDIDATE_BOUND * 2 && kept) cut += 1;
    }
    keepSearchIndex(t.db, true);
    // The bound was exercised: many queries match far more products than a source gives.
    expect(cut).toBeGreaterThan(8);
  });

  it("finds a typo'd word, a Devanagari prefix and a query of fillers", async () => {
    expect((await searchProducts(t.db, "zanzibra")).items.map((p) => p.name)).toEqual([
      "Zanzibar Lantern",
    ]);
    const devanagari = await searchProducts(t.db, "गणे", 1, 5);
    expect(devanagari.items.length).toBe(5);
    for (const p of devanagari.items) expect(p.name).toContain("गणेश");
    const fillers = await searchProducts(t.db, "holder for the tealight", 1, 5);
    for (const p of fillers.items) expect(p.name).toContain("Tealight Holder");
    const typo = await searchProducts(t.db, "sucullent plnter", 1, 5);
    expect(typo.items.length).toBe(5);
    for (const p of typo.items) expect(p.name).toContain("Succulent Planter");
  });

  it("finds products that match only by the whole word's similarity when few contain it", async () => {
    // "sunlamp" is in one product; twelve more spell it "Sun Lamp", which the rules match by
    // the word's similarity to their text, not by any catalogue word near it (review).
    await t.db.insert(products).values([
      { name: "Sunlamp Dome", slug: "sunlamp-dome", category: "3D Prints", pricePaise: 10_000 },
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `Sun Lamp Cube ${i}`,
        slug: `sun-lamp-cube-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    ]);
    const expected = await reference(t.db, "sunlamp", 100);
    expect(expected.length).toBe(13);
    const { items } = await searchProducts(t.db, "sunlamp", 1, 10);
    expect(items.map((p) => p.name)).toEqual(expected.slice(0, 10).map((r) => r.name));
    expect(items[0]?.name).toBe("Sunlamp Dome");
  });

  it("ranks as the rules do when few products are in another script (the copy tells more words' products)", async () => {
    // All but a few Devanagari products hidden: the kept copy then answers words near few of the
    // catalogue's (and words in another script) from their near words' products alone.
    const hidden = await t.db
      .update(products)
      .set({ isActive: false })
      .where(
        and(
          eq(products.isActive, true),
          sql`${products.name} like '%गणेश%'`,
          sql`${products.slug} >= 'g-12'`,
        ),
      )
      .returning({ id: products.id });
    try {
      await searchProducts(t.db, "lamp");
      const { notAscii } = numbersOf(keptSearchIndex(t.db)!);
      expect(notAscii.length).toBeGreaterThan(0);
      expect(notAscii.length).toBeLessThanOrEqual(NOT_ASCII_CANDIDATES);
      // The queries the copy answered without the trigram index.
      const fromCopy: string[] = [];
      for (const query of [
        ...QUERIES,
        "zebra lamp",
        "ganesha zanzibar",
        "sunlamp",
        "sun lamp cube",
        "qwxz",
        "गणेश lamp",
        "lotus zanzibra",
      ]) {
        for (const kept of [true, false]) {
          keepSearchIndex(t.db, kept);
          await rankAfresh(t.db);
          const expected = await reference(t.db, query, 100_000);
          const transaction = vi.spyOn(t.db, "transaction");
          try {
            const { items } = await searchProducts(t.db, query, 1, 10);
            expect(
              items.map((p) => p.name),
              `${query} (${kept ? "kept" : "statements"})`,
            ).toEqual(expected.slice(0, 10).map((r) => r.name));
            if (!kept || transaction.mock.calls.length > 0) continue;
            fromCopy.push(query);
          } finally {
            transaction.mockRestore();
          }
        }
      }
      // Words near nothing ("qwxz", "zebra") or near few ("zanzibra"), without the trigram index.
      expect(fromCopy).toEqual(expect.arrayContaining(["zebra lamp", "qwxz", "lotus zanzibra"]));
    } finally {
      keepSearchIndex(t.db, true);
      for (const { id } of hidden)
        await t.db.update(products).set({ isActive: true }).where(eq(products.id, id));
    }
  });
});
