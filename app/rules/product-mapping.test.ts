import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLACEHOLDER_IMAGE } from "./images.ts";
import {
  type MappedProduct,
  type MappingResult,
  mapLegacyProduct,
  mapLegacyProducts,
  slugify,
} from "./product-mapping.ts";

const fixture = JSON.parse(
  readFileSync(new URL("../../tests/fixtures/legacy-products.json", import.meta.url), "utf8"),
) as { about: string; products: Record<string, unknown> };

const resolveStorageUrl = (storagePath: string) => `/uploads/${storagePath}`;

/** Maps a document that must map, returning the product. */
function map(doc: unknown, options?: Parameters<typeof mapLegacyProduct>[2]): MappedProduct {
  const result = mapLegacyProduct("p-1", doc, options);
  if (!result.ok) throw new Error(`expected a product, got: ${result.reason}`);
  return result.product;
}

/** Maps a minimal valid document with the given extra fields. */
const withFields = (fields: Record<string, unknown>) => map({ name: "Thing", ...fields });

describe("the legacy products fixture", () => {
  const { products, skipped } = mapLegacyProducts(fixture.products, { resolveStorageUrl });
  const byId = new Map(products.map((p) => [p.id, p]));
  const get = (id: string) => {
    const p = byId.get(id);
    if (!p) throw new Error(`${id} was not mapped`);
    return p;
  };

  it("maps six documents in fixture order and skips the unmappable one with a reason", () => {
    expect(products.map((p) => p.id)).toEqual([
      "p-dragon-01",
      "p-lamp-02",
      "p-goku-03",
      "p-planter-04",
      "p-keychain-06",
      "p-knight-07",
    ]);
    expect(skipped).toEqual([{ id: "p-broken-05", reason: "missing name" }]);
  });

  it("p-dragon-01: a complete modern document maps field for field", () => {
    expect(get("p-dragon-01")).toEqual({
      id: "p-dragon-01",
      name: "Articulated Dragon",
      slug: "articulated-dragon",
      description: "Print-in-place articulated dragon, 30 cm.",
      pricePaise: 89_900,
      currency: "INR",
      originalPricePaise: 119_900,
      image: "https://files.example/dragon-1.jpg",
      images: [
        {
          url: "https://files.example/dragon-1.jpg",
          storagePath: "products/p-dragon-01/1700000000000_dragon-1.jpg",
        },
      ],
      category: "3D Prints",
      subcategory: "Toys",
      rating: 4.7,
      reviewsCount: 128,
      reviewsList: [],
      features: ["Print-in-place joints", "PLA+", "30 cm long"],
      featuresKv: null,
      discount: 25,
      inStock: true,
      stockCount: null,
      badge: "Best Seller",
      isActive: true,
      createdAt: new Date("2024-03-02T10:15:00Z"),
      updatedAt: null,
    } satisfies MappedProduct);
  });

  it("p-lamp-02: final_price string, image_urls, categories, a reviews array and a features map", () => {
    const p = get("p-lamp-02");
    expect(p.pricePaise).toBe(149_950);
    expect(p.originalPricePaise).toBeNull();
    expect(p.currency).toBe("INR");
    expect(p.images).toEqual([
      { url: "https://files.example/moon.jpg", storagePath: null },
      { url: "https://files.example/moon-2.jpg", storagePath: null },
    ]);
    expect(p.image).toBe("https://files.example/moon.jpg");
    expect(p.category).toBe("3D Prints");
    expect(p.subcategory).toBeNull();
    expect(p.reviewsCount).toBe(1);
    expect(p.reviewsList).toEqual([
      { rating: 5, name: "Anu", title: "Lovely", review: "Glows beautifully.", date: "" },
    ]);
    expect(p.features).toEqual([]);
    expect(p.featuresKv).toEqual({ Diameter: "15 cm", Power: "USB-C" });
    expect(p.rating).toBe(0);
    expect(p.discount).toBe(0);
    expect(p.inStock).toBe(true);
    expect(p.badge).toBeNull();
    expect(p.isActive).toBe(true);
    expect(p.createdAt).toBeNull();
    expect(p.slug).toBe("moon-lamp");
    expect(p.description).toBe("Lithophane moon lamp with warm LED.");
  });

  it("p-goku-03: featuresKv field, discount over 100 clamped, out of stock, no image", () => {
    const p = get("p-goku-03");
    expect(p.slug).toBe("warrior-miniature-28mm");
    expect(p.pricePaise).toBe(34_900);
    expect(p.category).toBe("3D Characters");
    expect(p.subcategory).toBe("Anime");
    expect(p.features).toEqual([]);
    expect(p.featuresKv).toEqual({ Scale: "28 mm", Material: "Resin" });
    expect(p.discount).toBe(100);
    expect(p.badge).toBe("New");
    expect(p.inStock).toBe(false);
    expect(p.isActive).toBe(true);
    expect(p.image).toBe(PLACEHOLDER_IMAGE);
    expect(p.images).toEqual([]);
    expect(p.description).toBe("");
    expect(p.reviewsCount).toBe(0);
    expect(p.createdAt?.toISOString()).toBe("2025-01-11T08:00:00.000Z");
  });

  it("p-planter-04: zero price, 'key: value' features kept as a list, negative discount, inactive", () => {
    const p = get("p-planter-04");
    expect(p.slug).toBe("self-watering-planter");
    expect(p.pricePaise).toBe(0);
    expect(p.features).toEqual(["Capacity: 1 L", "Material: PETG"]);
    expect(p.featuresKv).toBeNull();
    expect(p.discount).toBe(0);
    expect(p.isActive).toBe(false);
    expect(p.inStock).toBe(true);
    expect(p.subcategory).toBe("Home Decor");
    expect(p.image).toBe(PLACEHOLDER_IMAGE);
  });

  it("p-keychain-06: string price rounded to the paisa, string rating and review count", () => {
    const p = get("p-keychain-06");
    expect(p.pricePaise).toBe(20_000); // "199.999" rupees → 199.999 × 100 rounded
    expect(p.rating).toBe(4.2);
    expect(p.reviewsCount).toBe(17);
    expect(p.reviewsList).toEqual([]);
    expect(p.image).toBe("https://files.example/keychain.jpg");
    expect(p.images).toEqual([]);
    expect(p.subcategory).toBe("Gadgets");
  });

  it("p-knight-07: original price below the price is kept; a URL-less image is resolved", () => {
    const p = get("p-knight-07");
    expect(p.pricePaise).toBe(249_900);
    expect(p.originalPricePaise).toBe(199_900);
    expect(p.discount).toBe(0);
    const storagePath = "products/p-knight-07/1710000000000_knight.png";
    expect(p.images).toEqual([{ url: `/uploads/${storagePath}`, storagePath }]);
    expect(p.image).toBe(`/uploads/${storagePath}`);
  });

  it("p-knight-07 without a resolver keeps the storagePath with an empty URL and a placeholder image", () => {
    const result = mapLegacyProduct("p-knight-07", fixture.products["p-knight-07"]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.product.images).toEqual([
      { url: "", storagePath: "products/p-knight-07/1710000000000_knight.png" },
    ]);
    expect(result.product.image).toBe(PLACEHOLDER_IMAGE);
  });

  it("p-broken-05 fails on its own with a reason", () => {
    expect(mapLegacyProduct("p-broken-05", fixture.products["p-broken-05"])).toEqual({
      ok: false,
      id: "p-broken-05",
      reason: "missing name",
    });
  });

  it("every mapped fixture product satisfies the database's constraints", () => {
    for (const p of products) expectStorable(p);
  });
});

