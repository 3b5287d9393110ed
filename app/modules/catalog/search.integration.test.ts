import { and, asc, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { products } from "~/db/schema.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { searchProducts } from "./products.server.ts";
import { CANDIDATE_BOUND as SEARCH_WINDOW } from "./search-candidates.server.ts";
import { keepSearchIndex } from "./search-index.server.ts";

/** A catalogue change as the kept rankings see it: the next search ranks afresh. */
const rankAfresh = (db: Database) =>
  db.execute(sql`update search_generation set generation = generation + 1`);

/*
 * The indexed search (drizzle/0006) finds and orders exactly what the rules of decision 0004 say,
 * checked against those rules written out as one query over every product (the search before the
 * index), on a catalogue where a query can match far more products than the ranking window.
 */

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const FILLERS = new Set(["and", "for", "the", "with", "from", "you", "your", "set"]);

/** Decision 0004's rules over every active product: the search before the index (ids). */
async function reference(db: Database, query: string, page: number, pageSize: number) {
  const q = query.trim().toLowerCase().slice(0, 100);
  if (!q) return [];
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
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.isActive, true), matches))
    .orderBy(
      sql`(${contains}) desc`,
      desc(sql`word_similarity(${q}, ${haystack})`),
      asc(products.name),
    )
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize);
  return rows.map((r) => r.id);
}

// A small deterministic generator, so a failure can be repeated.
let state = 20261125;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let x = state;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

const adjectives = [
  "Lotus",
  "Ember",
  "Low-Poly",
  "Temple",
  "Saffron",
  "Midnight",
  "Royal",
  "Twisted",
];
const nouns = [
  "Dragon",
  "Tealight Holder",
  "Phone Stand",
  "Succulent Planter",
  "Garuda Statue",
  "Cable Tamer Clips",
  "गणेश मूर्ति",
  "Wizard Miniature",
  "Desk Tidy",
  "Self-Watering Pot",
];
const places: Array<[string, string | null]> = [
  ["3D Prints", "Home Decor"],
  ["3D Prints", "Planters"],
  ["3D Prints", "Desk & Office"],
  ["3D Characters", "Fantasy"],
  ["3D Characters", "Mythology"],
  ["Festive", null],
];

const QUERIES = [
  "dragon",
  "Dragon",
  "dargon",
  "drag",
  "dr",
  "dra",
  "drago",
  "ember dargon",
  "dragon ember",
  "planter",
  "plnter",
  "pla",
  "tealight",
  "tealite",
  "tealght",
  "holder for tealight",
  "lotsu",
  "lotus",
  "phone stand",
  "stand for phone",
  "garuda statue",
  "statue garuda",
  "gaurda",
  "गणेश",
  "गणेश मूर्ति",
  "मूर्ति गणेश",
  "3d",
  "3d prints",
  "the",
  "for",
  "ganesh",
  "zebra",
  "clipz",
  "12",
  "123",
  "1234",
  "lotus 12",
  "12 lotus",
  "ember 8",
  "x12",
  "899",
  "tealight 1234",
  "low-poly",
  "low poly",
  "desk & office",
  "self watering",
  "wizard mini",
  "%",
  "_a",
];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  const rows: Array<typeof products.$inferInsert> = [];
  // Names are unique (a number each), so the order of results is the rules' alone.
  for (let i = 0; i < 900; i++) {
    const [category, subcategory] = pick(places);
    const name = `${pick(adjectives)} ${pick(nouns)} ${i}`;
    rows.push({
      name,
      slug: `p-${i}`,
      category,
      subcategory,
      pricePaise: 10_000,
      isActive: random() > 0.08,
    });
  }
  await t.db.insert(products).values(rows);
}, 120_000);
afterAll(() => t?.destroy());

describe(`indexed search on ${testDbKind()}`, () => {
  it("matches and orders every query as the rules over every product do, page by page", async () => {
    let beyondWindow = 0;
    for (const query of QUERIES) {
      for (const [page, pageSize] of [
        [1, 10],
        [1, 5],
        [2, 10],
        [4, 10],
      ] as const) {
        const expected = await reference(t.db, query, page, pageSize);
        // Ranked on the kept copy of the products, and by the statements alone.
        for (const kept of [true, false]) {
          keepSearchIndex(t.db, kept);
          await rankAfresh(t.db);
          const { items, hasNext } = await searchProducts(t.db, query, page, pageSize);
          expect(
            { ids: items.map((p) => p.id), hasNext },
            `${query} (page ${page} of ${pageSize}, ${kept ? "kept" : "statements"})`,
          ).toEqual({ ids: expected.slice(0, pageSize), hasNext: expected.length > pageSize });
        }
        keepSearchIndex(t.db, true);
      }
      const [{ n }] = rowsOf(
        await t.db.execute(
          sql`select count(*)::int as n from products where is_active and search_text like ${`%${escapeLike(query.toLowerCase())}%`}`,
        ),
      ) as Array<{ n: number }>;
      if (n > SEARCH_WINDOW) beyondWindow += 1;
    }
    // The window's shortcut was exercised (queries contained by more products than it ranks).
    expect(beyondWindow).toBeGreaterThan(3);
  });

  it("ranks a better product beyond the window's names first", async () => {
    // More products containing 'drag' than the window ranks, all first by name, none of them
    // with the word itself; one product named later has it.
    await t.db.insert(products).values(
      Array.from({ length: SEARCH_WINDOW + 20 }, (_, i) => ({
        name: `Aardvark Dragonfly ${String(i).padStart(3, "0")}`,
        slug: `aardvark-${i}`,
        category: "3D Prints",
        pricePaise: 10_000,
      })),
    );
    await t.db.insert(products).values({
      name: "Zesty Drag Racer",
      slug: "zesty-drag-racer",
      category: "3D Prints",
      pricePaise: 10_000,
    });
    const { items } = await searchProducts(t.db, "drag", 1, 5);
    expect(items.map((p) => p.name)).toEqual(await namesOf(await reference(t.db, "drag", 1, 5)));
    expect(items[0]?.name).toBe("Zesty Drag Racer");
  });

  it("finds a word a product gets later, misspelt, as soon as it is saved", async () => {
    const [first] = await t.db
      .insert(products)
      .values({
        name: "Zanzibar Lantern",
        slug: "zanzibar-lantern",
        category: "3D Prints",
        pricePaise: 10_000,
      })
      .returning();
    expect((await searchProducts(t.db, "zanzibra")).items.map((p) => p.name)).toEqual([
      "Zanzibar Lantern",
    ]);
    await t.db.update(products).set({ name: "Quokka Lantern" }).where(eq(products.id, first!.id));
    expect((await searchProducts(t.db, "quokak")).items.map((p) => p.name)).toEqual([
      "Quokka Lantern",
    ]);
    expect(await searchProducts(t.db, "zanzibra")).toEqual({ items: [], hasNext: false });
  });
});

function rowsOf(result: unknown) {
  return (result as { rows: Array<Record<string, unknown>> }).rows;
}

async function namesOf(ids: string[]) {
  const rows = await t.db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(sql`${products.id} in ${ids.slice(0, 5)}`);
  const byId = new Map(rows.map((r) => [r.id, r.name]));
  return ids.slice(0, 5).map((id) => byId.get(id));
}
