import { type AnyColumn, and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { favourites, products } from "~/db/schema.ts";

/** The product ids a user has favourited (for hearts on cards). */
export async function listFavouriteIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ productId: favourites.productId })
    .from(favourites)
    .where(eq(favourites.userId, userId));
  return rows.map((r) => r.productId);
}

/**
 * The same ids as a SQL expression of a user id column (text[]), for a query that reads the viewer
 * (app/modules/accounts/viewer.server.ts, `getViewerWith`); `favouriteIdsFrom` reads its value.
 */
export function favouriteIdsOf(userId: AnyColumn): SQL {
  return sql`coalesce((select array_agg(${favourites.productId}::text) from ${favourites} where ${favourites.userId} = ${userId}), '{}'::text[])`;
}

/** The value of `favouriteIdsOf` as a driver returns it; null when it isn't a list of ids. */
export function favouriteIdsFrom(value: unknown): string[] | null {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return null;
  return value as string[];
}

/** A user's favourites, newest first, with the product's current details. */
export function listFavourites(db: Database, userId: string) {
  return db
    .select({
      productId: favourites.productId,
      name: products.name,
      imageUrl: products.image,
      category: products.category,
      pricePaise: products.pricePaise,
    })
    .from(favourites)
    .innerJoin(products, eq(products.id, favourites.productId))
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.createdAt), asc(favourites.productId));
}

/** Adds a product to the user's favourites; false when the product doesn't exist. */
export async function addFavourite(
  db: Database,
  userId: string,
  productId: string,
): Promise<boolean> {
  const [product] = await db
    .select({
      name: products.name,
      image: products.image,
      category: products.category,
      pricePaise: products.pricePaise,
    })
    .from(products)
    .where(and(eq(products.id, productId), isNull(products.quoteId)));
  if (!product) return false;
  await db
    .insert(favourites)
    .values({
      userId,
      productId,
      name: product.name,
      imageUrl: product.image,
      category: product.category,
      pricePaise: product.pricePaise,
    })
    .onConflictDoNothing();
  return true;
}

export async function removeFavourite(db: Database, userId: string, productId: string) {
  await db
    .delete(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.productId, productId)));
}
