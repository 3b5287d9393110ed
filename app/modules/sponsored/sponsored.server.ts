import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { products, sponsoredProducts } from "~/db/schema.ts";
import type { SponsoredSlide } from "~/rules/sponsored.ts";

/** The home carousel's slides: sponsored, active products in their chosen order. */
export function listSponsoredSlides(db: Database): Promise<SponsoredSlide[]> {
  return db
    .select({
      productId: products.id,
      name: products.name,
      description: products.description,
      image: products.image,
      pricePaise: products.pricePaise,
      category: products.category,
    })
    .from(sponsoredProducts)
    .innerJoin(products, eq(products.id, sponsoredProducts.productId))
    .where(and(eq(sponsoredProducts.isDeleted, false), eq(products.isActive, true)))
    .orderBy(asc(sponsoredProducts.position));
}
