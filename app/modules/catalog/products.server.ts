import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { products, reviewStats, reviews, user } from "~/db/schema.ts";
import type { ProductCardData } from "~/rules/product-display.ts";
import { isAsciiText } from "~/rules/search-similarity.ts";
import type { ProductOption, Variant } from "~/rules/variants.ts";
import {
  type Row as SummaryRow,
  withSummaries,
  withVariantSummaries,
} from "./card-variants.server.ts";
import {
  rankCandidates,
  vocabularyInMemory,
  vocabularyQuery,
  vocabularyRowsOf,
} from "./search-candidates.server.ts";
import {
  applySearchChanges,
  keptSearchIndex,
  searchChangesQuery,
  searchIndexOf,
  vocabularyOf,
} from "./search-index.server.ts";
import { productOptions, productVariants } from "./variants.server.ts";

export const FEATURED_LIMIT = 8;
export const RELATED_LIMIT = 4;
export const LISTING_PAGE_SIZE = 24;
export const REVIEW_PAGE_SIZE = 10;

export const cardColumns = {
  id: products.id,
  name: products.name,
  category: products.category,
  subcategory: products.subcategory,
  image: products.image,
  pricePaise: products.pricePaise,
  originalPricePaise: products.originalPricePaise,
  discount: products.discount,
  rating: products.rating,
  reviewsCount: products.reviewsCount,
  badge: products.badge,
  inStock: products.inStock,
  isActive: products.isActive,
  stockCount: products.stockCount,
};

// Matches the indexes (created_at DESC NULLS LAST, id), so a page is read from the index instead
// of sorting every product; created_at is never null, so NULLS LAST changes no result.
const newestFirst = [sql`${products.createdAt} desc nulls last`, asc(products.id)] as const;

/** The newest active products (home page 'Latest Products'). */
export async function listLatestProducts(
  db: Database,
  limit = FEATURED_LIMIT,
): Promise<ProductCardData[]> {
  const cards = await db
    .select(cardColumns)
    .from(products)
    .where(eq(products.isActive, true))
    .orderBy(...newestFirst)
    .limit(limit);
  return withVariantSummaries(db, cards);
}

/** A listing filter: category contains `categoryText` (case-insensitive), optional subcategory slug. */
export type ListingFilter = { categoryText?: string; subcategorySlug?: string };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function listingWhere(filter: ListingFilter): SQL | undefined {
  const parts: SQL[] = [eq(products.isActive, true)];
  if (filter.categoryText) {
    parts.push(ilike(products.category, `%${escapeLike(filter.categoryText)}%`));
  }
  if (filter.subcategorySlug) {
    parts.push(
      // The SQL twin of subcategorySlug() in app/rules/catalog-paths.ts.
      sql`trim(both '-' from regexp_replace(lower(${products.subcategory}), '[^a-z0-9]+', '-', 'g')) = ${filter.subcategorySlug}`,
    );
  }
  return and(...parts);
}

/** One page of active products, newest first, with the total for paging. */
export async function listProducts(
  db: Database,
  filter: ListingFilter,
  page: number,
  pageSize = LISTING_PAGE_SIZE,
): Promise<{ items: ProductCardData[]; total: number }> {
  const where = listingWhere(filter);
  const [items, [{ total }]] = await Promise.all([
    db
      .select(cardColumns)
      .from(products)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .then((cards) => withVariantSummaries(db, cards)),
    db.select({ total: count() }).from(products).where(where),
  ]);
  return { items, total };
}

/** The subcategories of active products in a category (for the listing's filter links). */
export async function listSubcategories(db: Database, categoryText: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ subcategory: products.subcategory })
    .from(products)
    .where(
      and(
        eq(products.isActive, true),
        ilike(products.category, `%${escapeLike(categoryText)}%`),
        sql`${products.subcategory} is not null and trim(${products.subcategory}) <> ''`,
      ),
    )
    .orderBy(asc(products.subcategory));
  return rows.map((r) => r.subcategory!);
}

export type ProductDetail = typeof products.$inferSelect;

export async function getProduct(db: Database, id: string): Promise<ProductDetail | null> {
  // A custom part (someone's priced quote) is not a catalogue product.
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.quoteId)));
  return row ?? null;
}