/** The invariants the products table's columns and checks need. */
function expectStorable(p: MappedProduct) {
  const int4 = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= 2_147_483_647;
  expect(p.name.trim()).toBe(p.name);
  expect(p.name).not.toBe("");
  expect(p.slug).toBe(slugify(p.name));
  expect(int4(p.pricePaise)).toBe(true);
  expect(
    p.originalPricePaise === null || (int4(p.originalPricePaise) && p.originalPricePaise > 0),
  ).toBe(true);
  expect(p.currency).toMatch(/^[A-Z]{3}$/);
  expect(p.image).not.toBe("");
  expect(p.rating).toBeGreaterThanOrEqual(0);
  expect(p.rating).toBeLessThanOrEqual(5);
  expect(int4(p.reviewsCount)).toBe(true);
  expect(p.reviewsCount).toBeGreaterThanOrEqual(p.reviewsList.length);
  expect(Number.isInteger(p.discount) && p.discount >= 0 && p.discount <= 100).toBe(true);
  expect(p.stockCount === null || int4(p.stockCount)).toBe(true);
  for (const image of p.images) expect(image.url !== "" || image.storagePath !== null).toBe(true);
  for (const r of p.reviewsList) {
    expect(r.rating).toBeGreaterThanOrEqual(1);
    expect(r.rating).toBeLessThanOrEqual(5);
  }
  for (const f of p.features) expect(f.trim()).not.toBe("");
  if (p.featuresKv) {
    expect(Object.keys(p.featuresKv).length).toBeGreaterThan(0);
    for (const v of Object.values(p.featuresKv)) expect(typeof v).toBe("string");
  }
  for (const d of [p.createdAt, p.updatedAt]) {
    expect(d === null || (d instanceof Date && !Number.isNaN(d.getTime()))).toBe(true);
  }
  // the product survives a trip through JSON (jsonb columns)
  expect(() => JSON.stringify(p)).not.toThrow();
}

describe("slugify", () => {
  it("lowercases and replaces each run of whitespace with one hyphen", () => {
    expect(slugify("Articulated Dragon")).toBe("articulated-dragon");
    expect(slugify("Moon   Lamp\tXL")).toBe("moon-lamp-xl");
    expect(slugify("Self-watering Planter")).toBe("self-watering-planter");
  });

  it("trims the name first so no slug starts or ends with a hyphen", () => {
    expect(slugify("  Knight Bust \n")).toBe("knight-bust");
  });

  it("keeps other characters as they are (the spec replaces only spaces)", () => {
    expect(slugify("Warrior 28mm (Resin) & Base")).toBe("warrior-28mm-(resin)-&-base");
    expect(slugify("गणेश मूर्ति")).toBe("गणेश-मूर्ति");
  });

  it("never yields whitespace or uppercase ASCII", () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const slug = slugify(name);
        expect(slug).not.toMatch(/\s|[A-Z]/);
        expect(slug.startsWith("-") && !name.trim().startsWith("-")).toBe(false);
      }),
    );
  });
});

