import { useId } from "react";
import { cn } from "~/lib/cn";

const STAR =
  "M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z";

/**
 * Stars 0 to 5, filled to the nearest half, read out as "Rated 4.5 out of 5". One small SVG per
 * rating (grids show dozens of them).
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
  const stars = [0, 1, 2, 3, 4].map((i) => <use key={i} href={`#${id}s`} x={i * 24} />);
  return (
    <svg
      role="img"
      aria-label={`Rated ${value.toFixed(1)} out of 5`}
      viewBox="0 0 120 24"
      width={size * 5}
      height={size}
      className={cn("inline-block shrink-0 text-amber-500", className)}
    >
      <defs>
        <path id={`${id}s`} d={STAR} />
        <clipPath id={`${id}c`}>
          <rect width={filled} height="24" />
        </clipPath>
      </defs>
      <g fill="none" stroke="currentColor" strokeWidth="1.5" opacity="0.45">
        {stars}
      </g>
      <g fill="currentColor" clipPath={`url(#${id}c)`}>
        {stars}
      </g>
    </svg>
  );
}
