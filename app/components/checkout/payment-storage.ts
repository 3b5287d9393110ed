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