/** A product's options and variants, as its page's pickers show them (issue 22). */
export async function getProductChoices(
  db: Database,
  productId: string,
): Promise<{ options: ProductOption[]; variants: Variant[] }> {
  const [options, variants] = await Promise.all([
    productOptions(db, productId),
    productVariants(db, productId),
  ]);
  return { options, variants };
}

/** Same category, active, not this product, newest first (SPEC.md §7: default 4). */
export async function listRelatedProducts(
  db: Database,
  product: { id: string; category: string },
  limit = RELATED_LIMIT,
): Promise<ProductCardData[]> {
  const cards = await db
    .select(cardColumns)
    .from(products)
    .where(
      and(
        eq(products.category, product.category),
        eq(products.isActive, true),
        ne(products.id, product.id),
      ),
    )
    .orderBy(...newestFirst)
    .limit(limit);
  return withVariantSummaries(db, cards);
}

export type ReviewStatsRow = typeof reviewStats.$inferSelect;

export async function getReviewStats(
  db: Database,
  productId: string,
): Promise<ReviewStatsRow | null> {
  const [row] = await db.select().from(reviewStats).where(eq(reviewStats.productId, productId));
  return row ?? null;
}

export type ShownReview = {
  key: string;
  rating: number;
  name: string;
  title: string | null;
  review: string | null;
  date: string;
  isVerifiedPurchase: boolean;
};

/**
 * One page of a product's reviews: its static reviews merged with stored ones, newest first
 * (SPEC.md §2). One query; asks for one more than a page to know whether a next page exists.
 */
export async function listProductReviews(
  db: Database,
  productId: string,
  page: number,
  pageSize = REVIEW_PAGE_SIZE,
): Promise<{ reviews: ShownReview[]; hasNext: boolean }> {
  const offset = (page - 1) * pageSize;
  const result = await db.execute(sql`
    select * from (
      select ${reviews.id}::text as key, ${reviews.rating}::int as rating,
             coalesce(${reviews.reviewerName}, ${user.name}) as name,
             ${reviews.title} as title, ${reviews.review} as review,
             ${reviews.createdAt} as date, ${reviews.isVerifiedPurchase} as verified
        from ${reviews} join ${user} on ${user.id} = ${reviews.userId}
       where ${reviews.productId} = ${productId}
      union all
      select 'static-' || (r.ordinality)::text,
             least(5, greatest(1, round((r.value->>'rating')::numeric)))::int,
             r.value->>'name', r.value->>'title', r.value->>'review',
             case when r.value->>'date' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?$'
                  then (r.value->>'date')::timestamptz else ${products.createdAt} end, false
        from ${products}, jsonb_array_elements(${products.reviewsList}) with ordinality as r(value, ordinality)
       where ${products.id} = ${productId}
         -- a static review without a usable rating is not shown (nor counted in the summary)
         and jsonb_typeof(r.value->'rating') = 'number'
    ) merged
    order by date desc, key
    limit ${pageSize + 1} offset ${offset}
  `);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const shown = rows.slice(0, pageSize).map((r) => ({
    key: String(r.key),
    rating: Number(r.rating),
    name: String(r.name ?? "Customer"),
    title: (r.title as string | null) || null,
    review: (r.review as string | null) || null,
    date: new Date(r.date as string).toISOString(),
    isVerifiedPurchase: Boolean(r.verified),
  }));
  return { reviews: shown, hasNext: rows.length > pageSize };
}

/** Words a query may carry that no product name needs to contain. */
export const SEARCH_FILLERS = new Set(["and", "for", "the", "with", "from", "you", "your", "set"]);

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