describe("documents that cannot be mapped", () => {
  it.each([
    ["null", null],
    ["a string", "Dragon"],
    ["a number", 42],
    ["a boolean", true],
    ["an array", [{ name: "Dragon" }]],
    ["undefined", undefined],
  ])("fails for %s with 'document is not an object'", (_label, doc) => {
    expect(mapLegacyProduct("x", doc)).toEqual({
      ok: false,
      id: "x",
      reason: "document is not an object",
    });
  });

  it("fails without a name, or with a name that is not text", () => {
    for (const doc of [
      {},
      { name: null },
      { name: 12 },
      { name: ["Dragon"] },
      { title: "Dragon" },
    ]) {
      expect(mapLegacyProduct("x", doc)).toEqual({ ok: false, id: "x", reason: "missing name" });
    }
  });

  it("fails with a blank name", () => {
    for (const name of ["", "   ", "\n\t"]) {
      expect(mapLegacyProduct("x", { name, price: 100 })).toEqual({
        ok: false,
        id: "x",
        reason: "name is blank",
      });
    }
  });

  it("fails with a blank document id", () => {
    expect(mapLegacyProduct(" ", { name: "Dragon" })).toEqual({
      ok: false,
      id: " ",
      reason: "missing document id",
    });
  });

  it("reads only the document's own fields, never its prototype's", () => {
    const doc = Object.create({ name: "Inherited" });
    expect(mapLegacyProduct("x", doc)).toMatchObject({ ok: false, reason: "missing name" });
  });

  it("a resolver that throws leaves the image unresolved instead of failing", () => {
    const p = map(
      { name: "Thing", images: [{ url: "", storagePath: "products/a.png" }] },
      {
        resolveStorageUrl: () => {
          throw new Error("storage down");
        },
      },
    );
    expect(p.images).toEqual([{ url: "", storagePath: "products/a.png" }]);
  });

  it("turns an error while reading the document into a failure, not a throw", () => {
    const doc = {
      get name(): string {
        throw new Error("boom");
      },
    };
    expect(mapLegacyProduct("x", doc)).toEqual({
      ok: false,
      id: "x",
      reason: "unexpected error: boom",
    });
  });
});

describe("name, description and id", () => {
  it("trims the name and derives the slug from it, ignoring any stored slug", () => {
    const p = withFields({ name: "  Articulated  Dragon ", slug: "old-slug" });
    expect(p.name).toBe("Articulated  Dragon");
    expect(p.slug).toBe("articulated-dragon");
  });

  it("uses the document id as the product id", () => {
    expect(mapLegacyProduct("abc-123", { name: "Thing", productId: "other" })).toMatchObject({
      ok: true,
      product: { id: "abc-123" },
    });
  });

  it("defaults the description to empty text and trims it", () => {
    expect(withFields({}).description).toBe("");
    expect(withFields({ description: 5 }).description).toBe("");
    expect(withFields({ description: "  Nice.  " }).description).toBe("Nice.");
  });
});

describe("price", () => {
  it("converts rupees (numbers or numeric strings) to integer paise", () => {
    expect(withFields({ price: 899 }).pricePaise).toBe(89_900);
    expect(withFields({ price: 9.99 }).pricePaise).toBe(999);
    expect(withFields({ price: "1499.50" }).pricePaise).toBe(149_950);
    expect(withFields({ price: " 12 " }).pricePaise).toBe(1_200);
    expect(withFields({ price: ".5" }).pricePaise).toBe(50);
    expect(withFields({ price: "10." }).pricePaise).toBe(1_000);
  });

  it("rounds to the nearest paisa beyond two decimals (half away from zero)", () => {
    expect(withFields({ price: "199.999" }).pricePaise).toBe(20_000);
    expect(withFields({ price: "1.005" }).pricePaise).toBe(101);
    expect(withFields({ price: 0.1 + 0.2 }).pricePaise).toBe(30);
    expect(withFields({ price: 10.004 }).pricePaise).toBe(1_000);
  });

  it("falls back to final_price, then to 0", () => {
    expect(withFields({ final_price: 250 }).pricePaise).toBe(25_000);
    expect(withFields({ price: 100, final_price: 250 }).pricePaise).toBe(10_000);
    expect(withFields({}).pricePaise).toBe(0);
  });

  it("keeps an explicit price of 0 rather than falling back", () => {
    expect(withFields({ price: 0, final_price: 250 }).pricePaise).toBe(0);
    expect(withFields({ price: "0.00", final_price: 250 }).pricePaise).toBe(0);
  });

  it("treats a negative, non-numeric, non-finite or too large price as missing", () => {
    for (const price of [
      -1,
      "-5",
      "abc",
      "",
      "  ",
      "1,499",
      "₹499",
      "1e3",
      "0x10",
      null,
      true,
      [100],
      { amount: 100 },
      Number.NaN,
      Number.POSITIVE_INFINITY,
      21_474_837, // ₹2.15 crore: more paise than the column holds
    ]) {
      expect(withFields({ price }).pricePaise, JSON.stringify(price)).toBe(0);
      expect(withFields({ price, final_price: 7 }).pricePaise, JSON.stringify(price)).toBe(700);
    }
  });

  it("accepts the largest price the column holds", () => {
    expect(withFields({ price: "21474836.47" }).pricePaise).toBe(2_147_483_647);
  });

  it("never yields negative zero", () => {
    expect(Object.is(withFields({ price: "-0" }).pricePaise, 0)).toBe(true);
    expect(Object.is(withFields({ price: -0.001 }).pricePaise, 0)).toBe(true);
  });
});

