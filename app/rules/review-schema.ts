import { z } from "zod";

/** The review form's rules (SPEC.md §5 "Review"), shared by the dialog and the server. */
export const REVIEW_TITLE_MAX = 100;
export const REVIEW_TEXT_MAX = 1000;
export const DEFAULT_REVIEW_RATING = 5;

export const reviewText = {
  invalidRatingTitle: "Invalid Rating",
  invalidRatingDescription: "Please select a rating between 1 and 5 stars.",
  submitted: "Review Submitted",
  updated: "Review Updated",
  errorTitle: "Error",
  errorFallback: "Failed to submit review. Please try again.",
} as const;

/** Blank text is sent as absent. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .optional()
    .nullable()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine(
      (v) => v === undefined || v.length <= max,
      `${label} must be at most ${max} characters.`,
    );

export const reviewSchema = z.object({
  rating: z.coerce
    .number({ error: reviewText.invalidRatingDescription })
    .int(reviewText.invalidRatingDescription)
    .min(1, reviewText.invalidRatingDescription)
    .max(5, reviewText.invalidRatingDescription),
  title: optionalText(REVIEW_TITLE_MAX, "Title"),
  review: optionalText(REVIEW_TEXT_MAX, "Review"),
});

export type ReviewInput = z.output<typeof reviewSchema>;

export const isValidRating = (rating: number) =>
  Number.isInteger(rating) && rating >= 1 && rating <= 5;
