import { desc, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { products } from "~/db/schema.ts";

export const FEATURED_LIMIT = 8;

export type ProductCardData = {
  id: string;
  name: string;
  category: string;
  image: string | null;
  pricePaise: number;
  originalPricePaise: number | null;
  rating: number;
  reviewsCount: number;
  badge: string | null;
};

const cardColumns = {
  id: products.id,
  name: products.name,
  category: products.category,
  image: products.image,
  pricePaise: products.pricePaise,
  originalPricePaise: products.originalPricePaise,
  rating: products.rating,
  reviewsCount: products.reviewsCount,
  badge: products.badge,
};

/** The newest active products (home page 'Latest Products'). */
export function listLatestProducts(
  db: Database,
  limit = FEATURED_LIMIT,
): Promise<ProductCardData[]> {
  return db
    .select(cardColumns)
    .from(products)
    .where(eq(products.isActive, true))
    .orderBy(desc(products.createdAt), products.id)
    .limit(limit);
}
