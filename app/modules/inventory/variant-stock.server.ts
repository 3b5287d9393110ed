import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/adapters/db/index.server.ts";
import { productOptions, products, productVariants } from "~/db/schema.ts";
import type { StockLevel } from "~/modules/inventory/inventory.server.ts";
import { productSummary } from "~/rules/variants.ts";

/*
 * Staff setting a variant's stock (the admin's variant table, the products CSV), and the product
 * row's stock summary of its variants (decision 0015). Locks follow the one order every stock
 * change follows: the product's row, then its variants' rows in id order.
 */

/**
 * Writes the products' stock summary from their variants: a product without options is its one
 * variant; otherwise the active variants' counts summed and whether one of them sells. The caller
 * holds the products' row locks.
 */
export async function writeStockSummaries(
  tx: Tx,
  productIds: readonly string[],
  now = new Date(),
): Promise<void> {
  const ids = [...new Set(productIds)].sort();
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
  for (const id of ids) {
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
 * Sets one variant's stock as staff gave it (only the fields given change; a count given without
 * the flag decides it), under the product's and the variant's locks, and writes the product's
 * summary.
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
    if (level.inStock === undefined) {
      changes.inStock = level.stockCount === null || level.stockCount > 0;
    }
  }
  if (level.inStock !== undefined) changes.inStock = level.inStock;
  if (Object.keys(changes).length === 0) return;
  await tx
    .select({ id: products.id })
    .from(products)
    .where(eq(products.id, productId))
    .for("update");
  await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.id, variantId))
    .orderBy(asc(productVariants.id))
    .for("update");
  await tx
    .update(productVariants)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)));
  await writeStockSummaries(tx, [productId], now);
}
