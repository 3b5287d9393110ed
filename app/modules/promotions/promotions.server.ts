import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { promotionInterests, promotions } from "~/db/schema.ts";
import { enqueueJob, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";
import type { PromotionInterestInput } from "~/rules/storefront-schemas.ts";

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

/**
 * Stores a visitor's interest in a live promotion and queues an e-mail telling the shop, in one
 * transaction (as contact messages do); false when there's no such promotion.
 */
export async function recordPromotionInterest(
  deps: { db: Database; jobs?: RunJobsNow; shopEmail: string },
  input: PromotionInterestInput,
): Promise<boolean> {
  const [promotion] = await deps.db
    .select({ id: promotions.id, name: promotions.name })
    .from(promotions)
    .where(and(eq(promotions.id, input.promotionId), eq(promotions.isDeleted, false)));
  if (!promotion) return false;
  const reach = [input.email, input.phone].filter(Boolean).join(", ") || "no e-mail or phone given";
  await deps.db.transaction(async (tx) => {
    await tx.insert(promotionInterests).values({
      promotionId: promotion.id,
      promotionTitle: promotion.name,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
    });
    await enqueueJob(tx, "mail", {
      to: deps.shopEmail,
      ...(input.email ? { replyTo: input.email } : {}),
      subject: `Offer interest: ${promotion.name}`,
      text: `${input.name} (${reach}) would like to hear about "${promotion.name}". Please contact them.\n`,
    });
  });
  await runQueuedNow(deps.jobs);
  return true;
}
