import { and, desc, eq } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import { promotions } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { deleteImageVariants, storeImageVariants } from "~/modules/catalog/images.server.ts";
import { discountExists } from "~/modules/discounts/admin.server.ts";
import { MAX_UPLOAD_BYTES, sanitizeFilename, sniffImageType } from "~/rules/admin-uploads.ts";
import type { LivePromotion, PromotionInput } from "~/rules/promotion-schema.ts";

/*
 * Promotions in the admin area (SPEC.md §7 upsertPromotion; File storage: promotions/
 * {timestamp}_{filename}). The home page's 'Special Offers' reads the live (not deleted) rows
 * newest first (app/modules/promotions/promotions.server.ts), so a new promotion shows first.
 * Deleting is a soft delete; the image files stay with the row.
 */

export type AdminPromotion = Omit<LivePromotion, "offer"> & {
  discountId: string | null;
  hideWhenDiscountEnds: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export function listPromotionsForAdmin(db: Database): Promise<AdminPromotion[]> {
  return db
    .select({
      id: promotions.id,
      name: promotions.name,
      description: promotions.description,
      image: promotions.image,
      discount: promotions.discount,
      cta: promotions.cta,
      discountId: promotions.discountId,
      hideWhenDiscountEnds: promotions.hideWhenDiscountEnds,
      createdAt: promotions.createdAt,
      updatedAt: promotions.updatedAt,
    })
    .from(promotions)
    .where(eq(promotions.isDeleted, false))
    .orderBy(desc(promotions.createdAt), desc(promotions.id));
}

export class PromotionImageError extends Error {
  readonly reason: "too-large" | "not-an-image" | "unreadable";
  constructor(reason: "too-large" | "not-an-image" | "unreadable") {
    super(reason);
    this.name = "PromotionImageError";
    this.reason = reason;
  }
}
export class PromotionNotFoundError extends Error {}
/** The chosen discount doesn't exist (deleted meanwhile, or a forged id). */
export class PromotionDiscountError extends Error {}

async function checkDiscount(tx: Tx, discountId: string | null) {
  if (discountId && !(await discountExists(tx, discountId))) throw new PromotionDiscountError();
}

export type UploadedImage = { bytes: Buffer; filename: string };

/** `promotions/{timestamp}_{filename}` (the name sanitised; the stored picture is WebP). */
export const promotionImagePath = (filename: string, now = Date.now()) =>
  `promotions/${now}_${sanitizeFilename(filename)}`;

/**
 * Checks the file by its content (JPEG, PNG, WebP or AVIF magic bytes, then a full decode) and
 * stores its variants. Nothing is left in storage when it fails.
 */
async function storePromotionImage(storage: FileStorage, upload: UploadedImage) {
  if (upload.bytes.byteLength > MAX_UPLOAD_BYTES) throw new PromotionImageError("too-large");
  if (!sniffImageType(upload.bytes)) throw new PromotionImageError("not-an-image");
  // Two uploads of the same name in the same millisecond must not share a path (deleting one
  // later would delete the other's image).
  let now = Date.now();
  let storagePath = promotionImagePath(upload.filename, now);
  while (await storage.exists(storagePath))
    storagePath = promotionImagePath(upload.filename, ++now);
  try {
    return await storeImageVariants(storage, storagePath, upload.bytes);
  } catch (error) {
    await deleteImageVariants(storage, storagePath).catch(() => undefined);
    log.warning("promotion image rejected", { error, filename: upload.filename });
    throw new PromotionImageError("unreadable");
  }
}

async function discardImage(storage: FileStorage, storagePath: string | null | undefined) {
  if (!storagePath) return;
  await deleteImageVariants(storage, storagePath).catch((error) =>
    log.warning("could not delete promotion image", { error, storagePath }),
  );
}

type Deps = { db: Database; storage: FileStorage };
type Actor = Pick<Viewer, "id" | "email">;

const summaryOf = (input: PromotionInput) =>
  input.discount ? `"${input.name}" (${input.discount})` : `"${input.name}"`;

/** Creates a promotion; the image (optional) is stored first and removed again if saving fails. */
export async function createPromotion(
  { db, storage }: Deps,
  actor: Actor,
  input: PromotionInput,
  upload: UploadedImage | null,
): Promise<{ id: string }> {
  const image = upload ? await storePromotionImage(storage, upload) : null;
  try {
    return await db.transaction(async (tx) => {
      await checkDiscount(tx, input.discountId);
      const [row] = await tx
        .insert(promotions)
        .values({
          name: input.name,
          description: input.description,
          discount: input.discount,
          cta: input.cta,
          discountId: input.discountId,
          hideWhenDiscountEnds: input.hideWhenDiscountEnds,
          image: image?.url ?? null,
          imageStoragePath: image?.storagePath ?? null,
        })
        .returning({ id: promotions.id });
      await recordAudit(tx, actor, {
        action: "promotion.create",
        targetType: "promotion",
        targetId: row.id,
        summary: `Created promotion ${summaryOf(input)}`,
        details: { ...input, image: image?.storagePath ?? null },
      });
      return row;
    });
  } catch (error) {
    await discardImage(storage, image?.storagePath);
    throw error;
  }
}

/**
 * Updates a live promotion. A new image replaces the old one (whose files are removed once the
 * change is saved); `removeImage` clears it.
 */
export async function updatePromotion(
  { db, storage }: Deps,
  actor: Actor,
  id: string,
  input: PromotionInput,
  upload: UploadedImage | null,
  removeImage = false,
): Promise<void> {
  const image = upload ? await storePromotionImage(storage, upload) : null;
  let oldPath: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(promotions)
        .where(and(eq(promotions.id, id), eq(promotions.isDeleted, false)))
        .for("update");
      if (!current) throw new PromotionNotFoundError();
      await checkDiscount(tx, input.discountId);
      const imageChange = image
        ? { image: image.url, imageStoragePath: image.storagePath }
        : removeImage
          ? { image: null, imageStoragePath: null }
          : {};
      if (image || removeImage) oldPath = current.imageStoragePath;
      await tx
        .update(promotions)
        .set({
          name: input.name,
          description: input.description,
          discount: input.discount,
          cta: input.cta,
          discountId: input.discountId,
          hideWhenDiscountEnds: input.hideWhenDiscountEnds,
          ...imageChange,
          updatedAt: new Date(),
        })
        .where(eq(promotions.id, id));
      const changed = (
        ["name", "description", "discount", "cta", "discountId", "hideWhenDiscountEnds"] as const
      ).filter((k) => (current[k] ?? null) !== (input[k] ?? null));
      await recordAudit(tx, actor, {
        action: "promotion.update",
        targetType: "promotion",
        targetId: id,
        summary: `Updated promotion ${summaryOf(input)}`,
        details: {
          changed,
          image: image ? "replaced" : removeImage ? "removed" : "kept",
        },
      });
    });
  } catch (error) {
    await discardImage(storage, image?.storagePath);
    throw error;
  }
  await discardImage(storage, oldPath);
}

/** Soft-deletes a live promotion (it leaves 'Special Offers' at once). */
export async function deletePromotion(db: Database, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(promotions)
      .set({ isDeleted: true, updatedAt: new Date() })
      .where(and(eq(promotions.id, id), eq(promotions.isDeleted, false)))
      .returning({ id: promotions.id, name: promotions.name });
    if (!row) throw new PromotionNotFoundError();
    await recordAudit(tx, actor, {
      action: "promotion.delete",
      targetType: "promotion",
      targetId: id,
      summary: `Deleted promotion "${row.name}"`,
    });
  });
}
