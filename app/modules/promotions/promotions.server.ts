import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { promotionInterests, promotions } from "~/db/schema.ts";
import type { PromotionInterestInput } from "~/rules/storefront-schemas.ts";

export type LivePromotion = {
  id: string;
  name: string;
  description: string;
  image: string | null;
  discount: string | null;
  cta: string | null;
};

/** Promotions that aren't deleted, newest first. */
export function listLivePromotions(db: Database): Promise<LivePromotion[]> {
  return db
    .select({
      id: promotions.id,
      name: promotions.name,
      description: promotions.description,
      image: promotions.image,
      discount: promotions.discount,
      cta: promotions.cta,
    })
    .from(promotions)
    .where(eq(promotions.isDeleted, false))
    .orderBy(desc(promotions.createdAt), desc(promotions.id));
}

/** Stores a visitor's interest in a live promotion; false when there's no such promotion. */
export async function recordPromotionInterest(
  db: Database,
  input: PromotionInterestInput,
): Promise<boolean> {
  const [promotion] = await db
    .select({ id: promotions.id, name: promotions.name })
    .from(promotions)
    .where(and(eq(promotions.id, input.promotionId), eq(promotions.isDeleted, false)));
  if (!promotion) return false;
  await db.insert(promotionInterests).values({
    promotionId: promotion.id,
    promotionTitle: promotion.name,
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
  });
  return true;
}
