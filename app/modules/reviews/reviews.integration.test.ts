import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import type { Database } from "~/adapters/db/index.server.ts";
import { orders, products, reviewStats, reviews } from "~/db/schema.ts";
import { getReviewStats, listProductReviews } from "~/modules/catalog/products.server.ts";
import {
  createVerifiedUser,
  outcome,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import {
  apiPost,
  insertOrder,
  insertProduct,
  staticReviews,
} from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import {
  getMyReview,
  ReviewProductNotFoundError,
  reviewContext,
  upsertReview,
} from "./reviews.server.ts";

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
});
afterAll(async () => {
  await harness?.stop();
});

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  return { ...account, cookie: await signInCookie(harness.rt.auth, account) };
}

const stats = async (productId: string) => {
  const row = await getReviewStats(db, productId);
  return (
    row && [
      row.totalReviews,
      row.ratingSum,
      [row.rating1, row.rating2, row.rating3, row.rating4, row.rating5],
    ]
  );
};
const productColumns = async (productId: string) => {
  const [p] = await db
    .select({ rating: products.rating, reviewsCount: products.reviewsCount })
    .from(products)
    .where(eq(products.id, productId));
  return p;
};

const api = () => import("~/routes/api.reviews.ts");
const post = async (body: Record<string, unknown>, cookie?: string, json = false) =>
  outcome(async () =>
    (await api()).action(routeArgs(apiPost("/api/reviews", body, { cookie, json })) as never),
  );

