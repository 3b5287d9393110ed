import { type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  digitWordsOf,
  isAsciiText,
  trigramHasDigit,
  trigramsOf,
} from "~/rules/search-similarity.ts";

/*
 * The search's products kept in the process (docs/decisions/0021-search-answers.md, amended
 * 2026-11-27 d): each active product's id, search text and words, in the database's order by
 * name, and per word the products having it in that order: what the candidates' statement read
 * from search_postings and search_products, read here without a statement.
 *
 * Kept up to date the way the page cache is, by the search generation: the triggers of
 * drizzle/0020 stamp every row they write (and every product they remove, in search_removed) with
 * the generation they raised, and the generation row stays locked until the writer commits, so
 * stamps follow commit order. Every search reads, with the generation, the rows stamped after the
 * last generation this copy has seen (none, most of the time) and applies them before it ranks;
 * each changed row comes with the product before it by name, so the copy keeps the database's
 * collation order without sorting by it. A bulk change is not placed row by row: the copy is read
 * again beside the searches, which the statements answer meanwhile.
 *
 * Loaded whole by the runtime at start, or by the first search (100,000 products: 0.7 s on
 * PostgreSQL, 1.3 s on PGlite, 58 MB of heap with its vocabulary, 2026-11-28); a catalogue
 * larger than INDEXED_AT_MOST is searched through the database alone.
 */

export type IndexedProduct = {
  id: string;
  /** The product's search text (lower case: name, category, subcategory). */
  text: string;
  /** Its words as search_words holds them (numbers too; the postings leave them out). */
  words: string[];
  /** Its place in the database's order by name, id (0 first). */
  rank: number;
  /**
   * Its place in the copy's `bySlot`, another product's never until the copy numbers its slots
   * again (a changed product is a new product in a new slot): the numbers' lists hold it, so
   * counting a trigram's products reads no product (`numberCandidates` in
   * search-candidates.server.ts).
   */
  slot: number;
  /** Whether its text is all ASCII (the shop tests it; another text the database does). */
  ascii: boolean;
  /**
   * Its words' numbers (`SearchIndex.wordIds`; numbers themselves have none) are
   * `wordPool[wordStart]` onwards, `wordCount` of them: a filter reads them, not their strings.
   * (One pool for the products read together: a typed array each cost about 23 MB at 100,000.)
   */
  wordPool: Int32Array;
  wordStart: number;
  wordCount: number;
};

export type SearchIndex = {
  /** The search generation the copy is up to date with. */
  generation: number;
  byName: IndexedProduct[];
  byId: Map<string, IndexedProduct>;
  /** The products by slot (a changed product's old slot is left empty). */
  bySlot: Array<IndexedProduct | undefined>;
  /** Per word (not a number), the products having it, by name. */
  postings: Map<string, IndexedProduct[]>;
  /** One string per distinct word (words repeat across 100,000 rows). */
  words: Map<string, string>;
  /** Per distinct word that isn't a number, its number (0 first, in the order first met). */
  wordIds: Map<string, number>;
  /** The postings' words as the search looks for near ones (built when first asked). */
  vocabulary?: Vocabulary;
  /** The products a word with a digit can be similar to (built with the copy). */
  numbers?: Numbers;
};

/**
 * The catalogue's words a query in ASCII can be near (`vocabularyInMemory`), with their trigrams:
 * the postings' words in ASCII (a word wholly in another script shares no trigram, prefix or
 * edit with an ASCII word). `mixed`: some word mixes ASCII letters with another script, whose
 * trigrams depend on the database's locale: then the database reads the vocabulary.
 */
export type Vocabulary = { words: string[]; byTrigram: Map<number, string[]>; mixed: boolean };

export function vocabularyOf(index: SearchIndex): Vocabulary {
  if (index.vocabulary) return index.vocabulary;
  const vocabulary: Vocabulary = { words: [], byTrigram: new Map(), mixed: false };
  for (const w of index.postings.keys()) {
    if (!isAsciiText(w)) {
      if (/[0-9A-Za-z]/.test(w)) vocabulary.mixed = true;
      continue;
    }
    vocabulary.words.push(w);
    for (const code of new Set(trigramsOf(w).codes)) {
      const list = vocabulary.byTrigram.get(code);
      if (list) list.push(w);
      else vocabulary.byTrigram.set(code, [w]);
    }
  }
  index.vocabulary = vocabulary;
  return vocabulary;
}

