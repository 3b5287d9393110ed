/**
 * The cart's rules (SPEC.md §4 "Cart"), shared by the browser and the server. Pure functions over
 * an immutable list of lines.
 */
/** The cookie mirroring the cart's item count, so the server renders the header badge right. */
export const CART_COUNT_COOKIE = "lk_cart_count";

export type CartLine = {
  productId: string;
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

/** Adds one of a product: increments its quantity, or adds it with quantity 1. */
export function addItem(cart: Cart, item: Omit<CartLine, "quantity">): Cart {
  const existing = cart.find((l) => l.productId === item.productId);
  if (existing) {
    return cart.map((l) =>
      l.productId === item.productId ? { ...l, quantity: clampQuantity(l.quantity + 1) } : l,
    );
  }
  return [...cart, { ...item, quantity: 1 }];
}

export function removeItem(cart: Cart, productId: string): Cart {
  return cart.filter((l) => l.productId !== productId);
}

/** Sets a line's quantity, clamped at 0; at 0 the line is removed. */
export function updateQuantity(cart: Cart, productId: string, quantity: number): Cart {
  const q = clampQuantity(quantity);
  if (q === 0) return removeItem(cart, productId);
  return cart.map((l) => (l.productId === productId ? { ...l, quantity: q } : l));
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
 * Merges the stored cart with the local one on sign-in: every product of either, keeping the
 * larger quantity; the stored line's details win when both have it.
 */
export function mergeCarts(stored: Cart, local: Cart): Cart {
  const merged = new Map<string, CartLine>();
  for (const line of stored) merged.set(line.productId, line);
  for (const line of local) {
    const current = merged.get(line.productId);
    merged.set(
      line.productId,
      current ? { ...current, quantity: Math.max(current.quantity, line.quantity) } : line,
    );
  }
  return setCart([...merged.values()]);
}
