import { data } from "react-router";
import { z } from "zod";
import { readForm, readJson } from "~/lib/forms.server.ts";
import { ReviewProductNotFoundError, upsertReview } from "~/modules/reviews/reviews.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { reviewSchema, reviewText } from "~/rules/review-schema.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.reviews";

const reviewRequest = reviewSchema.extend({ productId: z.uuid("Product not found") });

export type ReviewActionData =
  | { ok: true; created: boolean; review: { id: string; rating: number } }
  | {
      ok: false;
      error: string;
      message: string;
      fieldErrors?: Record<string, string | undefined>;
    };

/** Creates or updates the signed-in user's review of a product (401 JSON when signed out). */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  // A JSON or form body; anything else, or a broken body, is answered 400 by the schema.
  const body = request.headers.get("content-type")?.includes("application/json")
    ? await readJson(request)
    : formFields(await readForm(request));
  const parsed = reviewRequest.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const badRating = Boolean(errors.rating);
    return data<ReviewActionData>(
      {
        ok: false,
        error: badRating ? reviewText.invalidRatingTitle : reviewText.errorTitle,
        message: badRating
          ? reviewText.invalidRatingDescription
          : (Object.values(errors)[0] ?? reviewText.errorFallback),
        fieldErrors: errors,
      },
      { status: 400 },
    );
  }
  const { productId, ...review } = parsed.data;
  const { db } = await runtime();
  try {
    const saved = await upsertReview(db, viewer.id, productId, review);
    return data<ReviewActionData>({
      ok: true,
      created: saved.created,
      review: { id: saved.review.id, rating: saved.review.rating },
    });
  } catch (error) {
    if (error instanceof ReviewProductNotFoundError) {
      return data<ReviewActionData>(
        { ok: false, error: reviewText.errorTitle, message: "Product not found" },
        { status: 404 },
      );
    }
    throw error;
  }
}