/**
 * Typo-tolerant search over active products' names, categories and subcategories, on both
 * databases (docs/decisions/0004-search.md). A product matches when its text contains the query,
 * or when every word of the query (3+ letters, fillers like 'for' aside) is close to one of its
 * words: the start of it ('drag' → 'Dragon'), a word with a letter or two wrong ('dargon',
 * 'lotsu', 'plnter': edit distance 1 up to 4 letters, 2 from 5), or a near spelling by trigrams
 * ('tealite': strict word similarity ≥ 0.4); in every case the word's trigram word similarity
 * must be ≥ 0.25. A query with no such word (short, or only fillers) falls back to the trigram
 * similarity of the whole query. Products containing the query come first, then the closest by
 * word similarity, then by name.
 *
 * The text and its words are stored with each product (`search_text`, `search_words`, drizzle/0006)
 * and indexed. A query asked for the first time is ranked on bounded candidates
 * (`rankCandidates`, docs/decisions/0021-search-answers.md, amended 2026-11-27): the first products
 * by name containing the query, and those having the catalogue's words nearest each query word
 * (found in `search_vocabulary`), the rules checked and the order computed on those only.
 */
export async function searchProducts(
  db: Database,
  query: string,
  page = 1,
  pageSize = 10,
): Promise<{ items: ProductCardData[]; hasNext: boolean }> {
  const { shown, hasNext } = await searchedIds(db, query, page, pageSize);
  if (shown.length === 0) return { items: [], hasNext };
  const cards = await listCardsWithSummaries(db, shown);
  const byId = new Map(cards.map((c) => [c.id, c]));
  return { items: shown.flatMap((id) => byId.get(id) ?? []), hasNext };
}

/** The ids of a page of a search's results, best first (the rules above). */
async function searchedIds(
  db: Database,
  query: string,
  page: number,
  pageSize: number,
): Promise<{ shown: string[]; hasNext: boolean }> {
  const q = query.trim().toLowerCase().slice(0, 100);
  if (!q) return { shown: [], hasNext: false };
  // Words end at spaces, punctuation and symbols only, so Devanagari vowel signs stay in words.
  const words = [
    ...new Set(
      q.split(/[\s\p{P}\p{S}]+/u).filter((w) => [...w].length >= 3 && !SEARCH_FILLERS.has(w)),
    ),
  ].slice(0, 5);
  const offset = (page - 1) * pageSize;
  // The ranked results up to the end of this page, and one more (is there a next page?).
  const wanted = offset + pageSize + 1;
  const vocabulary = vocabularyQuery(q, words);
  // The kept copy of the search's products (loaded on the first search), brought up to date with
  // the generation: the candidates are read from it (`rankCandidates`), and for a query in ASCII
  // the catalogue's words near the query's too (`vocabularyInMemory`), so the statement reading
  // the generation doesn't read them.
  const index = await searchIndexOf(db, "first");
  const wordsInMemory = index !== undefined && isAsciiText(q) && !vocabularyOf(index).mixed;
  const optioned = optionedQuery(q, words, wanted);
  const ids = await rankedIds(
    db,
    q,
    wanted,
    async (early) => {
      const upToDate =
        index !== undefined &&
        keptSearchIndex(db) === index &&
        index.generation === early.generation;
      const near = upToDate ? vocabularyInMemory(vocabularyOf(index), q, words) : undefined;
      return withOptionValues(
        db,
        q,
        wanted,
        await rankCandidates(
          db,
          q,
          words,
          wanted,
          early.also !== undefined ? early.also : optioned,
          near ??
            (early.vocabulary !== undefined
              ? vocabularyRowsOf(early.vocabulary)
              : vocabulary === undefined
                ? []
                : undefined),
          upToDate ? index : undefined,
        ),
      );
    },
    {
      vocabulary: wordsInMemory ? undefined : vocabulary,
      also: index !== undefined ? optioned : undefined,
      changes: index !== undefined ? searchChangesQuery(index) : undefined,
    },
  );
  return { shown: ids.slice(offset, offset + pageSize), hasNext: ids.length > offset + pageSize };
}

/** At most this many queries' ranked ids are kept per database (least recently asked first out). */
export const RANKED_QUERIES_KEPT = 2_000;
/** Rankings longer than this (deep result pages) are not kept. */
const RANKED_LONGEST_KEPT = 101;

type Rankings = { generation: number; ids: Map<string, string[]> };
const rankingsOf = new WeakMap<Database, Rankings>();