describe("original price", () => {
  it("parses like the price", () => {
    expect(withFields({ originalPrice: 1199 }).originalPricePaise).toBe(119_900);
    expect(withFields({ originalPrice: "1199.99" }).originalPricePaise).toBe(119_999);
  });

  it("is null when absent, invalid, negative or zero", () => {
    for (const originalPrice of [undefined, null, "n/a", -10, 0, "0", Number.NaN, {}]) {
      expect(withFields({ originalPrice }).originalPricePaise).toBeNull();
    }
  });

  it("is kept even when it is below the price (percent off then shows nothing)", () => {
    expect(withFields({ price: 2499, originalPrice: 1999 }).originalPricePaise).toBe(199_900);
  });
});

describe("currency", () => {
  it("defaults to INR", () => {
    expect(withFields({}).currency).toBe("INR");
  });

  it("uppercases a three-letter code", () => {
    expect(withFields({ currency: "usd" }).currency).toBe("USD");
    expect(withFields({ currency: " inr " }).currency).toBe("INR");
  });

  it("falls back to INR for anything that is not a three-letter code", () => {
    for (const currency of ["", "₹", "rupees", "US", 356, null, ["INR"]]) {
      expect(withFields({ currency }).currency).toBe("INR");
    }
  });
});

describe("images", () => {
  it("takes {url, storagePath} objects from images", () => {
    const p = withFields({
      images: [
        { url: "https://a/1.jpg", storagePath: "products/x/1.jpg" },
        { url: "https://a/2.jpg" },
      ],
    });
    expect(p.images).toEqual([
      { url: "https://a/1.jpg", storagePath: "products/x/1.jpg" },
      { url: "https://a/2.jpg", storagePath: null },
    ]);
  });

  it("accepts image_urls, and plain URL strings inside images", () => {
    expect(withFields({ image_urls: ["https://a/1.jpg"] }).images).toEqual([
      { url: "https://a/1.jpg", storagePath: null },
    ]);
    expect(withFields({ images: ["https://a/1.jpg"] }).images).toEqual([
      { url: "https://a/1.jpg", storagePath: null },
    ]);
  });

  it("prefers images over image_urls, and uses image_urls when images yields nothing", () => {
    expect(
      withFields({ images: ["https://a/1.jpg"], image_urls: ["https://b/1.jpg"] }).images,
    ).toEqual([{ url: "https://a/1.jpg", storagePath: null }]);
    expect(withFields({ images: [null, {}], image_urls: ["https://b/1.jpg"] }).images).toEqual([
      { url: "https://b/1.jpg", storagePath: null },
    ]);
    expect(
      withFields({ images: "https://a/1.jpg", image_urls: ["https://b/1.jpg"] }).images,
    ).toEqual([{ url: "https://b/1.jpg", storagePath: null }]);
  });

  it("resolves a missing URL from the storagePath", () => {
    const calls: string[] = [];
    const p = map(
      {
        name: "Thing",
        images: [{ url: "  ", storagePath: "products/x/a.png" }, { storagePath: "b.png" }],
      },
      {
        resolveStorageUrl: (path) => {
          calls.push(path);
          return `https://cdn/${path}`;
        },
      },
    );
    expect(calls).toEqual(["products/x/a.png", "b.png"]);
    expect(p.images).toEqual([
      { url: "https://cdn/products/x/a.png", storagePath: "products/x/a.png" },
      { url: "https://cdn/b.png", storagePath: "b.png" },
    ]);
    expect(p.image).toBe("https://cdn/products/x/a.png");
  });

  it("does not call the resolver for an image that has a URL", () => {
    const p = map(
      { name: "Thing", images: [{ url: "https://a/1.jpg", storagePath: "p/1.jpg" }] },
      {
        resolveStorageUrl: () => {
          throw new Error("should not be called");
        },
      },
    );
    expect(p.images).toEqual([{ url: "https://a/1.jpg", storagePath: "p/1.jpg" }]);
  });

  it("keeps an unresolved storagePath with an empty URL when the resolver returns nothing", () => {
    const p = map(
      { name: "Thing", images: [{ url: null, storagePath: "p/1.jpg" }] },
      { resolveStorageUrl: () => "" },
    );
    expect(p.images).toEqual([{ url: "", storagePath: "p/1.jpg" }]);
  });

  it("drops images with neither URL nor storagePath, and items of other kinds", () => {
    const p = withFields({
      images: [
        { url: "", storagePath: "" },
        { url: null, storagePath: null },
        {},
        "",
        42,
        null,
        ["https://a/1.jpg"],
        { url: "https://a/ok.jpg" },
      ],
    });
    expect(p.images).toEqual([{ url: "https://a/ok.jpg", storagePath: null }]);
  });

  it("drops repeats of the same URL", () => {
    const p = withFields({
      images: [
        "https://a/1.jpg",
        { url: "https://a/1.jpg", storagePath: "p/1.jpg" },
        "https://a/2.jpg",
      ],
    });
    expect(p.images.map((i) => i.url)).toEqual(["https://a/1.jpg", "https://a/2.jpg"]);
  });

  it("image: the image field, else the first image URL, else the placeholder", () => {
    expect(withFields({ image: "https://a/main.jpg", images: ["https://a/1.jpg"] }).image).toBe(
      "https://a/main.jpg",
    );
    expect(
      withFields({ images: [{ url: "", storagePath: "p/0.jpg" }, "https://a/1.jpg"] }).image,
    ).toBe("https://a/1.jpg");
    expect(withFields({ image: "  ", image_urls: ["https://a/2.jpg"] }).image).toBe(
      "https://a/2.jpg",
    );
    expect(withFields({}).image).toBe(PLACEHOLDER_IMAGE);
    expect(withFields({ image: 5 }).image).toBe(PLACEHOLDER_IMAGE);
  });

  it("does not copy the image field into the gallery list", () => {
    expect(withFields({ image: "https://a/main.jpg" }).images).toEqual([]);
  });
});

