import { Heart, ShoppingCart } from "lucide-react";

/** A star of a rating, in a 24-unit cell. */
const STAR =
  "M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z";

/** Icons a page may repeat many times (every card of a grid), drawn by `SpriteIcon`. */
export type SpriteIconName = "heart" | "cart";

/**
 * The drawings behind `SpriteIcon` and the rating stars, once per page (the root layout renders
 * it): a grid of 24 cards then refers to them instead of repeating every path 24 times. The
 * icons are lucide's own; their `fill` is the referring icon's, so a class can fill the heart.
 */
export function IconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      <symbol id="lk-heart" viewBox="0 0 24 24">
        <Heart fill="inherit" />
      </symbol>
      <symbol id="lk-cart" viewBox="0 0 24 24">
        <ShoppingCart fill="inherit" />
      </symbol>
      <symbol id="lk-stars" viewBox="0 0 120 24">
        <path id="lk-star" d={STAR} />
        {[1, 2, 3, 4].map((i) => (
          <use key={i} href="#lk-star" x={i * 24} />
        ))}
      </symbol>
      {/* A rating's two layers: the outlines, and the stars filled (clipped to the rating). */}
      <symbol id="lk-stars-outline" viewBox="0 0 120 24">
        <use href="#lk-stars" fill="none" stroke="currentColor" strokeWidth="1.5" opacity="0.45" />
      </symbol>
      <symbol id="lk-stars-filled" viewBox="0 0 120 24">
        <use href="#lk-stars" fill="currentColor" />
      </symbol>
    </svg>
  );
}

/**
 * An icon from the page's `IconSprite`, looking like lucide's (coloured by `currentColor`,
 * unfilled unless a class fills it). Decorative: the control it sits in names it. Sized by CSS
 * only (no width and height in the markup, 48 icons on a listing): inside a `.btn` it is 16 px
 * (`size-4`) unless a `size-*` class says otherwise; elsewhere give it a `size-*` class.
 */
export function SpriteIcon({ name, className }: { name: SpriteIconName; className?: string }) {
  return (
    <svg aria-hidden="true" fill="none" className={className}>
      <use href={`#lk-${name}`} />
    </svg>
  );
}
