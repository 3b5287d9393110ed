import { createHash } from "node:crypto";
import { and, asc, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import { categories, type ProductImage, products } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { ProductInputError } from "~/modules/catalog/admin-products.server.ts";
import { applyOptions, applyVariantRows } from "~/modules/catalog/variant-admin.server.ts";
import {
  optionsOf,
  productOptions,
  productVariants as readVariants,
  variantsOf,
} from "~/modules/catalog/variants.server.ts";
import { setStockLevel, splitStockLevel } from "~/modules/inventory/inventory.server.ts";
import { enqueueJob } from "~/modules/jobs/jobs.server.ts";
import { isUuid } from "~/rules/ids.ts";
import { PLACEHOLDER_IMAGE } from "~/rules/images.ts";
import { parseLegacyExport } from "~/rules/legacy-import.ts";
import {
  type CsvProductFields,
  type CsvVariant,
  type ExportProduct,
  newProductFromCsv,
  optionsOfVariants,
  parseProductsCsv,
} from "~/rules/product-csv.ts";
import { type MappedProduct, mapLegacyProduct } from "~/rules/product-mapping.ts";
import { productOptionsSchema, type VariantRowInput } from "~/rules/variant-schema.ts";
import { orderedOptions } from "~/rules/variants.ts";

/*
 * Product import (the old shop's JSON export, or CSV) and the products CSV export.
 *
 * Re-importing must not duplicate products, and there is no legacy-id column. A JSON document's
 * id becomes the product's own id: a name-based UUID (v5) of the document id in a fixed
 * namespace. The same document always lands on the same product (an update), even after it was
 * renamed in the old shop, and two different documents that share a name stay two products;
 * matching on slug+name would merge those and split renamed ones. A CSV row with an `id` column
 * updates that product (a LayerKart id as it is, another shop's id through the same UUID); a row
 * without one matches an existing product of the same name (slug and case-insensitive name), and
 * a name shared by several products is reported instead of guessed.
 *
 * Every run is planned in full (preview), and an import writes all planned products in one
 * transaction. Failures are listed, never fatal.
 */

/** Fixed namespace for legacy document ids (never change it: it is what makes re-imports match). */
const LEGACY_NAMESPACE = "9b4e7c2a-61f3-4d0e-8a57-3c1d2e6f9a80";

/** RFC 9562 name-based UUID (version 5, SHA-1). */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const hash = createHash("sha1").update(ns).update(name, "utf8").digest();
  const b = Buffer.from(hash.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The LayerKart product id of an old shop's document id. */
export const legacyProductId = (legacyId: string) => uuidV5(legacyId, LEGACY_NAMESPACE);

export type ImportFormat = "json" | "csv";
export type ImportFailure = { where: string; reason: string };
export type ImportNote = { where: string; note: string };

type ProductInsert = typeof products.$inferInsert;
type PlannedProduct = {
  where: string;
  productId: string;
  name: string;
  action: "create" | "update";
  insert: ProductInsert & { id: string };
  update: Partial<ProductInsert>;
  /** A CSV product with options: its variant rows (issue 22), in the file's order. */
  variants?: CsvVariant[];
};

export type ImportPlan =
  | {
      ok: true;
      format: ImportFormat;
      items: PlannedProduct[];
      failures: ImportFailure[];
      notes: ImportNote[];
    }
  | { ok: false; error: string };

export type ImportPreview = {
  format: ImportFormat;
  toCreate: number;
  toUpdate: number;
  products: Array<{ where: string; name: string; action: "create" | "update" }>;
  failures: ImportFailure[];
  notes: ImportNote[];
};

type Executor = Pick<Database, "select">;

/** JSON when the text starts like JSON, else CSV. */
export function detectFormat(text: string): ImportFormat {
  const start = text.replace(/^\uFEFF/, "").trimStart()[0];
  return start === "{" || start === "[" ? "json" : "csv";
}

async function existingIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ id: products.id })
      .from(products)
      .where(and(inArray(products.id, ids.slice(i, i + 1000)), isNull(products.quoteId)));
    for (const r of rows) found.add(r.id);
  }
  return found;
}

