import { describe, expect, it } from "vitest";
import { listingDescription, listingPathFor, subcategorySlug } from "./catalog-paths.ts";

describe("catalogue paths", () => {
  it("makes URL-safe subcategory slugs", () => {
    expect(subcategorySlug("Home Decor")).toBe("home-decor");
    expect(subcategorySlug("Desk & Office")).toBe("desk-office");
    expect(subcategorySlug("  Sci-Fi ")).toBe("sci-fi");
  });

  it("finds the listing whose text the category contains, case-insensitively", () => {
    expect(listingPathFor("3D Prints")).toBe("/3d-prints");
    expect(listingPathFor("premium 3d characters")).toBe("/3d-characters");
    expect(listingPathFor("Home")).toBeNull();
  });

  it("describes a listing in a sentence that reads (not '29 3D printed our products')", () => {
    expect(listingDescription(29, null)).toBe(
      "29 3D printed products from LayerKart, printed in India. Prices in rupees.",
    );
    expect(listingDescription(1, null)).toBe(
      "1 3D printed product from LayerKart, printed in India. Prices in rupees.",
    );
    expect(listingDescription(12, "3D Prints")).toBe(
      "12 products in 3D Prints from LayerKart, printed in India. Prices in rupees.",
    );
    expect(listingDescription(1, "Planters · 3D Prints")).toBe(
      "1 product in Planters · 3D Prints from LayerKart, printed in India. Prices in rupees.",
    );
  });
});
