import { and, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  productOptions,
  productOptionValues,
  productVariants,
  productVariantValues,
} from "~/db/schema.ts";
import type { CardSwatch, ProductCardData } from "~/rules/product-display.ts";

/*
 * What a product card shows of a product's variants (issue 22): "from ₹X" when the active
 * variants' prices differ (the row's price is already the lowest: decision 0015), and the swatches
 * of its colour option. One query for a whole page of cards, products without options cost
 * nothing more than their index lookup.
 */

type Reader = Pick<Database, "select"> | Pick<Tx, "select">;

export type Row = {
  productId: string;
  varies: boolean;
  swatches: Array<{ option: number; value: string; swatch: string }> | null;
};

/**
 * The cards with `priceVaries`, `swatches` and `hasOptions` filled in for the products that have
 * options.
 */
export async function withVariantSummaries<T extends ProductCardData>(
  db: Reader,
  cards: T[],
): Promise<T[]> {
  return withSummaries(
    cards,
    await variantSummaries(
      db,
      cards.map((c) => c.id),
    ),
  );
}

/** The variant summaries of the products with these ids. */
export async function variantSummaries(db: Reader, ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  return variantSummariesQuery(db as Database, ids);
}

/**
 * The query of `variantSummaries`. (A search's cards read the same in drizzle/0021's
 * `layerkart_cards`: a test keeps them alike.)
 */
function variantSummariesQuery(db: Database, ids: string[]) {
  return db
    .select({
      productId: productVariants.productId,
      varies:
        sql<boolean>`count(distinct ${productVariants.pricePaise}) filter (where ${productVariants.isActive}) > 1`.as(
          "varies",
        ),
      // The swatches of values that an active variant has, in the options' and values' order.
      swatches: sql<Row["swatches"]>`(
        select json_agg(json_build_object('option', o.position, 'value', ov.value, 'swatch', ov.swatch)
                        order by o.position, ov.position, ov.id)
          from ${productOptions} o
          join ${productOptionValues} ov on ov.option_id = o.id
         where o.product_id = "product_variants"."product_id"
           and ov.swatch is not null
           and exists (select 1 from ${productVariantValues} pvv
                         join ${productVariants} av on av.id = pvv.variant_id
                        where pvv.value_id = ov.id and av.is_active))`.as("swatches"),
    })
    .from(productVariants)
    .where(
      and(
        inArray(productVariants.productId, ids),
        sql`exists (select 1 from ${productOptions} po where po.product_id = "product_variants"."product_id")`,
      ),
    )
    .groupBy(productVariants.productId);
}

/** The cards with the summaries of those that have variants filled in. */
export function withSummaries<T extends ProductCardData>(cards: T[], rows: Row[]): T[] {
  if (rows.length === 0) return cards;
  const byProduct = new Map(rows.map((r) => [r.productId, r]));
  return cards.map((card) => {
    const row = byProduct.get(card.id);
    if (!row) return card;
    // One colour option's swatches: the first option that has any.
    const first = row.swatches?.[0]?.option;
    const swatches: CardSwatch[] = (row.swatches ?? [])
      .filter((s) => s.option === first)
      .map((s) => ({ value: s.value, swatch: s.swatch }));
    return { ...card, priceVaries: row.varies, swatches, hasOptions: true };
  });
}