/**
 * A query's ranked ids (the first `wanted`), kept per database under the search generation
 * (`search_generation`, raised by triggers whenever a product is added, removed, renamed,
 * recategorised, deactivated or its options' values change: drizzle/0014, decision 0021). The
 * ranking depends on nothing else, so a kept one is what `rank` would return now; the cards
 * (prices, stock, images) are read fresh on every search. One small query per search; `rank`
 * runs when the query wasn't asked in this generation yet.
 */
async function rankedIds(
  db: Database,
  q: string,
  wanted: number,
  rank: (early: Early) => Promise<string[]>,
  read: { vocabulary?: SQL; also?: SQL; changes?: SQL },
): Promise<string[]> {
  const key = `${wanted} ${q}`;
  // What ranking reads first (the vocabulary, the products matched by their option values) is
  // read with the generation, in the same statement: one statement fewer, and all from one
  // snapshot (read apart, a vocabulary older than the generation could be kept under it: review).
  // When a ranking of the query is kept, only if the generation moved past it (a branch not taken
  // runs none of its subqueries). The kept copy's changes are read either way.
  const rankings = rankingsOf.get(db);
  const keptAt = rankings?.ids.has(key) ? rankings.generation : undefined;
  const unlessKept = (value: SQL) =>
    keptAt === undefined ? value : sql`case when generation > ${keptAt} then ${value} end`;
  const [row] = rowsOf(
    await db.execute(
      sql`select generation${
        read.vocabulary
          ? sql`, ${unlessKept(sql`(select coalesce(json_agg(v), '[]') from (${read.vocabulary}) v)`)} as vocabulary`
          : sql``
      }${read.also ? sql`, ${unlessKept(read.also)} as also` : sql``}${
        read.changes ? sql`, ${read.changes} as changes` : sql``
      } from search_generation limit 1`,
    ),
  ) as Array<{
    generation: number | string;
    vocabulary?: unknown;
    also?: unknown;
    changes?: unknown;
  }>;
  const generation = Number(row?.generation ?? Number.NaN);
  if (row?.changes !== undefined) applySearchChanges(db, generation, row.changes);
  // (Null: not read; the ranking reads it itself.)
  const early: Early = {
    generation,
    vocabulary: row?.vocabulary ?? undefined,
    also: row?.also == null ? undefined : (row.also as unknown[]).map(String),
  };
  if (!row || wanted > RANKED_LONGEST_KEPT) return rank(early);
  let current = rankingsOf.get(db);
  if (!current || current.generation < generation) {
    current = { generation, ids: new Map() };
    rankingsOf.set(db, current);
  }
  const kept = current.generation === generation ? current.ids.get(key) : undefined;
  if (kept) {
    // Most recently asked last: the first key is the one to drop.
    current.ids.delete(key);
    current.ids.set(key, kept);
    return kept;
  }
  // Ranked now: read at least as recently as the generation was, so right for it (and if the
  // generation changed meanwhile, the ranking isn't kept under the old one).
  const ids = await rank(early);
  const now = rankingsOf.get(db);
  if (now?.generation === generation) {
    now.ids.set(key, ids);
    if (now.ids.size > RANKED_QUERIES_KEPT) {
      const oldest = now.ids.keys().next().value;
      if (oldest !== undefined) now.ids.delete(oldest);
    }
  }
  return ids;
}

/**
 * What the statement reading the generation read for a ranking: the vocabulary (JSON), the
 * products matched by their option values (when the kept copy will rank: otherwise the candidates'
 * statement reads them).
 */
type Early = { generation: number; vocabulary?: unknown; also?: string[] };

/** Each product's option values, read from the options (a few products), never per product. */
const valuesOf = (where: SQL) => sql`(
    select o.product_id, string_agg(lower(v.value), ' ') as values_text,
           regexp_split_to_array(string_agg(lower(v.value), ' '), '[[:space:][:punct:]]+') as values_words
      from product_options o join product_option_values v on v.option_id = o.id
     where ${where}
     group by o.product_id)`;

/**
 * The first `wanted` products with options matching the query with their values, best first
 * (drizzle/0020's `layerkart_search_optioned`: the rules over the text and the values): an
 * expression giving their ids (text[]).
 */