/**
 * An image stored by the old shop is only kept when the same file is in this shop's storage
 * (copied across); its URL then comes from the storage path.
 */
async function settleImages(
  storage: FileStorage,
  product: MappedProduct,
): Promise<{ images: ProductImage[]; image: string; dropped: string[] }> {
  const images: ProductImage[] = [];
  const dropped: string[] = [];
  for (const img of product.images) {
    let here = false;
    if (img.storagePath) here = await storage.exists(img.storagePath).catch(() => false);
    if (img.url !== "") {
      images.push({ url: img.url, storagePath: here ? img.storagePath : null });
    } else if (here && img.storagePath) {
      images.push({ url: storage.url(img.storagePath), storagePath: img.storagePath });
    } else if (img.storagePath) {
      dropped.push(img.storagePath);
    }
  }
  const image =
    product.image === PLACEHOLDER_IMAGE ? (images[0]?.url ?? PLACEHOLDER_IMAGE) : product.image;
  return { images, image, dropped };
}

async function planJson(db: Executor, storage: FileStorage, text: string): Promise<ImportPlan> {
  const parsed = parseLegacyExport(text);
  if (!parsed.ok) return parsed;
  const failures: ImportFailure[] = parsed.failures.map((f) => ({
    where: f.label,
    reason: f.reason,
  }));
  const notes: ImportNote[] = [];
  const mapped: Array<{ where: string; product: MappedProduct }> = [];
  for (const entry of parsed.entries) {
    const result = mapLegacyProduct(entry.id, entry.doc);
    if (!result.ok) {
      failures.push({ where: entry.label || "(no id)", reason: result.reason });
      continue;
    }
    if (result.product.currency !== "INR") {
      failures.push({
        where: entry.label,
        reason: `prices in ${result.product.currency}: the shop sells in INR`,
      });
      continue;
    }
    mapped.push({ where: entry.label, product: result.product });
  }
  const ids = mapped.map((m) => legacyProductId(m.product.id));
  const present = await existingIds(db, ids);
  const now = new Date();
  const items: PlannedProduct[] = [];
  for (const [i, { where, product }] of mapped.entries()) {
    const { images, image, dropped } = await settleImages(storage, product);
    for (const path of dropped) {
      notes.push({ where, note: `image ${path} is not in this shop's storage and was left out` });
    }
    const values = {
      name: product.name,
      slug: product.slug,
      description: product.description,
      pricePaise: product.pricePaise,
      currency: "INR",
      originalPricePaise: product.originalPricePaise,
      image,
      images,
      category: product.category,
      subcategory: product.subcategory,
      rating: product.rating,
      reviewsCount: product.reviewsCount,
      reviewsList: product.reviewsList,
      features: product.features,
      featuresKv: product.featuresKv,
      discount: product.discount,
      inStock: product.inStock,
      stockCount: product.stockCount,
      badge: product.badge,
      isActive: product.isActive,
      updatedAt: now,
    } satisfies Partial<ProductInsert>;
    const id = ids[i];
    items.push({
      where,
      productId: id,
      name: product.name,
      action: present.has(id) ? "update" : "create",
      insert: { id, ...values, ...(product.createdAt ? { createdAt: product.createdAt } : {}) },
      update: values,
    });
  }
  return { ok: true, format: "json", items, failures, notes };
}