describe("category and subcategory", () => {
  it("uses category, else the last of categories, else empty text", () => {
    expect(withFields({ category: "3D Prints", categories: ["Home"] }).category).toBe("3D Prints");
    expect(withFields({ categories: ["Home", "3D Prints"] }).category).toBe("3D Prints");
    expect(withFields({}).category).toBe("");
    expect(withFields({ categories: [] }).category).toBe("");
  });

  it("skips blank or non-text entries at the end of categories", () => {
    expect(withFields({ categories: ["Home", "3D Prints", " ", null] }).category).toBe("3D Prints");
    expect(withFields({ category: "  ", categories: ["Home"] }).category).toBe("Home");
    expect(withFields({ categories: "Gifts" }).category).toBe("Gifts");
    expect(withFields({ categories: { a: "Home" } }).category).toBe("");
  });

  it("trims the category", () => {
    expect(withFields({ category: " 3D Prints " }).category).toBe("3D Prints");
  });

  it("subcategory is trimmed text or null", () => {
    expect(withFields({ subcategory: " Toys " }).subcategory).toBe("Toys");
    expect(withFields({ subcategory: "" }).subcategory).toBeNull();
    expect(withFields({ subcategory: 3 }).subcategory).toBeNull();
    expect(withFields({}).subcategory).toBeNull();
  });
});

describe("rating", () => {
  it("defaults to 0 and accepts numbers and numeric strings", () => {
    expect(withFields({}).rating).toBe(0);
    expect(withFields({ rating: 4.7 }).rating).toBe(4.7);
    expect(withFields({ rating: "4.2" }).rating).toBe(4.2);
  });

  it("clamps to 0–5", () => {
    expect(withFields({ rating: 7 }).rating).toBe(5);
    expect(withFields({ rating: -1 }).rating).toBe(0);
    expect(withFields({ rating: "11" }).rating).toBe(5);
  });

  it("treats anything non-numeric as 0", () => {
    for (const rating of ["good", null, Number.NaN, { value: 4 }, true]) {
      expect(withFields({ rating }).rating).toBe(0);
    }
  });
});

