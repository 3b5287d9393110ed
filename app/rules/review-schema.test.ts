import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidRating, reviewSchema, reviewText } from "./review-schema.ts";

describe("review schema", () => {
  it("accepts exactly the whole ratings 1 to 5", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double()), (rating) => {
        const ok = reviewSchema.safeParse({ rating }).success;
        expect(ok).toBe(Number.isInteger(rating) && rating >= 1 && rating <= 5);
        expect(isValidRating(rating)).toBe(ok);
      }),
    );
  });

  it("says 'Please select a rating between 1 and 5 stars.' for a bad rating", () => {
    for (const rating of [0, 6, 2.5, "", "abc", undefined, null]) {
      const parsed = reviewSchema.safeParse({ rating });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].message).toBe(reviewText.invalidRatingDescription);
    }
  });

  it("reads a form's rating text", () => {
    expect(reviewSchema.parse({ rating: "4" })).toEqual({ rating: 4 });
  });

  it("sends blank title and review as absent, trims the rest", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", " ", "\n\t "),
        fc.constantFrom(undefined, null, ""),
        (t, r) => {
          const parsed = reviewSchema.parse({ rating: 5, title: t, review: r });
          expect(parsed.title).toBeUndefined();
          expect(parsed.review).toBeUndefined();
        },
      ),
    );
    expect(reviewSchema.parse({ rating: 5, title: "  Great  " }).title).toBe("Great");
  });

  it("limits the title to 100 and the review to 1000 characters", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1200 }), (n) => {
        const text = "x".repeat(n);
        expect(reviewSchema.safeParse({ rating: 3, title: text }).success).toBe(n <= 100);
        expect(reviewSchema.safeParse({ rating: 3, review: text }).success).toBe(n <= 1000);
      }),
      { numRuns: 200 },
    );
  });
});
