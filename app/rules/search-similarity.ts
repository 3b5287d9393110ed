/*
 * The search rule's similarity measures (decision 0004), computed by the shop for ASCII text so a
 * search's candidates are ranked without asking the database for each one (decision 0021, amended
 * 2026-11-27 c): PGlite evaluates `word_similarity` at about 10 µs a call, and a two-word query
 * asks five of them per candidate. The results equal pg_trgm's and fuzzystrmatch's (the same
 * trigrams, the same extents, the same single-precision quotients): the catalogue module's
 * search-similarity.integration.test.ts compares them with both databases on thousands of pairs.
 * Text with any character outside ASCII is left to the database: how it splits and folds other
 * scripts depends on its locale.
 */

/** Whether the shop computes the measures for this text: printable ASCII, tabs and line ends. */
export const isAsciiText = (s: string) => !/[^\x20-\x7e\t\n\r]/.test(s);

const isWordCode = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const lowerCode = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * A text's trigrams in order, as numbers (three 7-bit characters), with which of them start and
 * end a word: each word (letters and digits), lower-cased, padded with two blanks before and one
 * after, as pg_trgm pads it.
 */
export type Trigrams = { codes: Int32Array; left: Uint8Array; right: Uint8Array };

export function trigramsOf(text: string): Trigrams {
  const codes: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && !isWordCode(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && isWordCode(text.charCodeAt(i))) i++;
    // "  word " → its length + 1 trigrams.
    let a = 32;
    let b = 32;
    const first = codes.length;
    for (let k = start; k <= i; k++) {
      const c = k < i ? lowerCode(text.charCodeAt(k)) : 32;
      codes.push((a << 14) | (b << 7) | c);
      left.push(0);
      right.push(0);
      a = b;
      b = c;
    }
    left[first] = 1;
    right[codes.length - 1] = 1;
  }
  return {
    codes: Int32Array.from(codes),
    left: Uint8Array.from(left),
    right: Uint8Array.from(right),
  };
}

/** pg_trgm's CALCSML: a single-precision quotient. */
const similarity = (count: number, ulen1: number, ulen2: number) =>
  Math.fround(count / (ulen1 + ulen2 - count));

/**
 * The greatest similarity between the trigrams of `pattern` and an extent of `text`'s trigrams
 * (any extent, or with `strict` one starting and ending at word bounds): pg_trgm's
 * `word_similarity(pattern, text)` and `strict_word_similarity(pattern, text)`.
 */
export function wordSimilarity(
  pattern: Trigrams,
  text: Trigrams,
  strict = false,
  patternSet: Set<number> = new Set(pattern.codes),
): number {
  const len2 = text.codes.length;
  const ulen1 = patternSet.size;
  // Number the text's distinct trigrams; `found` says which are the pattern's.
  const ids = new Map<number, number>();
  const indexes = new Int32Array(len2);
  const foundList: boolean[] = [];
  for (let i = 0; i < len2; i++) {
    const code = text.codes[i] as number;
    let id = ids.get(code);
    if (id === undefined) {
      id = foundList.length;
      ids.set(code, id);
      foundList.push(patternSet.has(code));
    }
    indexes[i] = id;
  }
  const found = foundList;
  const lastpos = new Int32Array(found.length).fill(-1);
  let ulen2 = 0;
  let count = 0;
  let upper = -1;
  let lower = strict ? 0 : -1;
  let max = 0;
  for (let i = 0; i < len2; i++) {
    const t = indexes[i] as number;
    if (lower >= 0 || found[t]) {
      if ((lastpos[t] as number) < 0) {
        ulen2++;
        if (found[t]) count++;
      }
      lastpos[t] = i;
    }
    if (strict ? text.right[i] === 1 : found[t]) {
      upper = i;
      if (lower === -1) {
        lower = i;
        ulen2 = 1;
      }
      let current = similarity(count, ulen1, ulen2);
      let tmpCount = count;
      let tmpUlen2 = ulen2;
      const previousLower = lower;
      for (let tmpLower = lower; tmpLower <= upper; tmpLower++) {
        if (!strict || text.left[tmpLower] === 1) {
          const tried = similarity(tmpCount, ulen1, tmpUlen2);
          if (tried > current) {
            current = tried;
            ulen2 = tmpUlen2;
            lower = tmpLower;
            count = tmpCount;
          }
        }
        const u = indexes[tmpLower] as number;
        if (lastpos[u] === tmpLower) {
          tmpUlen2--;
          if (found[u]) tmpCount--;
        }
      }
      if (current > max) max = current;
      for (let tmpLower = previousLower; tmpLower < lower; tmpLower++) {
        const u = indexes[tmpLower] as number;
        if (lastpos[u] === tmpLower) lastpos[u] = -1;
      }
    }
  }
  return max;
}

/** fuzzystrmatch's `levenshtein(a, b)` (unit costs), for ASCII words. */
export function levenshtein(a: string, b: string): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Two rows, kept between calls (a search compares thousands of short words).
  if (rows[0].length <= b.length)
    rows = [new Int32Array(2 * b.length + 2), new Int32Array(2 * b.length + 2)];
  let [previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length] as number;
}
let rows: [Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64)];