/**
 * Per trigram with a digit in it, the products whose text has it (in no order): a query word
 * with a digit (numbers have no postings) is word-similar only to texts sharing some of its
 * trigrams, and the trigrams with a digit come only from a text's words with a digit ("4821",
 * "3d"), so the few texts sharing enough of them are found without reading every text
 * (`numberCandidates` in search-candidates.server.ts). `unsure`: products with a word of digits
 * and ASCII letters next to a character outside ASCII, which the database's locale may count as
 * part of that word (other trigrams): a candidate for every such query. `notAscii`: every product
 * whose text has a character outside ASCII (the database's locale decides its words and
 * trigrams), in no order: the only products a query word the copy rules out for every ASCII text
 * can match (`nearCandidates` in search-candidates.server.ts).
 */
export type Numbers = {
  /** (By their slots.) */
  byTrigram: Map<number, number[]>;
  unsure: IndexedProduct[];
  notAscii: IndexedProduct[];
};

/**
 * The trigrams with a digit of a text's words with a digit; undefined when such a word is next to
 * a character outside ASCII (see `Numbers`).
 */
function digitTrigramsOf(text: string): number[] | undefined {
  const { words, nextToOther } = digitWordsOf(text);
  if (nextToOther) return undefined;
  const codes: number[] = [];
  for (const word of words)
    for (const code of word) if (trigramHasDigit(code) && !codes.includes(code)) codes.push(code);
  return codes;
}

function addNumbers(numbers: Numbers, product: IndexedProduct): void {
  if (!product.ascii) numbers.notAscii.push(product);
  if (!/[0-9]/.test(product.text)) return;
  const codes = digitTrigramsOf(product.text);
  if (codes === undefined) {
    numbers.unsure.push(product);
    return;
  }
  for (const code of codes) {
    const list = numbers.byTrigram.get(code);
    if (list) list.push(product.slot);
    else numbers.byTrigram.set(code, [product.slot]);
  }
}

export function numbersOf(index: SearchIndex): Numbers {
  if (index.numbers) return index.numbers;
  const numbers: Numbers = { byTrigram: new Map(), unsure: [], notAscii: [] };
  for (const product of index.byName) addNumbers(numbers, product);
  index.numbers = numbers;
  return numbers;
}

/** Changed products (by id) out of the numbers' lists, and their new rows in. */
function changeNumbers(numbers: Numbers, old: IndexedProduct[], fresh: IndexedProduct[]): void {
  const changed = new Set([...old, ...fresh].map((p) => p.id));
  const slots = new Set(old.map((p) => p.slot));
  const touched = new Set<number>();
  if (old.some((p) => !p.ascii))
    numbers.notAscii = numbers.notAscii.filter((p) => !changed.has(p.id));
  for (const product of old) {
    if (!/[0-9]/.test(product.text)) continue;
    const codes = digitTrigramsOf(product.text);
    if (codes === undefined) numbers.unsure = numbers.unsure.filter((p) => !changed.has(p.id));
    else for (const code of codes) touched.add(code);
  }
  for (const code of touched) {
    const list = (numbers.byTrigram.get(code) ?? []).filter((slot) => !slots.has(slot));
    if (list.length > 0) numbers.byTrigram.set(code, list);
    else numbers.byTrigram.delete(code);
  }
  for (const product of fresh) addNumbers(numbers, product);
}

/** A larger catalogue isn't kept in the process (memory: about 600 bytes a product). */
export const INDEXED_AT_MOST = 250_000;

/** How long a catalogue too large to keep (or a load that failed) is searched by statements alone. */
const RETRY_MS = 60 * 60_000;

type Kept = {
  index?: SearchIndex;
  loading?: Promise<SearchIndex | undefined>;
  off?: boolean;
  /** A copy was loaded before: a later load (after one was dropped) holds up no search. */
  loaded?: boolean;
  /** Not before this time (ms) is a load tried again: too large, or it failed. */
  retryAfter?: number;
};
const kept = new WeakMap<Database, Kept>();
const keptOf = (db: Database) => {
  let k = kept.get(db);
  if (!k) {
    k = {};
    kept.set(db, k);
  }
  return k;
};

/** Whether searches on `db` use the kept copy (tests of the statements turn it off). */
export function keepSearchIndex(db: Database, on: boolean): void {
  const k = keptOf(db);
  k.off = !on;
  k.index = undefined;
  k.loading = undefined;
  k.loaded = false;
  k.retryAfter = undefined;
}

/** The kept copy as it is (possibly behind the generation), if `db` has one loaded. */
export function keptSearchIndex(db: Database): SearchIndex | undefined {
  const k = kept.get(db);
  return k?.off ? undefined : k?.index;
}