function csvUpdate(
  f: CsvProductFields,
  current: { image: string | null; images: ProductImage[] } | undefined,
  now: Date,
): Partial<ProductInsert> {
  const u: Partial<ProductInsert> = { name: f.name, slug: f.slug, updatedAt: now };
  if (f.pricePaise !== undefined) u.pricePaise = f.pricePaise;
  if (f.category !== undefined) u.category = f.category;
  if (f.subcategory !== undefined) u.subcategory = f.subcategory;
  if (f.description !== undefined) u.description = f.description;
  if (f.discount !== undefined) u.discount = f.discount;
  if (f.inStock !== undefined) u.inStock = f.inStock;
  if (f.stockCount !== undefined) u.stockCount = f.stockCount;
  if (f.isActive !== undefined) u.isActive = f.isActive;
  if (f.badge !== undefined) u.badge = f.badge;
  if (f.features !== undefined) u.features = f.features;
  if (f.rating !== undefined) u.rating = f.rating;
  if (f.reviewsCount !== undefined) u.reviewsCount = f.reviewsCount;
  if (f.weightGrams !== undefined) u.weightGrams = f.weightGrams;
  if (f.boxLengthCm !== undefined) u.boxLengthCm = f.boxLengthCm;
  if (f.boxWidthCm !== undefined) u.boxWidthCm = f.boxWidthCm;
  if (f.boxHeightCm !== undefined) u.boxHeightCm = f.boxHeightCm;
  if (f.image !== undefined) {
    // The given image becomes the main one; the product's other images stay in its gallery.
    const images = current?.images ?? [];
    u.image = f.image;
    u.images = images.some((i) => i.url === f.image)
      ? images
      : [{ url: f.image, storagePath: null }, ...images];
  }
  return u;
}

async function planCsv(db: Executor, text: string): Promise<ImportPlan> {
  const parsed = parseProductsCsv(text);
  if (!parsed.ok) return parsed;
  const failures: ImportFailure[] = parsed.failures.map((f) => ({
    where: `row ${f.row}`,
    reason: f.reason,
  }));
  const resolveId = (id: string) => (isUuid(id) ? id.toLowerCase() : legacyProductId(id));
  const byIdRows = parsed.rows.filter((r) => r.id !== null);
  const byNameRows = parsed.rows.filter((r) => r.id === null);

  const ids = byIdRows.map((r) => resolveId(r.id!));
  const slugs = [...new Set(byNameRows.map((r) => r.fields.slug))];
  type Current = {
    id: string;
    name: string;
    slug: string;
    image: string | null;
    images: ProductImage[];
  };
  const current = new Map<string, Current>();
  const bySlug = new Map<string, Current[]>();
  const columns = {
    id: products.id,
    name: products.name,
    slug: products.slug,
    image: products.image,
    images: products.images,
  };
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select(columns)
      .from(products)
      .where(and(inArray(products.id, ids.slice(i, i + 1000)), isNull(products.quoteId)));
    for (const r of rows) current.set(r.id, r);
  }
  for (let i = 0; i < slugs.length; i += 1000) {
    const rows = await db
      .select(columns)
      .from(products)
      .where(and(inArray(products.slug, slugs.slice(i, i + 1000)), isNull(products.quoteId)))
      .orderBy(asc(products.createdAt));
    for (const r of rows) {
      current.set(r.id, r);
      bySlug.set(r.slug, [...(bySlug.get(r.slug) ?? []), r]);
    }
  }

  const now = new Date();
  const items: PlannedProduct[] = [];
  const claimed = new Map<string, number>();
  for (const row of parsed.rows) {
    const where = `row ${row.row}`;
    const f = row.fields;
    let productId: string;
    let exists: boolean;
    if (row.id !== null) {
      productId = resolveId(row.id);
      exists = current.has(productId);
    } else {
      const same = (bySlug.get(f.slug) ?? []).filter(
        (p) => p.name.toLowerCase() === f.name.toLowerCase(),
      );
      if (same.length > 1) {
        failures.push({
          where,
          reason: `${same.length} products are named "${f.name}": add an id column to choose one`,
        });
        continue;
      }
      exists = same.length === 1;
      productId = exists ? same[0].id : `new:${f.slug}`;
    }
    const earlier = claimed.get(productId);
    // A product's variant rows follow its first row (grouped by its id, else its slug).
    const group = items.find((i) => i.variants && i.where === `row ${earlier}`);
    if (earlier !== undefined && row.variant && group) {
      group.variants!.push(row.variant);
      continue;
    }
    if (earlier !== undefined) {
      failures.push({ where, reason: `the same product as row ${earlier}` });
      continue;
    }
    if (!exists && f.pricePaise === undefined && row.variant?.pricePaise !== undefined) {
      f.pricePaise = row.variant.pricePaise;
    }
    if (!exists && f.pricePaise === undefined) {
      failures.push({ where, reason: "missing price (a new product needs one)" });
      continue;
    }
    claimed.set(productId, row.row);
    const id = productId.startsWith("new:") ? crypto.randomUUID() : productId;
    const update = csvUpdate(f, current.get(id), now);
    if (row.variant) {
      // The row's price and stock are its variants' summary, written from them.
      delete update.pricePaise;
      delete update.stockCount;
      delete update.inStock;
    }
    items.push({
      where,
      productId: id,
      name: f.name,
      action: exists ? "update" : "create",
      insert: { id, ...newProductFromCsv(f) },
      update,
      ...(row.variant ? { variants: [row.variant] } : {}),
    });
  }
  // A product's variant rows must agree on its options.
  for (const item of [...items]) {
    if (!item.variants) continue;
    const found = optionsOfVariants(item.variants);
    const reason = !found.ok
      ? found.reason
      : productOptionsSchema.safeParse(
          found.options.map((o) => ({
            name: o.name,
            values: o.values.map((value) => ({ value })),
          })),
        ).error?.issues[0]?.message;
    if (reason) {
      items.splice(items.indexOf(item), 1);
      failures.push({ where: item.where, reason });
    }
  }
  failures.sort((a, b) => Number(a.where.slice(4)) - Number(b.where.slice(4)));
  return { ok: true, format: "csv", items, failures, notes: [] };
}

