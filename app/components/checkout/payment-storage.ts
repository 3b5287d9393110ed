/*
 * The checkout flow stores the payment's transaction id and order id in both local and session
 * storage before leaving for the gateway (SPEC.md §4 "Checkout flow"); the payment-result page
 * falls back to them when the gateway's return URL lacks them.
 */
const TRANSACTION_KEY = "lk_payment_transaction_id";
const ORDER_KEY = "lk_payment_order_id";

const stores = (): Storage[] => {
  const out: Storage[] = [];
  for (const get of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      out.push(get());
    } catch {
      // Storage blocked (privacy settings): the URL still carries the ids.
    }
  }
  return out;
};

export function rememberPayment(ids: { orderId: string; transactionId: string }): void {
  for (const s of stores()) {
    try {
      s.setItem(TRANSACTION_KEY, ids.transactionId);
      s.setItem(ORDER_KEY, ids.orderId);
    } catch {}
  }
}

export function storedPayment(): { orderId: string | null; transactionId: string | null } {
  for (const s of stores()) {
    try {
      const orderId = s.getItem(ORDER_KEY);
      const transactionId = s.getItem(TRANSACTION_KEY);
      if (orderId || transactionId) return { orderId, transactionId };
    } catch {}
  }
  return { orderId: null, transactionId: null };
}

/** After a successful payment the stored transaction id is cleared (SPEC.md §4). */
export function forgetTransaction(): void {
  for (const s of stores()) {
    try {
      s.removeItem(TRANSACTION_KEY);
    } catch {}
  }
}

const SETTLED_KEY = "lk_paid_orders_settled";

/**
 * Whether this browser already took an order's paid lines out of its cart. The payment page can be
 * opened again (Back, history, a bookmark) after the customer has filled a new cart; only the
 * first visit after the payment empties it.
 */
export function cartSettledFor(orderId: string): boolean {
  try {
    const settled = JSON.parse(window.localStorage.getItem(SETTLED_KEY) ?? "[]") as unknown;
    return Array.isArray(settled) && settled.includes(orderId);
  } catch {
    return false;
  }
}

/** Remembers (the 20 most recent) orders whose paid lines have left this browser's cart. */
export function rememberCartSettled(orderId: string): void {
  try {
    const raw = JSON.parse(window.localStorage.getItem(SETTLED_KEY) ?? "[]") as unknown;
    const settled = Array.isArray(raw)
      ? raw.filter((id) => typeof id === "string" && id !== orderId)
      : [];
    window.localStorage.setItem(SETTLED_KEY, JSON.stringify([...settled, orderId].slice(-20)));
  } catch {}
}