describe("reviews", () => {
  it("a number or numeric string is the count", () => {
    expect(withFields({ reviews: 128 }).reviewsCount).toBe(128);
    expect(withFields({ reviews: "17" }).reviewsCount).toBe(17);
    expect(withFields({ reviews: 128 }).reviewsList).toEqual([]);
  });

  it("a count is a non-negative whole number", () => {
    expect(withFields({ reviews: 3.9 }).reviewsCount).toBe(3);
    expect(withFields({ reviews: -4 }).reviewsCount).toBe(0);
    expect(withFields({ reviews: "many" }).reviewsCount).toBe(0);
    expect(withFields({ reviews: 1e12 }).reviewsCount).toBe(2_147_483_647);
    expect(withFields({}).reviewsCount).toBe(0);
  });

  it("an array is counted by length and becomes the reviews list", () => {
    const p = withFields({
      reviews: [
        { rating: 5, name: "Anu", title: "Lovely", review: "Glows." },
        {
          rating: "4",
          name: " Ravi ",
          title: "Good",
          review: "Sturdy.",
          date: "2024-05-01T10:00:00Z",
        },
      ],
    });
    expect(p.reviewsCount).toBe(2);
    expect(p.reviewsList).toEqual([
      { rating: 5, name: "Anu", title: "Lovely", review: "Glows.", date: "" },
      {
        rating: 4,
        name: "Ravi",
        title: "Good",
        review: "Sturdy.",
        date: "2024-05-01T10:00:00.000Z",
      },
    ]);
  });

  it("accepts a reviewsList field beside a count; the count is never below the list's length", () => {
    const list = [{ rating: 5, name: "A", title: "T", review: "R" }];
    expect(withFields({ reviews: 40, reviewsList: list })).toMatchObject({
      reviewsCount: 40,
      reviewsList: [{ rating: 5, name: "A", title: "T", review: "R", date: "" }],
    });
    expect(withFields({ reviewsList: list }).reviewsCount).toBe(1);
    expect(withFields({ reviews: 0, reviewsList: [...list, ...list] }).reviewsCount).toBe(2);
  });

  it("prefers the reviewsList field over a reviews array (never both, which would double them)", () => {
    const p = withFields({
      reviews: [{ rating: 1, name: "Old" }],
      reviewsList: [{ rating: 5, name: "New" }],
    });
    expect(p.reviewsList.map((r) => r.name)).toEqual(["New"]);
    expect(p.reviewsCount).toBe(1);
  });

  it("normalises items: missing text empty, rating clamped to 1–5, dates as ISO text", () => {
    const p = withFields({
      reviews: [
        { rating: 9 },
        { rating: 0, name: 5, title: null, review: ["x"] },
        { rating: 3, date: { _seconds: 1_700_000_000, _nanoseconds: 0 } },
        { rating: 3, createdAt: 1_700_000_000_000 },
        { rating: 3, date: "yesterday" },
      ],
    });
    expect(p.reviewsList).toEqual([
      { rating: 5, name: "", title: "", review: "", date: "" },
      { rating: 1, name: "", title: "", review: "", date: "" },
      { rating: 3, name: "", title: "", review: "", date: "2023-11-14T22:13:20.000Z" },
      { rating: 3, name: "", title: "", review: "", date: "2023-11-14T22:13:20.000Z" },
      { rating: 3, name: "", title: "", review: "", date: "" },
    ]);
  });

  it("drops items that are not objects or have no numeric rating, and counts only the rest", () => {
    const p = withFields({
      reviews: [null, "great!", 5, { name: "No rating" }, { rating: "five" }, { rating: 4 }],
    });
    expect(p.reviewsList).toEqual([{ rating: 4, name: "", title: "", review: "", date: "" }]);
    expect(p.reviewsCount).toBe(1);
  });
});

describe("features", () => {
  it("a list of text stays a list (trimmed, blanks dropped)", () => {
    const p = withFields({ features: [" PLA+ ", "", "  ", "30 cm long", null, { a: 1 }] });
    expect(p.features).toEqual(["PLA+", "30 cm long"]);
    expect(p.featuresKv).toBeNull();
  });

  it("numbers and booleans in a list are written out as text", () => {
    expect(withFields({ features: [28, true] }).features).toEqual(["28", "true"]);
  });

  it("'key: value' strings stay in the list as they are", () => {
    const p = withFields({ features: ["Capacity: 1 L", "Material: PETG"] });
    expect(p.features).toEqual(["Capacity: 1 L", "Material: PETG"]);
    expect(p.featuresKv).toBeNull();
  });

  it("a key-value map becomes featuresKv with an empty list", () => {
    const p = withFields({ features: { Diameter: "15 cm", Power: "USB-C" } });
    expect(p.features).toEqual([]);
    expect(p.featuresKv).toEqual({ Diameter: "15 cm", Power: "USB-C" });
    expect(Object.keys(p.featuresKv ?? {})).toEqual(["Diameter", "Power"]);
  });

  it("map values are trimmed text; numbers and booleans written out; other values and blank keys dropped", () => {
    const p = withFields({
      features: {
        " Scale ": " 28 mm ",
        Weight: 120,
        Painted: false,
        Notes: "",
        Extra: null,
        " ": "x",
        Obj: {},
      },
    });
    expect(p.featuresKv).toEqual({ Scale: "28 mm", Weight: "120", Painted: "false" });
  });

  it("an empty or useless map gives null", () => {
    expect(withFields({ features: {} }).featuresKv).toBeNull();
    expect(withFields({ features: { a: "" } }).featuresKv).toBeNull();
  });

  it("accepts a featuresKv map field, merged over a features map", () => {
    expect(withFields({ featuresKv: { Scale: "28 mm" } })).toMatchObject({
      features: [],
      featuresKv: { Scale: "28 mm" },
    });
    expect(
      withFields({ features: { Scale: "32 mm", Colour: "Grey" }, featuresKv: { Scale: "28 mm" } })
        .featuresKv,
    ).toEqual({ Scale: "28 mm", Colour: "Grey" });
  });

  it("keeps a list and a featuresKv map side by side", () => {
    expect(withFields({ features: ["PLA+"], featuresKv: { Scale: "28 mm" } })).toMatchObject({
      features: ["PLA+"],
      featuresKv: { Scale: "28 mm" },
    });
  });

  it("a single text value is split into lines", () => {
    expect(withFields({ features: "PLA+\r\n\nHand painted\n" }).features).toEqual([
      "PLA+",
      "Hand painted",
    ]);
  });

  it("other shapes give no features", () => {
    for (const features of [null, 7, true]) {
      expect(withFields({ features })).toMatchObject({ features: [], featuresKv: null });
    }
    expect(withFields({ featuresKv: ["a"] }).featuresKv).toBeNull();
  });

  it("a '__proto__' key is kept as plain data, never as a prototype", () => {
    const p = withFields({ features: JSON.parse('{"__proto__": "x", "Size": "M"}') });
    expect(Object.getPrototypeOf(p.featuresKv)).toBe(Object.prototype);
    expect(Object.keys(p.featuresKv ?? {})).toEqual(["__proto__", "Size"]);
  });
});

