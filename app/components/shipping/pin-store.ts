import type { EstimateResponse } from "~/rules/delivery.ts";

/*
 * The visitor's PIN code (issue 24), remembered in this browser's localStorage, not a cookie: a
 * cookie would make every page differ per visitor and defeat the page cache. Product pages, the
 * cart, custom printing and the address form read it back.
 */
const STORAGE_KEY = "lk_pin"; // pin-box.tsx reads it too, without loading this file
const PIN = /^[1-9]\d{5}$/;

export function rememberedPin(): string | null {
  try {
    const pin = window.localStorage.getItem(STORAGE_KEY);
    return pin && PIN.test(pin) ? pin : null;
  } catch {
    return null;
  }
}

/** Sent on window when the PIN changes (the cart prices its shipping for the new one). */
export const PIN_CHANGED_EVENT = "lk-pin-changed"; // cart.tsx listens for it by this name

export function rememberPin(pin: string) {
  try {
    window.localStorage.setItem(STORAGE_KEY, pin);
  } catch {
    // Private mode: the estimate still shows on this page.
  }
  window.dispatchEvent(new CustomEvent(PIN_CHANGED_EVENT, { detail: pin }));
}

/** What the server says about a PIN (and the product, or the kind of item). */
export async function fetchEstimate(
  pin: string,
  item: { productId?: string; kind?: "custom" | "cart"; readyBy?: string },
  signal?: AbortSignal,
): Promise<EstimateResponse> {
  const query = new URLSearchParams({ pin });
  if (item.productId) query.set("product", item.productId);
  else if (item.kind) query.set("kind", item.kind);
  if (item.kind === "custom" && item.readyBy) query.set("ready", item.readyBy);
  const res = await fetch(`/api/delivery-estimate?${query}`, {
    headers: { accept: "application/json" },
    signal,
  });
  return (await res.json()) as EstimateResponse;
}
