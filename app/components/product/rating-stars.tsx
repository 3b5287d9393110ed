import { useId } from "react";
import { cn } from "~/lib/cn";

/**
 * Stars 0 to 5, filled to the nearest half, read out as "Rated 4.5 out of 5". One small SVG per
 * rating (grids show dozens of them), drawing the five stars of the page's icon sprite
 * (app/components/ui/icon-sprite.tsx) twice: outlined, and filled up to the rating.
 */
export function RatingStars({
  rating,
  className,
  size = 16,
}: {
  rating: number;
  className?: string;
  size?: number;
}) {
  const id = useId();
  const value = Math.max(0, Math.min(5, Number.isFinite(rating) ? rating : 0));
  const filled = (Math.round(value * 2) / 2) * 24;
  return (
    <svg
      role="img"
      aria-label={`Rated ${value.toFixed(1)} out of 5`}
      viewBox="0 0 120 24"
      width={size * 5}
      height={size}
      className={cn("rating-stars", className)}
    >
      {filled > 0 && filled < 120 ? (
        <defs>
          <clipPath id={`${id}c`}>
            <rect width={filled} height="24" />
          </clipPath>
        </defs>
      ) : null}
      <use href="#lk-stars-outline" />
      {filled > 0 ? (
        <use href="#lk-stars-filled" clipPath={filled < 120 ? `url(#${id}c)` : undefined} />
      ) : null}
    </svg>
  );
}