/**
 * The kept copy (one load at a time); undefined when it is turned off, the catalogue is larger
 * than INDEXED_AT_MOST or the load failed (both tried again after RETRY_MS). `wait: "first"`
 * (a search) waits only for the first load: after a copy was dropped, searches are answered by
 * the statements while it is read again.
 */
export async function searchIndexOf(
  db: Database,
  wait: "always" | "first" = "always",
): Promise<SearchIndex | undefined> {
  const k = keptOf(db);
  if (k.off) return undefined;
  if (k.index) return k.index;
  if (k.retryAfter !== undefined && Date.now() < k.retryAfter) return undefined;
  if (!k.loading) {
    const loading = readSearchIndex(db).then(
      (index) => {
        if (k.loading !== loading || k.off) return undefined;
        if (index) {
          k.index = index;
          k.loaded = true;
        } else k.retryAfter = Date.now() + RETRY_MS;
        return index;
      },
      (error: unknown) => {
        log.warning("search copy not loaded; searching by statements", { error });
        if (k.loading === loading) k.retryAfter = Date.now() + RETRY_MS;
        return undefined;
      },
    );
    k.loading = loading;
    loading.finally(() => {
      if (k.loading === loading) k.loading = undefined;
    });
  }
  if (wait === "first" && k.loaded) return undefined;
  await k.loading;
  return k.off ? undefined : k.index;
}

const isNumber = (w: string) => /^[0-9]*$/.test(w);

/** Where the products read together keep their words' numbers (`IndexedProduct.wordPool`). */
type WordPool = { ids: Int32Array; used: number };
const wordPoolFor = (rows: Array<{ words: string[] | null }>): WordPool => ({
  ids: new Int32Array(rows.reduce((n, row) => n + (row.words?.length ?? 0), 0)),
  used: 0,
});

/** A product of the copy, in the next slot, its words interned and numbered into `pool`. */
function productOf(
  index: SearchIndex,
  pool: WordPool,
  id: string,
  text: string,
  words: string[],
  rank: number,
): IndexedProduct {
  const wordStart = pool.used;
  const interned = words.map((w) => {
    const known = index.words.get(w);
    if (known !== undefined) w = known;
    else index.words.set(w, w);
    if (!isNumber(w)) {
      let n = index.wordIds.get(w);
      if (n === undefined) {
        n = index.wordIds.size;
        index.wordIds.set(w, n);
      }
      pool.ids[pool.used++] = n;
    }
    return w;
  });
  const product = {
    id,
    text,
    words: interned,
    rank,
    slot: index.bySlot.length,
    ascii: isAsciiText(text),
    wordPool: pool.ids,
    wordStart,
    wordCount: pool.used - wordStart,
  };
  index.bySlot.push(product);
  return product;
}

