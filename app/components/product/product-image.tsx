import { PLACEHOLDER_IMAGE, srcSet } from "~/rules/images.ts";

/**
 * A product image with AVIF/WebP variants at several widths. The page's LCP image is `priority`
 * (eager, fetchpriority=high); every other image is lazy.
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
  const webp = srcSet(url, "webp");
  return (
    <picture>
      {avif ? <source type="image/avif" srcSet={avif} sizes={sizes} /> : null}
      {webp ? <source type="image/webp" srcSet={webp} sizes={sizes} /> : null}
      <img
        src={url}
        alt={alt}
        width={640}
        height={640}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : "auto"}
        decoding={priority ? "sync" : "async"}
        className={className}
      />
    </picture>
  );
}
