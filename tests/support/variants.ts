import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import {
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from "~/db/schema.ts";
import { productSummary } from "~/rules/variants.ts";

/*
 * Gives a test product options and variants straight in the database (the admin's variant table
 * is another issue's), replacing its default variant, and writes the product row's summary as the
 * catalog module keeps it (decision 0015). Never imported by the app.
 */

export type TestOption = { name: string; values: Array<{ value: string; swatch?: string }> };
export type TestVariant = {
  /** One value per option, by value text, in the options' order. */
  values: string[];
  pricePaise: number;
  originalPricePaise?: number | null;
  stockCount?: number | null;
  isActive?: boolean;
};

export async function giveOptions(
  db: Database,
  productId: string,
  options: TestOption[],
  variants: TestVariant[],
) {
  const valueIds = new Map<string, { optionId: string; valueId: string }>();
  const optionIds: string[] = [];
  for (const [position, option] of options.entries()) {
    const [row] = await db
      .insert(productOptions)
      .values({ productId, name: option.name, position })
      .returning({ id: productOptions.id });
    optionIds.push(row.id);
    for (const [i, v] of option.values.entries()) {
      const [value] = await db
        .insert(productOptionValues)
        .values({ optionId: row.id, value: v.value, position: i, swatch: v.swatch ?? null })
        .returning({ id: productOptionValues.id });
      valueIds.set(`${position}:${v.value}`, { optionId: row.id, valueId: value.id });
    }
  }
  await db.delete(productVariants).where(eq(productVariants.productId, productId));
  const ids: string[] = [];
  for (const [position, v] of variants.entries()) {
    const stockCount = v.stockCount ?? null;
    const [row] = await db
      .insert(productVariants)
      .values({
        productId,
        pricePaise: v.pricePaise,
        originalPricePaise: v.originalPricePaise ?? null,
        stockCount,
        inStock: stockCount === null || stockCount > 0,
        isActive: v.isActive ?? true,
        position,
      })
      .returning();
    ids.push(row.id);
    await db.insert(productVariantValues).values(
      v.values.map((value, i) => {
        const found = valueIds.get(`${i}:${value}`);
        if (!found) throw new Error(`No value ${value} for option ${i}`);
        return { variantId: row.id, optionId: found.optionId, valueId: found.valueId };
      }),
    );
  }
  const rows = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  const summary = productSummary(rows, true);
  if (summary) await db.update(products).set(summary).where(eq(products.id, productId));
  return { optionIds, variantIds: ids, valueIds };
}