/** How many edits a query word may be from a catalogue word (decision 0004): by its length. */
export const editsFor = (w: string) => {
  const length = [...w].length;
  return length <= 3 ? 0 : length <= 4 ? 1 : 2;
};

type Matched = { id: string; containing: boolean; similarity: number; byName: number };
/**
 * What `rankByRule` found for each row (by id and place), for ranking again with more rows under
 * the same rule: a search's later passes rank its first candidates again.
 */
export type RuleMemo = Map<string, Matched | null>;

/** A candidate as the database gives it: its search text and words, and its place by name. */
export type CandidateRow = { id: string; text: string; words: string[]; byName: number };

/**
 * Decision 0004's rule and order over candidates, as the search statement writes them: a product
 * matches when its text contains the query, or when every query word is similar to its text
 * (word similarity ≥ 0.25) and either one of its words is near the word (`near`: the
 * catalogue's words near it; `undefined` for a word with a digit: a word starting with it or
 * within its edits) or the word is strictly similar to its text (≥ 0.4); a query without words
 * matches by its own similarity. Containing first, then similarity to the whole query, then name.
 * For ASCII query and text only (`isAsciiText`).
 */
export function rankByRule(
  rule: { q: string; words: string[]; nearOf: Map<string, string[]>; wanted: number },
  rows: CandidateRow[],
  memo: RuleMemo = new Map(),
): { ids: string[]; containing: number } {
  const { q, words, nearOf, wanted } = rule;
  const query = trigramsOf(q);
  const querySet = new Set(query.codes);
  // The words with a digit tested first: their test refuses most texts by the texts' words with a
  // digit alone, before the text's trigrams are read ("mecha pilot 4821").
  const tests = wordTestsOf(words, nearOf)
    .map((test, i) => ({ test, digit: /[0-9]/.test(words[i] as string) }))
    .sort((a, b) => Number(b.digit) - Number(a.digit))
    .map(({ test }) => test);
  const matched: Matched[] = [];
  for (const row of rows) {
    // (A row's answer depends on its text and its words, which are its text's, and its place.)
    const key = `${row.id} ${row.byName} ${row.text}`;
    let known = memo.get(key);
    if (known === undefined) {
      let text: Trigrams | undefined;
      const trigrams = () => {
        text ??= trigramsOf(row.text);
        return text;
      };
      const containing = row.text.includes(q);
      const matches =
        containing ||
        (tests.length === 0
          ? wordSimilarity(query, trigrams(), false, querySet) >= 0.25
          : tests.every((test) => test(row.text, row.words, trigrams)));
      known = matches
        ? {
            id: row.id,
            containing,
            similarity: wordSimilarity(query, trigrams(), false, querySet),
            byName: row.byName,
          }
        : null;
      memo.set(key, known);
    }
    if (known !== null) matched.push(known);
  }
  matched.sort(
    (a, b) =>
      Number(b.containing) - Number(a.containing) ||
      b.similarity - a.similarity ||
      a.byName - b.byName,
  );
  const first = matched.slice(0, wanted);
  return { ids: first.map((m) => m.id), containing: first.filter((m) => m.containing).length };
}

/**
 * Each query word's test in the rule (see `rankByRule`), on a text, its words and its trigrams
 * (asked only when needed): similar to the text (≥ 0.25), and either near one of its words or
 * strictly similar (≥ 0.4). For a word whose every trigram has a digit ("4821", "20t"), the
 * text's words with a digit bound both similarities first (`digitWordsOf`), so most texts are
 * refused without their trigrams.
 */
export function wordTestsOf(
  words: string[],
  nearOf: Map<string, string[]>,
): Array<(text: string, productWords: string[], trigrams: () => Trigrams) => boolean> {
  return words.map((w) => {
    const pattern = trigramsOf(w);
    const set = new Set(pattern.codes);
    const near = nearOf.get(w);
    const nearSet = new Set(near);
    const edits = editsFor(w);
    // A word within `edits` of it has all but `edits` of its digits at least (each edit changes
    // one character): a word without enough isn't compared.
    const digits = digitCount(w);
    const isNear = (productWords: string[]) =>
      near === undefined
        ? productWords.some(
            (x) =>
              x.startsWith(w) ||
              (Math.abs(x.length - w.length) <= edits &&
                digitCount(x) >= digits - edits &&
                levenshtein(x, w) <= edits),
          )
        : productWords.some((x) => nearSet.has(x));
    const numeric = set.size > 0 && [...set].every(trigramHasDigit);
    return (text, productWords, trigrams) => {
      const nearWord = isNear(productWords);
      if (numeric && !mayBeSimilar(set, digitWordsOf(text).words, nearWord)) return false;
      const t = trigrams();
      return (
        wordSimilarity(pattern, t, false, set) >= 0.25 &&
        (nearWord || wordSimilarity(pattern, t, true, set) >= 0.4)
      );
    };
  });
}

