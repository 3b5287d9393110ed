import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codedText, levenshtein, trigramsOf, wordSimilarity } from "~/rules/search-similarity.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";

/*
 * The shop's similarity measures against the database's own (pg_trgm, fuzzystrmatch), on both
 * databases: query words and catalogue-like texts, typos, prefixes, digits, punctuation, repeated
 * trigrams, one- and two-letter words, and random ASCII. Any difference fails with the pair.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.destroy());

/** A small deterministic generator, so a failure names a pair that can be run again. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TEXTS = [
  "tea light holder 12 3d prints home & decor",
  "tealight holder - lotus (matte) 3d prints home & decor",
  "garuda statue 4821 3d prints mythology",
  "articulated dragon 10872 3d prints characters fantasy",
  "self-watering pot 3d prints planters",
  "phone stand, headphone stand 3d prints desk & office",
  "aaa aaa aaaa a b c 1 22 333",
  "sci-fi mecha pilot 4821 bust",
  "",
  "   ",
  "x",
  "ab-ab ab_ab ab.ab abab",
  "Mixed CASE Words HERE",
  "a1b2 c3d4 1234567890",
];
const PATTERNS = [
  "tealight",
  "tealite",
  "holder",
  "tea light",
  "garuda",
  "gaurda",
  "statue garuda",
  "dargon",
  "dragon",
  "4821",
  "mecha pilot 4821",
  "self watering pot",
  "phone sta",
  "sta",
  "st",
  "a",
  "ab",
  "aaa",
  "",
  "x",
  "Tea",
  "pho-ne",
];

function randomWord(next: () => number, alphabet: string, max: number) {
  const length = 1 + Math.floor(next() * max);
  let w = "";
  for (let i = 0; i < length; i++) w += alphabet[Math.floor(next() * alphabet.length)];
  return w;
}

function pairs() {
  const out: Array<[string, string]> = [];
  for (const p of PATTERNS) for (const x of TEXTS) out.push([p, x]);
  const next = generator(20261128);
  // A small alphabet repeats trigrams often (the extents' bookkeeping); a wide one mixes
  // punctuation, digits and capitals.
  const alphabets = ["abc ", "ab c-d", "abcdefgh ", "aZ9 .-_&(),'", "tealigh rdos"];
  for (let i = 0; i < 1500; i++) {
    const alphabet = alphabets[i % alphabets.length] as string;
    out.push([randomWord(next, alphabet, 10), randomWord(next, alphabet, 40)]);
  }
  return out;
}

type Row = Record<string, unknown>;

/** The pairs as rows (p, x, i) of a statement; JSON carries every character as it is. */
const pairsOf = (all: Array<[string, string]>, first = "p", second = "x") =>
  sql`(select a.v as ${sql.raw(first)}, b.v as ${sql.raw(second)}, a.i
         from jsonb_array_elements_text(${JSON.stringify(all.map(([p]) => p))}::jsonb)
              with ordinality as a(v, i)
         join jsonb_array_elements_text(${JSON.stringify(all.map(([, x]) => x))}::jsonb)
              with ordinality as b(v, i) using (i)) as pairs`;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

describe(`the shop's similarity measures equal the database's (${testDbKind()})`, () => {
  it("word_similarity and strict_word_similarity, pair by pair", async () => {
    const all = pairs();
    const rows = rowsOf(
      await t.db.execute(sql`
        select i, word_similarity(p, x)::float8 as plain, strict_word_similarity(p, x)::float8 as strict
          from ${pairsOf(all)}
         order by i`),
    );
    expect(rows.length).toBe(all.length);
    const differing: string[] = [];
    rows.forEach((row, i) => {
      const [p, x] = all[i] as [string, string];
      const pattern = trigramsOf(p);
      const text = trigramsOf(x);
      const plain = wordSimilarity(pattern, text);
      const strict = wordSimilarity(pattern, text, true);
      if (plain !== Number(row.plain) || strict !== Number(row.strict)) {
        differing.push(
          `${JSON.stringify(p)} in ${JSON.stringify(x)}: ${plain}/${strict} vs ${row.plain}/${row.strict}`,
        );
      }
    });
    expect(differing.slice(0, 10)).toEqual([]);
  });

  it("the thresholds compare the same way (0.25 and 0.4, as the rule writes them)", async () => {
    const all = pairs();
    const rows = rowsOf(
      await t.db.execute(sql`
        select i, word_similarity(p, x) >= 0.25 as near, strict_word_similarity(p, x) >= 0.4 as strict
          from ${pairsOf(all)}
         order by i`),
    );
    const differing: string[] = [];
    rows.forEach((row, i) => {
      const [p, x] = all[i] as [string, string];
      const pattern = trigramsOf(p);
      const text = trigramsOf(x);
      const near = wordSimilarity(pattern, text) >= 0.25;
      const strict = wordSimilarity(pattern, text, true) >= 0.4;
      if (near !== row.near || strict !== row.strict) differing.push(`${p} in ${x}`);
    });
    expect(differing.slice(0, 10)).toEqual([]);
  });

  it("levenshtein", async () => {
    const next = generator(7);
    const all: Array<[string, string]> = [
      ["", ""],
      ["", "abc"],
      ["dragon", "dargon"],
      ["planter", "plnter"],
      ["kitten", "sitting"],
    ];
    for (let i = 0; i < 500; i++)
      all.push([randomWord(next, "abcd", 9), randomWord(next, "abcd", 9)]);
    const rows = rowsOf(
      await t.db.execute(sql`
        select i, levenshtein(a, b) as d
          from ${pairsOf(all, "a", "b")}
         order by i`),
    );
    const differing = rows.flatMap((row, i) => {
      const [a, b] = all[i] as [string, string];
      return levenshtein(a, b) === Number(row.d) ? [] : [`${a} ${b}`];
    });
    expect(differing).toEqual([]);
  });

  it("codes a text as the database's copy of the products holds it", async () => {
    const next = generator(11);
    const all = [
      ...TEXTS,
      ...PATTERNS,
      "zebra z20 zz",
      "a\tb\nc\rd\u000be\u000cf",
      "%_\\'\"",
      "गणेश idol — ₹499",
      "ABC xyz",
    ];
    for (let i = 0; i < 300; i++) all.push(randomWord(next, "az -_%\\'\"!~{}[]()\t", 20));
    const rows = rowsOf(
      await t.db.execute(sql`
        select i, layerkart_search_coded(x) as coded
          from jsonb_array_elements_text(${JSON.stringify(all)}::jsonb)
               with ordinality as texts(x, i)
         order by i`),
    );
    const differing = rows.flatMap((row, i) => {
      const x = all[i] as string;
      return codedText(x) === row.coded
        ? []
        : [`${JSON.stringify(x)}: ${codedText(x)} vs ${row.coded}`];
    });
    expect(differing).toEqual([]);
    // A text containing another has a coded text containing the other's.
    expect(codedText("self-watering pot").includes(codedText("self watering pot"))).toBe(false);
    expect(codedText("a self watering pot").includes(codedText("self watering pot"))).toBe(true);
  });
});