export async function planImport(
  db: Executor,
  storage: FileStorage,
  text: string,
): Promise<ImportPlan> {
  return detectFormat(text) === "json" ? planJson(db, storage, text) : planCsv(db, text);
}

export function previewOf(plan: Extract<ImportPlan, { ok: true }>): ImportPreview {
  return {
    format: plan.format,
    toCreate: plan.items.filter((i) => i.action === "create").length,
    toUpdate: plan.items.filter((i) => i.action === "update").length,
    products: plan.items.map((i) => ({ where: i.where, name: i.name, action: i.action })),
    failures: plan.failures,
    notes: plan.notes,
  };
}

export type ImportResult = ImportPreview & { newCategories: string[] };

const CHUNK = 200;

/**
 * Imports a file: plans it again inside one transaction (so what is written matches the data
 * as it is now) and writes every planned product, or nothing.
 */
export async function runImport(
  db: Database,
  storage: FileStorage,
  actor: Pick<Viewer, "id" | "email">,
  input: { text: string; filename: string },
): Promise<({ ok: true } & ImportResult) | { ok: false; error: string }> {
  try {
    return await importInOne(db, storage, actor, input);
  } catch (error) {
    // A variant the catalogue refuses (a SKU another product uses): nothing was written.
    if (error instanceof ProductInputError) {
      return { ok: false, error: Object.values(error.fieldErrors)[0] ?? error.message };
    }
    throw error;
  }
}

