/** URL paths of the catalogue's listings, shared by links and by the listing's query. */

/** A URL-safe slug for a subcategory: lowercase letters and digits joined by hyphens. */
export function subcategorySlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export const LISTINGS = {
  "3D Prints": "/3d-prints",
  "3D Characters": "/3d-characters",
} as const;

/** The listing a product's category belongs to (category contains the listing's text), if any. */
export function listingPathFor(category: string): string | null {
  const lower = category.toLowerCase();
  for (const [text, path] of Object.entries(LISTINGS)) {
    if (lower.includes(text.toLowerCase())) return path;
  }
  return null;
}

/**
 * A listing's meta description. Every product (`of` null) reads "29 3D printed products …"; a
 * category or subcategory names it as its heading does ("12 products in 3D Prints …"), rather than
 * lowercasing the heading into the sentence ("29 3D printed our products").
 */
export function listingDescription(total: number, of: string | null): string {
  const count = `${total} ${total === 1 ? "product" : "products"}`;
  const what = of
    ? `${count} in ${of}`
    : `${total} 3D printed ${total === 1 ? "product" : "products"}`;
  return `${what} from LayerKart, printed in India. Prices in rupees.`;
}