describe("discount", () => {
  it("is a percent clamped to 0–100", () => {
    expect(withFields({ discount: 25 }).discount).toBe(25);
    expect(withFields({ discount: 140 }).discount).toBe(100);
    expect(withFields({ discount: -5 }).discount).toBe(0);
    expect(withFields({ discount: "30" }).discount).toBe(30);
  });

  it("is rounded to a whole percent", () => {
    expect(withFields({ discount: 12.5 }).discount).toBe(13);
    expect(withFields({ discount: "33.3" }).discount).toBe(33);
    expect(Object.is(withFields({ discount: -0.2 }).discount, 0)).toBe(true);
  });

  it("is 0 when missing or non-numeric", () => {
    for (const discount of [undefined, null, "10%", "ten", Number.NaN, {}, true]) {
      expect(withFields({ discount }).discount).toBe(0);
    }
  });
});

describe("stock, badge and activity", () => {
  it("inStock and isActive default to true", () => {
    expect(withFields({})).toMatchObject({ inStock: true, isActive: true });
  });

  it("reads booleans, 'true'/'false' text and 1/0", () => {
    expect(withFields({ inStock: false, isActive: false })).toMatchObject({
      inStock: false,
      isActive: false,
    });
    expect(withFields({ inStock: "FALSE", isActive: " false " })).toMatchObject({
      inStock: false,
      isActive: false,
    });
    expect(withFields({ inStock: 0, isActive: 0 })).toMatchObject({
      inStock: false,
      isActive: false,
    });
    expect(withFields({ inStock: 1, isActive: "true" })).toMatchObject({
      inStock: true,
      isActive: true,
    });
  });

  it("anything else keeps the default", () => {
    for (const value of [null, "no", 2, {}, []]) {
      expect(withFields({ inStock: value, isActive: value })).toMatchObject({
        inStock: true,
        isActive: true,
      });
    }
  });

  it("stockCount is a non-negative whole number or null", () => {
    expect(withFields({}).stockCount).toBeNull();
    expect(withFields({ stockCount: 12 }).stockCount).toBe(12);
    expect(withFields({ stockCount: "3" }).stockCount).toBe(3);
    expect(withFields({ stockCount: 0 }).stockCount).toBe(0);
    expect(withFields({ stockCount: 2.7 }).stockCount).toBe(2);
    expect(withFields({ stockCount: "lots" }).stockCount).toBeNull();
    expect(withFields({ stockCount: null }).stockCount).toBeNull();
  });

  it("a negative stockCount means none left (0), not untracked stock", () => {
    expect(withFields({ stockCount: -3 }).stockCount).toBe(0);
  });

  it("badge is trimmed text or null", () => {
    expect(withFields({ badge: "Best Seller" }).badge).toBe("Best Seller");
    expect(withFields({ badge: " Limited " }).badge).toBe("Limited");
    expect(withFields({ badge: "" }).badge).toBeNull();
    expect(withFields({ badge: true }).badge).toBeNull();
    expect(withFields({}).badge).toBeNull();
  });
});

