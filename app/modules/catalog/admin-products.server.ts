import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import {
  categories,
  type ProductImage,
  productOptions,
  products,
  productVariants,
} from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { deleteImageVariants, storeUploadedImage } from "~/modules/catalog/images.server.ts";
import { setStockLevel, splitStockLevel } from "~/modules/inventory/inventory.server.ts";
import type { FieldErrors } from "~/rules/account-schemas.ts";
import {
  type CreateProductInput,
  categoryInvalidText,
  imageKey,
  productText,
  storedReviews,
  type UpdateProductInput,
} from "~/rules/admin-product-schema.ts";
import {
  isProductUploadPath,
  MAX_PRODUCT_IMAGES,
  productIdOfUploadPath,
  productUploadPath,
  uploadText,
} from "~/rules/admin-uploads.ts";
import { formatPaise } from "~/rules/money.ts";
import { slugify } from "~/rules/product-mapping.ts";
import { LOW_STOCK_UNITS } from "~/rules/variant-schema.ts";

/*
 * The admin's catalogue: the products grid, adding and editing products (with their images and
 * static reviews), the category list the form chooses from, and the product image uploads.
 *
 * Images: the browser uploads each file first (storeProductUpload) and the product form then
 * refers to it by storage path. A save accepts only paths under products/{thisProductId}/ that
 * exist in storage; files of images removed from a product are deleted after the change commits.
 */

type Deps = { db: Database; storage: FileStorage };

export const ADMIN_PRODUCTS_PAGE_SIZE = 24;

/** A refused change: the status to answer with and a message per form field. */
export class ProductInputError extends Error {
  readonly fieldErrors: FieldErrors;
  readonly status: 400 | 404 | 409;
  constructor(fieldErrors: FieldErrors, status: 400 | 404 | 409 = 400) {
    super(Object.values(fieldErrors)[0] ?? "invalid product");
    this.name = "ProductInputError";
    this.fieldErrors = fieldErrors;
    this.status = status;
  }
}

// ---- Grid --------------------------------------------------------------------------------------

export type AdminProductCard = {
  id: string;
  name: string;
  image: string | null;
  pricePaise: number;
  category: string;
  subcategory: string | null;
  isActive: boolean;
  inStock: boolean;
  stockCount: number | null;
  badge: string | null;
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of every product (active or not), newest first, optionally filtered by name, and to
 * those running low: one of its active variants (a product without options: its one variant)
 * counts LOW_STOCK_UNITS or fewer.
 */
export async function listAdminProducts(
  db: Database,
  options: { query?: string; page?: number; pageSize?: number; lowStock?: boolean } = {},
): Promise<{ items: AdminProductCard[]; total: number; page: number; pages: number }> {
  const pageSize = options.pageSize ?? ADMIN_PRODUCTS_PAGE_SIZE;
  const q = (options.query ?? "").trim().toLowerCase().slice(0, 100);
  // lower(name) like '%…%' is served by the trigram index on lower(name).
  // Customers' custom parts (priced quotes) are managed under Quotes, not here.
  const where = and(
    isNull(products.quoteId),
    q ? sql`lower(${products.name}) like ${`%${escapeLike(q)}%`}` : undefined,
    options.lowStock
      ? sql`exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id} and ${productVariants.isActive} and ${productVariants.stockCount} <= ${LOW_STOCK_UNITS})`
      : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(options.page ?? 1)), pages);
  const items = await db
    .select({
      id: products.id,
      name: products.name,
      image: products.image,
      pricePaise: products.pricePaise,
      category: products.category,
      subcategory: products.subcategory,
      isActive: products.isActive,
      inStock: products.inStock,
      stockCount: products.stockCount,
      badge: products.badge,
    })
    .from(products)
    .where(where)
    .orderBy(sql`${products.createdAt} desc nulls last`, asc(products.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { items, total, page, pages };
}

export type AdminProduct = typeof products.$inferSelect;

export async function getAdminProduct(db: Database, id: string): Promise<AdminProduct | null> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), isNull(products.quoteId)));
  return row ?? null;
}

