import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  productOptions as optionsTable,
  productOptionValues,
  products,
  productVariantValues,
  productVariants as variantsTable,
} from "~/db/schema.ts";
import {
  lockStock,
  setVariantStockLevel,
  writeStockSummaries,
} from "~/modules/inventory/inventory.server.ts";
import type { OrderedOption } from "~/rules/stored-shapes.ts";
import {
  checkVariantsInput,
  defaultVariant,
  type OptionValue,
  type ProductOption,
  productSummary,
  type Variant,
  type VariantOffer,
  VariantsError,
  type VariantsInput,
} from "~/rules/variants.ts";

/*
 * Reading a product's options and variants (issue 22, docs/decisions/0015-variants.md). The
 * storefront's pickers and the admin's variant table build on these; the rules that decide what
 * a choice means are in app/rules/variants.ts. Stock counts change in the inventory module only.
 */

type Reader = Pick<Database, "select"> | Pick<Tx, "select">;

/** The product's options (up to three) in their order, each with its values in order. */
export async function productOptions(db: Reader, productId: string): Promise<ProductOption[]> {
  return (await optionsOf(db, [productId])).get(productId) ?? [];
}

/** The options of several products at once (a listing's swatches), by product id. */
export async function optionsOf(
  db: Reader,
  productIds: readonly string[],
): Promise<Map<string, ProductOption[]>> {
  const byProduct = new Map<string, ProductOption[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({
      productId: optionsTable.productId,
      id: optionsTable.id,
      name: optionsTable.name,
      position: optionsTable.position,
      valueId: productOptionValues.id,
      value: productOptionValues.value,
      valuePosition: productOptionValues.position,
      swatch: productOptionValues.swatch,
    })
    .from(optionsTable)
    .leftJoin(productOptionValues, eq(productOptionValues.optionId, optionsTable.id))
    .where(inArray(optionsTable.productId, [...productIds]))
    .orderBy(
      asc(optionsTable.productId),
      asc(optionsTable.position),
      asc(productOptionValues.position),
      asc(productOptionValues.id),
    );
  const byId = new Map<string, ProductOption>();
  for (const r of rows) {
    let option = byId.get(r.id);
    if (!option) {
      option = { id: r.id, name: r.name, position: r.position, values: [] };
      byId.set(r.id, option);
      const list = byProduct.get(r.productId) ?? [];
      list.push(option);
      byProduct.set(r.productId, list);
    }
    if (r.valueId !== null && r.value !== null) {
      const value: OptionValue = {
        id: r.valueId,
        value: r.value,
        position: r.valuePosition ?? 0,
        swatch: r.swatch,
      };
      option.values.push(value);
    }
  }
  return byProduct;
}

/** The product's variants in their order, each with its option value ids (options' order). */
export async function productVariants(db: Reader, productId: string): Promise<Variant[]> {
  return (await variantsOf(db, [productId])).get(productId) ?? [];
}

/** The variants of several products at once, by product id. */
export async function variantsOf(
  db: Reader,
  productIds: readonly string[],
): Promise<Map<string, Variant[]>> {
  const byProduct = new Map<string, Variant[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(variantsTable)
    .where(inArray(variantsTable.productId, [...productIds]))
    .orderBy(asc(variantsTable.productId), asc(variantsTable.position), asc(variantsTable.id));
  const values =
    rows.length === 0
      ? []
      : await db
          .select({
            variantId: productVariantValues.variantId,
            valueId: productVariantValues.valueId,
          })
          .from(productVariantValues)
          .innerJoin(optionsTable, eq(optionsTable.id, productVariantValues.optionId))
          .where(
            inArray(
              productVariantValues.variantId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(productVariantValues.variantId), asc(optionsTable.position));
  const valueIds = new Map<string, string[]>();
  for (const v of values) {
    const list = valueIds.get(v.variantId) ?? [];
    list.push(v.valueId);
    valueIds.set(v.variantId, list);
  }
  for (const r of rows) {
    const list = byProduct.get(r.productId) ?? [];
    list.push({
      id: r.id,
      sku: r.sku,
      pricePaise: r.pricePaise,
      originalPricePaise: r.originalPricePaise,
      stockCount: r.stockCount,
      inStock: r.inStock,
      isActive: r.isActive,
      position: r.position,
      images: r.images,
      valueIds: valueIds.get(r.id) ?? [],
    });
    byProduct.set(r.productId, list);
  }
  return byProduct;
}

/**
 * The variant a cart line or order line without one means, per product (decision 0015: the
 * first sellable variant, else the first active, else the first). Every product has one.
 */
export async function defaultVariantIds(
  db: Reader,
  productIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [productId, variants] of await variantsOf(db, productIds)) {
    const chosen = defaultVariant(variants);
    if (chosen) ids.set(productId, chosen.id);
  }
  return ids;
}

/** Whether a variant id is one of this product's (a browser may send another product's). */
export async function variantOfProduct(
  db: Reader,
  productId: string,
  variantId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: variantsTable.id })
    .from(variantsTable)
    .where(and(eq(variantsTable.id, variantId), eq(variantsTable.productId, productId)));
  return row !== undefined;
}

