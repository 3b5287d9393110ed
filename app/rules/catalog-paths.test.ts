import { describe, expect, it } from "vitest";
import { listingPathFor, subcategorySlug } from "./catalog-paths.ts";

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
});
