/**
 * The cart's rules (SPEC.md §4 "Cart"), shared by the browser and the server. Pure functions over
 * an immutable list of lines. A line is one variant of a product (issue 22): lines are told apart
 * by lineKey, the variant id or, for a line without one, the product id.
 */
import type { OrderedOption } from "./stored-shapes.ts";

/** The cookie mirroring the cart's item count, so the server renders the header badge right. */
export const CART_COUNT_COOKIE = "lk_cart_count";

export type CartLine = {
  productId: string;
  /**
   * The variant (decision 0015); absent or null: the product's default variant (a line saved
   * before variants existed, or added from a product without options).
   */
  variantId?: string | null;
  /** The variant's option values, shown under the name; empty for a default variant. */
  options?: OrderedOption[];
  name: string;
  pricePaise: number;
  image: string | null;
  category: string;
  quantity: number;
  addedAt: string;
};

export type Cart = readonly CartLine[];

export const MAX_LINE_QUANTITY = 99;

const clampQuantity = (q: number) =>
  Math.min(MAX_LINE_QUANTITY, Math.max(0, Math.floor(Number.isFinite(q) ? q : 0)));

/** What tells a line apart: its variant, or its product for a line without a variant. */
export function lineKey(line: Pick<CartLine, "productId" | "variantId">): string {
  return line.variantId || line.productId;
}

/** Adds one of a variant: increments its line's quantity, or adds the line with quantity 1. */
export function addItem(cart: Cart, item: Omit<CartLine, "quantity">): Cart {
  const key = lineKey(item);
  const existing = cart.find((l) => lineKey(l) === key);
  if (existing) {
    return cart.map((l) =>
      lineKey(l) === key ? { ...l, quantity: clampQuantity(l.quantity + 1) } : l,
    );
  }
  return [...cart, { ...item, quantity: 1 }];
}

/** Removes a line (by lineKey). */
export function removeItem(cart: Cart, key: string): Cart {
  return cart.filter((l) => lineKey(l) !== key);
}

/** Sets a line's quantity (by lineKey), clamped at 0; at 0 the line is removed. */
export function updateQuantity(cart: Cart, key: string, quantity: number): Cart {
  const q = clampQuantity(quantity);
  if (q === 0) return removeItem(cart, key);
  return cart.map((l) => (lineKey(l) === key ? { ...l, quantity: q } : l));
}

export function setCart(lines: Cart): Cart {
  return lines
    .filter((l) => clampQuantity(l.quantity) > 0)
    .map((l) => ({ ...l, quantity: clampQuantity(l.quantity) }));
}

export function clearCart(): Cart {
  return [];
}

/** Σ price × quantity, in paise. */
export function cartTotal(cart: Cart): number {
  return cart.reduce((sum, l) => sum + l.pricePaise * l.quantity, 0);
}

/** Σ quantities. */
export function itemCount(cart: Cart): number {
  return cart.reduce((sum, l) => sum + l.quantity, 0);
}

/**
 * Merges the stored cart with the local one on sign-in: every line of either, keeping the larger
 * quantity; the stored line's details win when both have it. A local line without a variant is
 * the product's default: it joins the stored line of that product when there is exactly one
 * (the server resolves any other case the same way when the merge is written back).
 */
export function mergeCarts(stored: Cart, local: Cart): Cart {
  const merged = new Map<string, CartLine>();
  for (const line of stored) merged.set(lineKey(line), line);
  for (const line of local) {
    let key = lineKey(line);
    if (!line.variantId && !merged.has(key)) {
      const same = stored.filter((l) => l.productId === line.productId);
      if (same.length === 1) key = lineKey(same[0]);
    }
    const current = merged.get(key);
    merged.set(
      key,
      current ? { ...current, quantity: Math.max(current.quantity, line.quantity) } : line,
    );
  }
  return setCart([...merged.values()]);
}