/**
 * How many of a word's distinct trigrams a text passing its test has at least: a similarity is at
 * most the share of the word's trigrams its extent has, so a quarter of them; and either 0.4 of
 * them (strictly similar), or those a near word of the text has: a word starting with it has all
 * but the last, and a word within its edits all but 3 a change (each changes at most the 3
 * trigrams that have its character). `nearWords` false: the text can have no near word (the
 * catalogue has none), so strictly similar only.
 */
export function sharedAtLeast(w: string, nearWords = true): number {
  const ulen1 = new Set(trigramsOf(w).codes).size;
  const near = nearWords ? Math.min(ulen1 - 1, ulen1 - 3 * editsFor(w)) : ulen1;
  const strict = Math.ceil(0.4 * ulen1 - 1e-9);
  return Math.max(Math.ceil(ulen1 / 4 - 1e-9), Math.min(near, strict));
}

/**
 * Whether a text can pass a word's test, for a word whose every trigram has a digit (`set`), by
 * the text's words with a digit (where all its trigrams that are the word's are): an extent has
 * at most `shared` of the word's trigrams and, when word-bounded, at least the trigrams of one
 * of those words, and a similarity only grows with the former and falls with the latter.
 */
function mayBeSimilar(set: Set<number>, digitWords: number[][], nearWord: boolean): boolean {
  const shared = new Set<number>();
  let fewest = Number.POSITIVE_INFINITY;
  for (const codes of digitWords) {
    let any = false;
    for (const code of codes) {
      if (set.has(code)) {
        shared.add(code);
        any = true;
      }
    }
    if (any) fewest = Math.min(fewest, codes.length);
  }
  const c = shared.size;
  const ulen1 = set.size;
  if (Math.fround(c / ulen1) < 0.25) return false;
  if (nearWord) return true;
  const strictAtMost = c <= fewest ? c / (ulen1 + fewest - c) : c / ulen1;
  return Math.fround(strictAtMost) >= 0.4;
}

const isDigitCode = (c: number) => c >= 48 && c <= 57;
const digitCount = (s: string) => {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (isDigitCode(s.charCodeAt(i))) n++;
  return n;
};
/** Whether a trigram (as `trigramsOf` numbers it) has a digit. */
export const trigramHasDigit = (code: number) =>
  isDigitCode(code >> 14) || isDigitCode((code >> 7) & 127) || isDigitCode(code & 127);

/**
 * A text's words with a digit, as pg_trgm splits ASCII text (letters and digits), each as its
 * distinct trigrams; `nextToOther`: one of them is next to a character outside ASCII, which the
 * database's locale may count as part of the word.
 */
export function digitWordsOf(text: string): { words: number[][]; nextToOther: boolean } {
  const words: number[][] = [];
  let nextToOther = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordCode(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    let digit = false;
    while (i < n && isWordCode(text.charCodeAt(i))) {
      if (isDigitCode(text.charCodeAt(i))) digit = true;
      i++;
    }
    if (!digit) continue;
    if ((start > 0 && text.charCodeAt(start - 1) > 127) || (i < n && text.charCodeAt(i) > 127))
      nextToOther = true;
    const codes: number[] = [];
    let a = 32;
    let b = 32;
    for (let k = start; k <= i; k++) {
      const c = k < i ? lowerCode(text.charCodeAt(k)) : 32;
      const code = (a << 14) | (b << 7) | c;
      if (!codes.includes(code)) codes.push(code);
      a = b;
      b = c;
    }
    words.push(codes);
  }
  return { words, nextToOther };
}

/**
 * A text as `search_products.search_coded` holds it (drizzle/0019: `layerkart_search_coded`):
 * "z" and every ASCII space, punctuation or symbol written as "z" and its two hex digits, the
 * rest as it is. The code is one-to-one and every written character is a letter or a digit, so
 * a text containing the query has a coded text containing the coded query, and the trigrams of
 * the coded query span its separators.
 */
export const codedText = (s: string) =>
  s.replace(
    /[z\t\n\v\f\r\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g,
    (c) => `z${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );

/**
 * Pieces of the coded query that any product containing the query has in its coded text: each
 * run of separators inside the query with up to two characters either side, coded. Their trigrams
 * span the separators and are few, so the trigram index reads little ("lfz20wa" and "ngz20po"
 * for "self watering pot": the products with "self-watering pot" have neither).
 */
export function codedWindows(q: string): string[] {
  // By characters, not UTF-16 units (a letter outside the BMP is two).
  const chars = [...q];
  const isSeparator = (c: string) => /^[\t\n\v\f\r\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(c);
  const windows = new Set<string>();
  for (let start = 0; start < chars.length; start++) {
    if (!isSeparator(chars[start] as string)) continue;
    let end = start;
    while (end < chars.length && isSeparator(chars[end] as string)) end++;
    if (start > 0 && end < chars.length) {
      windows.add(codedText(chars.slice(Math.max(0, start - 2), end + 2).join("")));
    }
    start = end;
  }
  return [...windows];
}
