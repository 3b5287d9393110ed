import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import {
  productOptions as optionsTable,
  orderItems,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { ProductInputError } from "~/modules/catalog/admin-products.server.ts";
import {
  productOptions,
  productVariants as readVariants,
} from "~/modules/catalog/variants.server.ts";
import {
  adoptOnlyVariant,
  setVariantStockLevel,
  writeStockSummaries,
} from "~/modules/inventory/inventory.server.ts";
import type { FieldErrors } from "~/rules/account-schemas.ts";
import { formatPaise } from "~/rules/money.ts";
import {
  combinations,
  matchCombinations,
  type OptionsInput,
  originalPriceProblem,
  type VariantRowInput,
  variantText,
} from "~/rules/variant-schema.ts";
import {
  orderedOptions,
  type ProductOption,
  productSummary,
  type Variant,
} from "~/rules/variants.ts";

/*
 * Staff editing a product's options and its variant table (issue 22, decision 0015). Saving the
 * options generates every combination as a variant: a variant whose combination still exists
 * keeps its id, SKU, prices, stock and images; a new combination gets a new variant priced like
 * the product; a combination that disappears is deleted, or deactivated when an order names it
 * (an order keeps its variant). Stock counts change through the inventory module; the product
 * row's price summary is written here after every change (productSummary).
 */

type Actor = Pick<Viewer, "id" | "email">;

export type AdminVariantRow = Variant & { label: string };
export type AdminVariantTable = { options: ProductOption[]; variants: AdminVariantRow[] };

/** The options and the variant table the admin product page shows. */
export async function adminVariantTable(
  db: Database,
  productId: string,
): Promise<AdminVariantTable> {
  const [options, variants] = await Promise.all([
    productOptions(db, productId),
    readVariants(db, productId),
  ]);
  return {
    options,
    variants: variants.map((v) => ({
      ...v,
      label: orderedOptions(options, v)
        .map((o) => o.value)
        .join(" / "),
    })),
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

/** The product's row, locked; a missing product or a customer's custom part is "not found". */
async function lockProduct(tx: Tx, productId: string) {
  const [row] = await tx
    .select({
      id: products.id,
      name: products.name,
      quoteId: products.quoteId,
      images: products.images,
    })
    .from(products)
    .where(eq(products.id, productId))
    .for("update");
  if (!row || row.quoteId !== null) {
    throw new ProductInputError({ form: "This product no longer exists." }, 404);
  }
  return row;
}

/** The product's variants' rows, locked in id order (after the product's row). */
async function lockVariants(tx: Tx, productId: string) {
  return tx
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id))
    .for("update");
}

/** Writes the product row's price summary of its variants (the stock summary: inventory). */
async function writePriceSummary(tx: Tx, productId: string, now: Date): Promise<void> {
  const variants = await tx
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  const [option] = await tx
    .select({ id: optionsTable.id })
    .from(optionsTable)
    .where(eq(optionsTable.productId, productId))
    .limit(1);
  const summary = productSummary(variants, option !== undefined);
  if (!summary) return;
  await tx
    .update(products)
    .set({
      pricePaise: summary.pricePaise,
      originalPricePaise: summary.originalPricePaise,
      updatedAt: now,
    })
    .where(
      and(
        eq(products.id, productId),
        sql`(${products.pricePaise}, ${products.originalPricePaise}) is distinct from (${summary.pricePaise}::integer, ${summary.originalPricePaise}::integer)`,
      ),
    );
  await writeStockSummaries(tx, [productId], now);
}

// ---- Options -----------------------------------------------------------------------------------

export type OptionsResult = {
  variants: number;
  created: number;
  deactivated: number;
  deleted: number;
};

/**
 * Sets a product's options (up to three, values in the order given) and generates its variants,
 * in one transaction. Existing options and values are matched by id, else by name (any case).
 * The options keep their order among themselves; new ones come after.
 */
export async function setProductOptions(
  db: Database,
  actor: Actor,
  productId: string,
  input: OptionsInput,
): Promise<OptionsResult> {
  try {
    return await db.transaction((tx) => applyOptions(tx, actor, productId, input));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ProductInputError({ options: variantText.optionNameTaken }, 409);
    }
    throw error;
  }
}

