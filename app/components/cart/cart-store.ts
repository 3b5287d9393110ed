import { useSyncExternalStore } from "react";
import {
  addItem,
  type Cart,
  type CartLine,
  clearCart,
  itemCount,
  removeItem,
  setCart,
  updateQuantity,
} from "~/rules/cart.ts";

/**
 * The browser's cart: kept in localStorage and shared by every component through one store. The
 * item count is mirrored in a cookie so the server renders the header badge with the right number
 * on the first paint.
 */
const STORAGE_KEY = "lk_cart";
export const CART_COUNT_COOKIE = "lk_cart_count";

let cart: Cart = [];
let loaded = false;
const listeners = new Set<() => void>();

function load() {
  if (loaded || typeof window === "undefined") return;
  loaded = true;
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    cart = raw ? setCart(JSON.parse(raw) as CartLine[]) : [];
  } catch {
    cart = [];
  }
}

function commit(next: Cart) {
  cart = next;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(cart));
  } catch {
    // Private mode or a full quota: the cart still works for this page's life.
  }
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie the server reads; the Cookie Store API is not in every browser
  document.cookie = `${CART_COUNT_COOKIE}=${itemCount(cart)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  load();
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEY) return;
    loaded = false;
    load();
    for (const l of listeners) l();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

const getSnapshot = () => {
  load();
  return cart;
};
const emptyCart: Cart = [];
const getServerSnapshot = () => emptyCart;

export const cartActions = {
  add: (item: Omit<CartLine, "quantity">) => commit(addItem(getSnapshot(), item)),
  remove: (productId: string) => commit(removeItem(getSnapshot(), productId)),
  update: (productId: string, quantity: number) =>
    commit(updateQuantity(getSnapshot(), productId, quantity)),
  set: (lines: Cart) => commit(setCart(lines)),
  clear: () => commit(clearCart()),
};

export function useCart(): Cart {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}

/** The header badge's count: the server's cookie value until the browser's cart has loaded. */
export function useCartCount(serverCount: number): number {
  const lines = useSyncExternalStore(subscribe, getSnapshot, () => null);
  return lines === null ? serverCount : itemCount(lines);
}

export function cartCountFromCookie(header: string | null): number {
  const match = header?.match(new RegExp(`(?:^|;\\s*)${CART_COUNT_COOKIE}=(\\d{1,4})`));
  return match ? Number(match[1]) : 0;
}
