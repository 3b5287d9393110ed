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
