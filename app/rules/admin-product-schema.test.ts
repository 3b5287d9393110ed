import { describe, expect, it } from "vitest";
import { fieldErrors } from "./account-schemas.ts";
import {
  categoryInvalidText,
  createProductSchema,
  discountInput,
  featureLines,
  featuresText,
  priceInputValue,
  productFormInput,
  productText,
  ratingInput,
  reviewRatingInput,
  sanitizePriceInput,
  storedReviews,
  updateProductSchema,
} from "./admin-product-schema.ts";

const id = "0b6f3c1e-3d6a-4a39-9d4b-8f1a2c3d4e5f";
const valid = {
  productId: id,
  name: "  Dragon Miniature ",
  price: "499.5",
  category: "3D Characters",
  description: "A dragon.",
};

function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe("price input", () => {
  it("keeps digits and one point with at most 2 decimals", () => {
    expect(sanitizePriceInput("₹1,299.999")).toBe("1299.99");
    expect(sanitizePriceInput("12a.3.4")).toBe("12.34");
    expect(sanitizePriceInput("-5")).toBe("5");
    expect(sanitizePriceInput(".5")).toBe(".5");
    expect(sanitizePriceInput("abc")).toBe("");
  });
  it("shows paise as rupees with 2 decimals", () => {
    expect(priceInputValue(34_900)).toBe("349.00");
    expect(priceInputValue(null)).toBe("");
  });
});

describe("digit inputs", () => {
  it("clamps discount to 0–100 and rating to 1–5", () => {
    expect(discountInput("150")).toBe("100");
    expect(discountInput("-5%")).toBe("5");
    expect(discountInput("")).toBe("");
    expect(ratingInput("7")).toBe("5");
    expect(ratingInput("0")).toBe("1");
    expect(ratingInput("43")).toBe("3");
    expect(ratingInput("x")).toBe("");
    expect(reviewRatingInput("0")).toBe("0");
    expect(reviewRatingInput("9")).toBe("5");
  });
});

describe("features", () => {
  it("are lines, blank ones dropped; a key-value map becomes 'key: value' lines", () => {
    expect(featureLines(" PLA \n\nHeight: 12 cm\r\n")).toEqual(["PLA", "Height: 12 cm"]);
    expect(featuresText(["PLA"], { Height: "12 cm" })).toBe("PLA\nHeight: 12 cm");
  });
});

