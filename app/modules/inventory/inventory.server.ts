import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/adapters/db/index.server.ts";
import { orderItems, productOptions, products, productVariants } from "~/db/schema.ts";
import { productSummary } from "~/rules/variants.ts";

/*
 * Stock (DESIGN.md decisions 2 and 6, decisions 0011 and 0015): the only code that changes a
 * variant's tracked count (`stockCount`, null = not tracked), the in-stock flag that follows it,
 * and the product row's summary of them. Checkout takes units under the row locks, an unpaid
 * order's units go back once, a payment that succeeds after that takes them again, and staff
 * edits and imports set a count through here.
 *
 * Locks are taken on products in id order, then on their variants in id order (lockStock), so two
 * changes never deadlock on each other's rows.
 */

/** One line's units: the variant (its locked count, null = not tracked) and its product. */
export type StockLine = {
  productId: string;
  variantId: string;
  quantity: number;
  stockCount: number | null;
};

/**
 * Locks the products' rows (product id order), then their variants' rows (variant id order): the
 * one lock order every stock change follows. A variant is only ever locked by whoever holds its
 * product, so two changes never deadlock on each other's rows.
 */
export async function lockStock(
  tx: Tx,
  productIds: readonly string[],
  variantIds: readonly string[],
): Promise<
  Map<string, { productId: string; stockCount: number | null; inStock: boolean; isActive: boolean }>
> {
  const ids = [...new Set(productIds)];
  if (ids.length > 0) {
    await tx
      .select({ id: products.id })
      .from(products)
      .where(inArray(products.id, ids))
      .orderBy(asc(products.id))
      .for("update");
  }
  const byId = new Map<
    string,
    { productId: string; stockCount: number | null; inStock: boolean; isActive: boolean }
  >();
  const vids = [...new Set(variantIds)];
  if (vids.length === 0) return byId;
  const rows = await tx
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      stockCount: productVariants.stockCount,
      inStock: productVariants.inStock,
      isActive: productVariants.isActive,
    })
    .from(productVariants)
    .where(inArray(productVariants.id, vids))
    .orderBy(asc(productVariants.id))
    .for("update");
  for (const { id, ...r } of rows) byId.set(id, r);
  return byId;
}

/**
 * Writes the products' stock summary from their variants (decision 0015): a product without
 * options is its one variant; otherwise the active variants' counts summed and whether one sells.
 * The caller holds the products' row locks.
 */
export async function writeStockSummaries(
  tx: Tx,
  productIds: readonly string[],
  now = new Date(),
): Promise<void> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return;
  const variants = await tx
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, ids));
  const withOptions = new Set(
    (
      await tx
        .selectDistinct({ productId: productOptions.productId })
        .from(productOptions)
        .where(inArray(productOptions.productId, ids))
    ).map((r) => r.productId),
  );
  for (const id of ids.sort()) {
    const summary = productSummary(
      variants.filter((v) => v.productId === id),
      withOptions.has(id),
    );
    if (!summary) continue;
    await tx
      .update(products)
      .set({ stockCount: summary.stockCount, inStock: summary.inStock, updatedAt: now })
      .where(
        and(
          eq(products.id, id),
          sql`(${products.stockCount}, ${products.inStock}) is distinct from (${summary.stockCount}::integer, ${summary.inStock})`,
        ),
      );
  }
}

/**
 * Takes the units of an order about to be placed. The caller has locked the rows (lockStock) and
 * checked that each tracked count covers its line; a variant whose count reaches 0 shows as out
 * of stock, and so does its product when no other variant sells.
 */