// ---- Categories --------------------------------------------------------------------------------

/** The names a product's category is chosen from: not deleted, alphabetical. */
export async function listCategoryNames(db: Database | Tx): Promise<string[]> {
  const rows = await db
    .select({ name: categories.name })
    .from(categories)
    .where(eq(categories.isDeleted, false))
    .orderBy(sql`lower(${categories.name})`);
  return rows.map((r) => r.name);
}

async function findCategory(db: Database | Tx, name: string) {
  const [row] = await db
    .select({ id: categories.id, name: categories.name, isDeleted: categories.isDeleted })
    .from(categories)
    .where(sql`lower(${categories.name}) = lower(${name.trim()})`);
  return row ?? null;
}

/**
 * Adds a category from the product form's dialog. A name already listed (any case) is not added
 * again: its listed spelling is returned. A deleted one comes back. Blank names are refused.
 */
export async function addCategory(
  db: Database,
  viewer: Pick<Viewer, "id" | "email">,
  rawName: string,
): Promise<{ name: string; created: boolean }> {
  const name = rawName.trim();
  if (!name) throw new ProductInputError({ name: "Please enter a category name." });
  return db.transaction(async (tx) => {
    const existing = await findCategory(tx, name);
    if (existing && !existing.isDeleted) return { name: existing.name, created: false };
    if (existing) {
      await tx
        .update(categories)
        .set({ isDeleted: false, updatedAt: new Date() })
        .where(eq(categories.id, existing.id));
    } else {
      // A concurrent add of the same name loses quietly to the unique index.
      await tx.insert(categories).values({ name }).onConflictDoNothing();
    }
    const saved = (await findCategory(tx, name))!;
    await recordAudit(tx, viewer, {
      action: "category.create",
      targetType: "category",
      targetId: saved.id,
      summary: `Added category "${saved.name}" from the product form`,
    });
    return { name: saved.name, created: true };
  });
}

// ---- Images ------------------------------------------------------------------------------------

/** The product's newly uploaded images, checked: its own folder, present in storage, no repeats. */
async function checkNewImages(
  storage: FileStorage,
  productId: string,
  paths: string[],
): Promise<ProductImage[]> {
  const unique = [...new Set(paths)];
  for (const p of unique) {
    if (!isProductUploadPath(productId, p)) {
      throw new ProductInputError({ images: "An image does not belong to this product." });
    }
  }
  const present = await Promise.all(unique.map((p) => storage.exists(p)));
  if (present.includes(false)) {
    throw new ProductInputError({
      images: "An uploaded image is no longer there. Please upload it again.",
    });
  }
  return unique.map((p) => ({ url: storage.url(p), storagePath: p }));
}

/** Stores one uploaded product image (variants made once, metadata stripped). */
export async function storeProductUpload(
  storage: FileStorage,
  productId: string,
  filename: string,
  bytes: Buffer,
): Promise<ProductImage> {
  let now = Date.now();
  let storagePath = productUploadPath(productId, filename, now);
  // Two files with the same name in the same millisecond get different timestamps.
  while (await storage.exists(storagePath))
    storagePath = productUploadPath(productId, filename, ++now);
  const stored = await storeUploadedImage(storage, storagePath, bytes);
  return { url: stored.url, storagePath: stored.storagePath };
}

/**
 * Removes an uploaded file that was never saved with its product (the form's Cancel, or a new
 * image removed before saving). A file the product already uses is refused (409).
 */
export async function discardProductUpload(deps: Deps, storagePath: string): Promise<void> {
  const productId = productIdOfUploadPath(storagePath);
  if (!productId) throw new ProductInputError({ storagePath: uploadText.badPath });
  const [used] = await deps.db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.id, productId),
        sql`${products.images} @> ${JSON.stringify([{ storagePath }])}::jsonb`,
      ),
    );
  if (used) throw new ProductInputError({ storagePath: uploadText.badPath }, 409);
  await deleteImageVariants(deps.storage, storagePath);
}