export async function applyOptions(
  tx: Tx,
  actor: Actor,
  productId: string,
  input: OptionsInput,
): Promise<OptionsResult> {
  const now = new Date();
  const product = await lockProduct(tx, productId);
  const current = await productOptions(tx, productId);
  const variantRows = await lockVariants(tx, productId);
  const valueRows =
    variantRows.length === 0
      ? []
      : await tx
          .select()
          .from(productVariantValues)
          .where(
            inArray(
              productVariantValues.variantId,
              variantRows.map((v) => v.id),
            ),
          );
  const snapshot = (await readVariants(tx, productId)).map((v) => ({
    ...v,
    values: Object.fromEntries(
      valueRows.filter((r) => r.variantId === v.id).map((r) => [r.optionId, r.valueId]),
    ) as Record<string, string>,
  }));

  // Which stored option (and value) each given one is.
  const errors: FieldErrors = {};
  const claimed = new Set<string>();
  const matched = input.map((given, i) => {
    const stored = given.id
      ? current.find((o) => o.id === given.id?.toLowerCase())
      : current.find(
          (o) => !claimed.has(o.id) && o.name.toLowerCase() === given.name.toLowerCase(),
        );
    if (given.id && !stored) errors[`options.${i}.name`] = variantText.badList;
    if (stored) claimed.add(stored.id);
    const takenValues = new Set<string>();
    const values = given.values.map((v, j) => {
      const old = v.id
        ? stored?.values.find((s) => s.id === v.id?.toLowerCase())
        : stored?.values.find(
            (s) => !takenValues.has(s.id) && s.value.toLowerCase() === v.value.toLowerCase(),
          );
      if (v.id && !old) errors[`options.${i}.values.${j}.value`] = variantText.badList;
      if (old) takenValues.add(old.id);
      return { ...v, stored: old ?? null };
    });
    return { given, stored: stored ?? null, values };
  });
  if (Object.keys(errors).length > 0) throw new ProductInputError(errors, 409);

  // Removed options go first (their values and the variants' values of them with them).
  const removedOptions = current.filter((o) => !claimed.has(o.id));
  if (removedOptions.length > 0) {
    await tx.delete(optionsTable).where(
      inArray(
        optionsTable.id,
        removedOptions.map((o) => o.id),
      ),
    );
  }
  // Kept options keep their order and move down into freed places (never onto a taken one);
  // new ones come after them.
  const kept = matched
    .filter((m) => m.stored !== null)
    .sort((a, b) => a.stored!.position - b.stored!.position);
  const added = matched.filter((m) => m.stored === null);
  const finalOptions: { id: string; name: string; valueIds: string[] }[] = [];
  for (const [position, m] of [...kept, ...added].entries()) {
    let optionId: string;
    if (m.stored) {
      optionId = m.stored.id;
      if (m.stored.position !== position || m.stored.name !== m.given.name) {
        await tx
          .update(optionsTable)
          .set({ position, name: m.given.name })
          .where(eq(optionsTable.id, optionId));
      }
      const keptValues = new Set(m.values.flatMap((v) => (v.stored ? [v.stored.id] : [])));
      const removedValues = m.stored.values.filter((v) => !keptValues.has(v.id));
      if (removedValues.length > 0) {
        await tx.delete(productOptionValues).where(
          inArray(
            productOptionValues.id,
            removedValues.map((v) => v.id),
          ),
        );
      }
    } else {
      const [row] = await tx
        .insert(optionsTable)
        .values({ productId, name: m.given.name, position })
        .returning({ id: optionsTable.id });
      optionId = row.id;
    }
    const valueIds: string[] = [];
    for (const [valuePosition, v] of m.values.entries()) {
      if (v.stored) {
        if (
          v.stored.position !== valuePosition ||
          v.stored.value !== v.value ||
          v.stored.swatch !== v.swatch
        ) {
          await tx
            .update(productOptionValues)
            .set({ value: v.value, position: valuePosition, swatch: v.swatch })
            .where(eq(productOptionValues.id, v.stored.id));
        }
        valueIds.push(v.stored.id);
      } else {
        const [row] = await tx
          .insert(productOptionValues)
          .values({ optionId, value: v.value, position: valuePosition, swatch: v.swatch })
          .returning({ id: productOptionValues.id });
        valueIds.push(row.id);
      }
    }
    finalOptions.push({ id: optionId, name: m.given.name, valueIds });
  }

  // Each existing variant takes its combination; new combinations become new variants.
  const combos = combinations(finalOptions.map((o) => o.valueIds));
  const place = matchCombinations(snapshot, finalOptions);
  if (variantRows.length > 0) {
    await tx.delete(productVariantValues).where(
      inArray(
        productVariantValues.variantId,
        variantRows.map((v) => v.id),
      ),
    );
  }
  const valueRowsFor = (variantId: string, combo: readonly string[]) =>
    combo.map((valueId, i) => ({ variantId, optionId: finalOptions[i].id, valueId }));
  const newValueRows: (typeof productVariantValues.$inferInsert)[] = [];
  const template = snapshot.find((v) => v.isActive) ?? snapshot[0];
  const tracked = snapshot.some((v) => v.stockCount !== null);
  for (const variant of snapshot) {
    const index = place.get(variant.id);
    if (index === undefined) continue;
    newValueRows.push(...valueRowsFor(variant.id, combos[index]));
    const changes: Partial<typeof productVariants.$inferInsert> = {};
    if (variant.position !== index) changes.position = index;
    // A product without options sells its one variant.
    if (finalOptions.length === 0 && !variant.isActive) changes.isActive = true;
    if (Object.keys(changes).length > 0) {
      await tx
        .update(productVariants)
        .set({ ...changes, updatedAt: now })
        .where(eq(productVariants.id, variant.id));
    }
  }
  const taken = new Set(place.values());
  let created = 0;
  for (const [index, combo] of combos.entries()) {
    if (taken.has(index)) continue;
    const [row] = await tx
      .insert(productVariants)
      .values({
        productId,
        pricePaise: template?.pricePaise ?? 0,
        originalPricePaise: template?.originalPricePaise ?? null,
        stockCount: null,
        inStock: true,
        isActive: true,
        position: index,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: productVariants.id });
    newValueRows.push(...valueRowsFor(row.id, combo));
    created += 1;
    // A product whose stock is counted counts its new variants too, from 0.
    if (tracked) await setVariantStockLevel(tx, productId, row.id, { stockCount: 0 }, now);
  }
  if (newValueRows.length > 0) await tx.insert(productVariantValues).values(newValueRows);

  // Combinations that disappeared: deleted, or deactivated while an order names them.
  const gone = snapshot.filter((v) => !place.has(v.id));
  let deactivated = 0;
  let deleted = 0;
  if (gone.length > 0) {
    const ordered = new Set(
      (
        await tx
          .selectDistinct({ variantId: orderItems.variantId })
          .from(orderItems)
          .where(
            inArray(
              orderItems.variantId,
              gone.map((v) => v.id),
            ),
          )
      ).map((r) => r.variantId),
    );
    const keep = gone.filter((v) => ordered.has(v.id));
    const drop = gone.filter((v) => !ordered.has(v.id));
    for (const [i, v] of keep.entries()) {
      await tx
        .update(productVariants)
        .set({ isActive: false, position: combos.length + i, updatedAt: now })
        .where(eq(productVariants.id, v.id));
    }
    if (drop.length > 0) {
      await tx.delete(productVariants).where(
        inArray(
          productVariants.id,
          drop.map((v) => v.id),
        ),
      );
    }
    deactivated = keep.length;
    deleted = drop.length;
  }

  if (finalOptions.length === 0) {
    await adoptOnlyVariant(tx, productId, now);
  } else {
    await writeStockSummaries(tx, [productId], now);
    await writePriceSummary(tx, productId, now);
  }
  await tx.update(products).set({ updatedAt: now }).where(eq(products.id, productId));
  const described =
    finalOptions.length === 0
      ? "no options"
      : finalOptions.map((o) => `${o.name} (${o.valueIds.length})`).join(" × ");
  await recordAudit(tx, actor, {
    action: "product.options",
    targetType: "product",
    targetId: productId,
    summary: `Set the options of "${product.name}": ${described}, ${combos.length} variant${
      combos.length === 1 ? "" : "s"
    } (${created} new, ${deactivated} deactivated, ${deleted} removed)`,
    details: {
      options: input.map((o) => ({ name: o.name, values: o.values.map((v) => v.value) })),
      created,
      deactivated,
      deleted,
    },
  });
  return { variants: combos.length, created, deactivated, deleted };
}