export async function takeStock(tx: Tx, lines: StockLine[], now = new Date()): Promise<void> {
  const changed: string[] = [];
  for (const line of [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) {
    if (line.stockCount === null) continue;
    await tx
      .update(productVariants)
      .set({
        stockCount: sql`${productVariants.stockCount} - ${line.quantity}`,
        inStock: sql`${productVariants.stockCount} - ${line.quantity} > 0`,
        updatedAt: now,
      })
      .where(eq(productVariants.id, line.variantId));
    changed.push(line.productId);
  }
  await writeStockSummaries(tx, changed, now);
}

/**
 * The order's lines that hold units: their variant, or for a line that names none its product's
 * first variant (a product without options has only that one).
 */
async function heldLines(tx: Tx, orderId: string) {
  // The outer column is written out: drizzle leaves a column unqualified in a one-table select,
  // where it would name the subquery's own product_id.
  const variantId = sql<
    string | null
  >`coalesce(${orderItems.variantId}, (select v.id from ${productVariants} v where v.product_id = "order_items"."product_id" order by v.position, v.id limit 1))`;
  const items = await tx
    .select({ productId: orderItems.productId, variantId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(variantId));
  return items.flatMap((i) =>
    i.productId && i.variantId
      ? [{ productId: i.productId, variantId: i.variantId, quantity: i.quantity }]
      : [],
  );
}

/**
 * Puts an unpaid order's units back on the shelf, once: an order whose units already went back
 * (`stockReleasedAt` set) changes nothing. Returns the time to record as the order's
 * `stockReleasedAt`. The caller holds the order's row lock and records that time with the
 * order's own change (orders module), so a second release can never happen.
 */
export async function releaseOnce(
  tx: Tx,
  order: { id: string; stockReleasedAt: Date | null },
  now: Date,
): Promise<Date> {
  if (order.stockReleasedAt) return order.stockReleasedAt;
  const items = await heldLines(tx, order.id);
  if (items.length > 0) {
    await lockStock(
      tx,
      items.map((i) => i.productId),
      items.map((i) => i.variantId),
    );
    for (const item of items) {
      await tx
        .update(productVariants)
        .set({
          stockCount: sql`${productVariants.stockCount} + ${item.quantity}`,
          inStock: sql`case when ${productVariants.stockCount} = 0 then true else ${productVariants.inStock} end`,
          updatedAt: now,
        })
        .where(
          and(
            eq(productVariants.id, item.variantId),
            sql`${productVariants.stockCount} is not null`,
          ),
        );
    }
    await writeStockSummaries(
      tx,
      items.map((i) => i.productId),
      now,
    );
  }
  return now;
}

/**
 * Takes an order's units again after they went back (a payment that succeeds late). Money has
 * been taken, so the order stands even when the shelf is short: the count stops at 0 and the
 * shortfall is returned for staff to see.
 */
export async function retakeStock(tx: Tx, orderId: string, now = new Date()): Promise<number> {
  let short = 0;
  const items = await heldLines(tx, orderId);
  const locked = await lockStock(
    tx,
    items.map((i) => i.productId),
    items.map((i) => i.variantId),
  );
  for (const item of items) {
    const v = locked.get(item.variantId);
    if (!v || v.stockCount === null) continue;
    const left = v.stockCount - item.quantity;
    if (left < 0) short += -left;
    v.stockCount = Math.max(0, left);
    await tx
      .update(productVariants)
      .set({ stockCount: v.stockCount, inStock: left > 0, updatedAt: now })
      .where(eq(productVariants.id, item.variantId));
  }
  await writeStockSummaries(
    tx,
    items.map((i) => i.productId),
    now,
  );
  return short;
}

/** What staff (the item form, an import) set: a count (null = not tracked) and/or the flag. */
export type StockLevel = { stockCount?: number | null; inStock?: boolean };

/**
 * Sets a product's stock as staff gave it (only the fields given change). For a product without
 * options this is its one variant's stock (the product row and its default variant move together,
 * decision 0015); a product with options keeps a summary of its variants, set per variant
 * (setVariantStockLevel), so a level given for the product as a whole changes nothing.
 */
export async function setStockLevel(
  tx: Tx,
  productId: string,
  level: StockLevel,
  now = new Date(),
): Promise<void> {
  const changes: { stockCount?: number | null; inStock?: boolean } = {};
  if (level.stockCount !== undefined) changes.stockCount = level.stockCount;
  if (level.inStock !== undefined) changes.inStock = level.inStock;
  if (Object.keys(changes).length === 0) return;
  await tx
    .update(products)
    .set({ ...changes, updatedAt: now })
    .where(
      and(
        eq(products.id, productId),
        sql`not exists (select 1 from ${productOptions} where ${productOptions.productId} = ${productId})`,
      ),
    );
}

/**
 * Sets one variant's stock as staff gave it (the variant table, an import of variants), under the
 * product's and the variant's locks, and writes the product's summary.
 */
export async function setVariantStockLevel(
  tx: Tx,
  productId: string,
  variantId: string,
  level: StockLevel,
  now = new Date(),
): Promise<void> {
  const changes: { stockCount?: number | null; inStock?: boolean } = {};
  if (level.stockCount !== undefined) {
    changes.stockCount = level.stockCount;
    // A count given without the flag decides it, as checkout's taking does.
    if (level.inStock === undefined)
      changes.inStock = level.stockCount === null || level.stockCount > 0;
  }
  if (level.inStock !== undefined) changes.inStock = level.inStock;
  if (Object.keys(changes).length === 0) return;
  await lockStock(tx, [productId], [variantId]);
  await tx
    .update(productVariants)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)));
  await writeStockSummaries(tx, [productId], now);
}

/**
 * A product whose last option was removed is its one variant again, and from then on the database
 * copies the row's price and stock to its variants (migration 0010). So the row takes that
 * variant's own figures in one write: a row still holding the total of the variants it had, or a
 * price and a stock written one after the other, would be copied onto the variant and sell units
 * that don't exist. The caller holds the product's row lock.
 */
export async function adoptOnlyVariant(tx: Tx, productId: string, now = new Date()): Promise<void> {
  const [only] = await tx
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.isActive, true)))
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .limit(1);
  if (!only) return;
  await tx
    .update(products)
    .set({
      pricePaise: only.pricePaise,
      originalPricePaise: only.originalPricePaise,
      stockCount: only.stockCount,
      inStock: only.inStock,
      updatedAt: now,
    })
    .where(eq(products.id, productId));
}

/** Splits the stock fields off a product change, for setStockLevel. */
export function splitStockLevel<T extends StockLevel>(
  changes: T,
): { level: StockLevel; rest: Omit<T, "stockCount" | "inStock"> } {
  const { stockCount, inStock, ...rest } = changes;
  const level: StockLevel = {};
  if (stockCount !== undefined) level.stockCount = stockCount;
  if (inStock !== undefined) level.inStock = inStock;
  return { level, rest };
}
