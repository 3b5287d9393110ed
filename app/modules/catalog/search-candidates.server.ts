import { type SQL, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  type CandidateRow,
  codedWindows,
  editsFor,
  isAsciiText,
  levenshtein,
  type RuleMemo,
  rankByRule,
  sharedAtLeast,
  type Trigrams,
  trigramHasDigit,
  trigramsOf,
  wordSimilarity,
  wordTestsOf,
} from "~/rules/search-similarity.ts";
import {
  firstHaving,
  firstOfAll,
  hasOneOfTest,
  havingOneOf,
  type IndexedProduct,
  numbersOf,
  type SearchIndex,
  type Vocabulary,
  vocabularyOf,
} from "./search-index.server.ts";

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
 *   of every other query word (read from `search_postings` in name order, amended 2026-11-27 b;
 *   array overlaps, no similarity computed), until a tier fills the bound;
 * - the first `bound` products by name containing the query (the postings of the words such a
 *   product must have, `containingWordPattern`; otherwise the name index or the trigram index);
 * - only when fewer than the answer's length contain the query: for a query word with a digit
 *   (numbers aren't in the vocabulary) or with no near word in the vocabulary, and for a query
 *   without words, the first `bound` matching products by name that the trigram index finds.
 *
 * Since amendment (c) of the same day: every row is read from `search_products` (a narrow copy of
 * the active products, drizzle/0019); a walk its first postings don't settle is read the other
 * way round (the other word's postings) before any index; a query of several words finishes its
 * containing source through the coded text's trigrams; whole trigram sources skip every word's
 * pass; and the rule and the order are computed by the shop for ASCII text (`rankByRule`).
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
/** How many postings of a word a filtered source reads at most before it asks the indexes. */
const SOURCE_WALK = 200;
/** How many tiers of a query word's catalogue words (as similar to it) become sources at most. */
const CANDIDATE_TIERS = 3;
/**
 * A source reads its words' postings one walk per word only up to this many words; a source of
 * more (a letter or two typed into the header box: "e" is in hundreds of the catalogue's words)
 * reads its products by name instead, in one part of the statement (review, 2026-11-27: 521 walks
 * for "e" made a 319 KB statement that took 1.7 s on PGlite, and the walks' parameters grow with
 * the vocabulary towards PostgreSQL's limit of 65,535).
 */
export const MAX_WALKED_WORDS = 8;

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const textArray = (xs: string[]) =>
  `{${xs.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;

/*
 * The trigram operators' thresholds are the transaction's settings (0.25 and 0.4); the statements
 * that need no trigram index use the functions against the same numbers instead (the operators
 * are `similarity >= threshold`), so they need no transaction of their own.
 */
const WORD_SIMILARITY = 0.25;
const STRICT_WORD_SIMILARITY = 0.4;
/** `w <% text` without the setting. */
export const wordSimilar = (w: SQL | string, text: SQL) =>
  sql`word_similarity(${w}, ${text}) >= ${sql.raw(String(WORD_SIMILARITY))}`;
/** `w <<% text` without the setting. */
export const strictWordSimilar = (w: SQL | string, text: SQL) =>
  sql`strict_word_similarity(${w}, ${text}) >= ${sql.raw(String(STRICT_WORD_SIMILARITY))}`;

/**
 * Which catalogue words a product containing `q` must have one of, as a LIKE pattern over the
 * postings' words (a product's words are its text split at spaces and punctuation): a query
 * token between two separators is a whole word, one after a separator starts a word, one before
 * a separator ends one, and a query without separators is inside a word. Only for queries whose
 * separators are ASCII (both databases split there, whatever their locale) and whose token has a
 * letter (numbers have no postings); otherwise undefined (the text itself is searched).
 */
export function containingWordPattern(q: string): string | undefined {
  return containingWordPatterns(q)[0];
}

/**
 * The same for every such token of the query, best first: a product containing the query has a
 * word matching each (empty when `containingWordPattern` is undefined).
 */
export function containingWordPatterns(q: string): string[] {
  if (/[^\u0020-\u007e]/.test(q.replace(/[^\s\p{P}\p{S}]/gu, ""))) return [];
  const tokens: Array<{ token: string; before: boolean; after: boolean }> = [];
  for (const m of q.matchAll(/[^\s\p{P}\p{S}]+/gu)) {
    const at = m.index ?? 0;
    tokens.push({ token: m[0], before: at > 0, after: at + m[0].length < q.length });
  }
  // Only ASCII tokens: PostgreSQL in a UTF-8 locale splits words at characters JavaScript keeps
  // in them (a virama, a combining accent: "लक्ष्मी" is stored as लक, ष, मी), PGlite doesn't, so a
  // pattern from another script could name no word of a product that contains the query.
  const usable = tokens.filter((t) => /[^0-9]/.test(t.token) && /^[\u0021-\u007e]+$/.test(t.token));
  if (usable.length === 0) return [];
  // A whole word first (exact), then the longest, then a word's start over its end (a word
  // ending with the token is often a compound that rarely holds the rest: "headphone" for
  // "phone stand").
  const ranked = [...usable].sort(
    (a, b) =>
      Number(b.before && b.after) - Number(a.before && a.after) ||
      [...b.token].length - [...a.token].length ||
      Number(b.before) - Number(a.before),
  );
  return [
    ...new Set(
      ranked.map((t) => `${t.before ? "" : "%"}${escapeLike(t.token)}${t.after ? "" : "%"}`),
    ),
  ];
}

/**
 * A word's walk is read the other way round only when the other word has at most this many near
 * words: each is a walk of its own, and a longer statement costs PGlite more to plan than the
 * walks save (measured 2026-11-27: 2 is best on both databases).
 */
const REVERSED_WORDS = 2;

/** How many of the query's other tokens' patterns a search reads words for (statement size). */
const OTHER_PATTERNS = 2;

/**
 * The candidates' rows as the statement returns them (a JSON array of [id, text, words, place by
 * name]); undefined when one of them has text the shop leaves to the database (not ASCII).
 */
function candidateRowsOf(value: unknown): CandidateRow[] | undefined {
  const list = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as Array<
    [string, string | null, string[] | null, number]
  >;
  const rows: CandidateRow[] = [];
  for (const [id, text, words, byName] of list) {
    // No text: `like` and the similarities are null in the database, so it never matches.
    if (text === null) continue;
    if (!isAsciiText(text)) return undefined;
    rows.push({ id: String(id), text, words: words ?? [], byName: Number(byName) });
  }
  return rows;
}

/**
 * More postings than this of a word's trigrams with a digit, or more candidates or products the
 * copy isn't sure of than these: the trigram index finds its texts (testing a candidate takes a
 * few microseconds; one the copy isn't sure of makes the database rank the whole pass).
 */
const NUMBER_READS = 40_000;
const NUMBER_CANDIDATES = 4_000;
const NUMBER_UNSURE = 50;

/**
 * The kept copy's products whose text can pass the test of `w`, a word with a digit (numbers have
 * no postings): a text passing it has at least `sharedAtLeast(w)` of the word's trigrams, and
 * the word's trigrams with a digit only in words with a digit (`numbersOf`). With the products
 * the copy isn't sure of. Undefined when the word's other trigrams could make up that many alone
 * ("m3"), or its trigrams with a digit are in too many texts to count.
 */
export function numberCandidates(index: SearchIndex, w: string): IndexedProduct[] | undefined {
  const codes = [...new Set(trigramsOf(w).codes)];
  const digits = codes.filter(trigramHasDigit);
  const need = sharedAtLeast(w) - (codes.length - digits.length);
  if (need <= 0) return undefined;
  const numbers = numbersOf(index);
  if (numbers.unsure.length > NUMBER_UNSURE) return undefined;
  const lists = digits.map((code) => numbers.byTrigram.get(code) ?? []);
  if (lists.reduce((n, list) => n + list.length, 0) > NUMBER_READS) return undefined;
  const found: IndexedProduct[] = [...numbers.unsure];
  // (By slot: the lists are numbers, and no product is read until it has enough. Counting by
  // place by name read every product of the lists: 1 ms of "4821"'s 25,000.)
  const counts = new Uint8Array(index.bySlot.length);
  for (const list of lists) {
    for (const slot of list) {
      if (++(counts[slot] as number) === need) found.push(index.bySlot[slot] as IndexedProduct);
    }
  }
  return found.length > NUMBER_CANDIDATES ? undefined : found;
}

/**
 * More products than this whose text isn't ASCII: the trigram index finds a word near nothing's
 * texts (the database tests every product the copy gives it that isn't ASCII). Below the bound, so
 * the list is a whole source (`wholeBelow` in `rankCandidates`).
 */
export const NOT_ASCII_CANDIDATES = CANDIDATE_BOUND - 10;

/**
 * The kept copy's products whose text can pass the test of `w`, a query word whose `near` words
 * are the catalogue's words near it, when the copy can tell every ASCII text passing it has one of
 * them. A text passes by having one or by strict similarity, and a text strictly similar to `w`
 * has at least `sharedAtLeast(w, false)` of its trigrams. An ASCII text's trigrams are its words'
 * (search_words splits it where pg_trgm does), all of them in the catalogue's vocabulary but
 * numbers (whose trigrams all have a digit, and `w` has none); so when the vocabulary's other
 * words have fewer of its trigrams, only a text that isn't ASCII can pass without a near word
 * (and a word with no ASCII letter shares no trigram with an ASCII text at all). Then: the near
 * words' products and every product that isn't ASCII. Undefined when the copy can't tell, `w`
 * mixes ASCII with another script, or the products are too many (more than NUMBER_CANDIDATES
 * near words' postings, more than NOT_ASCII_CANDIDATES not in ASCII).
 */
export function nearCandidates(
  index: SearchIndex,
  w: string,
  near: string[],
): IndexedProduct[] | undefined {
  const { notAscii } = numbersOf(index);
  if (notAscii.length > NOT_ASCII_CANDIDATES || !onlyByNearWords(index, w, near)) return undefined;
  const lists = near.map((x) => index.postings.get(x) ?? []);
  if (lists.reduce((n, list) => n + list.length, 0) > NUMBER_CANDIDATES) return undefined;
  // (A list of its own: the copy's grows with the changes it applies while the search runs.)
  if (lists.length === 0) return [...notAscii];
  const found = new Set(notAscii);
  for (const list of lists) for (const p of list) found.add(p);
  return [...found];
}

/**
 * Whether the copy can tell every ASCII text passing the test of `w` has one of `near`
 * (`nearCandidates`).
 */
export function onlyByNearWords(index: SearchIndex, w: string, near: string[]): boolean {
  if (/[0-9]/.test(w)) return false;
  if (!/[A-Za-z]/.test(w)) return true;
  if (!isAsciiText(w)) return false;
  const { byTrigram } = vocabularyOf(index);
  const nearSet = new Set(near);
  let shared = 0;
  for (const code of new Set(trigramsOf(w).codes))
    if (byTrigram.get(code)?.some((x) => !nearSet.has(x))) shared++;
  return shared < sharedAtLeast(w, false);
}

/**
 * Per catalogue word in ASCII sharing trigrams with `w` (a word without a digit), how many.
 */
export function sharedByWords(index: SearchIndex, w: string): Map<string, number> {
  const { byTrigram } = vocabularyOf(index);
  const of = new Map<string, number>();
  for (const code of new Set(trigramsOf(w).codes))
    for (const x of byTrigram.get(code) ?? []) of.set(x, (of.get(x) ?? 0) + 1);
  return of;
}

/**
 * `sharedByWords` by the words' numbers in the copy (`SearchIndex.wordIds`, a product's in its
 * `wordPool`): a product's words are summed without reading their strings (a word numbered after
 * this was built shares none here).
 */
export function sharedByWordIds(index: SearchIndex, w: string): Uint8Array {
  const of = new Uint8Array(index.wordIds.size);
  for (const [x, n] of sharedByWords(index, w)) {
    const id = index.wordIds.get(x);
    if (id !== undefined) of[id] = Math.min(n, 255);
  }
  return of;
}

/**
 * What the candidates' statement of `rankCandidates` reads, from the kept copy of the products
 * (search-index.server.ts) instead: the same sources (each query word's tiers of catalogue words;
 * the products containing the query), each the first `bound` products by name its walks,
 * fallbacks and finishes add up to, and more: every tier is read (the statement reads a later
 * one only while the earlier ones' walks found fewer than the bound), and a source containing
 * the query gives each of its words' first `bound`. No walk is left unsettled. Only the products
 * matched by their option values, and those containing a query the postings can't point at, may
 * need a statement.
 */
async function firstInMemory(
  db: Database,
  index: SearchIndex,
  c: {
    q: string;
    words: string[];
    lettered: string[];
    nearOf: Map<string, string[]>;
    vocabulary: VocabularyRow[];
    bound: number;
    byPostings: boolean;
    wordsOfIt: string[];
    otherWordsOfIt: string[][];
    also?: SQL | string[];
  },
): Promise<Row> {
  const { q, words, lettered, nearOf, vocabulary, bound } = c;
  const found = new Map<string, IndexedProduct>();
  const add = (products: IndexedProduct[]) => {
    for (const p of products) found.set(p.id, p);
  };
  // (Used in this turn only: what it marks is the copy as it is now.)
  const hasOneOf = (list: string[]) => hasOneOfTest(index, list);
  const every = (tests: Array<(p: IndexedProduct) => boolean>) => (p: IndexedProduct) =>
    tests.every((test) => test(p));
  for (const k of new Set(vocabulary.filter((v) => v.k >= -1).map((v) => v.k))) {
    const byScore = vocabulary
      .filter((v) => v.k === k)
      .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    // The other query words' near words (a product found by one word must have them too).
    const others = every(
      lettered.flatMap((w) => {
        const near = nearOf.get(w) ?? [];
        return words.indexOf(w) !== k && near.length > 0 ? [hasOneOf(near)] : [];
      }),
    );
    // Every tier, where the statement reads a later one only while the earlier ones' walks
    // found fewer than the bound: a tier filled here from all its postings could leave out a
    // later one the statement reads (review: "drag lamp", whose first "drag" products by name
    // have no lamp word, reads "dragon" there).
    for (let tier = 0, i = 0; tier < CANDIDATE_TIERS && i < byScore.length; tier++) {
      const score = byScore[i]?.score;
      const tierWords: string[] = [];
      while (i < byScore.length && byScore[i]?.score === score)
        tierWords.push(byScore[i++]?.word as string);
      add(firstHaving(index, tierWords, others, bound).slice(0, bound));
    }
  }
  const contains = (p: IndexedProduct) => p.text.includes(q);
  if (c.byPostings) {
    if (c.wordsOfIt.length > 0 && !c.otherWordsOfIt.some((w) => w.length === 0)) {
      // (The text first: a product containing the query has one of each token's words, so only
      // those are looked up.)
      const test = every([
        contains,
        ...c.otherWordsOfIt.filter((w) => w.length <= MAX_WALKED_WORDS).map(hasOneOf),
      ]);
      add(firstHaving(index, c.wordsOfIt, test, bound));
    }
  } else {
    // As the statement's `early` and `holding`: the first products by name containing the query
    // among the first NAME_WALK by name; when fewer, those the trigram index finds (a scan of
    // every product's text here took 6 ms for "4821").
    const early = firstOfAll(index, contains, bound, NAME_WALK);
    add(early);
    if (early.length < bound && !isAsciiText(q)) {
      // Only a text that isn't ASCII can contain a query that isn't.
      const { notAscii } = numbersOf(index);
      add(
        notAscii
          .filter(contains)
          .sort((a, b) => a.rank - b.rank)
          .slice(0, bound),
      );
    } else if (early.length < bound) {
      const holding = rowsOf(
        await db.execute(sql`select id::text as id from (
            select id, name from search_products where search_text like ${`%${escapeLike(q)}%`} offset 0
          ) holding order by name, id limit ${bound}`),
      );
      // (A product changed since the copy's generation is ranked as the copy has it, or not.)
      add(holding.flatMap((r) => index.byId.get(String(r.id)) ?? []));
    }
  }
  const candidates = [...found.values()].sort((a, b) => a.rank - b.rank);
  const also = Array.isArray(c.also)
    ? c.also
    : c.also === undefined
      ? []
      : ((rowsOf(await db.execute(sql`select ${c.also} as also`))[0]?.also ?? []) as unknown[]);
  return {
    rows: candidates.map((p) => [p.id, p.text, p.words, p.rank + 1]),
    candidates: candidates.map((p) => p.id),
    unsettled: [],
    also,
  };
}

/** A catalogue word as the search reads it: for which query word (k), how similar, how near. */
export type VocabularyRow = { k: number; word: string; score: number; near: boolean };

/**
 * 1. The catalogue's words near each query word (k = its index), or near the whole query
 * (k = -1); those a product containing the query has one of (k = -2); and the other tokens'
 * (k = -3, -4: a product containing the query has one of each). One statement, which needs
 * nothing else read first: a search started afresh reads it with the generation, in the same
 * statement (`vocabularyQuery`, then `vocabularyRowsOf` on its JSON).
 */
export async function readVocabulary(
  db: Database,
  q: string,
  words: string[],
): Promise<VocabularyRow[]> {
  const query = vocabularyQuery(q, words);
  if (query === undefined) return [];
  return rowsOf(await db.execute(query)).map(vocabularyRow);
}

const vocabularyRow = (r: Row): VocabularyRow => ({
  k: Number(r.k),
  word: String(r.word),
  score: Number(r.score),
  near: r.near === true,
});

/** The vocabulary's rows as `json_agg` of `vocabularyQuery`'s rows gives them. */
export function vocabularyRowsOf(value: unknown): VocabularyRow[] {
  const list = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as Row[];
  return list.map(vocabularyRow);
}

/** The statement of `readVocabulary` (undefined: nothing to read). */
export function vocabularyQuery(q: string, words: string[]): SQL | undefined {
  const lettered = words.filter((w) => !/[0-9]/.test(w));
  const pattern = `%${escapeLike(q)}%`;
  const [containingWords, ...allOthers] = containingWordPatterns(q);
  const vocabularyParts: SQL[] = lettered.map((w) => {
    const k = words.indexOf(w);
    const length = [...w].length;
    const edits = editsFor(w);
    return sql`select ${k}::int as k, word, word_similarity(${w}, word) as score,
        (word like ${`${escapeLike(w)}%`}
          or (length(word) between ${length - edits} and ${length + edits}
              and levenshtein(word, ${w}) <= ${edits})
          or ${strictWordSimilar(w, sql`word`)}) as near
      from search_vocabulary
     where word like ${`%${escapeLike(w)}%`}
        or (length(word) between ${length - edits} and ${length + edits}
            and levenshtein(word, ${w}) <= ${edits})
        or ${strictWordSimilar(w, sql`word`)}`;
  });
  // (A one-word query that is its own query word has these among its word's.)
  if (
    words.length === 0 ||
    (!/[\s\p{P}\p{S}]/u.test(q) && !(words.length === 1 && words[0] === q))
  ) {
    // Words containing the query (its products contain it), and with no query word, the words as
    // similar to the whole query as the rule asks of a product's text.
    const similar = words.length === 0 ? sql` or ${wordSimilar(q, sql`word`)}` : sql``;
    vocabularyParts.push(sql`select -1 as k, word, word_similarity(${q}, word) as score,
        false as near
      from search_vocabulary where word like ${pattern}${similar}`);
  }
  allOthers.slice(0, OTHER_PATTERNS).forEach((other, j) => {
    vocabularyParts.push(sql`(select ${-3 - j}::int as k, word, 0 as score, false as near
      from search_vocabulary where word like ${other}
      order by word limit ${MAX_WALKED_WORDS + 1})`);
  });
  if (containingWords !== undefined) {
    // One more than a source walks: more than that, and the source reads by name instead.
    vocabularyParts.push(sql`(select -2 as k, word, 0 as score, false as near
      from search_vocabulary where word like ${containingWords}
      order by word limit ${MAX_WALKED_WORDS + 1})`);
  }
  if (vocabularyParts.length === 0) return undefined;
  return sql.join(vocabularyParts, sql` union all `);
}

/** A LIKE pattern of `containingWordPatterns` (escaped literal, `%` at either end) as a test. */
function likeTest(pattern: string): (word: string) => boolean {
  const source = pattern.replace(
    /\\(.)|(%)|(_)|([.*+?^${}()|[\]\\/])|(.)/gs,
    (_, escaped, any, one, special, plain) =>
      escaped !== undefined
        ? escaped.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
        : any !== undefined
          ? ".*"
          : one !== undefined
            ? "."
            : special !== undefined
              ? `\\${special}`
              : plain,
  );
  const re = new RegExp(`^${source}$`, "s");
  return (word) => re.test(word);
}

/**
 * `vocabularyQuery`'s rows computed by the shop from the kept copy's words (search-index.server.ts),
 * for a query in ASCII: the same conditions with the same measures (`app/rules/search-similarity.ts`),
 * each word's trigrams counted first so only words sharing enough of them are measured (a word's
 * similarity to another is at most the share of its trigrams they have in common). The words are
 * the active products' (the database's table also keeps those of products gone: they have no
 * products). Undefined when the database must read them (another script, `mixed` words).
 */
export function vocabularyInMemory(
  vocabulary: Vocabulary,
  q: string,
  words: string[],
): VocabularyRow[] | undefined {
  if (!isAsciiText(q) || vocabulary.mixed) return undefined;
  const rows: VocabularyRow[] = [];
  // Per catalogue word, how many of `text`'s distinct trigrams it has.
  const sharing = (text: Trigrams, atLeast: number) => {
    const codes = new Set(text.codes);
    const counts = new Map<string, number>();
    for (const code of codes)
      for (const word of vocabulary.byTrigram.get(code) ?? [])
        counts.set(word, (counts.get(word) ?? 0) + 1);
    const enough = new Set<string>();
    for (const [word, n] of counts) if (n >= atLeast * codes.size - 1e-9) enough.add(word);
    return enough;
  };
  for (const [k, w] of words.entries()) {
    if (/[0-9]/.test(w)) continue;
    const edits = editsFor(w);
    const pattern = trigramsOf(w);
    const strictly = sharing(pattern, STRICT_WORD_SIMILARITY);
    for (const word of vocabulary.words) {
      const edited = Math.abs(word.length - w.length) <= edits && levenshtein(word, w) <= edits;
      const strict =
        strictly.has(word) &&
        wordSimilarity(pattern, trigramsOf(word), true) >= STRICT_WORD_SIMILARITY;
      if (!(word.includes(w) || edited || strict)) continue;
      rows.push({
        k,
        word,
        score: wordSimilarity(pattern, trigramsOf(word)),
        near: word.startsWith(w) || edited || strict,
      });
    }
  }
  if (
    words.length === 0 ||
    (!/[\s\p{P}\p{S}]/u.test(q) && !(words.length === 1 && words[0] === q))
  ) {
    const query = trigramsOf(q);
    const similar = words.length === 0 ? sharing(query, WORD_SIMILARITY) : new Set<string>();
    for (const word of vocabulary.words) {
      const text = similar.has(word) || word.includes(q) ? trigramsOf(word) : undefined;
      if (text === undefined) continue;
      const score = wordSimilarity(query, text);
      if (word.includes(q) || (words.length === 0 && score >= WORD_SIMILARITY))
        rows.push({ k: -1, word, score, near: false });
    }
  }
  const [containingWords, ...allOthers] = containingWordPatterns(q);
  const some = (k: number, pattern: string) => {
    const test = likeTest(pattern);
    // One more than a source walks, as the statement reads (more: the source reads by name).
    let n = 0;
    for (const word of vocabulary.words) {
      if (n > MAX_WALKED_WORDS) break;
      if (!test(word)) continue;
      rows.push({ k, word, score: 0, near: false });
      n++;
    }
  };
  allOthers.slice(0, OTHER_PATTERNS).forEach((other, j) => {
    some(-3 - j, other);
  });
  if (containingWords !== undefined) some(-2, containingWords);
  return rows;
}

/**
 * The first `wanted` active products matching the query, best first (ids), ranked on bounded
 * candidates; and the ids `also` gives (an expression of type text[], read in the same
 * statement: the search's products matched by their option values; or the ids, already read).
 * `early`: the query's vocabulary, when it was read with the generation (or computed from the
 * kept copy). `memory`: the kept copy of the products, up to date with the generation: the
 * candidates are read from it (`firstInMemory`) instead of the candidates' statement.
 */
export async function rankCandidates(
  db: Database,
  q: string,
  words: string[],
  wanted: number,
  also?: SQL | string[],
  early?: VocabularyRow[],
  memory?: SearchIndex,
): Promise<{ ids: string[]; also: string[] }> {
  const bound = Math.max(CANDIDATE_BOUND, 2 * wanted);
  const lettered = words.filter((w) => !/[0-9]/.test(w));
  const pattern = `%${escapeLike(q)}%`;
  const containingWords = containingWordPattern(q);
  const otherPatterns = containingWordPatterns(q).slice(1, 1 + OTHER_PATTERNS);
  // (Only a query of several tokens with ASCII separators has them; the text is checked behind
  // the fence, or the text's own trigram index joins in and reads every product having the words.)
  const windows = containingWordPattern(q) !== undefined ? codedWindows(q) : [];
  const vocabulary = early ?? (await readVocabulary(db, q, words));
  // The words a product containing the query has one of; more than a source walks (the
  // vocabulary statement reads one more), and the products are found by name instead.
  const wordsOfIt = vocabulary.filter((v) => v.k === -2).map((v) => v.word);
  const byPostings = containingWords !== undefined && wordsOfIt.length <= MAX_WALKED_WORDS;
  // Per other token, the words a product containing the query has one of (none: no product
  // contains it; more than a walk reads: not used).
  const otherWordsOfIt = otherPatterns.map((_, j) =>
    vocabulary.filter((v) => v.k === -3 - j).map((v) => v.word),
  );
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
  const wordTests = (similar: (w: string) => SQL, strict: (w: string) => SQL) =>
    words.map((w) => {
      const near = nearOf.get(w);
      const edits = editsFor(w);
      const wordNear =
        near === undefined
          ? sql`exists (select 1 from unnest(search_words) as t(word)
            where t.word like ${`${escapeLike(w)}%`} or levenshtein(t.word, ${w}) <= ${edits})`
          : near.length > 0
            ? sql`search_words && ${textArray(near)}::text[]`
            : sql`false`;
      return sql`(${similar(w)} and (${wordNear} or ${strict(w)}))`;
    });
  // The operators (the trigram index can serve them: the transaction sets their thresholds) …
  const indexedTests = wordTests(
    (w) => sql`${w} <% search_text`,
    (w) => sql`${w} <<% search_text`,
  );
  // … and the functions, for candidates read by id.
  const testsById = wordTests(
    (w) => wordSimilar(w, sql`search_text`),
    (w) => strictWordSimilar(w, sql`search_text`),
  );
  const nearRule =
    testsById.length > 0 ? sql.join(testsById, sql` and `) : wordSimilar(q, sql`search_text`);
  // Read from search_products (drizzle/0019): active products only.
  const matches = sql`(${contains} or (${nearRule}))`;

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
  // Every product passing, then sorted (behind the fence): with the limit in view, PostgreSQL
  // walked the name index expecting to stop early, testing the trigrams of all 95,000 texts
  // when few pass (330 ms for "4821").
  const firstByName = (where: SQL, filters: SQL[] = []) =>
    sql`(select id from (select id, name from search_products where ${where}${
      filters.length > 0 ? sql` and ${sql.join(filters, sql` and `)}` : sql``
    } offset 0) passing order by name, id limit ${bound})`;
  // From the postings (drizzle/0018): per word, its first `bound` products by name (the primary
  // key, in order); then the first `bound` of all the words'. With filters (the other query
  // words' near words, the query's text), per word: its first `walk` postings by name, those
  // passing the filters (read from the product by id, a subquery per row: a join let PostgreSQL
  // hash every posting of the word with every product passing) up to `bound`; when fewer pass
  // and the word has more postings, the products having it and passing are found through the
  // words' GIN index instead, sorted (its `fallback`): a rare combination of common words (no
  // "headphone" is a "stand") would otherwise read every posting of the word.
  const cte = (name: string, body: SQL) => sql`${sql.raw(name)} as materialized (${body})`;
  // 4. The rule and its order on the candidates. For an ASCII query the shop computes them from
  // the candidates' text (`rankByRule`: the database's measures, without its cost per call), the
  // database only numbering them by name; otherwise (another script: its words and trigrams
  // depend on the database's locale) the database ranks them, in the same statement.
  const inShop = isAsciiText(q);
  const candidateRows = (ids: SQL) => sql`(select coalesce(json_agg(json_build_array(
        id, search_text, search_words, n)), '[]') from (
      select id, search_text, search_words, row_number() over (order by name, id) as n
        from search_products where id = any(${ids})) c)`;
  const orderedInDatabase = sql`order by (${contains}) desc, word_similarity(${q}, search_text) desc, name, id`;
  const walks: Array<{ source: number; cte: SQL; uncertain: SQL; fallback?: SQL }> = [];
  let first: Row | undefined;
  // The kept copy of the products (search-index.server.ts) gives what the statement below
  // reads, the same products, without it.
  if (memory !== undefined) {
    first = await firstInMemory(db, memory, {
      q,
      words,
      lettered,
      nearOf,
      vocabulary,
      bound,
      byPostings,
      wordsOfIt,
      otherWordsOfIt,
      also,
    });
  } else {
    const walk = Math.max(SOURCE_WALK, 4 * bound);
    // A walk whose first postings don't settle its word is finished by its `fallback`, in a second
    // statement (rare), so the first one's plan stays small (planning it cost up to 13 ms on PGlite,
    // and its estimated cost made PostgreSQL compile it: 300 ms of JIT for "te").
    // The walks' finishes read in the candidates' statement (candidates of their own).
    const finishes: SQL[] = [];
    // `reverse`: the near words of the query word the first array filter is about. When a word's
    // first postings don't settle it, those words' postings are walked the other way round (each
    // checked for this word and the other filters), before any index is asked: the first 200
    // "holder" products by name are card and key holders, while every "tealight" product is a
    // holder.
    // `finish`: conditions that find the few products passing `texts` through an index (the coded
    // text's trigrams): an unsettled walk is finished with them in this statement, instead of by a
    // fallback in a second one.
    const fromPostings = (
      sourceWords: string[],
      arrays: SQL[],
      texts: SQL[] = [],
      reverse?: string[],
      finish?: SQL[],
    ) => {
      const filters = [...arrays, ...texts];
      if (sourceWords.length > MAX_WALKED_WORDS) {
        // Too many words to read one by one: the first `bound` products by name having one of them
        // (the name index, or the words' GIN index and a sort) and passing the filters.
        return sql`(select id as product_id, name from search_products
         where search_words && ${textArray(sourceWords)}::text[]${
           filters.length > 0 ? sql` and ${sql.join(filters, sql` and `)}` : sql``
         }
         order by name, id limit ${bound})`;
      }
      if (filters.length === 0) {
        return sql`(select product_id, min(name) as name from (
        select s.product_id, s.name from unnest(${textArray(sourceWords)}::text[]) as tw(word)
          cross join lateral (
            select sp.product_id, sp.name from search_postings sp where sp.word = tw.word
             order by sp.name, sp.product_id limit ${bound}) s
      ) hits group by product_id order by min(name), product_id limit ${bound})`;
      }
      const passing = sql.join(filters, sql` and `);
      // The first `bound` postings of `word` by name passing `test` (a subquery per row: as a join,
      // PostgreSQL hashed every posting of the word with every product passing), read only while
      // `gate` holds.
      const walkOf = (
        name: SQL,
        word: string,
        test: SQL,
        gate?: SQL,
      ) => sql`${name} as materialized (
          select sp.product_id, sp.name from (
            select product_id, name from search_postings where word = ${word}
             order by name, product_id limit ${walk}) sp
           where ${gate ? sql`${gate} and ` : sql``}(select ${test} from search_products p
                   where p.id = sp.product_id)
           order by sp.name, sp.product_id limit ${bound})`;
      // Fewer than `bound` passed among more postings than were read.
      const notSettled = (name: SQL, word: string) => sql`((select count(*) from ${name}) < ${bound}
          and (select count(*) from (select 1 from search_postings where word = ${word}
                order by name, product_id limit ${walk}) c) >= ${walk})`;
      const reversible =
        reverse !== undefined && reverse.length > 0 && reverse.length <= MAX_WALKED_WORDS;
      const parts = sourceWords.map((word) => {
        const i = walks.length;
        const walked = sql.raw(`walk_${i}`);
        const ctes = [walkOf(walked, word, passing)];
        let uncertain = notSettled(walked, word);
        const read = [sql`select product_id, name from ${walked}`];
        if (reversible) {
          // Read the other way only while this walk is unsettled (one condition, checked once).
          const open = sql.raw(`walk_${i}_open`);
          ctes.push(sql`${open} as materialized (select ${uncertain} as open)`);
          const gate = sql`(select open from ${open})`;
          const other = [
            sql`search_words && ${textArray([word])}::text[]`,
            ...arrays.slice(1),
            ...texts,
          ];
          const unsettledOthers = reverse.map((u, j) => {
            const name = sql.raw(`walk_${i}_r${j}`);
            ctes.push(walkOf(name, u, sql.join(other, sql` and `), gate));
            read.push(sql`select product_id, name from ${name}`);
            return notSettled(name, u);
          });
          uncertain = sql`${gate} and (${sql.join(unsettledOthers, sql` or `)})`;
        }
        walks.push({
          source: sources.length,
          cte: sql.join(ctes, sql`, `),
          uncertain,
          // The words' GIN index for the arrays; a text filter is checked on its rows (behind
          // the fence): the trigram index took 85 ms for "%self watering pot%".
          fallback:
            finish === undefined
              ? sql`(select id from (
           select id, name, search_text from search_products
            where search_words && ${textArray([word])}::text[]${
              arrays.length > 0 ? sql` and ${sql.join(arrays, sql` and `)}` : sql``
            }
           offset 0) holding
          where ${texts.length > 0 ? sql.join(texts, sql` and `) : sql`true`}
          order by name, id limit ${bound})`
              : undefined,
        });
        return sql.join(read, sql` union all `);
      });
      if (finish !== undefined) {
        // Each walk's own finish: the first `bound` products by name having its word and passing,
        // through the index, read only when the walk is unsettled (one condition, checked once).
        // They are candidates of their own, beside the source's first `bound`, as the fallbacks
        // were (review: inside the source, more than `bound` products containing the query cut
        // off the most similar one, last by name).
        for (const [j, word] of sourceWords.entries()) {
          const w = walks[walks.length - sourceWords.length + j];
          if (w === undefined) continue;
          const finished = sql.raw(`finish_${walks.length - sourceWords.length + j}`);
          w.cte = sql`${w.cte}, ${finished} as materialized (
          select id from (
            select id, name, search_text from search_products
             where search_words && ${textArray([word])}::text[] and ${sql.join(finish, sql` and `)}
            offset 0) coded
           where (${w.uncertain})${texts.length > 0 ? sql` and ${sql.join(texts, sql` and `)}` : sql``}
           order by name, id limit ${bound})`;
          w.uncertain = sql`false`;
          finishes.push(finished);
        }
      }
      return sql`(select product_id, min(name) as name from (
        ${sql.join(parts, sql` union all `)}
      ) hits group by product_id order by min(name), product_id limit ${bound})`;
    };
    // Per query word, its catalogue words best first, a tier (words as similar) at a time; every
    // tier's source is read in one statement, and a tier is kept only while the tiers before it
    // haven't filled the bound: a product with a word of a later tier can come before them only by
    // its other words.
    const sources: Array<{ k: number; tier: number; query: SQL }> = [];
    for (const k of new Set(vocabulary.filter((v) => v.k >= -1).map((v) => v.k))) {
      const byScore = vocabulary
        .filter((v) => v.k === k)
        .sort((a, b) => b.score - a.score || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
      for (let tier = 0, i = 0; tier < CANDIDATE_TIERS && i < byScore.length; tier++) {
        const score = byScore[i]?.score;
        const tierWords: string[] = [];
        while (i < byScore.length && byScore[i]?.score === score)
          tierWords.push(byScore[i++]?.word as string);
        // The first tier only: later ones are read only while the earlier haven't filled the bound.
        const others = lettered.flatMap((w) => {
          const near = nearOf.get(w) ?? [];
          return words.indexOf(w) !== k && near.length > 0 ? [near] : [];
        });
        sources.push({
          k,
          tier,
          query: fromPostings(
            tierWords,
            overlapsBut(k),
            [],
            tier === 0 && (others[0]?.length ?? 0) <= REVERSED_WORDS ? others[0] : undefined,
          ),
        });
      }
    }
    if (byPostings) {
      if (wordsOfIt.length > 0) {
        sources.push({
          k: -2,
          tier: 0,
          query: otherWordsOfIt.some((w) => w.length === 0)
            ? sql`(select null::uuid as product_id, null::text as name where false)`
            : fromPostings(
                wordsOfIt,
                otherWordsOfIt
                  .filter((w) => w.length <= MAX_WALKED_WORDS)
                  .map((w) => sql`search_words && ${textArray(w)}::text[]`),
                [sql`search_text like ${pattern}`],
                undefined,
                // A query of several words: the few products containing it through the coded
                // text's trigrams, which span its separators (drizzle/0019); the text itself
                // is checked on them (the code can match across a separator's digits).
                windows.length > 0
                  ? windows.map((w) => sql`search_coded like ${`%${w}%`}`)
                  : undefined,
              ),
        });
      }
    }
    // 4. The rule and its order on the candidates only; in the same statement as the sources, so a
    // search asked the first time costs one statement here.
    // A word's later tier is read only while its earlier ones haven't filled the bound
    // (PostgreSQL checks the condition once, before reading anything of the tier).
    const gateOf = (i: number) => {
      const s = sources[i] as (typeof sources)[number];
      const earlier = sources.flatMap((o, j) =>
        j < i && o.k === s.k && s.k !== -2
          ? [sql`(select count(*) from ${sql.raw(`source_${j}`)})`]
          : [],
      );
      return earlier.length > 0 ? sql`${sql.join(earlier, sql` + `)} < ${bound}` : undefined;
    };
    const ctes: SQL[] = [
      ...walks.map((w) => w.cte),
      ...sources.map((s, i) => {
        const gate = gateOf(i);
        return cte(
          `source_${i}`,
          sql`select * from ${s.query} tier${gate ? sql` where ${gate}` : sql``}`,
        );
      }),
    ];
    // The walks not settled (of a tier read): their words' fallbacks are read afterwards.
    const unsettled =
      walks.length === 0
        ? sql`'{}'::int[]`
        : sql`(select coalesce(array_agg(i), '{}') from (values ${sql.join(
            walks.map((w, i) => {
              const gate = gateOf(w.source);
              return sql`(${i}::int, ${gate ? sql`(${gate}) and ` : sql``}${w.uncertain})`;
            }),
            sql`, `,
          )}) as walked(i, unsettled) where unsettled)`;
    const candidateSets = [
      ...sources.map((_, i) => sql`select product_id from ${sql.raw(`source_${i}`)}`),
      ...finishes.map((f) => sql`select id from ${f}`),
    ];
    if (!byPostings) {
      // The postings can't say (or would be walked for too many words) which products contain the query: the first `bound` by name among
      // the first NAME_WALK products by name (the name index), or when fewer are there, among all
      // the products the trigram index finds, sorted.
      ctes.push(
        cte(
          "early",
          sql`select id from (
          select id, name, search_text, search_words from search_products
           order by name, id limit ${NAME_WALK}
        ) first_names where ${contains} order by name, id limit ${bound}`,
        ),
        cte(
          "holding",
          sql`select id from (
          select id, name from search_products where ${contains} offset 0
        ) holding where (select count(*) from early) < ${bound} order by name, id limit ${bound}`,
        ),
      );
      candidateSets.push(sql`select id from early`, sql`select id from holding`);
    }
    ctes.push(
      cte(
        "candidates",
        candidateSets.length > 0
          ? sql.join(candidateSets, sql` union `)
          : sql`select null::uuid as product_id where false`,
      ),
    );
    if (!inShop) {
      ctes.push(
        cte(
          "ranked",
          sql`select id, (${contains}) as containing,
            row_number() over (${orderedInDatabase}) as n
          from search_products where id = any(array(select * from candidates)) and ${matches}
         order by n limit ${wanted}`,
        ),
      );
    }
    [first] = rowsOf(
      await db.execute(sql`with ${sql.join(ctes, sql`, `)}
      select ${
        inShop
          ? sql`${candidateRows(sql`array(select * from candidates)`)} as rows,`
          : sql`(select coalesce(array_agg(id::text order by n), '{}') from ranked) as ranked,
             (select count(*)::int from ranked where containing) as containing,`
      }
             (select coalesce(array_agg(c::text), '{}') from candidates as x(c)) as candidates,
             ${unsettled} as unsettled,
             ${
               also === undefined
                 ? sql`'{}'::text[]`
                 : Array.isArray(also)
                   ? sql`${textArray(also)}::text[]`
                   : also
             } as also`),
    );
  }
  const candidates = (first?.candidates ?? []) as string[];
  const rule = { q, words, nearOf, wanted };
  // The later passes rank these candidates again: each is tested once.
  const memo: RuleMemo = new Map();
  let answer: { ids: string[]; containing: number };
  const inDatabase = (row: Row | undefined) => ({
    ids: ((row?.ranked ?? []) as unknown[]).map(String),
    containing: Number(row?.containing ?? 0),
  });
  // The database ranks the ids in `idsSql` (with the CTEs `before` reading them) and the statement
  // also returns `more` columns.
  const rankedByDatabase = async (run: Database | Tx, idsSql: SQL, before: SQL[], more: SQL) =>
    rowsOf(
      await run.execute(sql`with ${sql.join(
        [
          ...before,
          cte(
            "ranked",
            sql`select id, (${contains}) as containing, row_number() over (${orderedInDatabase}) as n
              from search_products where id = any(${idsSql}) and ${matches}
             order by n limit ${wanted}`,
          ),
        ],
        sql`, `,
      )}
      select (select coalesce(array_agg(id::text order by n), '{}') from ranked) as ranked,
             (select count(*)::int from ranked where containing) as containing${more}`),
    )[0];
  if (inShop) {
    const rows = candidateRowsOf(first?.rows);
    answer =
      rows === undefined
        ? inDatabase(
            await rankedByDatabase(db, sql`${`{${candidates.join(",")}}`}::uuid[]`, [], sql``),
          )
        : rankByRule(rule, rows, memo);
  } else if (memory !== undefined && candidates.length === 0) {
    answer = { ids: [], containing: 0 };
  } else if (memory !== undefined) {
    // Another script: the database ranks the kept copy's candidates.
    answer = inDatabase(
      await rankedByDatabase(db, sql`${`{${candidates.join(",")}}`}::uuid[]`, [], sql``),
    );
  } else {
    answer = inDatabase(first);
  }
  let ranked = answer.ids;
  let containingCount = answer.containing;

  // The passes below (rare) rank again with more candidates, each `extra` source read once (a
  // CTE; or its ids, read from the kept copy), and say how many products each source gave.
  const rank = async (run: Database | Tx, extra: Array<SQL | string[]>) => {
    const statements = extra.flatMap((e) => (Array.isArray(e) ? [] : [e]));
    const listed = extra.flatMap((e) => (Array.isArray(e) ? e : []));
    const all = [...new Set([...candidates, ...listed])];
    let again: { ids: string[]; containing: number } | undefined;
    let row: Row | undefined;
    let sized: number[] = [];
    if (statements.length === 0 && all.length === 0) again = { ids: [], containing: 0 };
    else if (statements.length === 0 && memory !== undefined && inShop) {
      // Every candidate is in the kept copy: ranked without a statement (unless one has text
      // the database ranks).
      const rows = all.flatMap((id) => {
        const p = memory.byId.get(id);
        return p ? [{ id: p.id, text: p.text, words: p.words, byName: p.rank + 1 }] : [];
      });
      // (A product the copy lost meanwhile, a change it couldn't place: read from the database.)
      if (rows.length === all.length && rows.every((r) => isAsciiText(r.text)))
        again = rankByRule(rule, rows, memo);
    }
    if (again === undefined) {
      const before = statements.map((e, i) => cte(`extra_${i}`, sql`select id from ${e} x`));
      // One array (computed once), so the products are read by id: an `or id in (…)` is a
      // filter on every product.
      const ids = sql`(${`{${all.join(",")}}`}::uuid[]${
        statements.length > 0
          ? sql` || array(${sql.join(
              statements.map((_, i) => sql`select id from ${sql.raw(`extra_${i}`)}`),
              sql` union `,
            )})`
          : sql``
      })`;
      const sizes =
        statements.length > 0
          ? sql`array[${sql.join(
              statements.map((_, i) => sql`(select count(*)::int from ${sql.raw(`extra_${i}`)})`),
              sql`, `,
            )}]`
          : sql`'{}'::int[]`;
      if (inShop) {
        [row] = rowsOf(
          await run.execute(
            sql`${before.length > 0 ? sql`with ${sql.join(before, sql`, `)} ` : sql``}select ${candidateRows(ids)} as rows, ${sizes} as sizes`,
          ),
        );
        const rows = candidateRowsOf(row?.rows);
        if (rows !== undefined) again = rankByRule(rule, rows, memo);
      }
      if (again === undefined) {
        row = await rankedByDatabase(run, ids, before, sql`, ${sizes} as sizes`);
        again = inDatabase(row);
      }
      sized = ((row?.sizes ?? []) as unknown[]).map(Number);
    }
    containingCount = again.containing;
    // How many products each source gave, in `extra`'s order.
    let i = 0;
    const sizes = extra.map((e) => (Array.isArray(e) ? e.length : (sized[i++] ?? 0)));
    return { ids: again.ids, sizes };
  };
  // The walks' fallbacks, when their first postings didn't settle them: candidates for every
  // ranking from here on.
  // (A source's own fallback once, however many of its words were unsettled.)
  const settling = [
    ...new Set(
      ((first?.unsettled ?? []) as Array<number | string>).flatMap(
        (i) => walks[Number(i)]?.fallback ?? [],
      ),
    ),
  ];
  if (settling.length > 0) ranked = (await rank(db, settling)).ids;
  // Sources the trigram index serves, for what the vocabulary can't point at: numbers (not kept
  // in it), words near nothing in it (strict similarity alone), and a query without words (the
  // whole query's similarity). Asked only when fewer than `wanted` products contain the query:
  // the products they add come after all of those. In a transaction setting the operators'
  // thresholds (the index serves the operators only). With the kept copy, a word with a digit's
  // sources are read from it instead (`numberCandidates`: the trigrams with a digit), and then
  // no statement is needed ("mecha pilot 4821" took 30–74 ms through the trigram index).
  const tests = memory !== undefined && inShop ? wordTestsOf(words, nearOf) : undefined;
  // Per word, its candidates in the kept copy (undefined: the index's): a word with a digit's by
  // its trigrams with a digit; another's by its near words, when no ASCII text can pass it
  // without one ("zebra", near "zara").
  const numbered = new Map<number, IndexedProduct[] | undefined>();
  const numberedOf = (k: number) => {
    const w = words[k] as string;
    if (memory === undefined || tests === undefined) return undefined;
    if (!numbered.has(k)) {
      const near = nearOf.get(w);
      numbered.set(
        k,
        near === undefined ? numberCandidates(memory, w) : nearCandidates(memory, w, near),
      );
    }
    return numbered.get(k);
  };
  // Per word, whether an ASCII text passes it only by one of its near words (`onlyByNearWords`).
  const onlyNear = new Map<number, boolean>();
  const onlyNearOf = (k: number) => {
    const near = nearOf.get(words[k] as string);
    if (memory === undefined || near === undefined) return false;
    if (!onlyNear.has(k)) onlyNear.set(k, onlyByNearWords(memory, words[k] as string, near));
    return onlyNear.get(k) === true;
  };
  // Per word without a digit, how many of its trigrams each catalogue word has, and how many a
  // text passing it has at least: an ASCII text's trigrams are its words' (numbers' all have a
  // digit), so one whose words have fewer between them can't pass.
  // (By the words' numbers: looking up 1,247 products' words by string took 1 ms.)
  const shares = new Map<number, { of: Uint8Array; need: number }>();
  const enoughShared = (k: number, p: IndexedProduct) => {
    let known = shares.get(k);
    if (known === undefined) {
      const w = words[k] as string;
      known = {
        of: memory ? sharedByWordIds(memory, w) : new Uint8Array(0),
        need: sharedAtLeast(w),
      };
      shares.set(k, known);
    }
    let sum = 0;
    const pool = p.wordPool;
    for (let i = p.wordStart, end = i + p.wordCount; i < end; i++) {
      sum += known.of[pool[i] as number] ?? 0;
      if (sum >= known.need) return true;
    }
    return false;
  };
  // How many candidates a word has in the copy, at most (undefined: none there), without listing
  // a word with near words' (their products, counted once per word).
  const sizeOf = (k: number) => {
    const near = nearOf.get(words[k] as string);
    if (numbered.has(k) || near === undefined || memory === undefined || tests === undefined)
      return numberedOf(k)?.length;
    const others = numbersOf(memory).notAscii.length;
    if (others > NOT_ASCII_CANDIDATES || !onlyNearOf(k)) return undefined;
    const size = near.reduce((n, x) => n + (memory.postings.get(x)?.length ?? 0), 0);
    return size > NUMBER_CANDIDATES ? undefined : size + others;
  };
  const test = (k: number, p: IndexedProduct, trigrams: () => Trigrams) =>
    tests?.[k]?.(p.text, p.words, trigrams) === true;
  const trigramsOfProduct = (p: IndexedProduct) => {
    let text: Trigrams | undefined;
    return () => {
      text ??= trigramsOf(p.text);
      return text;
    };
  };
  // Per word with a digit, its candidates (those whose text the database tests, not ASCII,
  // apart), each tested against the word once, when a source first needs it.
  const byWord = new Map<
    number,
    { ascii: IndexedProduct[]; verdict: Int8Array; unsure: IndexedProduct[] }
  >();
  const candidatesOf = (k: number, found: IndexedProduct[]) => {
    let known = byWord.get(k);
    if (known === undefined) {
      const ascii: IndexedProduct[] = [];
      const unsure: IndexedProduct[] = [];
      for (const p of found) (p.ascii ? ascii : unsure).push(p);
      known = { ascii, verdict: new Int8Array(ascii.length), unsure };
      byWord.set(k, known);
    }
    return known;
  };
  /**
   * From the kept copy: the ids of the first `bound` products by name passing the tests of the
   * words `ks` and having one of each list of `near` words, as `firstByName` reads them, and
   * those having them whose text the database tests (not ASCII); undefined when none of `ks` is
   * a word with a digit whose candidates the copy gives.
   */
  const passingInMemory = (ks: number[], near: string[][]) => {
    let first: number | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const k of ks) {
      const size = sizeOf(k);
      if (size !== undefined && size < fewest) {
        first = k;
        fewest = size;
      }
    }
    const found = first === undefined ? undefined : numberedOf(first);
    if (first === undefined || found === undefined) return undefined;
    const { ascii, verdict, unsure } = candidatesOf(first, found);
    const rest = ks.filter((k) => k !== first);
    // The other words an ASCII text passes only by having one of their near words: a cheap
    // filter too ("mecha pilot 4821": 1,247 texts near "4821", 30 with "mecha" and "pilot").
    const lists = [
      ...near,
      ...rest.flatMap((k) => {
        const nearWords = nearOf.get(words[k] as string);
        return nearWords !== undefined && onlyNearOf(k) ? [nearWords] : [];
      }),
    ];
    // (Read in this turn: the copy may change at the next statement.)
    const marks = lists.map((list) => havingOneOf(memory as SearchIndex, list));
    const having = (p: IndexedProduct) => marks.every((m) => m[p.rank] === 1);
    // And for every word without a digit, whether the text's words can have enough of its
    // trigrams (`sharedByWords`): most of a number's candidates have none of the others'.
    const lettering = ks.filter((k) => nearOf.has(words[k] as string));
    // The cheap filters first, then by name the tests, until `bound` pass (sorting all 1,247
    // texts near "4821" by name cost more than filtering them).
    const kept: number[] = [];
    for (const [i, p] of ascii.entries())
      if (having(p) && lettering.every((k) => enoughShared(k, p))) kept.push(i);
    kept.sort((a, b) => (ascii[a] as IndexedProduct).rank - (ascii[b] as IndexedProduct).rank);
    const ids: string[] = [];
    for (const i of kept) {
      if (ids.length >= bound) break;
      const p = ascii[i] as IndexedProduct;
      const trigrams = trigramsOfProduct(p);
      if (verdict[i] === 0) verdict[i] = test(first, p, trigrams) ? 1 : 2;
      if (verdict[i] === 1 && rest.every((k) => test(k, p, trigrams))) ids.push(p.id);
    }
    // (Those the database tests, with the filters of `near` only.)
    const nearMarks = marks.slice(0, near.length);
    return [
      ...ids,
      ...unsure.filter((p) => nearMarks.every((m) => m[p.rank] === 1)).map((p) => p.id),
    ];
  };
  // The other lettered words' near words (as `overlapsBut`).
  const nearBut = (k: number) =>
    lettered.flatMap((w) => {
      const near = nearOf.get(w) ?? [];
      return words.indexOf(w) !== k && near.length > 0 ? [near] : [];
    });
  /** A word's own source: every product passing its test and the other words' filters. */
  const sourceOf = (k: number): SQL | string[] =>
    passingInMemory([k], nearBut(k)) ?? firstByName(indexedTests[k] as SQL, overlapsBut(k));
  // (Each read only when asked for: a word with a digit's is computed from the copy.)
  const more: Array<() => SQL | string[]> = [];
  // Per source of `more`, the size below which it holds every product passing its word's test
  // (it has none of the other words' filters; 0: it has them): then it holds every product that
  // can match without containing the query, and the ranking with it is the rules' over every
  // product.
  const wholeBelow: number[] = [];
  for (const w of words) {
    const near = nearOf.get(w);
    const k = words.indexOf(w);
    if (near === undefined) {
      // A word with a digit: with the other words' filters (unfiltered, "100" passes in 11,000
      // products, and their first by name are not the ones having the other words: review).
      more.push(() => sourceOf(k));
      wholeBelow.push(0);
    } else if (near.length === 0) {
      // A word near nothing in the catalogue is strictly similar to few texts, if any (from the
      // copy, when it can tell those are only texts that aren't ASCII).
      more.push(() => {
        const found = memory !== undefined ? nearCandidates(memory, w, []) : undefined;
        return found?.map((p) => p.id) ?? firstByName(indexedTests[k] as SQL);
      });
      wholeBelow.push(bound);
    }
  }
  if (words.length === 0) {
    more.push(() => firstByName(sql`${q} <% search_text`));
    wholeBelow.push(bound);
  }
  const needsMore = more.length > 0 && containingCount < wanted;
  const everyWord = words.map((_, k) => k);
  // The products passing every word's test at once, from the copy when it can.
  const everyTest = () =>
    passingInMemory(everyWord, []) ?? firstByName(sql.join(indexedTests, sql` and `));
  // Still fewer answers than asked for: every word's trigram source too (bounded, index-served),
  // so a product that matches only by a word's similarity to its text ("tealight" in "Tea
  // Light …") while the word has near words of its own is not missed (review, 2026-11-27) —
  // unless a whole source above already holds every product that can match.
  const passes = async (run: Database | Tx, moreRead: Array<SQL | string[]>) => {
    let again = ranked;
    let settled = false;
    if (needsMore) {
      const withMore = await rank(run, [...settling, ...moreRead]);
      again = withMore.ids;
      settled = wholeBelow.some(
        (below, i) => (withMore.sizes[settling.length + i] ?? below) < below,
      );
    }
    if (!settled && again.length < wanted && words.length > 0) {
      // First the products passing every word's test at once (the index intersects them: few,
      // when few answers were found). Fewer than `bound`: every product that can match without
      // containing the query is among them, and the ranking is the rules' over every product
      // ("mecha pilot 4821": 8 ms here where every word's source took 50–70).
      // (In the thresholds' transaction when it is the index's after all: the copy changed at a
      // statement above, and a word whose products it listed has too many now. Review.)
      const every = everyTest();
      const all =
        !Array.isArray(every) && run === db
          ? await thresholded((tx) => rank(tx, [...settling, every]))
          : await rank(run, [...settling, every]);
      again = all.ids;
      if ((all.sizes[settling.length] ?? bound) >= bound) {
        const each = everyWord.map(sourceOf);
        again = (
          each.some((e) => !Array.isArray(e)) && run === db
            ? await thresholded((tx) => rank(tx, [...settling, ...each]))
            : await rank(run, [...settling, ...each])
        ).ids;
      }
    }
    return again;
  };
  // The operators' thresholds, for statements the trigram index serves.
  const thresholded = <T>(f: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select
        set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true),
        set_config('pg_trgm.strict_word_similarity_threshold', ${String(STRICT_WORD_SIMILARITY)}, true)`);
      return f(tx);
    });
  // From the copy, first the products passing every word's test at once: fewer than `bound`, they
  // hold every product that can match without containing the query, and the ranking with them is
  // the rules' over every product, so no other source is read ("mecha pilot 4821": its number's
  // source, with the other words' filters, took 2–3 ms first).
  const passingEvery =
    (needsMore || ranked.length < wanted) && words.length > 0 && settling.length === 0
      ? passingInMemory(everyWord, [])
      : undefined;
  if (passingEvery !== undefined && passingEvery.length < bound) {
    ranked = (await rank(db, [passingEvery])).ids;
  } else if (needsMore || (ranked.length < wanted && words.length > 0)) {
    const moreRead = needsMore ? more.map((read) => read()) : [];
    // No statement the trigram index serves: every source read from the copy, and either one of
    // them holds every product that can match (`passes` stops there) or the products passing
    // every word's test come from the copy too.
    const fromCopy =
      settling.length === 0 &&
      moreRead.every((e) => Array.isArray(e)) &&
      (moreRead.some((e, i) => e.length < (wholeBelow[i] ?? 0)) ||
        words.length === 0 ||
        everyWord.some((k) => sizeOf(k) !== undefined));
    ranked = fromCopy
      ? await passes(db, moreRead)
      : await thresholded((tx) => passes(tx, moreRead));
  }
  return { ids: ranked, also: ((first?.also ?? []) as string[]).map(String) };
}