describe("createdAt and updatedAt", () => {
  const at = (value: unknown) => withFields({ createdAt: value, updatedAt: value });
  const iso = (value: unknown) => at(value).createdAt?.toISOString() ?? null;

  it("parse ISO 8601 text", () => {
    expect(iso("2024-03-02T10:15:00Z")).toBe("2024-03-02T10:15:00.000Z");
    expect(iso("2024-03-02T10:15:00.123Z")).toBe("2024-03-02T10:15:00.123Z");
    expect(iso("2024-03-02T15:45:00+05:30")).toBe("2024-03-02T10:15:00.000Z");
    expect(iso("2024-03-02T15:45:00+0530")).toBe("2024-03-02T10:15:00.000Z");
    expect(iso("2024-03-02")).toBe("2024-03-02T00:00:00.000Z");
    expect(iso(" 2024-03-02 10:15 ")).toBe("2024-03-02T10:15:00.000Z");
    expect(iso("2024-03-02T10:15:00.123456789Z")).toBe("2024-03-02T10:15:00.123Z");
  });

  it("read a date-time without an offset as UTC, whatever the machine's time zone", () => {
    expect(iso("2024-03-02T10:15:00")).toBe("2024-03-02T10:15:00.000Z");
  });

  it("parse epoch milliseconds", () => {
    expect(iso(1_700_000_000_000)).toBe("2023-11-14T22:13:20.000Z");
    expect(iso(0)).toBe("1970-01-01T00:00:00.000Z");
  });

  it("parse timestamp objects with seconds or _seconds", () => {
    expect(iso({ seconds: 1_700_000_000, nanoseconds: 500_000_000 })).toBe(
      "2023-11-14T22:13:20.500Z",
    );
    expect(iso({ _seconds: 1_700_000_000, _nanoseconds: 0 })).toBe("2023-11-14T22:13:20.000Z");
    expect(iso({ seconds: 1_700_000_000 })).toBe("2023-11-14T22:13:20.000Z");
  });

  it("are null for anything else", () => {
    for (const value of [
      undefined,
      null,
      "",
      "yesterday",
      "1700000000000",
      "2024-13-45",
      "March 2, 2024",
      Number.NaN,
      9e15,
      true,
      {},
      { seconds: "1700000000" },
      [2024, 3, 2],
    ]) {
      expect(at(value), JSON.stringify(value)).toMatchObject({ createdAt: null, updatedAt: null });
    }
  });

  it("are read independently", () => {
    const p = withFields({ createdAt: "2024-01-01", updatedAt: "2024-06-01T00:00:00Z" });
    expect(p.createdAt?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(p.updatedAt?.toISOString()).toBe("2024-06-01T00:00:00.000Z");
  });
});

describe("mapLegacyProducts", () => {
  it("maps a collection keyed by document id, keeping order and reporting skips", () => {
    const result = mapLegacyProducts({
      b: { name: "B" },
      a: { description: "no name" },
      c: "not a document",
      d: { name: "D", price: 1 },
    });
    expect(result.products.map((p) => p.id)).toEqual(["b", "d"]);
    expect(result.skipped).toEqual([
      { id: "a", reason: "missing name" },
      { id: "c", reason: "document is not an object" },
    ]);
  });

  it("passes the resolver on to each document", () => {
    const { products } = mapLegacyProducts(
      { x: { name: "X", images: [{ storagePath: "p/x.png" }] } },
      { resolveStorageUrl: (path) => `/files/${path}` },
    );
    expect(products[0].image).toBe("/files/p/x.png");
  });

  it("returns nothing for an empty or invalid collection", () => {
    expect(mapLegacyProducts({})).toEqual({ products: [], skipped: [] });
    expect(mapLegacyProducts(null as unknown as Record<string, unknown>)).toEqual({
      products: [],
      skipped: [],
    });
  });
});

describe("properties", () => {
  const isResult = (r: MappingResult) =>
    r.ok ? typeof r.product === "object" : typeof r.reason === "string" && r.reason !== "";

  it("never throws for arbitrary JSON and always returns ok or not-ok", () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (id, doc) => {
        const result = mapLegacyProduct(id, doc, { resolveStorageUrl });
        expect(isResult(result)).toBe(true);
        if (result.ok) expectStorable(result.product);
      }),
      { numRuns: 500 },
    );
  });

  it("never throws for documents built from the legacy field names with arbitrary values", () => {
    const names = [
      "name",
      "description",
      "price",
      "final_price",
      "originalPrice",
      "currency",
      "image",
      "images",
      "image_urls",
      "category",
      "categories",
      "subcategory",
      "rating",
      "reviews",
      "reviewsList",
      "features",
      "featuresKv",
      "discount",
      "inStock",
      "stockCount",
      "badge",
      "isActive",
      "createdAt",
      "updatedAt",
    ];
    const value = fc.oneof(
      fc.jsonValue(),
      fc.double(),
      fc.array(
        fc.record({ url: fc.jsonValue(), storagePath: fc.jsonValue(), rating: fc.jsonValue() }),
      ),
      fc.record({ seconds: fc.double(), _nanoseconds: fc.double() }),
    );
    const doc = fc.dictionary(fc.constantFrom(...names), value);
    fc.assert(
      fc.property(doc, (d) => {
        const result = mapLegacyProduct("id", d, { resolveStorageUrl });
        expect(isResult(result)).toBe(true);
        if (result.ok) expectStorable(result.product);
        else expect(["missing name", "name is blank"]).toContain(result.reason);
      }),
      { numRuns: 1000 },
    );
  });

  it("maps any document with a non-blank name, keeping the trimmed name", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => s.trim() !== ""),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (name, rest) => {
          const result = mapLegacyProduct("id", { ...rest, name });
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.product.name).toBe(name.trim());
        },
      ),
    );
  });

  it("a price in rupees with up to two decimals maps to exactly that many paise", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), (p) => {
        const rupees = `${Math.floor(p / 100)}.${String(p % 100).padStart(2, "0")}`;
        expect(withFields({ price: rupees }).pricePaise).toBe(p);
        expect(withFields({ price: Number(rupees) }).pricePaise).toBe(p);
      }),
    );
  });
});