/** A copy of the search's products read anew (undefined: more than INDEXED_AT_MOST). */
export async function readSearchIndex(db: Database): Promise<SearchIndex | undefined> {
  // The generation first, then the rows: rows newer than the generation are read again, as
  // changes since it, by the next search (harmless); read the other way round, a product added
  // between the two statements would be missed for good.
  const [g] = (
    (await db.execute(sql`select generation from search_generation limit 1`)) as unknown as {
      rows: Array<{ generation: number | string }>;
    }
  ).rows;
  const generation = Number(g?.generation ?? 0);
  // Counted first (the name index), so a catalogue too large to keep isn't read only to be dropped.
  const [counted] = (
    (await db.execute(
      sql`select count(*)::int as n from (select 1 from search_products limit ${INDEXED_AT_MOST + 1}) c`,
    )) as unknown as { rows: Array<{ n: number | string }> }
  ).rows;
  if (Number(counted?.n ?? 0) > INDEXED_AT_MOST) return undefined;
  const rows = (
    (await db.execute(sql`
      select id::text as id, search_text as text, search_words as words from search_products
       order by name, id
       limit ${INDEXED_AT_MOST + 1}`)) as unknown as {
      rows: Array<{ id: string; text: string; words: string[] }>;
    }
  ).rows;
  if (rows.length > INDEXED_AT_MOST) return undefined;
  const index: SearchIndex = {
    generation,
    byName: [],
    byId: new Map(),
    bySlot: [],
    postings: new Map(),
    words: new Map(),
    wordIds: new Map(),
  };
  const pool = wordPoolFor(rows);
  for (const [rank, row] of rows.entries()) {
    // (A few slices at a time: the searches meanwhile are answered by the statements.)
    if (rank > 0 && rank % LOAD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const product = productOf(index, pool, row.id, row.text, row.words, rank);
    index.byName.push(product);
    index.byId.set(product.id, product);
    for (const w of new Set(product.words)) {
      if (isNumber(w)) continue;
      const list = index.postings.get(w);
      if (list) list.push(product);
      else index.postings.set(w, [product]);
    }
  }
  const numbers: Numbers = { byTrigram: new Map(), unsure: [], notAscii: [] };
  for (const [rank, product] of index.byName.entries()) {
    if (rank > 0 && rank % LOAD_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    addNumbers(numbers, product);
  }
  index.numbers = numbers;
  return index;
}

/** Empty slots a copy may have beyond as many as its products before they are numbered again. */
const SLOTS_SPARE = 1_000;

/** How many products a load reads into the copy between two turns of the event loop. */
const LOAD_SLICE = 10_000;

/**
 * What changed since `index` was last brought up to date, as one JSON value for the statement that
 * reads the generation from search_generation (`applySearchChanges` takes it with that
 * generation): drizzle/0020's `layerkart_search_changes`, called only when the generation moved
 * past the copy's (a branch not taken runs nothing).
 */
export function searchChangesQuery(index: SearchIndex): SQL {
  return sql`case when generation > ${index.generation} then layerkart_search_changes(${index.generation}, ${changesAtMost(index)}::int) end`;
}

/** More changes than this share of the copy (and 1,000) are read as a new copy instead. */
const RELOAD_SHARE = 0.25;
const changesAtMost = (index: SearchIndex) =>
  Math.max(1_000, Math.floor(RELOAD_SHARE * index.byName.length));

type Changes = {
  rows: Array<[string, string, string[], string | null]>;
  removed: string[];
  /** More changed than the copy places one by one: it is read anew. */
  more?: boolean;
};

/**
 * Brings the kept copy of `db` up to `generation` with the changes read with it (read since a
 * generation no later than the copy's: applying them again is harmless). A copy that can't place
 * a row (it isn't the database's any more) is dropped, and loaded afresh by the next search.
 */
export function applySearchChanges(db: Database, generation: number, value: unknown): void {
  const k = kept.get(db);
  const index = k?.index;
  if (!k || !index || generation <= index.generation) return;
  const changes = (typeof value === "string" ? JSON.parse(value) : value) as Changes | null;
  // (Null: the generation didn't move past the copy's, and nothing was read.)
  if (!changes) return;
  if (!apply(index, changes)) {
    k.index = undefined;
    return;
  }
  index.generation = generation;
}

function apply(index: SearchIndex, { rows, removed, more }: Changes): boolean {
  // A bulk import or recategorisation: reading the copy anew is cheaper than placing each row.
  if (more) return false;
  if (rows.length === 0 && removed.length === 0) return true;
  const changed = new Set([...removed, ...rows.map(([id]) => id)]);
  const touched = new Set<string>();
  const gone: IndexedProduct[] = [];
  for (const id of changed) {
    const old = index.byId.get(id);
    if (!old) continue;
    gone.push(old);
    for (const w of old.words) touched.add(w);
    index.byId.delete(id);
  }
  // The changed rows grouped after the unchanged product before them (null: first of all).
  const after = new Map<string | null, IndexedProduct[]>();
  const groupOf = new Map<string, IndexedProduct[]>();
  const fresh: IndexedProduct[] = [];
  const pool = wordPoolFor(rows.map(([, , words]) => ({ words })));
  for (const [id, text, words, before] of rows) {
    const product = productOf(index, pool, id, text, words ?? [], -1);
    fresh.push(product);
    let group = before !== null && changed.has(before) ? groupOf.get(before) : undefined;
    if (before !== null && changed.has(before) && !group) return false;
    if (!group) {
      group = after.get(before) ?? [];
      after.set(before, group);
    }
    group.push(product);
    groupOf.set(id, group);
  }
  const byName: IndexedProduct[] = [...(after.get(null) ?? [])];
  let placed = byName.length;
  for (const product of index.byName) {
    if (changed.has(product.id)) continue;
    byName.push(product);
    const group = after.get(product.id);
    if (group) {
      byName.push(...group);
      placed += group.length;
    }
  }
  if (placed !== fresh.length) return false;
  for (const [rank, product] of byName.entries()) product.rank = rank;
  index.byName = byName;
  if (index.numbers) changeNumbers(index.numbers, gone, fresh);
  for (const old of gone) index.bySlot[old.slot] = undefined;
  // Twice as many slots as products: each product in the slot of its place by name again, and the
  // numbers' lists told the new slots (rebuilt, they'd cost the next search every product's
  // trigrams). The lists hold only the slots of products in the copy.
  if (index.bySlot.length > 2 * byName.length + SLOTS_SPARE) {
    const before = index.bySlot;
    for (const product of byName) product.slot = product.rank;
    index.bySlot = [...byName];
    for (const [code, list] of index.numbers?.byTrigram ?? [])
      index.numbers?.byTrigram.set(
        code,
        list.map((slot) => (before[slot] as IndexedProduct).slot),
      );
  }
  // Each word's new products, by name (ranks are now the new order).
  const gained = new Map<string, IndexedProduct[]>();
  for (const product of [...fresh].sort((a, b) => a.rank - b.rank)) {
    index.byId.set(product.id, product);
    for (const w of new Set(product.words)) {
      if (isNumber(w)) continue;
      touched.add(w);
      const list = gained.get(w);
      if (list) list.push(product);
      else gained.set(w, [product]);
    }
  }
  // Each touched word's products: the kept ones (still in order) merged with its new ones.
  for (const w of touched) {
    if (isNumber(w)) continue;
    const kept = (index.postings.get(w) ?? []).filter((p) => !changed.has(p.id));
    const added = gained.get(w) ?? [];
    const list: IndexedProduct[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < added.length) {
      const a = kept[i];
      const b = added[j];
      if (b === undefined || (a !== undefined && a.rank < b.rank)) {
        list.push(a as IndexedProduct);
        i++;
      } else {
        list.push(b);
        j++;
      }
    }
    // A word the catalogue gains or loses: the vocabulary is built again when next asked.
    if (list.length > 0 !== index.postings.has(w)) index.vocabulary = undefined;
    if (list.length > 0) index.postings.set(w, list);
    else index.postings.delete(w);
  }
  return true;
}

/**
 * Whether each product (by its place by name) has one of `words` (not numbers: no postings), as
 * the copy is now: read it before the copy next changes (a search's statement may let it).
 */
export function havingOneOf(index: SearchIndex, words: Iterable<string>): Uint8Array {
  const marks = new Uint8Array(index.byName.length);
  for (const w of words) for (const p of index.postings.get(w) ?? []) marks[p.rank] = 1;
  return marks;
}

/**
 * Whether a product has one of `words`, as `havingOneOf` marks it: looked up in its words while
 * few products are asked about (a walk stops after `bound` pass: "succulent" products have
 * "planter", and marking the 19,700 products having "planter" or "planters" cost more than the
 * walk), marked from the postings once as many are asked about as an eighth of theirs. Ask it
 * before the copy next changes, as `havingOneOf`.
 */
export function hasOneOfTest(index: SearchIndex, words: string[]): (p: IndexedProduct) => boolean {
  // (As the postings: a word no product has, or a number, marks nothing.)
  const listed = new Set(words.filter((w) => index.postings.has(w)));
  const postings = words.reduce((n, w) => n + (index.postings.get(w)?.length ?? 0), 0);
  let asked = 0;
  let marks: Uint8Array | undefined;
  return (p) => {
    if (marks === undefined && ++asked * 8 > postings) marks = havingOneOf(index, words);
    return marks !== undefined ? marks[p.rank] === 1 : p.words.some((w) => listed.has(w));
  };
}

/**
 * The first `limit` products by name having one of `words` and passing `test`, for each word apart
 * (their union holds the first `limit` of all of them), by name.
 */
export function firstHaving(
  index: SearchIndex,
  words: string[],
  test: (p: IndexedProduct) => boolean,
  limit: number,
): IndexedProduct[] {
  const found = new Map<string, IndexedProduct>();
  for (const w of words) {
    let n = 0;
    for (const p of index.postings.get(w) ?? []) {
      if (n >= limit) break;
      if (!test(p)) continue;
      n++;
      found.set(p.id, p);
    }
  }
  return [...found.values()].sort((a, b) => a.rank - b.rank);
}

/** The first `limit` products by name passing `test`, among the first `within` by name. */
export function firstOfAll(
  index: SearchIndex,
  test: (p: IndexedProduct) => boolean,
  limit: number,
  within: number,
): IndexedProduct[] {
  const found: IndexedProduct[] = [];
  for (const p of index.byName.slice(0, within)) {
    if (found.length >= limit) break;
    if (test(p)) found.push(p);
  }
  return found;
}