// ---- Variant table -----------------------------------------------------------------------------

/**
 * Applies the variant table's changes (SKU, price, original price, stock, active, image) to some
 * of a product's variants in one transaction, checked against what is stored: every variant is
 * this product's, each SKU is unique in the shop, each original price covers its price, each
 * image is one of the product's. Nothing is written when one row is refused.
 */
export async function updateVariants(
  db: Database,
  actor: Actor,
  productId: string,
  rows: VariantRowInput[],
): Promise<{ changed: number }> {
  try {
    return await db.transaction((tx) => applyVariantRows(tx, actor, productId, rows));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ProductInputError({ variants: variantText.skuJustTaken }, 409);
    }
    throw error;
  }
}

export async function applyVariantRows(
  tx: Tx,
  actor: Actor,
  productId: string,
  rows: VariantRowInput[],
): Promise<{ changed: number }> {
  const now = new Date();
  const product = await lockProduct(tx, productId);
  const stored = new Map((await lockVariants(tx, productId)).map((v) => [v.id, v]));
  const errors: FieldErrors = {};
  const finalSku = new Map<string, string | null>();
  for (const [i, row] of rows.entries()) {
    const id = row.id.toLowerCase();
    const current = stored.get(id);
    if (!current) {
      errors[`variants.${i}.id`] = variantText.unknownVariant;
      continue;
    }
    const price = row.price ?? current.pricePaise;
    const original =
      row.originalPrice === undefined ? current.originalPricePaise : row.originalPrice;
    const problem = originalPriceProblem(price, original);
    if (problem) errors[`variants.${i}.originalPrice`] = problem;
    if (row.image !== undefined && row.image !== null) {
      if (!product.images.some((img) => img.url === row.image)) {
        errors[`variants.${i}.image`] = variantText.image;
      }
    }
    finalSku.set(id, row.sku === undefined ? current.sku : row.sku);
  }
  // SKUs: unique regardless of case across the shop, after this change.
  const wanted = [...finalSku.entries()].filter(([, sku]) => sku !== null) as [string, string][];
  if (wanted.length > 0) {
    const holders = await tx
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants)
      .where(
        inArray(
          sql`lower(${productVariants.sku})`,
          wanted.map(([, sku]) => sku.toLowerCase()),
        ),
      );
    for (const [i, row] of rows.entries()) {
      const sku = finalSku.get(row.id.toLowerCase());
      if (!sku) continue;
      const clash = holders.find(
        (h) =>
          h.id !== row.id.toLowerCase() &&
          h.sku?.toLowerCase() === sku.toLowerCase() &&
          // A variant of this change giving up that SKU frees it.
          (!finalSku.has(h.id) || finalSku.get(h.id)?.toLowerCase() === sku.toLowerCase()),
      );
      if (clash) errors[`variants.${i}.sku`] = variantText.skuTaken(sku);
    }
  }
  if (Object.keys(errors).length > 0) throw new ProductInputError(errors, 400);

  // SKUs that change are let go first, so two variants can swap theirs.
  const movingSkus = rows.filter(
    (r) => r.sku !== undefined && r.sku !== stored.get(r.id.toLowerCase())?.sku,
  );
  if (movingSkus.length > 0) {
    await tx
      .update(productVariants)
      .set({ sku: null })
      .where(
        inArray(
          productVariants.id,
          movingSkus.map((r) => r.id.toLowerCase()),
        ),
      );
  }
  const changedFields = new Set<string>();
  let changed = 0;
  for (const row of rows) {
    const id = row.id.toLowerCase();
    const current = stored.get(id)!;
    const set: Partial<typeof productVariants.$inferInsert> = {};
    if (row.sku !== undefined && row.sku !== current.sku) set.sku = row.sku;
    else if (row.sku !== undefined) set.sku = current.sku;
    if (row.price !== undefined && row.price !== current.pricePaise) set.pricePaise = row.price;
    if (row.originalPrice !== undefined && row.originalPrice !== current.originalPricePaise) {
      set.originalPricePaise = row.originalPrice;
    }
    if (row.isActive !== undefined && row.isActive !== current.isActive)
      set.isActive = row.isActive;
    if (row.image !== undefined) {
      const image = product.images.find((img) => img.url === row.image);
      const images = image ? [image] : [];
      if (JSON.stringify(images) !== JSON.stringify(current.images)) set.images = images;
    }
    const fields = Object.keys(set).filter((k) => !(k === "sku" && set.sku === current.sku));
    if (Object.keys(set).length > 0) {
      await tx
        .update(productVariants)
        .set({ ...set, updatedAt: now })
        .where(eq(productVariants.id, id));
    }
    if (row.stockCount !== undefined && row.stockCount !== current.stockCount) {
      await setVariantStockLevel(tx, productId, id, { stockCount: row.stockCount }, now);
      fields.push("stockCount");
    }
    for (const f of fields) changedFields.add(f);
    if (fields.length > 0) changed += 1;
  }
  if (changed > 0) {
    await writePriceSummary(tx, productId, now);
    await tx.update(products).set({ updatedAt: now }).where(eq(products.id, productId));
    await recordAudit(tx, actor, {
      action: "product.variants",
      targetType: "product",
      targetId: productId,
      summary: `Updated ${changed} variant${changed === 1 ? "" : "s"} of "${product.name}" (${[
        ...changedFields,
      ].join(", ")})`,
      details: {
        changed: [...changedFields],
        variants: rows.map((r) => ({
          id: r.id.toLowerCase(),
          ...(r.price !== undefined ? { price: formatPaise(r.price) } : {}),
          ...(r.stockCount !== undefined ? { stockCount: r.stockCount } : {}),
          ...(r.isActive !== undefined ? { isActive: r.isActive } : {}),
        })),
      },
    });
  }
  return { changed };
}
