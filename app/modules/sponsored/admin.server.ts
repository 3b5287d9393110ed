import { and, asc, eq, ilike, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { products, shopSettings, sponsoredProducts } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";

/*
 * The home carousel's products (SPEC.md §7 setSponsoredProducts). The table keeps one row per
 * product ever sponsored: `position` orders the carousel (the home page reads
 * app/modules/sponsored/sponsored.server.ts: live rows of active products by position), and a
 * product taken out of the set is soft-deleted.
 */

const SEARCH_LIMIT = 20;

export type SponsoredEntry = {
  productId: string;
  name: string;
  image: string | null;
  pricePaise: number;
  category: string;
  isActive: boolean;
};

const entryColumns = {
  productId: products.id,
  name: products.name,
  image: products.image,
  pricePaise: products.pricePaise,
  category: products.category,
  isActive: products.isActive,
};

/** The current set in carousel order (inactive products included: the page says they're hidden). */
export function listSponsored(db: Database): Promise<SponsoredEntry[]> {
  return db
    .select(entryColumns)
    .from(sponsoredProducts)
    .innerJoin(products, eq(products.id, sponsoredProducts.productId))
    .where(eq(sponsoredProducts.isDeleted, false))
    .orderBy(asc(sponsoredProducts.position), asc(products.name));
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Products whose name contains the text (case-insensitive), for the "add" search. */
export function searchProductsByName(db: Database, text: string): Promise<SponsoredEntry[]> {
  const q = text.trim().slice(0, 100);
  if (q === "") return Promise.resolve([]);
  return db
    .select(entryColumns)
    .from(products)
    .where(and(ilike(products.name, `%${escapeLike(q)}%`), isNull(products.quoteId)))
    .orderBy(
      // names starting with the text first
      sql`case when lower(${products.name}) like ${`${escapeLike(q.toLowerCase())}%`} then 0 else 1 end`,
      asc(products.name),
    )
    .limit(SEARCH_LIMIT);
}

export class UnknownProductsError extends Error {
  readonly ids: string[];
  constructor(ids: string[]) {
    super(`Unknown products: ${ids.join(", ")}`);
    this.ids = ids;
  }
}

/**
 * Replaces the sponsored set with `productIds`, in that order, in one transaction: listed
 * products get positions 0, 1, 2… and are live; every other row is soft-deleted.
 */
export async function setSponsoredProducts(
  db: Database,
  actor: Pick<Viewer, "id" | "email">,
  productIds: string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    // One save at a time: two admins saving together get one set or the other, never a mix.
    await tx
      .select({ id: shopSettings.id })
      .from(shopSettings)
      .where(eq(shopSettings.id, 1))
      .for("update");
    if (productIds.length > 0) {
      const found = await tx
        .select({ id: products.id })
        .from(products)
        .where(inArray(products.id, productIds));
      const known = new Set(found.map((r) => r.id));
      const missing = productIds.filter((id) => !known.has(id));
      if (missing.length > 0) throw new UnknownProductsError(missing);
    }
    const before = await tx
      .select({ productId: sponsoredProducts.productId })
      .from(sponsoredProducts)
      .where(eq(sponsoredProducts.isDeleted, false))
      .orderBy(asc(sponsoredProducts.position));

    await tx
      .update(sponsoredProducts)
      .set({ isDeleted: true, updatedAt: new Date() })
      .where(
        and(
          eq(sponsoredProducts.isDeleted, false),
          productIds.length > 0 ? notInArray(sponsoredProducts.productId, productIds) : undefined,
        ),
      );
    if (productIds.length > 0) {
      const now = new Date();
      await tx
        .insert(sponsoredProducts)
        .values(
          productIds.map((productId, position) => ({ productId, position, isDeleted: false })),
        )
        .onConflictDoUpdate({
          target: sponsoredProducts.productId,
          set: {
            position: sql`excluded.position`,
            isDeleted: false,
            updatedAt: now,
          },
        });
    }
    await recordAudit(tx, actor, {
      action: "sponsored.update",
      targetType: "sponsored_products",
      summary:
        productIds.length === 0
          ? "Cleared the sponsored products"
          : `Set ${productIds.length} sponsored product${productIds.length === 1 ? "" : "s"}`,
      details: { before: before.map((r) => r.productId), after: productIds },
    });
  });
}
