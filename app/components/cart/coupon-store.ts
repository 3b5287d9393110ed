import { useSyncExternalStore } from "react";

/*
 * The discount code this browser applied in the cart (issue #23). Only the code is kept: the
 * server prices it again on every summary and at checkout, so a stale or forged figure here can't
 * change what anyone pays.
 */
const STORAGE_KEY = "lk_coupon";
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function setCoupon(code: string | null) {
  try {
    if (code) window.localStorage.setItem(STORAGE_KEY, code);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Private mode: the code still applies on this page.
  }
  for (const l of listeners) l();
}

export function useCoupon(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
