import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { discounts, promotionInterests, promotions } from "~/db/schema.ts";
import { type DiscountRow, toRule } from "~/modules/discounts/discounts.server.ts";
import { enqueueJob, type RunJobsNow, runQueuedNow } from "~/modules/jobs/jobs.server.ts";
import { offerEndDay, offerStartDay } from "~/rules/discount-schema.ts";
import { type DiscountStatus, discountStatus } from "~/rules/discounts.ts";
import { type PromotionOffer, promotionShows } from "~/rules/promotion-offer.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";
import type { PromotionInterestInput } from "~/rules/storefront-schemas.ts";

/** Statuses in which a card's discount can't be used: the card says so, or hides. */
const ENDED: ReadonlySet<DiscountStatus> = new Set(["expired", "used-up", "paused", "archived"]);

/** The card's discount as the home page shows it. */
export function promotionOffer(
  row: DiscountRow,
  hideWhenEnded: boolean,
  now: Date,
): PromotionOffer {
  const status = discountStatus(toRule(row), now);
  return {
    code: row.code ? row.code.toUpperCase() : null,
    endsAt: row.endsAt?.toISOString() ?? null,
    endsLabel: row.endsAt ? `Ends ${offerEndDay(row.endsAt, now)}` : null,
    startsLabel:
      status === "scheduled" && row.startsAt ? `Starts ${offerStartDay(row.startsAt, now)}` : null,
    ended: ENDED.has(status),
    hideWhenEnded,
  };
}

/**
 * Promotions that aren't deleted, newest first, each with the discount its card carries; a card
 * whose discount has ended and that should then hide is left out. (The home page is cached:
 * discount changes announce themselves to the page cache, and the browser hides or marks a card
 * whose end passes while the page is open or cached.)
 */
export async function listLivePromotions(
  db: Database,
  now: Date = new Date(),
): Promise<LivePromotion[]> {
  const rows = await db
    .select({
      id: promotions.id,
      name: promotions.name,
      description: promotions.description,
      image: promotions.image,
      discount: promotions.discount,
      cta: promotions.cta,
      hideWhenDiscountEnds: promotions.hideWhenDiscountEnds,
      offer: discounts,
    })
    .from(promotions)
    .leftJoin(discounts, eq(discounts.id, promotions.discountId))
    .where(eq(promotions.isDeleted, false))
    .orderBy(desc(promotions.createdAt), desc(promotions.id));
  return rows
    .map(({ offer, hideWhenDiscountEnds, ...p }) => ({
      ...p,
      offer: offer ? promotionOffer(offer, hideWhenDiscountEnds, now) : null,
    }))
    .filter((p) => promotionShows(p, now.getTime()));
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