/** The option values each variant is, named ("Colour: Red"), by variant id; none for a default. */
export async function variantOptionsOf(
  db: Reader,
  variantIds: readonly string[],
): Promise<Map<string, OrderedOption[]>> {
  const byVariant = new Map<string, OrderedOption[]>();
  if (variantIds.length === 0) return byVariant;
  const rows = await db
    .select({
      variantId: productVariantValues.variantId,
      name: optionsTable.name,
      value: productOptionValues.value,
    })
    .from(productVariantValues)
    .innerJoin(optionsTable, eq(optionsTable.id, productVariantValues.optionId))
    .innerJoin(productOptionValues, eq(productOptionValues.id, productVariantValues.valueId))
    .where(inArray(productVariantValues.variantId, [...variantIds]))
    .orderBy(asc(productVariantValues.variantId), asc(optionsTable.position));
  for (const r of rows) {
    const list = byVariant.get(r.variantId) ?? [];
    list.push({ name: r.name, value: r.value });
    byVariant.set(r.variantId, list);
  }
  return byVariant;
}

/**
 * Gives a product without options its options and variants, in one go. The product's default
 * variant becomes the first variant given (cart lines holding it stay), the others are added,
 * and the product row's summary follows (decision 0015). A product that already has options is
 * refused.
 */
export async function defineVariants(
  tx: Tx,
  productId: string,
  input: VariantsInput,
  now = new Date(),
): Promise<Variant[]> {
  checkVariantsInput(input);
  await lockStock(tx, [productId], []);
  const [existing] = await tx
    .select({ id: optionsTable.id })
    .from(optionsTable)
    .where(eq(optionsTable.productId, productId))
    .limit(1);
  if (existing) throw new VariantsError("This product has options already");
  const valueIds: Map<string, string>[] = [];
  const optionIds: string[] = [];
  for (const [position, option] of input.options.entries()) {
    const [row] = await tx
      .insert(optionsTable)
      .values({ productId, name: option.name.trim(), position })
      .returning({ id: optionsTable.id });
    optionIds.push(row.id);
    const values = await tx
      .insert(productOptionValues)
      .values(
        option.values.map((v, i) => ({
          optionId: row.id,
          value: v.value.trim(),
          position: i,
          swatch: v.swatch ?? null,
        })),
      )
      .returning({ id: productOptionValues.id, value: productOptionValues.value });
    valueIds.push(new Map(values.map((v) => [v.value, v.id])));
  }
  const [first, ...rest] = input.variants;
  const defaults = await tx
    .select({ id: variantsTable.id })
    .from(variantsTable)
    .where(eq(variantsTable.productId, productId))
    .orderBy(asc(variantsTable.position), asc(variantsTable.id));
  const fields = (v: VariantsInput["variants"][number], position: number) => ({
    productId,
    sku: v.sku ?? null,
    pricePaise: v.pricePaise,
    originalPricePaise: v.originalPricePaise ?? null,
    isActive: v.isActive ?? true,
    position,
    images: v.images ?? [],
    updatedAt: now,
  });
  const ids: string[] = [];
  if (defaults[0]) {
    await tx
      .update(variantsTable)
      .set(fields(first, 0))
      .where(eq(variantsTable.id, defaults[0].id));
    await setVariantStockLevel(
      tx,
      productId,
      defaults[0].id,
      { stockCount: first.stockCount },
      now,
    );
    ids.push(defaults[0].id);
  }
  const added = defaults[0] ? rest : input.variants;
  if (added.length > 0) {
    const rows = await tx
      .insert(variantsTable)
      .values(
        added.map((v, i) => ({
          ...fields(v, ids.length + i),
          stockCount: v.stockCount,
          inStock: v.stockCount === null || v.stockCount > 0,
        })),
      )
      .returning({ id: variantsTable.id });
    ids.push(...rows.map((r) => r.id));
  }
  await tx.insert(productVariantValues).values(
    input.variants.flatMap((v, i) =>
      v.values.map((value, o) => ({
        variantId: ids[i],
        optionId: optionIds[o],
        valueId: valueIds[o].get(value.trim())!,
      })),
    ),
  );
  await writePriceSummary(tx, productId, now);
  await writeStockSummaries(tx, [productId], now);
  return productVariants(tx, productId);
}

/**
 * Writes the product row's price from its variants (the lowest active price, decision 0015), for
 * a product with options; a product without options is its variant already.
 */
export async function writePriceSummary(tx: Tx, productId: string, now = new Date()) {
  const variants = await productVariants(tx, productId);
  const summary = productSummary(variants, true);
  if (!summary) return;
  await tx
    .update(products)
    .set({
      pricePaise: summary.pricePaise,
      originalPricePaise: summary.originalPricePaise,
      updatedAt: now,
    })
    .where(eq(products.id, productId));
}

/** The variants named, each only with the product it belongs to (other pairs are left out). */
export async function variantOffers(
  db: Reader,
  pairs: readonly { productId: string; variantId: string }[],
): Promise<VariantOffer[]> {
  if (pairs.length === 0) return [];
  const rows = await db
    .select({
      id: variantsTable.id,
      productId: variantsTable.productId,
      pricePaise: variantsTable.pricePaise,
      originalPricePaise: variantsTable.originalPricePaise,
      stockCount: variantsTable.stockCount,
      inStock: variantsTable.inStock,
      isActive: variantsTable.isActive,
    })
    .from(variantsTable)
    .where(
      inArray(
        variantsTable.id,
        pairs.map((p) => p.variantId),
      ),
    );
  const wanted = new Set(pairs.map((p) => `${p.productId}:${p.variantId}`));
  const mine = rows.filter((r) => wanted.has(`${r.productId}:${r.id}`));
  const options = await variantOptionsOf(
    db,
    mine.map((r) => r.id),
  );
  return mine.map((r) => ({ ...r, options: options.get(r.id) ?? [] }));
}
