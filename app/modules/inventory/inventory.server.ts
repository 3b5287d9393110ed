import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/adapters/db/index.server.ts";
import { orderItems, products } from "~/db/schema.ts";

/*
 * Stock (DESIGN.md decisions 2 and 6, decision 0011): the only code that changes a product's
 * tracked count (`stockCount`, null = not tracked) and the in-stock flag that follows it. Checkout
 * takes units under the products' row locks, an unpaid order's units go back once, a payment that
 * succeeds after that takes them again, and staff edits and imports set a count through here.
 *
 * Locks are taken on products in id order, as checkout does, so two changes never deadlock on
 * each other's rows.
 */

export type StockLine = { productId: string; quantity: number; stockCount: number | null };

/**
 * Takes the units of an order about to be placed. The caller has locked the products' rows (checkout
 * reads them FOR UPDATE) and checked that each tracked count covers its line; a product whose count
 * reaches 0 shows as out of stock.
 */
export async function takeStock(tx: Tx, lines: StockLine[], now = new Date()): Promise<void> {
  for (const line of lines) {
    if (line.stockCount === null) continue;
    await tx
      .update(products)
      .set({
        stockCount: sql`${products.stockCount} - ${line.quantity}`,
        inStock: sql`${products.stockCount} - ${line.quantity} > 0`,
        updatedAt: now,
      })
      .where(eq(products.id, line.productId));
  }
}

/** The order's lines that hold units, in product id order (the lock order). */
async function heldLines(tx: Tx, orderId: string) {
  const items = await tx
    .select({ productId: orderItems.productId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId));
  return items.flatMap((i) =>
    i.productId ? [{ productId: i.productId, quantity: i.quantity }] : [],
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
    await tx
      .select({ id: products.id })
      .from(products)
      .where(
        inArray(
          products.id,
          items.map((i) => i.productId),
        ),
      )
      .orderBy(asc(products.id))
      .for("update");
    for (const item of items) {
      await tx
        .update(products)
        .set({
          stockCount: sql`${products.stockCount} + ${item.quantity}`,
          inStock: sql`case when ${products.stockCount} = 0 then true else ${products.inStock} end`,
          updatedAt: now,
        })
        .where(and(eq(products.id, item.productId), sql`${products.stockCount} is not null`));
    }
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
  for (const item of await heldLines(tx, orderId)) {
    const [p] = await tx
      .select({ stockCount: products.stockCount })
      .from(products)
      .where(eq(products.id, item.productId))
      .for("update");
    if (!p || p.stockCount === null) continue;
    const left = p.stockCount - item.quantity;
    if (left < 0) short += -left;
    await tx
      .update(products)
      .set({ stockCount: Math.max(0, left), inStock: left > 0, updatedAt: now })
      .where(eq(products.id, item.productId));
  }
  return short;
}

/** What staff (the item form, an import) set: a count (null = not tracked) and/or the flag. */
export type StockLevel = { stockCount?: number | null; inStock?: boolean };

/** Sets a product's stock as staff gave it (only the fields given change). */
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
