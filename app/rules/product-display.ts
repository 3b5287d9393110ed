/**
 * What product cards and the product page show (SPEC.md §2 "Product detail"): percent off, stock
 * label, add-to-cart button, feature rows and the review summary. Pure: usable in the browser and
 * on the server.
 */
import { MAX_LINE_QUANTITY } from "./cart.ts";

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/**
 * The percent-off badge: the product's discount if positive, else computed (rounded) from the
 * original price and the price when the price is lower, else 0. Always a whole number 0–100.
 */
export function percentOff(p: {
  discount: number;
  pricePaise: number;
  originalPricePaise: number | null;
}): number {
  if (Number.isFinite(p.discount) && Math.round(p.discount) > 0) {
    return clamp(Math.round(p.discount), 0, 100);
  }
  const original = p.originalPricePaise;
  const price = p.pricePaise;
  if (original === null || !Number.isFinite(original) || !Number.isFinite(price)) return 0;
  if (original <= 0 || price < 0 || price >= original) return 0;
  return clamp(Math.round(((original - price) / original) * 100), 0, 100);
}

/** The fields that decide whether a product can be bought. */
export type StockFields = { inStock: boolean; isActive: boolean; stockCount: number | null };

export type StockLabel = "In Stock" | "Inactive" | "Out of Stock";

const soldOut = (p: StockFields) => !p.inStock || (p.stockCount !== null && p.stockCount <= 0);

/** Inactive when the product is inactive; Out of Stock when not in stock or no units left. */
export function stockLabel(p: StockFields): StockLabel {
  if (!p.isActive) return "Inactive";
  return soldOut(p) ? "Out of Stock" : "In Stock";
}

/** Active and in stock (an untracked stock count, null, does not limit it). */
export function isPurchasable(p: StockFields): boolean {
  return p.isActive && !soldOut(p);
}

/**
 * The most of a product one cart line may hold: the units left when the stock is counted, and
 * never more than a line's maximum.
 */
export function quantityLimit(p: StockFields): number {
  if (!isPurchasable(p)) return 0;
  return p.stockCount === null ? MAX_LINE_QUANTITY : Math.min(MAX_LINE_QUANTITY, p.stockCount);
}

export type CartButtonState = "add" | "in-cart" | "unavailable";

/** 'Add to Cart' when purchasable; else 'In Cart…' when already in the cart; else 'Unavailable'. */
export function cartButtonState(p: StockFields, inCart: boolean): CartButtonState {
  if (isPurchasable(p)) return "add";
  return inCart ? "in-cart" : "unavailable";
}

export const cartButtonLabel: Record<CartButtonState, string> = {
  add: "Add to Cart",
  "in-cart": "In Cart • Proceed to Checkout",
  unavailable: "Unavailable",
};

/** A card's button for a product with options: it opens the product page to pick them. */
export const CHOOSE_OPTIONS = "Choose options";

export type FeatureRow = { key: string | null; value: string };

/**
 * Rows for the features list: 'key: value' strings split at the first colon (when the key is not
 * blank), other strings with no key, then the key-value map's entries in order. Keys and values
 * are trimmed; rows with a blank value are dropped.
 */
export function featureRows(
  features: string[],
  featuresKv: Record<string, string> | null,
): FeatureRow[] {
  const rows: FeatureRow[] = [];
  for (const feature of features) {
    if (typeof feature !== "string") continue;
    const line = feature.trim();
    const colon = line.indexOf(":");
    const key = colon > 0 ? line.slice(0, colon).trim() : "";
    if (key !== "") {
      const value = line.slice(colon + 1).trim();
      if (value !== "") rows.push({ key, value });
    } else if (line !== "") {
      rows.push({ key: null, value: line });
    }
  }
  for (const [k, v] of Object.entries(featuresKv ?? {})) {
    const value = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "";
    if (value === "") continue;
    const key = k.trim();
    rows.push({ key: key === "" ? null : key, value });
  }
  return rows;
}

export type RatingStar = 1 | 2 | 3 | 4 | 5;

export type ReviewSummary = {
  averageRating: number;
  totalReviews: number;
  ratingDistribution: Record<RatingStar, number>;
};

export type StoredReviewStats = {
  totalReviews: number;
  ratingSum: number;
  rating1: number;
  rating2: number;
  rating3: number;
  rating4: number;
  rating5: number;
};

/** A stored counter: negative, fractional or non-finite values count as their safe floor, 0. */
const counter = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * Merges the product's static reviews with the stored review stats. The average is rounded to one
 * decimal (0 when there are no reviews). A static rating counts with its value clamped to 1–5, and
 * in the distribution under that value rounded; a static review without a finite rating is ignored.
 */
export function summariseReviews(
  staticReviews: Array<{ rating: number }>,
  stored: StoredReviewStats | null,
): ReviewSummary {
  const distribution: Record<RatingStar, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let total = 0;
  let sum = 0;
  for (const r of staticReviews) {
    if (typeof r?.rating !== "number" || !Number.isFinite(r.rating)) continue;
    const rating = clamp(r.rating, 1, 5);
    distribution[Math.round(rating) as RatingStar] += 1;
    total += 1;
    sum += rating;
  }
  if (stored) {
    total += counter(stored.totalReviews);
    sum += Number.isFinite(stored.ratingSum) && stored.ratingSum > 0 ? stored.ratingSum : 0;
    distribution[1] += counter(stored.rating1);
    distribution[2] += counter(stored.rating2);
    distribution[3] += counter(stored.rating3);
    distribution[4] += counter(stored.rating4);
    distribution[5] += counter(stored.rating5);
  }
  const average = total > 0 ? clamp(Math.round((sum / total) * 10) / 10, 0, 5) : 0;
  return { averageRating: average, totalReviews: total, ratingDistribution: distribution };
}

/** What a product card shows, and what its buttons need to decide their state. */
export type ProductCardData = {
  id: string;
  name: string;
  category: string;
  subcategory: string | null;
  image: string | null;
  pricePaise: number;
  originalPricePaise: number | null;
  discount: number;
  rating: number;
  reviewsCount: number;
  badge: string | null;
  inStock: boolean;
  isActive: boolean;
  stockCount: number | null;
  /** A product with options whose active variants' prices differ: the card says "from ₹X". */
  priceVaries?: boolean;
  /** The colour option's swatches of a product with options (none: no colour option). */
  swatches?: CardSwatch[];
  /**
   * The product has options: its card links to its page ("Choose options"), where the customer
   * picks a variant, instead of adding one they never saw.
   */
  hasOptions?: boolean;
};

/** A colour value on a product card. */
export type CardSwatch = { value: string; swatch: string };
