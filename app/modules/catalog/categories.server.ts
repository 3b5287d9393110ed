import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { categories, products } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { type CategoryChanges, categoryKey } from "~/rules/category-staging.ts";

/*
 * Categories in the admin area (SPEC.md §7 upsertCategories + deleteCategories). Deleting is a
 * soft delete (`is_deleted`); products keep their category text either way.
 */

export type AdminCategory = { id: string; name: string; productCount: number };

/** Live categories, alphabetical, each with how many products (active or not) carry its name. */
export async function listCategoriesWithCounts(db: Database): Promise<AdminCategory[]> {
  const [rows, counts] = await Promise.all([
    db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(eq(categories.isDeleted, false))
      .orderBy(asc(sql`lower(${categories.name})`)),
    db
      .select({
        key: sql<string>`lower(trim(${products.category}))`,
        n: sql<number>`count(*)::int`,
      })
      .from(products)
      .where(isNull(products.quoteId))
      .groupBy(sql`lower(trim(${products.category}))`),
  ]);
  const byKey = new Map(counts.map((c) => [c.key, Number(c.n)]));
  return rows.map((r) => ({
    ...r,
    productCount: byKey.get(r.name.trim().toLowerCase()) ?? 0,
  }));
}

export class CategoryConflictError extends Error {
  readonly categoryName: string;
  constructor(categoryName: string) {
    super(`Category "${categoryName}" is already present.`);
    this.categoryName = categoryName;
  }
}

export type CategoryChangeResult = {
  added: string[];
  /** Categories that had been deleted before and were brought back by an add. */
  restored: string[];
  deleted: string[];
  /** Products still carrying a deleted category's name (they keep it). */
  productsKeepingDeleted: number;
};

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

/**
 * Applies a Confirm: every add and delete in one transaction, or none of them. An add that
 * matches a live category (case-insensitive) is a conflict (someone else added it meanwhile);
 * one that matches a deleted category brings it back. Deleting a name that is no longer a live
 * category is skipped.
 */
export async function applyCategoryChanges(
  db: Database,
  actor: Pick<Viewer, "id" | "email">,
  changes: CategoryChanges,
): Promise<CategoryChangeResult> {
  const result: CategoryChangeResult = {
    added: [],
    restored: [],
    deleted: [],
    productsKeepingDeleted: 0,
  };
  try {
    await db.transaction(async (tx) => {
      const allKeys = [...changes.add, ...changes.delete].map(categoryKey);
      const rows = await tx
        .select()
        .from(categories)
        .where(inArray(sql`lower(${categories.name})`, allKeys))
        .for("update");
      const byKey = new Map(rows.map((r) => [categoryKey(r.name), r]));

      for (const name of changes.add) {
        const row = byKey.get(categoryKey(name));
        if (row && !row.isDeleted) throw new CategoryConflictError(name);
        if (row) {
          await tx
            .update(categories)
            .set({ name, isDeleted: false, updatedAt: new Date() })
            .where(eq(categories.id, row.id));
          await recordAudit(tx, actor, {
            action: "category.restore",
            targetType: "category",
            targetId: row.id,
            summary: `Added category "${name}" back`,
          });
          result.restored.push(name);
        } else {
          const [created] = await tx
            .insert(categories)
            .values({ name })
            .returning({ id: categories.id });
          await recordAudit(tx, actor, {
            action: "category.create",
            targetType: "category",
            targetId: created.id,
            summary: `Added category "${name}"`,
          });
          result.added.push(name);
        }
      }

      for (const name of changes.delete) {
        const row = byKey.get(categoryKey(name));
        if (!row || row.isDeleted) continue;
        await tx
          .update(categories)
          .set({ isDeleted: true, updatedAt: new Date() })
          .where(and(eq(categories.id, row.id), eq(categories.isDeleted, false)));
        const [{ n }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(products)
          .where(sql`lower(trim(${products.category})) = ${row.name.trim().toLowerCase()}`);
        const inUse = Number(n);
        await recordAudit(tx, actor, {
          action: "category.delete",
          targetType: "category",
          targetId: row.id,
          summary:
            inUse > 0
              ? `Deleted category "${row.name}" (${inUse} product${inUse === 1 ? "" : "s"} keep it)`
              : `Deleted category "${row.name}"`,
          details: { productsKeepingCategory: inUse },
        });
        result.deleted.push(row.name);
        result.productsKeepingDeleted += inUse;
      }
    });
  } catch (error) {
    // Two admins adding the same new name at once: the unique index decides, the loser is told.
    if (isUniqueViolation(error)) {
      const name = changes.add.find(() => true) ?? "";
      throw new CategoryConflictError(name);
    }
    throw error;
  }
  return result;
}
