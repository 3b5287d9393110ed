/**
 * Responsive image variants. An uploaded image is stored once per width and format beside its
 * storage path: `{storagePath}` is the 640 px WebP, `{storagePath}.w{width}.{format}` the others.
 */
export const IMAGE_WIDTHS = [320, 640] as const;
export const IMAGE_FORMATS = ["avif", "webp"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const PLACEHOLDER_IMAGE = "/images/placeholder.svg";

export function variantSuffix(width: number, format: ImageFormat): string {
  return `.w${width}.${format}`;
}

/** srcset for an image URL produced by the upload pipeline; empty for foreign URLs. */
export function srcSet(url: string, format: ImageFormat): string {
  if (!url.startsWith("/uploads/")) return "";
  return IMAGE_WIDTHS.map((w) => `${url}${variantSuffix(w, format)} ${w}w`).join(", ");
}