/** Deletes the files of images a saved change removed (only this product's own folder). */
async function deleteRemovedFiles(
  storage: FileStorage,
  productId: string,
  removed: ProductImage[],
) {
  const prefix = `products/${productId}/`;
  await Promise.all(
    removed
      .map((i) => i.storagePath)
      .filter((p): p is string => !!p && p.startsWith(prefix) && !p.includes(".."))
      .map((p) => deleteImageVariants(storage, p)),
  );
}

// ---- Create and update -------------------------------------------------------------------------

async function canonicalCategory(tx: Tx, name: string): Promise<string> {
  const found = await findCategory(tx, name);
  if (!found || found.isDeleted) {
    throw new ProductInputError({ category: categoryInvalidText(name) });
  }
  return found.name;
}

/** Adds a product under the id the form generated (so its uploads are already in its folder). */
export async function createProduct(
  deps: Deps,
  viewer: Pick<Viewer, "id" | "email">,
  input: CreateProductInput,
): Promise<{ id: string }> {
  const id = input.productId.toLowerCase();
  const images = await checkNewImages(deps.storage, id, input.images);
  return deps.db.transaction(async (tx) => {
    const category = await canonicalCategory(tx, input.category);
    const now = new Date();
    const [row] = await tx
      .insert(products)
      .values({
        id,
        name: input.name,
        slug: slugify(input.name),
        description: input.description,
        pricePaise: input.price,
        currency: "INR",
        originalPricePaise: input.originalPrice ?? null,
        image: images[0]?.url ?? null,
        images,
        category,
        subcategory: input.subcategory ?? null,
        rating: input.rating,
        reviewsCount: input.reviewsCount,
        features: input.features,
        discount: input.discount,
        inStock: input.inStock,
        stockCount: input.stockCount ?? null,
        weightGrams: input.weightGrams ?? null,
        boxLengthCm: input.boxLengthCm ?? null,
        boxWidthCm: input.boxWidthCm ?? null,
        boxHeightCm: input.boxHeightCm ?? null,
        badge: input.badge ?? null,
        isActive: input.isActive,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: products.id });
    if (!row) throw new ProductInputError({ form: "This product has already been saved." }, 409);
    await recordAudit(tx, viewer, {
      action: "product.create",
      targetType: "product",
      targetId: id,
      summary: `Created "${input.name}" at ${formatPaise(input.price)}`,
      details: { category, images: images.length, isActive: input.isActive },
    });
    return { id };
  });
}

/**
 * Applies an edit in one transaction: the fields given, images removed and added, static reviews.
 * Files of removed images are deleted after the change commits.
 */
