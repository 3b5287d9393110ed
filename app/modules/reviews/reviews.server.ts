import { type AnyColumn, and, desc, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { orderItems, orders, products, reviewStats, reviews } from "~/db/schema.ts";
import { summariseReviews } from "~/rules/product-display.ts";
import { type ReviewInput, reviewSchema } from "~/rules/review-schema.ts";

/*
 * Customer reviews (SPEC.md §2 "Review dialog", §3 "Review", "Review stats"). One review per user
 * per product; the product's review_stats row and its own rating / reviewsCount columns change in
 * the same transaction as the review, so cards, the product page and the stored reviews never
 * disagree. Every function takes the session's user id, never one from the browser.
 */

export type MyReview = {
  id: string;
  rating: number;
  title: string | null;
  review: string | null;
  isVerifiedPurchase: boolean;
  createdAt: string;
  updatedAt: string;
};

export class ReviewProductNotFoundError extends Error {
  readonly productId: string;
  constructor(productId: string) {
    super("Product not found");
    this.productId = productId;
    this.name = "ReviewProductNotFoundError";
  }
}

type Executor = Pick<Database, "select">;

/** The newest paid order of this user that contains the product, or null. */
async function paidOrderWith(
  db: Executor,
  userId: string,
  productId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ orderId: orders.id })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.paymentStatus, "paid"),
        ne(orders.status, "cancelled"),
        eq(orderItems.productId, productId),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return row?.orderId ?? null;
}

/** Whether the user bought the product in a paid order (a verified buyer). */
export async function isVerifiedBuyer(
  db: Database,
  userId: string,
  productId: string,
): Promise<boolean> {
  return (await paidOrderWith(db, userId, productId)) !== null;
}

function toMyReview(row: typeof reviews.$inferSelect): MyReview {
  return {
    id: row.id,
    rating: row.rating,
    title: row.title,
    review: row.review,
    isVerifiedPurchase: row.isVerifiedPurchase,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The user's own review of a product, or null. */
export async function getMyReview(
  db: Database,
  userId: string,
  productId: string,
): Promise<MyReview | null> {
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.productId, productId)));
  return row ? toMyReview(row) : null;
}

const starColumn = {
  1: reviewStats.rating1,
  2: reviewStats.rating2,
  3: reviewStats.rating3,
  4: reviewStats.rating4,
  5: reviewStats.rating5,
} as const;
const starKey = { 1: "rating1", 2: "rating2", 3: "rating3", 4: "rating4", 5: "rating5" } as const;
type Star = keyof typeof starColumn;

/**
 * Creates the user's review of a product, or updates it when one exists. Returns the review and
 * whether it was created. Throws a ZodError for bad input and ReviewProductNotFoundError for an
 * unknown product.
 */
export async function upsertReview(
  db: Database,
  userId: string,
  productId: string,
  input: { rating: number; title?: string | null; review?: string | null },
): Promise<{ review: MyReview; created: boolean }> {
  const valid: ReviewInput = reviewSchema.parse(input);
  const rating = valid.rating as Star;
  return db.transaction(async (tx) => {
    // Locking the product row serialises reviews of one product, so stats add up exactly.
    const [product] = await tx
      .select({ id: products.id, reviewsList: products.reviewsList })
      .from(products)
      .where(and(eq(products.id, productId), isNull(products.quoteId)))
      .for("update");
    if (!product) throw new ReviewProductNotFoundError(productId);

    const orderId = await paidOrderWith(tx, userId, productId);
    const [previous] = await tx
      .select()
      .from(reviews)
      .where(and(eq(reviews.userId, userId), eq(reviews.productId, productId)));

    const now = new Date();
    const fields = {
      rating,
      title: valid.title ?? null,
      review: valid.review ?? null,
      isVerifiedPurchase: orderId !== null,
      updatedAt: now,
    };
    let saved: typeof reviews.$inferSelect;
    if (previous) {
      [saved] = await tx
        .update(reviews)
        .set({ ...fields, orderId: orderId ?? previous.orderId })
        .where(eq(reviews.id, previous.id))
        .returning();
      const old = previous.rating as Star;
      await tx
        .update(reviewStats)
        .set({
          ratingSum: sql`${reviewStats.ratingSum} + ${rating - old}`,
          ...(old === rating
            ? {}
            : {
                [starKey[old]]: sql`${starColumn[old]} - 1`,
                [starKey[rating]]: sql`${starColumn[rating]} + 1`,
              }),
          updatedAt: now,
        })
        .where(eq(reviewStats.productId, productId));
    } else {
      [saved] = await tx
        .insert(reviews)
        .values({ ...fields, userId, productId, orderId, createdAt: now })
        .returning();
      await tx
        .insert(reviewStats)
        .values({ productId, totalReviews: 1, ratingSum: rating, [starKey[rating]]: 1 })
        .onConflictDoUpdate({
          target: reviewStats.productId,
          set: {
            totalReviews: sql`${reviewStats.totalReviews} + 1`,
            ratingSum: sql`${reviewStats.ratingSum} + ${rating}`,
            [starKey[rating]]: sql`${starColumn[rating]} + 1`,
            updatedAt: now,
          },
        });
    }

    // The product's own columns feed every card: static reviews plus stored ones.
    const [stats] = await tx.select().from(reviewStats).where(eq(reviewStats.productId, productId));
    const summary = summariseReviews(product.reviewsList, stats ?? null);
    await tx
      .update(products)
      .set({ rating: summary.averageRating, reviewsCount: summary.totalReviews })
      .where(eq(products.id, productId));

    return { review: toMyReview(saved), created: !previous };
  });
}

/**
 * What the product page needs for its review button: a signed-in verified buyer may write a
 * review, or edit the one they wrote. Signed out: nothing is read.
 */
/**
 * Whether a user would see a review button on a product's page (they bought it, or reviewed it),
 * as a SQL expression of a user id column, for the query that reads the viewer (decision 0026:
 * such a customer's product page is rendered in full, the others' come from the page cache).
 */
export function reviewContextOf(productId: string): (userId: AnyColumn) => SQL {
  return (userId) => {
    const bought = boughtQuery(userId, productId);
    const reviewed = sql`select 1 from ${reviews} where ${reviews.userId} = ${userId} and ${reviews.productId} = ${productId}`;
    return sql`(exists (${bought}) or exists (${reviewed}))`;
  };
}

function boughtQuery(userId: AnyColumn, productId: string): SQL {
  return sql`select 1 from ${orders} inner join ${orderItems} on ${orderItems.orderId} = ${orders.id} where ${orders.userId} = ${userId} and ${orders.paymentStatus} = 'paid' and ${orders.status} <> 'cancelled' and ${orderItems.productId} = ${productId}`;
}

export async function reviewContext(
  db: Database,
  userId: string | null | undefined,
  productId: string,
): Promise<{ canReview: boolean; myReview: MyReview | null }> {
  if (!userId) return { canReview: false, myReview: null };
  // One query (a signed-in page's queries add up): whether a paid order holds the product, and
  // the user's own review of it, if any.
  const bought = db
    .select({ one: sql`1` })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.paymentStatus, "paid"),
        ne(orders.status, "cancelled"),
        eq(orderItems.productId, productId),
      ),
    );
  const [row] = await db
    .select({ verified: sql<boolean>`exists (${bought})`, review: reviews })
    .from(sql`(select 1) as one`)
    .leftJoin(reviews, and(eq(reviews.userId, userId), eq(reviews.productId, productId)));
  return {
    canReview: row?.verified === true,
    myReview: row?.review ? toMyReview(row.review) : null,
  };
}
