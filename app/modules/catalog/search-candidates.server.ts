import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "~/adapters/db/index.server.ts";

/*
 * Bounded candidate generation for a search asked for the first time (docs/decisions/0021, amended
 * 2026-11-27). The rules of decision 0004 decide what matches and the order (containing the query
 * first, then word similarity to the whole query, then name); what changed is which products they
 * are computed on. Instead of every product that matches (13,000 planters for "plnter"), the
 * ranking runs on a small set built from indexes:
 *
 * - the catalogue's words (`search_vocabulary`, a few thousand at most) near each query word: its
 *   prefix, 1–2 edits away, strict word similarity ≥ 0.4, or containing it, each scored by its
 *   word similarity to the query word; for a query with no such word (two letters, fillers), the
 *   words whose similarity to the whole query is ≥ 0.25 or that contain it;
 * - for each query word, its catalogue words in tiers (as similar to it), best tier first, at most
 *   CANDIDATE_TIERS: the first `bound` products by name having a word of the tier and a near word
 *   of every other query word (array overlaps through the words index or the name index, no
 *   similarity computed), until a tier fills the bound;
 * - the first `bound` products by name containing the query (the trigram index for a rare text,
 *   the name index for a common one);
 * - only when fewer than the answer's length contain the query: for a query word with a digit
 *   (numbers aren't in the vocabulary) or with no near word in the vocabulary, and for a query
 *   without words, the first `bound` matching products by name that the trigram index finds.
 *
 * The rule and the order are then computed on these candidates alone (at most a few hundred).
 * A product with a word of the best tier has at least that word's similarity, and products tied
 * on it are ordered by name, so the first ones by name of each tier are the ones that can come
 * first. This is a bound, not a proof: a product beyond the first `bound` by name of its tier
 * whose other words raise its similarity (a query word matched across two of its words, like
 * "tealight" in "Tea Light", when the word also has near words of its own; or, for a long
 * query, several of its words in the query's order) can be ranked lower than the rules over every
 * product would rank it, or missed. With a bound of 20 the 900-product catalogue of
 * search.integration.test.ts already showed one (page 1 of "tealght" in another order); at 50
 * every answer there and in search-candidates.integration.test.ts equals the rules'.
 */

