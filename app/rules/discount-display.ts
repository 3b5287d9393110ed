import type { DiscountKind, DiscountStatus, DiscountTarget } from "./discounts.ts";
import { formatPaise } from "./money.ts";
import { basisPointsToPercentText } from "./settings-schema.ts";

/*
 * How the admin area and the promotion cards describe a discount (issue #23): what it takes off,
 * what it applies to, its status and uses. Kept apart from the form's schema so the browser's
 * admin screens don't carry zod's date handling with them.
 */

type Describable = {
  kind: DiscountKind;
  percentBasisPoints: number | null;
  capPaise: number | null;
  amountPaise: number | null;
  buyQuantity: number | null;
  getQuantity: number | null;
};

/** "₹300" for whole rupees, "₹299.50" otherwise. */
export function shortRupees(paise: number): string {
  return paise % 100 === 0 ? `₹${(paise / 100).toLocaleString("en-IN")}` : formatPaise(paise);
}

/** "20% off, up to ₹300", "₹200 off", "Free shipping", "Buy 2, get 1 free". */
export function discountKindSummary(d: Describable): string {
  switch (d.kind) {
    case "percent": {
      const pct = `${basisPointsToPercentText(d.percentBasisPoints ?? 0)}% off`;
      return d.capPaise !== null ? `${pct}, up to ${shortRupees(d.capPaise)}` : pct;
    }
    case "flat":
      return `${shortRupees(d.amountPaise ?? 0)} off`;
    case "free_shipping":
      return "Free shipping";
    case "buy_get":
      return `Buy ${d.buyQuantity ?? 0}, get ${d.getQuantity ?? 0} free`;
  }
  return "";
}

/** "Whole order", "3D Characters, Anime", "2 products", "Custom printed parts". */
export function appliesToSummary(d: {
  appliesTo: DiscountTarget;
  categories: string[];
  productIds: string[];
}): string {
  switch (d.appliesTo) {
    case "order":
      return "Whole order";
    case "categories":
      return d.categories.join(", ");
    case "products":
      return d.productIds.length === 1 ? "1 product" : `${d.productIds.length} products`;
    case "custom":
      return "Custom printed parts";
  }
  return "";
}

export const discountKindLabel: Record<DiscountKind, string> = {
  percent: "Percent off",
  flat: "Flat ₹ off",
  free_shipping: "Free shipping",
  buy_get: "Buy N, get M free",
};

export const discountTargetLabel: Record<DiscountTarget, string> = {
  order: "The whole order",
  categories: "Categories or subcategories",
  products: "Chosen products",
  custom: "Custom printed parts",
};

export const discountStatusLabel: Record<DiscountStatus, string> = {
  scheduled: "Scheduled",
  live: "Live",
  paused: "Paused",
  expired: "Expired",
  "used-up": "Used up",
  archived: "Archived",
};

/** "3 / 100", or "3" without a limit. */
export const usesText = (uses: number, limit: number | null) =>
  limit === null
    ? uses.toLocaleString("en-IN")
    : `${uses.toLocaleString("en-IN")} / ${limit.toLocaleString("en-IN")}`;

/** "From ₹999 · First order · 1 per customer", or "" without conditions. */
export function conditionsSummary(d: {
  minSubtotalPaise: number | null;
  firstOrderOnly: boolean;
  perCustomerLimit: number | null;
}): string {
  return [
    d.minSubtotalPaise !== null ? `From ${shortRupees(d.minSubtotalPaise)}` : null,
    d.firstOrderOnly ? "First order" : null,
    d.perCustomerLimit !== null ? `${d.perCustomerLimit} per customer` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}
