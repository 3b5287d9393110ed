import { describe, expect, it } from "vitest";
import { checkVariantsInput } from "~/rules/variants.ts";
import { drawArtwork, motifs } from "./artwork.ts";
import {
  demoCategories,
  demoParcels,
  demoProducts,
  demoPromotions,
  demoSponsoredKeys,
  demoSubcategories,
  demoVariants,
} from "./catalogue.ts";

const allowedSubcategories: Record<string, string[]> = {
  "3D Prints": ["Home Decor", "Gadgets", "Planters", "Desk & Office"],
  "3D Characters": ["Anime", "Fantasy", "Mythology", "Sci-Fi"],
};

describe("demo catalogue", () => {
  it("has at least 28 products with unique kebab-case keys", () => {
    expect(demoProducts.length).toBeGreaterThanOrEqual(28);
    const keys = demoProducts.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("uses both categories, roughly half each, and every subcategory at least twice", () => {
    expect(demoCategories).toEqual(["3D Prints", "3D Characters"]);
    expect(demoSubcategories).toEqual(allowedSubcategories);
    for (const category of demoCategories) {
      const inCategory = demoProducts.filter((p) => p.category === category);
      expect(inCategory.length).toBeGreaterThanOrEqual(Math.floor(demoProducts.length * 0.4));
      for (const sub of allowedSubcategories[category]) {
        expect(inCategory.filter((p) => p.subcategory === sub).length).toBeGreaterThanOrEqual(2);
      }
    }
    for (const p of demoProducts) {
      expect(allowedSubcategories[p.category]).toContain(p.subcategory);
    }
  });

  it("has non-empty names and 2-4 sentence descriptions", () => {
    for (const p of demoProducts) {
      expect(p.name.trim().length).toBeGreaterThan(0);
      const sentences = p.description.split(/(?<=[.!?])\s+/).filter(Boolean);
      expect(sentences.length, p.key).toBeGreaterThanOrEqual(2);
      expect(sentences.length, p.key).toBeLessThanOrEqual(4);
    }
  });

  it("has 2-4 artwork specs per product", () => {
    for (const p of demoProducts) {
      expect(p.art.length, p.key).toBeGreaterThanOrEqual(2);
      expect(p.art.length, p.key).toBeLessThanOrEqual(4);
      for (const a of p.art) expect(motifs).toContain(a.motif);
    }
  });

  it("has integer prices between ₹149 and ₹4,999 and consistent sale prices", () => {
    for (const p of demoProducts) {
      expect(Number.isInteger(p.pricePaise), p.key).toBe(true);
      expect(p.pricePaise).toBeGreaterThanOrEqual(14900);
      expect(p.pricePaise).toBeLessThanOrEqual(499900);
      expect(p.discount).toBeGreaterThanOrEqual(0);
      expect(p.discount).toBeLessThanOrEqual(100);
      if (p.originalPricePaise !== null) {
        expect(Number.isInteger(p.originalPricePaise)).toBe(true);
        expect(p.originalPricePaise, p.key).toBeGreaterThan(p.pricePaise);
        const pct = ((p.originalPricePaise - p.pricePaise) / p.originalPricePaise) * 100;
        expect(Math.abs(pct - p.discount), p.key).toBeLessThanOrEqual(1);
      } else {
        expect(p.discount, p.key).toBe(0);
      }
    }
    expect(demoProducts.filter((p) => p.originalPricePaise !== null).length).toBeGreaterThan(0);
  });

  it("has the expected stock, activity and badge mix", () => {
    const inactive = demoProducts.filter((p) => !p.isActive);
    const outOfStock = demoProducts.filter((p) => !p.inStock);
    expect(inactive).toHaveLength(2);
    expect(outOfStock).toHaveLength(2);
    for (const p of outOfStock) expect(inactive).not.toContain(p);
    expect(demoProducts.filter((p) => p.stockCount === 1)).toHaveLength(1);
    const bestSellers = demoProducts.filter((p) => p.badge === "Best Seller").length;
    const newOnes = demoProducts.filter((p) => p.badge === "New").length;
    expect(bestSellers).toBeGreaterThanOrEqual(4);
    expect(bestSellers).toBeLessThanOrEqual(6);
    expect(newOnes).toBeGreaterThanOrEqual(4);
    expect(newOnes).toBeLessThanOrEqual(6);
    for (const shape of ["list", "kv-strings", "map"]) {
      expect(demoProducts.some((p) => p.features.shape === shape)).toBe(true);
    }
  });

  it("gives every demo product a packed weight and box, and names no other", () => {
    for (const p of demoProducts) {
      const parcel = demoParcels[p.name];
      expect(parcel, p.name).toBeDefined();
      for (const n of parcel) expect(Number.isInteger(n) && n > 0, p.name).toBe(true);
    }
    const names = new Set(demoProducts.map((p) => p.name));
    expect(Object.keys(demoParcels).filter((n) => !names.has(n))).toEqual([]);
  });

  it("has sane ratings, HSN codes, ages and reviews", () => {
    for (const p of demoProducts) {
      expect(p.rating).toBeGreaterThanOrEqual(0);
      expect(p.rating).toBeLessThanOrEqual(5);
      expect(Math.round(p.rating * 10) / 10).toBe(p.rating);
      expect(p.hsnCode).toBe(p.category === "3D Prints" ? "3926" : "9503");
      expect(Number.isInteger(p.daysOld)).toBe(true);
      expect(p.daysOld).toBeGreaterThanOrEqual(0);
      expect(p.daysOld).toBeLessThanOrEqual(120);
      // One best seller carries more than a page (10) of reviews; the rest a handful.
      expect(p.staticReviews.length).toBeLessThanOrEqual(p.badge === "Best Seller" ? 15 : 4);
      for (const r of p.staticReviews) {
        expect([1, 2, 3, 4, 5]).toContain(r.rating);
        expect(r.daysAgo, p.key).toBeLessThanOrEqual(p.daysOld);
      }
      if (p.stockCount !== null) expect(Number.isInteger(p.stockCount)).toBe(true);
      if (p.stockCount !== null && p.inStock) expect(p.stockCount).toBeGreaterThan(0);
    }
  });

  it("has one product whose reviews need a second page", () => {
    expect(demoProducts.some((p) => p.isActive && p.staticReviews.length > 10)).toBe(true);
  });

  it("has exactly 3 promotions", () => {
    expect(demoPromotions).toHaveLength(3);
    expect(new Set(demoPromotions.map((p) => p.key)).size).toBe(3);
  });

  it("sponsors 4 existing, active, in-stock products", () => {
    expect(demoSponsoredKeys).toHaveLength(4);
    expect(new Set(demoSponsoredKeys).size).toBe(4);
    for (const key of demoSponsoredKeys) {
      const product = demoProducts.find((p) => p.key === key);
      expect(product, key).toBeDefined();
      expect(product?.isActive).toBe(true);
      expect(product?.inStock).toBe(true);
    }
  });
});

describe("drawArtwork", () => {
  const size = { width: 640, height: 480 };

  it("returns an SVG document with the requested size", () => {
    const svg = drawArtwork({ motif: "vase", hue: 200, accentHue: 30, angle: 15 }, size);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('width="640"');
    expect(svg).toContain('height="480"');
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  });

  it("is deterministic and varies with the angle", () => {
    const spec = { motif: "dragon", hue: 15, accentHue: 45, angle: 30 } as const;
    expect(drawArtwork(spec, size)).toBe(drawArtwork({ ...spec }, { ...size }));
    expect(drawArtwork(spec, size)).not.toBe(drawArtwork({ ...spec, angle: 200 }, size));
  });

  it("draws every motif and every catalogue image without external references, under 6 KB", () => {
    const specs = [
      ...motifs.map((motif) => ({ motif, hue: 100, accentHue: 300, angle: 45, label: "A & B" })),
      ...demoProducts.flatMap((p) => p.art),
      ...demoPromotions.map((p) => p.art),
    ];
    for (const spec of specs) {
      for (const s of [size, { width: 1200, height: 400 }]) {
        const svg = drawArtwork(spec, s);
        expect(svg.startsWith("<svg")).toBe(true);
        expect(svg).not.toMatch(/href="(?!#)/);
        expect(svg).not.toContain("NaN");
        expect(svg).not.toContain("undefined");
        expect(svg.length, spec.motif).toBeLessThan(6144);
      }
    }
  });

  it("escapes labels", () => {
    const svg = drawArtwork(
      { motif: "box", hue: 0, accentHue: 0, angle: 0, label: "<Sale> & more" },
      size,
    );
    expect(svg).toContain("&lt;Sale&gt; &amp; more");
  });
});

describe("demo variants (issue 22)", () => {
  it("name existing products, each variant one value of every option, one combination of each sold out", () => {
    const keys = new Set(demoProducts.map((p) => p.key));
    let soldOut = 0;
    for (const [key, input] of Object.entries(demoVariants)) {
      expect(keys.has(key), key).toBe(true);
      expect(() => checkVariantsInput(input)).not.toThrow();
      soldOut += input.variants.filter((v) => v.stockCount === 0).length;
    }
    expect(soldOut).toBe(Object.keys(demoVariants).length);
    const swatches = Object.values(demoVariants).flatMap((v) =>
      v.options.flatMap((o) => o.values.flatMap((x) => (x.swatch ? [x.swatch] : []))),
    );
    expect(swatches.length).toBeGreaterThanOrEqual(3);
  });
});