async function importInOne(
  db: Database,
  storage: FileStorage,
  actor: Pick<Viewer, "id" | "email">,
  input: { text: string; filename: string },
): Promise<({ ok: true } & ImportResult) | { ok: false; error: string }> {
  return db.transaction(async (tx) => {
    const plan = await planImport(tx, storage, input.text);
    if (!plan.ok) return plan;
    const creates = plan.items.filter((i) => i.action === "create");
    const updates = plan.items.filter((i) => i.action === "update");

    for (let i = 0; i < creates.length; i += CHUNK) {
      const chunk = creates.slice(i, i + CHUNK).map((c) => c.insert);
      // Another import may have created the same legacy product meanwhile: then it's updated.
      await tx
        .insert(products)
        .values(chunk)
        .onConflictDoUpdate({ target: products.id, set: fromExcluded(chunk) });
    }
    for (const item of updates) {
      // Stock counts change only through the inventory module.
      const { level, rest } = splitStockLevel(item.update);
      await tx.update(products).set(rest).where(eq(products.id, item.productId));
      await setStockLevel(tx, item.productId, level);
    }
    for (const item of plan.items) {
      if (item.variants) await importVariants(tx, actor, item.productId, item.variants);
    }

    // Categories the imported products use become choices in the item form (a deleted one stays
    // deleted: an admin removed it on purpose).
    const names = new Map<string, string>();
    for (const item of plan.items) {
      const c = (item.insert.category ?? "").trim();
      if (c && (item.action === "create" || item.update.category !== undefined)) {
        names.set(c.toLowerCase(), c);
      }
    }
    let newCategories: string[] = [];
    if (names.size > 0) {
      const added = await tx
        .insert(categories)
        .values([...names.values()].map((name) => ({ name })))
        .onConflictDoNothing()
        .returning({ name: categories.name });
      newCategories = added.map((a) => a.name);
    }

    // Images copied across from the old shop have no responsive variants yet: make them in the
    // background (the shop serves the stored file in their place meanwhile).
    const copied = new Set<string>();
    for (const item of plan.items) {
      for (const img of item.insert.images ?? []) {
        if (img.storagePath && img.url === storage.url(img.storagePath))
          copied.add(img.storagePath);
      }
    }
    for (const storagePath of copied) {
      await enqueueJob(
        tx,
        "image-variants",
        { storagePath },
        { dedupeKey: `image-variants:${storagePath}` },
      );
    }

    const preview = previewOf(plan);
    await recordAudit(tx, actor, {
      action: "product.import",
      targetType: "product",
      summary: `Imported ${plan.items.length} product${plan.items.length === 1 ? "" : "s"} from ${
        plan.format === "json" ? "JSON" : "CSV"
      } "${input.filename}" (${preview.toCreate} new, ${preview.toUpdate} updated, ${
        plan.failures.length
      } failed)`,
      details: {
        format: plan.format,
        filename: input.filename,
        created: preview.toCreate,
        updated: preview.toUpdate,
        failed: plan.failures.length,
        failures: plan.failures.slice(0, 100),
        newCategories,
      },
    });
    return { ok: true as const, ...preview, newCategories };
  });
}

type ImportTx = Parameters<Parameters<Database["transaction"]>[0]>[0];

const comboKey = (values: readonly string[]) => values.map((v) => v.toLowerCase()).join("\u0001");

/**
 * A CSV product's variant rows (issue 22): its options as the rows name them (a value's swatch
 * and the options' ids kept), every combination generated, then each row's SKU, prices, stock
 * and active flag set on its variant; a combination the file leaves out is deactivated. A file
 * exported and imported again changes nothing.
 */