describe(`reviews module on ${testDbKind()}`, () => {
  it("creating reviews keeps the stats and the product's rating and count right", async () => {
    // Static reviews 4 and 5; stored 3 and 5 → (4+5+3+5)/4 = 4.25 → 4.3 with 4 reviews.
    const product = await insertProduct(db, { reviewsList: staticReviews(4, 5), reviewsCount: 2 });
    const a = await customer("stats-a");
    const b = await customer("stats-b");
    const first = await upsertReview(db, a.id, product.id, { rating: 3, title: "Okay" });
    expect(first.created).toBe(true);
    await upsertReview(db, b.id, product.id, { rating: 5 });
    expect(await stats(product.id)).toEqual([2, 8, [0, 0, 1, 0, 1]]);
    expect(await productColumns(product.id)).toEqual({ rating: 4.3, reviewsCount: 4 });
  });

  it("updating moves the old rating out of the stats; one review per user per product", async () => {
    const product = await insertProduct(db);
    const a = await customer("update");
    await upsertReview(db, a.id, product.id, { rating: 2, title: "Meh", review: "Thin walls" });
    const second = await upsertReview(db, a.id, product.id, { rating: 5, title: "Great now" });
    expect(second.created).toBe(false);
    expect(await stats(product.id)).toEqual([1, 5, [0, 0, 0, 0, 1]]);
    expect(await productColumns(product.id)).toEqual({ rating: 5, reviewsCount: 1 });
    const rows = await db.select().from(reviews).where(eq(reviews.productId, product.id));
    expect(rows).toHaveLength(1);
    // An absent review text clears the old one.
    expect(rows[0]).toMatchObject({ rating: 5, title: "Great now", review: null });
    // The same rating again changes nothing in the counts.
    await upsertReview(db, a.id, product.id, { rating: 5 });
    expect(await stats(product.id)).toEqual([1, 5, [0, 0, 0, 0, 1]]);
  });

  it("stats stay exact when many customers review at once", async () => {
    const product = await insertProduct(db);
    const people = await Promise.all([1, 2, 3, 4, 5].map((n) => customer(`burst-${n}`)));
    await Promise.all(people.map((p, i) => upsertReview(db, p.id, product.id, { rating: i + 1 })));
    expect(await stats(product.id)).toEqual([5, 15, [1, 1, 1, 1, 1]]);
    expect(await productColumns(product.id)).toEqual({ rating: 3, reviewsCount: 5 });
  });

  it("marks a verified purchase only for a paid order containing the product", async () => {
    const bought = await insertProduct(db);
    const other = await insertProduct(db);
    const a = await customer("verified");
    const b = await customer("unverified");
    await insertOrder(db, a.id, [bought.id], "paid");
    await insertOrder(db, b.id, [bought.id], "unpaid");
    await insertOrder(db, b.id, [bought.id], "failed");
    await insertOrder(db, b.id, [other.id], "paid");

    expect((await upsertReview(db, a.id, bought.id, { rating: 4 })).review.isVerifiedPurchase).toBe(
      true,
    );
    expect((await upsertReview(db, b.id, bought.id, { rating: 4 })).review.isVerifiedPurchase).toBe(
      false,
    );
    expect(await reviewContext(db, a.id, bought.id)).toMatchObject({
      canReview: true,
      myReview: { rating: 4, isVerifiedPurchase: true },
    });
    expect(await reviewContext(db, b.id, bought.id)).toMatchObject({ canReview: false });
    expect(await reviewContext(db, b.id, other.id)).toEqual({ canReview: true, myReview: null });
    expect(await reviewContext(db, null, bought.id)).toEqual({ canReview: false, myReview: null });
    // A paid order that was cancelled (money to refund, nothing to receive) isn't a purchase.
    const c = await customer("cancelled");
    const cancelled = await insertOrder(db, c.id, [bought.id], "paid");
    await db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, cancelled.id));
    expect(await reviewContext(db, c.id, bought.id)).toMatchObject({ canReview: false });

    // The product page shows the stored reviews with the flag.
    const shown = await listProductReviews(db, bought.id, 1);
    expect(shown.reviews.map((r) => r.isVerifiedPurchase).sort()).toEqual([false, true]);
  });

  it("refuses bad input and unknown products without writing anything", async () => {
    const product = await insertProduct(db);
    const a = await customer("refuse");
    for (const rating of [0, 6, 3.5, Number.NaN]) {
      await expect(upsertReview(db, a.id, product.id, { rating })).rejects.toBeInstanceOf(ZodError);
    }
    await expect(
      upsertReview(db, a.id, product.id, { rating: 4, title: "x".repeat(101) }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      upsertReview(db, a.id, product.id, { rating: 4, review: "x".repeat(1001) }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(upsertReview(db, a.id, UNKNOWN, { rating: 4 })).rejects.toBeInstanceOf(
      ReviewProductNotFoundError,
    );
    expect(await getMyReview(db, a.id, product.id)).toBeNull();
    expect(await stats(product.id)).toBeNull();
  });
});

describe(`/api/reviews on ${testDbKind()}`, () => {
  it("answers 401 JSON to a visitor", async () => {
    const product = await insertProduct(db);
    expect(await post({ productId: product.id, rating: "5" })).toMatchObject({
      status: 401,
      body: { error: "Sign in required" },
    });
    expect(await stats(product.id)).toBeNull();
  });

  it("creates, then updates, the dialog's review; blank text is stored as absent", async () => {
    const product = await insertProduct(db);
    const a = await customer("dialog");
    await insertOrder(db, a.id, [product.id]);
    const created = await post(
      { productId: product.id, rating: "5", title: "Lovely", review: "Crisp layers" },
      a.cookie,
    );
    expect(created).toMatchObject({ status: 200, body: { ok: true, created: true } });
    const updated = await post(
      { productId: product.id, rating: 3, title: "", review: "   " },
      a.cookie,
      true,
    );
    expect(updated).toMatchObject({ status: 200, body: { ok: true, created: false } });
    expect(await getMyReview(db, a.id, product.id)).toMatchObject({
      rating: 3,
      title: null,
      review: null,
      isVerifiedPurchase: true,
    });
    expect(await stats(product.id)).toEqual([1, 3, [0, 0, 1, 0, 0]]);
  });

  it("answers 400 with the spec's messages to bad input", async () => {
    const product = await insertProduct(db);
    const a = await customer("dialog-bad");
    for (const rating of ["0", "6", "", "four", "2.5"]) {
      expect(await post({ productId: product.id, rating }, a.cookie)).toMatchObject({
        status: 400,
        body: {
          ok: false,
          error: "Invalid Rating",
          message: "Please select a rating between 1 and 5 stars.",
        },
      });
    }
    expect(await post({ productId: product.id, rating: "4" }, a.cookie, true)).toMatchObject({
      status: 200,
    });
    const tooLong = await post(
      { productId: product.id, rating: "4", title: "x".repeat(101) },
      a.cookie,
    );
    expect(tooLong).toMatchObject({ status: 400, body: { ok: false, error: "Error" } });
    expect(await post({ productId: "nope", rating: "4" }, a.cookie)).toMatchObject({
      status: 400,
    });
    expect(await post({ productId: UNKNOWN, rating: "4" }, a.cookie)).toMatchObject({
      status: 404,
    });
    // Only the one good review was counted.
    expect(await stats(product.id)).toEqual([1, 4, [0, 0, 0, 1, 0]]);
  });

  it("a customer can't change another customer's review", async () => {
    const product = await insertProduct(db);
    const a = await customer("author");
    const b = await customer("intruder");
    await upsertReview(db, a.id, product.id, { rating: 5, title: "Mine" });
    const [aReview] = await db.select().from(reviews).where(eq(reviews.userId, a.id));
    // B names A's review and A's user id: B's own review is written, A's stays.
    const res = await post(
      { productId: product.id, rating: "1", title: "Hacked", reviewId: aReview.id, userId: a.id },
      b.cookie,
    );
    expect(res).toMatchObject({ status: 200, body: { ok: true, created: true } });
    expect(await getMyReview(db, a.id, product.id)).toMatchObject({ rating: 5, title: "Mine" });
    expect(await getMyReview(db, b.id, product.id)).toMatchObject({ rating: 1, title: "Hacked" });
    const [row] = await db.select().from(reviewStats).where(eq(reviewStats.productId, product.id));
    expect(row.totalReviews).toBe(2);
  });
});