describe("adding an item", () => {
  it("accepts the required fields and fills the defaults", () => {
    const r = createProductSchema.parse(valid);
    expect(r).toMatchObject({
      productId: id,
      name: "Dragon Miniature",
      price: 49_950,
      category: "3D Characters",
      description: "A dragon.",
      discount: 0,
      rating: 0,
      reviewsCount: 0,
      features: [],
      isActive: true,
      inStock: true,
      images: [],
    });
    expect(r.stockCount ?? null).toBeNull();
    expect(r.badge ?? null).toBeNull();
  });

  it("requires name, price, category and description", () => {
    const r = createProductSchema.safeParse({ productId: id });
    expect(r.success).toBe(false);
    const errors = fieldErrors(r.error!);
    expect(errors.name).toBe(productText.nameRequired);
    expect(errors.price).toBe("Price must be a positive number");
    expect(errors.category).toBe(
      "Current category is not valid (NA). Please select or add a category.",
    );
    expect(errors.description).toBe(productText.descriptionRequired);
  });

  it.each(["0", "-4", "abc", "0.001", "", "1e3"])("refuses the price %j", (price) => {
    const r = createProductSchema.safeParse({ ...valid, price });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!).price).toBe("Price must be a positive number");
  });

  it("rounds the price to 2 decimals and caps it", () => {
    expect(createProductSchema.parse({ ...valid, price: "10.005" }).price).toBe(1001);
    expect(createProductSchema.parse({ ...valid, price: ".5" }).price).toBe(50);
    const big = createProductSchema.safeParse({ ...valid, price: "10000001" });
    expect(fieldErrors(big.error!).price).toBe(productText.priceTooHigh);
  });

  it("clamps the discount to 0–100", () => {
    expect(createProductSchema.parse({ ...valid, discount: "150" }).discount).toBe(100);
    expect(createProductSchema.parse({ ...valid, discount: "-3" }).discount).toBe(0);
    expect(createProductSchema.safeParse({ ...valid, discount: "ten" }).success).toBe(false);
  });

  it("takes a rating from 1 to 5 and a reviews count of 0 or more", () => {
    expect(createProductSchema.parse({ ...valid, rating: "4" }).rating).toBe(4);
    for (const rating of ["0", "6", "x"]) {
      const r = createProductSchema.safeParse({ ...valid, rating });
      expect(fieldErrors(r.error!).rating).toBe(productText.rating);
    }
    expect(createProductSchema.parse({ ...valid, reviewsCount: "12" }).reviewsCount).toBe(12);
    expect(createProductSchema.safeParse({ ...valid, reviewsCount: "-1" }).success).toBe(false);
  });

  it("stock count: empty is untracked, otherwise a whole number ≥ 0", () => {
    expect(createProductSchema.parse({ ...valid, stockCount: "" }).stockCount).toBeNull();
    expect(createProductSchema.parse({ ...valid, stockCount: "0" }).stockCount).toBe(0);
    expect(createProductSchema.safeParse({ ...valid, stockCount: "2.5" }).success).toBe(false);
  });

  it("packed weight and box: empty is the shop's default, otherwise whole numbers in range", () => {
    const parsed = createProductSchema.parse({
      ...valid,
      weightGrams: "420",
      boxLengthCm: " 20 ",
      boxWidthCm: "15",
      boxHeightCm: "",
    });
    expect(parsed).toMatchObject({
      weightGrams: 420,
      boxLengthCm: 20,
      boxWidthCm: 15,
      boxHeightCm: null,
    });
    for (const grams of ["0", "-5", "1.5", "100001", "heavy"]) {
      const r = createProductSchema.safeParse({ ...valid, weightGrams: grams });
      expect(r.success, grams).toBe(false);
      if (!r.success) expect(r.error.issues[0].message).toBe(productText.weightGrams);
    }
    for (const side of ["0", "301", "12.5"]) {
      const r = updateProductSchema.safeParse({ boxWidthCm: side });
      expect(r.success, side).toBe(false);
      if (!r.success) expect(r.error.issues[0].message).toBe(productText.boxSide);
    }
    expect(updateProductSchema.parse({}).weightGrams).toBeUndefined();
    expect(updateProductSchema.parse({ weightGrams: "" }).weightGrams).toBeNull();
  });

  it("reads features, badge, flags and images from the form", () => {
    const input = productFormInput(
      form({
        ...valid,
        features: "PLA\nHeight: 12 cm",
        badge: " Best Seller ",
        isActive: "false",
        inStock: "true",
        images: JSON.stringify([`products/${id}/1700000000000_a.webp`]),
      }),
    );
    const r = createProductSchema.parse(input);
    expect(r.features).toEqual(["PLA", "Height: 12 cm"]);
    expect(r.badge).toBe("Best Seller");
    expect(r.isActive).toBe(false);
    expect(r.images).toEqual([`products/${id}/1700000000000_a.webp`]);
  });

  it("refuses a broken image list", () => {
    const r = createProductSchema.safeParse(productFormInput(form({ ...valid, images: "[oops" })));
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!).images).toBe(productText.badList);
  });

  it("names the current category when it is not valid", () => {
    expect(categoryInvalidText("Old")).toBe(
      "Current category is not valid (Old). Please select or add a category.",
    );
  });
});

describe("editing an item", () => {
  it("requires nothing; blank fields keep their values", () => {
    const r = updateProductSchema.parse({ name: "", price: " ", category: "", description: "" });
    expect(r.name).toBeUndefined();
    expect(r.price).toBeUndefined();
    expect(r.category).toBeUndefined();
    expect(r.description).toBeUndefined();
    expect(r.images).toEqual([]);
    expect(r.removeImages).toEqual([]);
    expect(r.reviewsList).toBeUndefined();
  });

  it("says 'Price must be a positive number.' for a bad price", () => {
    const r = updateProductSchema.safeParse({ price: "0" });
    expect(fieldErrors(r.error!).price).toBe("Price must be a positive number.");
  });

  it("blank optional fields clear; absent ones keep", () => {
    const r = updateProductSchema.parse({ badge: "", stockCount: "", subcategory: "" });
    expect(r.badge).toBeNull();
    expect(r.stockCount).toBeNull();
    expect(r.subcategory).toBeNull();
    expect(r.originalPrice).toBeUndefined();
  });

  it("reviews: rating 0–5, blank fields dropped, empty reviews dropped", () => {
    const r = updateProductSchema.parse(
      productFormInput(
        form({
          reviewsList: JSON.stringify([
            { rating: "0", name: " Asha ", title: "", review: "Lovely", date: "2024-01-01" },
            { rating: 5, name: "", title: " ", review: "" },
            { rating: 3, name: "Ravi" },
          ]),
        }),
      ),
    );
    expect(r.reviewsList).toEqual([
      { rating: 0, name: "Asha", review: "Lovely", date: "2024-01-01" },
      { rating: 3, name: "Ravi", date: "" },
    ]);
    const bad = updateProductSchema.safeParse({ reviewsList: [{ rating: 6, name: "x" }] });
    expect(bad.success).toBe(false);
    const now = new Date("2025-02-03T04:05:06.000Z");
    expect(storedReviews(r.reviewsList!, now)[1]).toEqual({
      rating: 3,
      name: "Ravi",
      date: now.toISOString(),
    });
  });
});
