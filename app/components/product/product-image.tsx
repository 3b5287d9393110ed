import { PLACEHOLDER_IMAGE, srcSet } from "~/rules/images.ts";

/**
 * A product image: AVIF at several widths for the browsers that read it (every current one), the
 * stored 640 px WebP for the rest. The WebP widths (`.w320.webp`) are not offered: only a browser
 * without AVIF (Safari before 16) would pick them, at the price of two more URLs per image in
 * every page (a listing has 24). The page's LCP image is `priority` (eager, fetchpriority=high);
 * every other image is lazy.
 */
export function ProductImage({
  src,
  alt,
  sizes,
  priority = false,
  className,
}: {
  src: string | null | undefined;
  alt: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const url = src || PLACEHOLDER_IMAGE;
  const avif = srcSet(url, "avif");
  return (
    <picture>
      {avif ? <source type="image/avif" srcSet={avif} sizes={sizes} /> : null}
      <img
        src={url}
        alt={alt}
        width={640}
        height={640}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        decoding={priority ? "sync" : "async"}
        className={className}
      />
    </picture>
  );
}