/** How many products by name each source gives at least (the answer's length when more). */
export const CANDIDATE_BOUND = 50;
/** How many products by name a source looks among first, before it asks an index. */
const NAME_WALK = 2_000;
/** How many tiers of a query word's catalogue words (as similar to it) become sources at most. */
const CANDIDATE_TIERS = 3;

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const editsFor = (w: string) => {
  const length = [...w].length;
  return length <= 3 ? 0 : length <= 4 ? 1 : 2;
};
const textArray = (xs: string[]) =>
  `{${xs.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;

/**
 * The first `wanted` active products matching the query, best first (ids), ranked on bounded
 * candidates. The transaction has the trigram thresholds set (0.25 and 0.4).
 */
export async function rankCandidates(
  tx: Tx,
  q: string,
  words: string[],
  wanted: number,
): Promise<string[]> {
  const bound = Math.max(CANDIDATE_BOUND, 2 * wanted);
  const lettered = words.filter((w) => !/[0-9]/.test(w));
  const pattern = `%${escapeLike(q)}%`;
  // 1. The catalogue's words near each query word (k = its index), or near the whole query (k = -1).
  const vocabularyParts: SQL[] = lettered.map((w) => {
    const k = words.indexOf(w);
    const length = [...w].length;
    const edits = editsFor(w);
    return sql`select ${k}::int as k, word, word_similarity(${w}, word) as score,
        (word like ${`${escapeLike(w)}%`}
          or (length(word) between ${length - edits} and ${length + edits}
              and levenshtein(word, ${w}) <= ${edits})
          or ${w} <<% word) as near
      from search_vocabulary
     where word like ${`%${escapeLike(w)}%`}
        or (length(word) between ${length - edits} and ${length + edits}
            and levenshtein(word, ${w}) <= ${edits})
        or ${w} <<% word`;
  });
  // (A one-word query that is its own query word has these among its word's.)
  if (
    words.length === 0 ||
    (!/[\s\p{P}\p{S}]/u.test(q) && !(words.length === 1 && words[0] === q))
  ) {
    // Words containing the query (its products contain it), and with no query word, the words as
    // similar to the whole query as the rule asks of a product's text.
    const similar = words.length === 0 ? sql` or ${q} <% word` : sql``;
    vocabularyParts.push(sql`select -1 as k, word, word_similarity(${q}, word) as score,
        false as near
      from search_vocabulary where word like ${pattern}${similar}`);
  }
  const vocabulary =
    vocabularyParts.length === 0
      ? []
      : rowsOf(await tx.execute(sql.join(vocabularyParts, sql` union all `))).map((r) => ({
          k: Number(r.k),
          word: String(r.word),
          score: Number(r.score),
          near: r.near === true,
        }));
  const nearOf = new Map<string, string[]>();
  for (const w of lettered) {
    const k = words.indexOf(w);
    nearOf.set(
      w,
      vocabulary.filter((v) => v.k === k && v.near).map((v) => v.word),
    );
  }

  // 2. The rule (decision 0004), as a filter on each source's rows.
  const contains = sql`search_text like ${pattern}`;
  const wordTests = words.map((w) => {
    const near = nearOf.get(w);
    const edits = editsFor(w);
    const wordNear =
      near === undefined
        ? sql`exists (select 1 from unnest(search_words) as t(word)
            where t.word like ${`${escapeLike(w)}%`} or levenshtein(t.word, ${w}) <= ${edits})`
        : near.length > 0
          ? sql`search_words && ${textArray(near)}::text[]`
          : sql`false`;
    return sql`(${w} <% search_text and (${wordNear} or ${w} <<% search_text))`;
  });
  const nearRule =
    wordTests.length > 0 ? sql.join(wordTests, sql` and `) : sql`${q} <% search_text`;
  const matches = sql`is_active and (${contains} or (${nearRule}))`;

  // 3. The sources, each the first `bound` products by name with what it is about, filtered only
  // by what is cheap (array overlaps: no similarity computed); the rule is checked on the
  // candidates in 4.
  // The other query words' near words (a product found by one word must have them too).
  const overlapsBut = (k: number) =>
    lettered.flatMap((w) => {
      const near = nearOf.get(w) ?? [];
      return words.indexOf(w) !== k && near.length > 0
        ? [sql`search_words && ${textArray(near)}::text[]`]
        : [];
    });
  const firstByName = (where: SQL, filters: SQL[] = []) =>
    sql`(select id from products where is_active and ${where}${
      filters.length > 0 ? sql` and ${sql.join(filters, sql` and `)}` : sql``
    } order by name limit ${bound})`;
  // The same first `bound` by name, read one of two ways: among the first NAME_WALK products by
  // name (the name index: cheap when the products are common early in the alphabet), or when
  // fewer are there, from all the products the condition holds for (its index), sorted. A word
  // that is many products' first word ("Lotus …") is common, but not among the first names.
  const idsOf = async (where: SQL, filters: SQL[] = []) => {
    const condition =
      filters.length > 0 ? sql`${where} and ${sql.join(filters, sql` and `)}` : where;
    const early = rowsOf(
      await tx.execute(sql`
        select id from (
          select id, name, search_text, search_words from products
           where is_active order by name limit ${NAME_WALK}
        ) first_names
        where ${condition} order by name limit ${bound}`),
    );
    if (early.length >= bound) return early.map((r) => String(r.id));
    const all = rowsOf(
      await tx.execute(sql`
        select id from (
          select id, name from products where is_active and ${condition} offset 0
        ) holding
        order by name limit ${bound}`),
    );
    return all.map((r) => String(r.id));
  };
  const candidates = new Set(await idsOf(contains));
  // Per query word, its catalogue words best first, a tier (words as similar) at a time, until a
  // tier's products fill the bound: a product with a word of a later tier can come before them
  // only by its other words.
  for (const k of new Set(vocabulary.map((v) => v.k))) {
    const byScore = vocabulary
      .filter((v) => v.k === k)
      .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    let found = 0;
    for (
      let tier = 0, i = 0;
      tier < CANDIDATE_TIERS && i < byScore.length && found < bound;
      tier++
    ) {
      const score = byScore[i]?.score;
      const tierWords: string[] = [];
      while (i < byScore.length && byScore[i]?.score === score)
        tierWords.push(byScore[i++]?.word as string);
      const ids = await idsOf(sql`search_words && ${textArray(tierWords)}::text[]`, overlapsBut(k));
      found += ids.length;
      for (const id of ids) candidates.add(id);
    }
  }

  // 4. The rule and its order on the candidates only.
  const rank = async (extra: SQL[]) =>
    rowsOf(
      await tx.execute(sql`
        select id, (${contains}) as containing from products
         where (id = any(${`{${[...candidates].join(",")}}`}::uuid[])${
           extra.length > 0 ? sql` or id in (${sql.join(extra, sql` union `)})` : sql``
         }) and ${matches}
         order by (${contains}) desc, word_similarity(${q}, search_text) desc, name, id
         limit ${wanted}`),
    );
  let ranked = await rank([]);
  // Sources the trigram index serves, for what the vocabulary can't point at: numbers (not kept
  // in it), words near nothing in it (strict similarity alone), and a query without words (the
  // whole query's similarity). Asked only when fewer than `wanted` products contain the query:
  // the products they add come after all of those.
  const more: SQL[] = [];
  for (const w of words) {
    const near = nearOf.get(w);
    const k = words.indexOf(w);
    if (near === undefined || near.length === 0) {
      more.push(firstByName(wordTests[k] as SQL, overlapsBut(k)));
    }
  }
  if (words.length === 0) more.push(firstByName(sql`${q} <% search_text`));
  if (more.length > 0 && ranked.filter((r) => r.containing === true).length < wanted) {
    ranked = await rank(more);
  }
  // Still fewer answers than asked for: every word's trigram source too (bounded, index-served),
  // so a product that matches only by a word's similarity to its text ("tealight" in "Tea
  // Light …") while the word has near words of its own is not missed (review, 2026-11-27).
  if (ranked.length < wanted && words.length > 0) {
    ranked = await rank(words.map((_, k) => firstByName(wordTests[k] as SQL, overlapsBut(k))));
  }
  return ranked.map((r) => String(r.id));
}