async function importVariants(
  tx: ImportTx,
  actor: Pick<Viewer, "id" | "email">,
  productId: string,
  variants: CsvVariant[],
): Promise<void> {
  const found = optionsOfVariants(variants);
  if (!found.ok) return;
  const current = await productOptions(tx, productId);
  const input = found.options.map((o) => {
    const stored = current.find((c) => c.name.toLowerCase() === o.name.toLowerCase());
    return {
      ...(stored ? { id: stored.id } : {}),
      name: o.name,
      values: o.values.map((value) => {
        const old = stored?.values.find((v) => v.value.toLowerCase() === value.toLowerCase());
        return { ...(old ? { id: old.id } : {}), value, swatch: old?.swatch ?? null };
      }),
    };
  });
  const same =
    current.length === input.length &&
    current.every(
      (c, i) =>
        c.name === input[i].name &&
        c.values.length === input[i].values.length &&
        c.values.every((v, j) => v.value === input[i].values[j].value),
    );
  if (!same) await applyOptions(tx, actor, productId, input);

  const options = await productOptions(tx, productId);
  const stored = await readVariants(tx, productId);
  const byCombo = new Map(
    stored.map((v) => [comboKey(orderedOptions(options, v).map((o) => o.value)), v]),
  );
  const rows: VariantRowInput[] = [];
  const named = new Set<string>();
  for (const v of variants) {
    const variant = byCombo.get(comboKey(v.options.map((o) => o.value)));
    if (!variant) continue;
    named.add(variant.id);
    const row: VariantRowInput = { id: variant.id };
    if (v.sku !== undefined) row.sku = v.sku;
    if (v.pricePaise !== undefined) row.price = v.pricePaise;
    if (v.originalPricePaise !== undefined) row.originalPrice = v.originalPricePaise;
    if (v.stockCount !== undefined) row.stockCount = v.stockCount;
    if (v.isActive !== undefined) row.isActive = v.isActive;
    rows.push(row);
  }
  for (const v of stored) {
    if (!named.has(v.id) && v.isActive && v.valueIds.length > 0) {
      rows.push({ id: v.id, isActive: false });
    }
  }
  if (rows.length > 0) await applyVariantRows(tx, actor, productId, rows);
}

/** `set` for an upsert: each given column (but the id and creation time) from the new row. */
function fromExcluded(rows: ProductInsert[]) {
  const keys = new Set(rows.flatMap((r) => Object.keys(r))) as Set<keyof ProductInsert>;
  const set: Record<string, SQL> = {};
  for (const key of keys) {
    if (key === "id" || key === "createdAt") continue;
    set[key] = sql.raw(`excluded."${getTableColumns(products)[key].name}"`);
  }
  return set;
}

/**
 * Every product for the CSV export, newest first; a product with options with its variants
 * (those with a combination, in order).
 */
export async function listProductsForExport(db: Database): Promise<ExportProduct[]> {
  const rows: ExportProduct[] = await listProductRows(db);
  for (let i = 0; i < rows.length; i += 1000) {
    const ids = rows.slice(i, i + 1000).map((r) => r.id);
    const options = await optionsOf(db, ids);
    const withOptions = ids.filter((id) => (options.get(id)?.length ?? 0) > 0);
    const variants = await variantsOf(db, withOptions);
    for (const row of rows.slice(i, i + 1000)) {
      const list = variants.get(row.id);
      if (!list) continue;
      const opts = options.get(row.id) ?? [];
      row.variants = list
        .filter((v) => v.valueIds.length === opts.length)
        .map((v) => ({
          options: orderedOptions(opts, v),
          sku: v.sku,
          pricePaise: v.pricePaise,
          originalPricePaise: v.originalPricePaise,
          stockCount: v.stockCount,
          isActive: v.isActive,
        }));
    }
  }
  return rows;
}

function listProductRows(db: Database) {
  return (
    db
      .select({
        id: products.id,
        name: products.name,
        slug: products.slug,
        pricePaise: products.pricePaise,
        category: products.category,
        subcategory: products.subcategory,
        stockCount: products.stockCount,
        inStock: products.inStock,
        isActive: products.isActive,
        rating: products.rating,
        reviewsCount: products.reviewsCount,
        createdAt: products.createdAt,
        weightGrams: products.weightGrams,
        boxLengthCm: products.boxLengthCm,
        boxWidthCm: products.boxWidthCm,
        boxHeightCm: products.boxHeightCm,
      })
      .from(products)
      // Customers' custom parts are not catalogue products.
      .where(isNull(products.quoteId))
      .orderBy(desc(products.createdAt), asc(products.id))
  );
}