function optionedQuery(q: string, words: string[], wanted: number): SQL {
  return sql`layerkart_search_optioned(${q}, ${`%${escapeLike(q)}%`}, ${`{${words
    .map((w) => `"${w.replace(/["\\]/g, (c) => `\\${c}`)}"`)
    .join(",")}}`}::text[], ${wanted}::int)`;
}

/**
 * A product with options is also found by its option values ("red dragon", "petg": issue 22):
 * the same rules over its text and its options' values. The stored search text has no values (a
 * generated column: adding them needs a migration), so the products with options are matched
 * apart (`optionedQuery`, read in the candidates' statement), and the best of them and of the
 * products found by the text are ranked again together (one key: containing first, then
 * similarity, then name). A product without options ranked below the first `wanted` by the text
 * can't be among the first `wanted` of both, since values only add to a product's text.
 */
async function withOptionValues(
  db: Database,
  q: string,
  wanted: number,
  { ids: found, also: optioned }: { ids: string[]; also: string[] },
): Promise<string[]> {
  // None matches: no product with options is among those found either (values only add).
  if (optioned.length === 0) return found;
  const both = `{${[...new Set([...found, ...optioned])].join(",")}}`;
  // Products without options have no values: their text is the stored one.
  const anyText = sql`(p.search_text || coalesce(' ' || x.values_text, ''))`;
  const ranked = rowsOf(
    await db.execute(sql`
      select p.id from products p
        left join ${valuesOf(sql`o.product_id = any(${both}::uuid[])`)} x on x.product_id = p.id
       where p.id = any(${both}::uuid[])
       order by (${anyText} like ${`%${escapeLike(q)}%`}) desc,
                word_similarity(${q}, ${anyText}) desc, p.name
       limit ${wanted}`),
  );
  return ranked.map((r) => String(r.id));
}

/**
 * Product names for the search box's suggestions: the search's first `limit` results, their name
 * and category only (price, stock and variants aren't shown as you type).
 */
export async function suggestProducts(db: Database, query: string, limit = 5) {
  const { shown } = await searchedIds(db, query, 1, limit);
  if (shown.length === 0) return [];
  // Custom parts (priced quotes) are their owner's alone, as in `listProductsByIds`.
  const rows = await db
    .select({ id: products.id, name: products.name, category: products.category })
    .from(products)
    .where(and(inArray(products.id, shown), isNull(products.quoteId)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return shown.flatMap((id) => byId.get(id) ?? []);
}

/**
 * `listProductsByIds` with the cards' variant summaries (`withVariantSummaries`) in one statement
 * (a search knows its ids before reading either; PGlite runs statements one by one), through
 * drizzle/0021's `layerkart_cards`: planned once per connection, where the same statement
 * planned with every search cost PGlite 1–1.5 ms more.
 */
async function listCardsWithSummaries(db: Database, ids: string[]): Promise<ProductCardData[]> {
  if (ids.length === 0) return [];
  // (The ids are the ranking's: product ids, uuids.)
  const [row] = rowsOf(
    await db.execute(sql`select layerkart_cards(${`{${ids.join(",")}}`}::uuid[]) as cards`),
  );
  const value = row?.cards;
  const listed = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as Array<
    ProductCardData & { summary: Omit<SummaryRow, "productId"> | null }
  >;
  return withSummaries(
    listed.map(({ summary: _, ...card }) => card),
    listed.flatMap(({ id, summary }) => (summary === null ? [] : [{ productId: id, ...summary }])),
  );
}

/** Current details of the products in a cart (the browser's copy of a price is never trusted). */
export function listProductsByIds(db: Database, ids: string[]): Promise<ProductCardData[]> {
  if (ids.length === 0) return Promise.resolve([]);
  // Custom parts (priced quotes) are their owner's alone: never listed here.
  return db
    .select(cardColumns)
    .from(products)
    .where(and(inArray(products.id, ids), isNull(products.quoteId)));
}

/** Every active product's id and last change, newest first (the sitemap's product pages). */
export function listSitemapProducts(db: Database): Promise<Array<{ id: string; updatedAt: Date }>> {
  return db
    .select({ id: products.id, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.isActive, true))
    .orderBy(desc(products.updatedAt));
}
