import type { ReviewSummary as Summary } from "~/rules/product-display.ts";
import { RatingStars } from "./rating-stars";

export function ReviewSummary({ summary }: { summary: Summary }) {
  const { averageRating, totalReviews, ratingDistribution } = summary;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-8">
      <div>
        <p className="font-bold text-4xl" data-testid="average-rating">
          {averageRating.toFixed(1)}
        </p>
        <RatingStars rating={averageRating} />
        <p className="mt-1 text-muted-foreground text-sm" data-testid="review-count">
          {totalReviews} {totalReviews === 1 ? "review" : "reviews"}
        </p>
      </div>
      <dl className="w-full max-w-sm space-y-1">
        {([5, 4, 3, 2, 1] as const).map((star) => {
          const n = ratingDistribution[star];
          const pct = totalReviews > 0 ? Math.round((n / totalReviews) * 100) : 0;
          return (
            <div key={star} className="flex items-center gap-2 text-sm">
              <dt className="w-12 shrink-0">{star} star</dt>
              <dd className="flex flex-1 items-center gap-2">
                <span className="h-2 flex-1 overflow-hidden rounded-full bg-muted">
                  <span
                    className="block h-full rounded-full bg-amber-500"
                    style={{ width: `${pct}%` }}
                  />
                </span>
                <span className="w-8 text-right tabular-nums" data-testid={`rating-${star}-count`}>
                  {n}
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