export async function updateProduct(
  deps: Deps,
  viewer: Pick<Viewer, "id" | "email">,
  id: string,
  input: UpdateProductInput,
): Promise<{ id: string; addedImages: number; removedImages: number }> {
  const added = await checkNewImages(deps.storage, id, input.images);
  const remove = new Set(input.removeImages);
  const result = await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    // A customer's custom part is managed through its quote, never edited as a product.
    if (!current || current.quoteId !== null) {
      throw new ProductInputError({ form: "This product no longer exists." }, 404);
    }

    const changes: Partial<typeof products.$inferInsert> = {};
    if (input.name !== undefined && input.name !== current.name) {
      changes.name = input.name;
      changes.slug = slugify(input.name);
    }
    if (input.price !== undefined) changes.pricePaise = input.price;
    if (input.originalPrice !== undefined) changes.originalPricePaise = input.originalPrice;
    if (
      input.category !== undefined &&
      input.category.toLowerCase() !== current.category.toLowerCase()
    ) {
      changes.category = await canonicalCategory(tx, input.category);
    }
    if (input.subcategory !== undefined) changes.subcategory = input.subcategory;
    if (input.description !== undefined) changes.description = input.description;
    if (input.discount !== undefined) changes.discount = input.discount;
    if (input.rating !== undefined) changes.rating = input.rating;
    if (input.reviewsCount !== undefined) changes.reviewsCount = input.reviewsCount;
    if (input.features !== undefined) {
      // The editor showed any key-value features as "key: value" lines: the lines are the list now.
      changes.features = input.features;
      changes.featuresKv = null;
    }
    if (input.badge !== undefined) changes.badge = input.badge;
    if (input.stockCount !== undefined) changes.stockCount = input.stockCount;
    if (input.weightGrams !== undefined) changes.weightGrams = input.weightGrams;
    if (input.boxLengthCm !== undefined) changes.boxLengthCm = input.boxLengthCm;
    if (input.boxWidthCm !== undefined) changes.boxWidthCm = input.boxWidthCm;
    if (input.boxHeightCm !== undefined) changes.boxHeightCm = input.boxHeightCm;
    if (input.isActive !== undefined) changes.isActive = input.isActive;
    if (input.inStock !== undefined) changes.inStock = input.inStock;
    if (input.reviewsList !== undefined) changes.reviewsList = storedReviews(input.reviewsList);
    // A product with options: its row's price and stock are its variants' summary (decision
    // 0015), edited in the variant table. The item form never sets them (the next variant save
    // would rewrite them anyway), whatever it sends.
    if (await hasOptions(tx, id)) {
      delete changes.pricePaise;
      delete changes.originalPricePaise;
      delete changes.stockCount;
      delete changes.inStock;
    }

    const removed = current.images.filter((i) => remove.has(imageKey(i)));
    const known = new Set(current.images.map((i) => i.storagePath).filter(Boolean));
    const fresh = added.filter((i) => !known.has(i.storagePath));
    if (removed.length > 0 || fresh.length > 0) {
      const images = [...current.images.filter((i) => !remove.has(imageKey(i))), ...fresh];
      if (images.length > MAX_PRODUCT_IMAGES) {
        throw new ProductInputError({ images: productText.tooManyImages });
      }
      const removedUrls = new Set(removed.map((i) => i.url));
      changes.images = images;
      changes.image =
        images[0]?.url ?? (current.image && !removedUrls.has(current.image) ? current.image : null);
    }

    // Only what actually changed: the form sends every field, the audit log names the edits.
    const differs = (k: string) =>
      JSON.stringify(changes[k as keyof typeof changes] ?? null) !==
      JSON.stringify(current[k as keyof typeof current] ?? null);
    const changed = Object.keys(changes).filter(
      (k) => k !== "slug" && k !== "featuresKv" && differs(k),
    );
    if (changed.length > 0) {
      // Stock counts change only through the inventory module.
      const { level, rest } = splitStockLevel(changes);
      await tx
        .update(products)
        .set({ ...rest, updatedAt: new Date() })
        .where(eq(products.id, id));
      await setStockLevel(tx, id, level);
      await recordAudit(tx, viewer, {
        action: "product.update",
        targetType: "product",
        targetId: id,
        summary: `Updated "${changes.name ?? current.name}" (${changed.join(", ")})`,
        details: {
          changed,
          addedImages: fresh.length,
          removedImages: removed.length,
          ...(changes.pricePaise !== undefined && changes.pricePaise !== current.pricePaise
            ? { pricePaise: { from: current.pricePaise, to: changes.pricePaise } }
            : {}),
        },
      });
    }
    return { removed, fresh };
  });
  try {
    await deleteRemovedFiles(deps.storage, id, result.removed);
  } catch (error) {
    // The change is saved; a file left behind is only wasted space.
    log.error("could not delete removed product images", { error, productId: id });
  }
  return { id, addedImages: result.fresh.length, removedImages: result.removed.length };
}

/** Whether the product has options (then its variants, not its row, hold price and stock). */
async function hasOptions(tx: Tx, productId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: productOptions.id })
    .from(productOptions)
    .where(eq(productOptions.productId, productId))
    .limit(1);
  return found !== undefined;
}
