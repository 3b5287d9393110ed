import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  productOptions as optionsTable,
  productOptionValues,
  productVariantValues,
  productVariants as variantsTable,
} from "~/db/schema.ts";
import type { OrderedOption } from "~/rules/stored-shapes.ts";
import {
  defaultVariant,
  type OptionValue,
  type ProductOption,
  type Variant,
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
