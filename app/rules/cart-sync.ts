/**
 * Which of a signed-in browser's cart changes still have to reach the stored cart, and what to
 * send for them (the browser's side is app/components/cart/cart-store.ts).
 *
 * A change is marked unsent, per line (or for the whole cart), until the server answers it. What
 * is sent for a mark is always the line's value in the browser's cart at the time of sending,
 * never a recorded operation: sent twice, late, or by another tab, it can't undo a newer change.
 * A mark is settled only if it is unchanged since its sending began (the same `id`), so a change
 * made meanwhile, in any tab, is sent too.
 */
import { type Cart, lineKey } from "./cart.ts";

/**
 * How long an unsent change waits for a page to send it. A request cut off by a page load is
 * sent by the next page, seconds later; one made offline, once the browser is back. Older ones
 * are dropped: by then the customer may have changed the cart on another device, and the stored
 * cart is the truth.
 */
export const UNSENT_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * A whole cart (a sign-in's merge) waits only this long: sent later as this browser's copy, it
 * would replace lines added on another device since.
 */
export const UNSENT_WHOLE_KEPT_MS = 10 * 60 * 1000;

/** An unsent change: of one line (its product and variant), or of the whole cart (no product). */
export type Unsent = {
  /** The account's hash (the browser keeps no e-mail address). */
  account: string;
  /** When it was made (ms since the epoch). */
  at: number;
  /** Changes with every new change of the same line: what tells "unchanged since" apart. */
  id: string;
  productId?: string;
  variantId?: string | null;
};

/** Said when checkout would read a stored cart that lacks changes made here. */
export const cartNotSavedText = {
  title: "Failed to save cart",
  description: "Please check your connection and try again.",
};

/** One change sent to /api/cart (its `intent` field, and the fields that go with it). */
export type CartOp =
  | { intent: "set"; productId: string; variantId: string | null; quantity: number }
  | { intent: "remove"; productId: string; variantId: string | null }
  | {
      intent: "set-all";
      lines: Array<{ productId: string; variantId: string | null; quantity: number }>;
    }
  | { intent: "clear" };

/** The name a mark is kept under: the line's key, or "*" for the whole cart. */
export function unsentKey(ref?: { productId: string; variantId?: string | null }): string {
  return ref ? lineKey(ref) : "*";
}

/**
 * The mark to send next for `account`: the whole cart's first (it settles every line), then the
 * oldest line's. Marks of another account, unreadable ones and those kept longer than they may
 * be (UNSENT_KEPT_MS, UNSENT_WHOLE_KEPT_MS) are to be dropped.
 */
export function nextUnsent(
  marks: ReadonlyArray<readonly [key: string, mark: Unsent | null]>,
  account: string,
  now: number,
): { drop: string[]; next: readonly [string, Unsent] | null } {
  const drop: string[] = [];
  let next: readonly [string, Unsent] | null = null;
  for (const [key, mark] of marks) {
    if (
      !mark ||
      mark.account !== account ||
      !(now - mark.at <= (key === "*" ? UNSENT_WHOLE_KEPT_MS : UNSENT_KEPT_MS)) ||
      (key === "*") !== (mark.productId === undefined)
    ) {
      drop.push(key);
      continue;
    }
    const whole = key === "*";
    const nextWhole = next?.[0] === "*";
    if (!next || (whole && !nextWhole) || (whole === nextWhole && mark.at < next[1].at)) {
      next = [key, mark];
    }
  }
  return { drop, next };
}

/** What to send for a mark: its line's quantity in `cart` now (gone: removed), or the whole cart. */
export function opFor(mark: Unsent, cart: Cart): CartOp {
  if (mark.productId === undefined) {
    return cart.length === 0
      ? { intent: "clear" }
      : {
          intent: "set-all",
          lines: cart.map((l) => ({
            productId: l.productId,
            variantId: l.variantId ?? null,
            quantity: l.quantity,
          })),
        };
  }
  const ref = { productId: mark.productId, variantId: mark.variantId ?? null };
  const line = cart.find((l) => lineKey(l) === lineKey(ref));
  return line ? { intent: "set", ...ref, quantity: line.quantity } : { intent: "remove", ...ref };
}

/**
 * The marks a send settled once the server answered it: the sent mark, or every mark for a whole
 * cart, each only if unchanged since the sending began (`before`: the marks' ids then).
 */
export function settledBy(
  sent: string,
  before: ReadonlyMap<string, string>,
  now: ReadonlyArray<readonly [key: string, mark: Unsent | null]>,
): string[] {
  return now.flatMap(([key, mark]) =>
    mark && (sent === "*" || key === sent) && before.get(key) === mark.id ? [key] : [],
  );
}
