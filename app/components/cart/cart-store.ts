import { useSyncExternalStore } from "react";
import { endUnread } from "~/lib/end-unread.ts";
import {
  addItem,
  CART_COUNT_COOKIE,
  type Cart,
  type CartLine,
  clearCart,
  itemCount,
  lineKey,
  mergeCarts,
  removeItem,
  setCart,
  updateQuantity,
} from "~/rules/cart.ts";
import { nextUnsent, opFor, settledBy, type Unsent, unsentKey } from "~/rules/cart-sync.ts";

/**
 * The browser's cart: kept in localStorage and shared by every component through one store. The
 * item count is mirrored in a cookie so the server renders the header badge with the right number
 * on the first paint. While a customer is signed in, each change is also sent to their stored cart
 * (/api/cart); see startCartSync below.
 */
const STORAGE_KEY = "lk_cart";

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

/** Whether localStorage refused the last cart written: this page's copy is then the newest. */
let cartUnkept = false;

function commit(next: Cart) {
  cart = next;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(cart));
    cartUnkept = false;
  } catch {
    // Private mode or a full quota: the cart still works for this page's life.
    cartUnkept = true;
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

/** A line's identity: its product and variant (none: the product's default variant). */
type LineRef = { productId: string; variantId?: string | null };

const refOf = (key: string): LineRef =>
  getSnapshot().find((l) => lineKey(l) === key) ?? { productId: key };

/** Lines are named by lineKey: the variant id, or the product id for a line without one. */
export const cartActions = {
  add: (item: Omit<CartLine, "quantity">) => {
    commit(addItem(getSnapshot(), item));
    syncLine(item);
  },
  /** Puts a line with an exact quantity (a custom part the server already added at its quote's). */
  put: (item: Omit<CartLine, "addedAt">) => {
    const others = getSnapshot().filter((l) => l.productId !== item.productId);
    commit(setCart([...others, { ...item, addedAt: new Date().toISOString() }]));
    syncLine(item);
  },
  remove: (key: string) => {
    const ref = refOf(key);
    commit(removeItem(getSnapshot(), key));
    syncLine(ref);
  },
  update: (key: string, quantity: number) => {
    const ref = refOf(key);
    commit(updateQuantity(getSnapshot(), key, quantity));
    syncLine(ref);
  },
  set: (lines: Cart) => {
    commit(setCart(lines));
    syncLine();
  },
  clear: () => {
    commit(clearCart());
    syncLine();
  },
  /**
   * After an order is placed: the server took the ordered lines out of the stored cart already
   * (in the order's transaction), and lines added meanwhile (another tab) stay there. Nothing is
   * sent: the copy is emptied and the stored cart taken again.
   */
  ordered: () => {
    commit(clearCart());
    void refreshStoredCart();
  },
};

/*
 * Syncing with the stored cart (SPEC.md §4 "Cart"). On sign-in the stored cart is loaded, merged
 * with this browser's cart (larger quantity per product) and written back in full; individual
 * changes are not sent during the merge, and every change after it is. On sign-out the local
 * cart is cleared. Which account the local cart was last synced with is remembered (as a hash) so
 * a reload doesn't merge again and a sign-out in another tab or an expired session still clears it.
 *
 * A change is marked unsent in localStorage (app/rules/cart-sync.ts: one key per line, with the
 * account) until the server answers it, and what is sent is the line's value in this browser's
 * cart at that moment. A page load cuts off a request on its way (Add to Cart, then a link at
 * once), offline it fails, a server error refuses it: the next page, the tab shown again or the
 * browser back online sends every unsent line first, and the stored cart, which would replace
 * them, is taken only once none is left.
 */
const SYNCED_KEY = "lk_cart_synced";
const UNSENT_PREFIX = "lk_cart_unsent:";
/** Rewritten with every change, in any tab: a stored cart read meanwhile is older than the copy. */
const CHANGED_KEY = "lk_cart_changed";

let sync: { account: string; ready: boolean } | null = null;
/** The signed-in account this page follows (null: signed out), syncing or not. */
let followed: string | null = null;
let changedHere = "";
/** Bumped whenever the account changes, so a merge that is still loading is abandoned. */
let generation = 0;
let flushing: Promise<boolean> | null = null;
/** Marks localStorage refused (private mode, a full quota): this page still sends them. */
const unkept = new Map<string, Unsent>();

/** The browser's cart as every tab has it now (this page's copy when storage can't be read). */
function sharedCart(): Cart {
  if (cartUnkept) return getSnapshot();
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (raw !== null) return setCart(JSON.parse(raw) as CartLine[]);
  } catch {}
  return getSnapshot();
}

function readUnsent(): Array<readonly [string, Unsent | null]> {
  const marks = new Map<string, Unsent | null>(unkept);
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      const name = window.localStorage.key(i);
      if (!name?.startsWith(UNSENT_PREFIX)) continue;
      let mark: Unsent | null = null;
      try {
        mark = JSON.parse(window.localStorage.getItem(name) ?? "null") as Unsent | null;
      } catch {}
      marks.set(name.slice(UNSENT_PREFIX.length), mark);
    }
  } catch {}
  return [...marks];
}

function forgetUnsent(keys: Iterable<string>) {
  for (const key of keys) {
    unkept.delete(key);
    try {
      window.localStorage.removeItem(UNSENT_PREFIX + key);
    } catch {}
  }
}

const forgetAllUnsent = () => forgetUnsent(readUnsent().map(([key]) => key));

/**
 * Changes made before this page has followed any account (a tap React handles as it hydrates, before
 * the root's effects have run): whose they are is not known yet. Marked once it is.
 */
let beforeFollowing: Array<LineRef | undefined> | null = [];
let followedFirst = () => {};
/** Settles when this page first follows an account (or nobody). */
const firstFollow = new Promise<void>((resolve) => {
  followedFirst = resolve;
});
/** How long a wait for the stored cart waits for the page to learn who is signed in. */
const FIRST_FOLLOW_WAIT_MS = 5_000;

/** Marks a line (none: the whole cart) unsent and sends what is unsent. */
function syncLine(ref?: LineRef) {
  if (!sync?.ready) {
    beforeFollowing?.push(ref);
    return;
  }
  const key = unsentKey(ref);
  const mark: Unsent = {
    account: accountHash(sync.account),
    at: Date.now(),
    // Not crypto.randomUUID: a shop served over plain http on its own network has no secure context.
    id: `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
    ...(ref ? { productId: ref.productId, variantId: ref.variantId ?? null } : {}),
  };
  try {
    window.localStorage.setItem(UNSENT_PREFIX + key, JSON.stringify(mark));
    unkept.delete(key);
  } catch {
    unkept.set(key, mark);
  }
  changedHere = mark.id;
  try {
    window.localStorage.setItem(CHANGED_KEY, mark.id);
  } catch {}
  void sendUnsent();
}

/** Changes when the cart changes, here or in another tab. */
function lastChange(): string {
  try {
    return `${window.localStorage.getItem(CHANGED_KEY)}|${changedHere}`;
  } catch {
    return changedHere;
  }
}

/** Sends the account's unsent changes (one run at a time); true once none is left. */
function sendUnsent(): Promise<boolean> {
  flushing ??= flush().finally(() => {
    flushing = null;
  });
  return flushing;
}

async function flush(): Promise<boolean> {
  for (;;) {
    if (!sync?.ready) return false;
    const account = accountHash(sync.account);
    // Another tab signed out, or in as someone else: nothing goes out from this page while so.
    if (!syncedWith(account)) return false;
    const { drop, next } = nextUnsent(readUnsent(), account, Date.now());
    forgetUnsent(drop);
    if (!next) return true;
    const [sent, mark] = next;
    const before = new Map(readUnsent().flatMap(([k, m]) => (m ? [[k, m.id] as const] : [])));
    const op = opFor(mark, sharedCart());
    const body = new FormData();
    body.set("intent", op.intent);
    if ("productId" in op) body.set("productId", op.productId);
    if ("variantId" in op && op.variantId) body.set("variantId", op.variantId);
    if (op.intent === "set") body.set("quantity", String(op.quantity));
    if (op.intent === "set-all") body.set("lines", JSON.stringify(op.lines));
    let res: Response;
    try {
      // keepalive: a line's change still arrives when the page is left right after it (a whole
      // cart may exceed keepalive's 64 KB; it is sent while the page waits for it).
      res = await fetch("/api/cart", { method: "POST", body, keepalive: op.intent !== "set-all" });
    } catch {
      // Offline, or the page is being left: still unsent.
      return false;
    }
    endUnread(res);
    if (res.status === 401) {
      // The session ended: stop sending; the next page load signs the cart out.
      sync = null;
      forgetAllUnsent();
      return false;
    }
    // Refused (400: a product gone) it can't be sent better; a server error, or a page that isn't
    // the shop's answer, leaves it unsent for the next try.
    const answered =
      res.status === 400 ||
      (res.ok && (res.headers.get("content-type") ?? "").includes("application/json"));
    if (!answered) return false;
    forgetUnsent(settledBy(sent, before, readUnsent()));
  }
}

/** Whether the signed-in account has changes the stored cart hasn't got yet. */
function anyUnsent(): boolean {
  if (!sync) return false;
  const account = accountHash(sync.account);
  return readUnsent().some(([, mark]) => mark?.account === account);
}

/** Sends what is unsent again (the browser is back online). */
export function retryCartSync() {
  if (sync?.ready) void sendUnsent();
}

/**
 * Resolves once every change made here and in this browser's other tabs has reached the stored
 * cart (checkout reads it): false when some couldn't be sent (offline, a server error).
 */
export async function cartSyncIdle(): Promise<boolean> {
  if (typeof window === "undefined") return true;
  // Changes made before the page knew who is signed in are sent once it does (an error page
  // never learns: not waited for long).
  if (beforeFollowing?.length) {
    await Promise.race([firstFollow, new Promise((r) => setTimeout(r, FIRST_FOLLOW_WAIT_MS))]);
  }
  if (merging) await merging;
  // Signed in but not syncing (the merge's read failed): the stored cart lacks this copy.
  if (!sync?.ready) return followed === null;
  return sendUnsent();
}

function accountHash(account: string): string {
  // FNV-1a: enough to tell accounts apart without keeping an e-mail address in localStorage.
  let h = 0x811c9dc5;
  for (let i = 0; i < account.length; i++) {
    h ^= account.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Whether localStorage refused the synced account: this page then goes by its own. */
let syncedUnkept = false;

function rememberSynced(account: string | null) {
  try {
    if (account) window.localStorage.setItem(SYNCED_KEY, accountHash(account));
    else window.localStorage.removeItem(SYNCED_KEY);
    syncedUnkept = false;
  } catch {
    syncedUnkept = true;
  }
}

/** Whether the browser's copy is still this account's (no other tab signed out or in since). */
function syncedWith(accountHashed: string): boolean {
  if (syncedUnkept) return true;
  try {
    return window.localStorage.getItem(SYNCED_KEY) === accountHashed;
  } catch {
    return true;
  }
}

function lastSynced(): string | null {
  try {
    return window.localStorage.getItem(SYNCED_KEY);
  } catch {
    return null;
  }
}

/**
 * Follows the signed-in account (any stable key for it; null when signed out). Call it whenever
 * that may have changed; repeated calls with the same account do nothing.
 */
export function followCartAccount(account: string | null): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  return followAccount(account).finally(markStoredRead);
}

/**
 * Whether this page has heard from the signed-in customer's stored cart yet (or knows there is
 * none to hear from). Until then an empty local copy proves nothing: a customer signing in on a
 * new device sees their cart arrive, not "Your Cart is Empty" first.
 */
let storedRead = false;
const readListeners = new Set<() => void>();
function markStoredRead() {
  if (storedRead) return;
  storedRead = true;
  for (const l of readListeners) l();
}
function subscribeRead(listener: () => void) {
  readListeners.add(listener);
  return () => readListeners.delete(listener);
}
export function useStoredCartRead(): boolean {
  return useSyncExternalStore(
    subscribeRead,
    () => storedRead,
    () => false,
  );
}

function followAccount(account: string | null): Promise<void> {
  followed = account;
  const early = beforeFollowing ?? [];
  beforeFollowing = null;
  // (Its waiters go on after this call's own steps: they are promise callbacks.)
  followedFirst();
  if (account === null) {
    if (sync || lastSynced()) {
      generation += 1;
      sync = null;
      forgetAllUnsent();
      rememberSynced(null);
      commit(clearCart());
    }
    return Promise.resolve();
  }
  if (sync?.account === account) return Promise.resolve();
  if (lastSynced() === accountHash(account)) {
    // Already merged for this account (a reload): the stored cart is the truth (another device
    // or tab may have changed it since), once this browser's unsent changes have reached it;
    // keep sending changes. Anything still under way for another account (its merge, a
    // refresh: another tab signed in meanwhile) is abandoned, not finished under this session.
    if (sync) generation += 1;
    sync = { account, ready: true };
    // A change made before now is sent first: the stored cart, taken next, would replace it.
    for (const ref of early) syncLine(ref);
    return refreshStoredCart();
  }
  if (lastSynced() !== null) {
    // Another account's copy (its session ended, or another tab signed in as someone else without
    // this page signing out): not a guest's cart to merge into this one.
    generation += 1;
    sync = null;
    forgetAllUnsent();
    rememberSynced(null);
    commit(clearCart());
  }
  merging = mergeStoredCart(account).finally(() => {
    merging = null;
  });
  return merging;
}

let merging: Promise<void> | null = null;

/**
 * Signed in, the stored cart is the truth and this browser's copy a cache of it: every change made
 * here is sent at once, but another device or tab may have changed it. Replaces the copy with the
 * stored cart once this browser's own changes have arrived (a page load, the tab shown again,
 * checkout); while some can't be sent, the copy stays as it is.
 */
export async function refreshStoredCart(): Promise<void> {
  if (typeof window === "undefined") return;
  if (merging) await merging;
  if (!sync?.ready) return;
  if (!(await sendUnsent())) return;
  const mine = generation;
  const changed = lastChange();
  let stored: Cart;
  try {
    const res = await fetch("/api/cart", { headers: { accept: "application/json" } });
    if (res.status === 401) sync = null;
    if (!res.ok) return endUnread(res);
    stored = setCart(((await res.json()) as { lines: CartLine[] }).lines);
  } catch {
    return;
  }
  // A change made meanwhile (here or in another tab) goes first; the next refresh takes the rest.
  if (mine !== generation || !sync?.ready || anyUnsent() || flushing) return;
  // A change sent and answered while the stored cart was on its way is newer than it.
  if (lastChange() !== changed) return;
  load();
  const key = (c: Cart) =>
    c
      .map((l) => `${lineKey(l)}:${l.quantity}`)
      .sort()
      .join(",");
  if (key(stored) !== key(cart)) commit(stored);
}

async function mergeStoredCart(account: string) {
  const mine = ++generation;
  sync = { account, ready: false };
  // Signing in merges this browser's cart as a whole: what was unsent (for anyone) is in it.
  forgetAllUnsent();
  let stored: Cart;
  try {
    const res = await fetch("/api/cart", { headers: { accept: "application/json" } });
    if (!res.ok) {
      endUnread(res);
      throw new Error(`cart load failed: ${res.status}`);
    }
    stored = setCart(((await res.json()) as { lines: CartLine[] }).lines);
  } catch {
    if (mine === generation) sync = null;
    return;
  }
  if (mine !== generation) return;
  load();
  const merged = mergeCarts(stored, cart);
  commit(merged);
  sync = { account, ready: true };
  rememberSynced(account);
  syncLine();
  // (Not cartSyncIdle: it waits for this merge.)
  await sendUnsent();
}

/**
 * After a successful payment (SPEC.md §4: the cart is emptied): takes the paid products out of
 * the cart here and on the server. Lines added since the order was placed stay, so reopening an
 * old payment page doesn't wipe a new cart.
 */
export async function removePaidLines(lines: readonly LineRef[]): Promise<void> {
  if (typeof window === "undefined") return;
  // A merge still loading (the first page signed in in this browser) goes first: abandoning it
  // left the guest's unpaid lines out of the stored cart, and the next page dropped them. The
  // paid lines are then taken out of what it wrote.
  if (merging) await merging;
  // A paid variant's line leaves; so does a line without a variant of a paid product (the
  // product's default, which is what the order holds then).
  const paidVariants = new Set(lines.flatMap((l) => (l.variantId ? [l.variantId] : [])));
  const paidProducts = new Set(lines.map((l) => l.productId));
  const isPaid = (l: CartLine) =>
    l.variantId
      ? paidVariants.has(l.variantId) || (paidVariants.size === 0 && paidProducts.has(l.productId))
      : paidProducts.has(l.productId);
  const paid = getSnapshot().filter(isPaid);
  if (paid.length === 0) return;
  commit(getSnapshot().filter((l) => !isPaid(l)));
  for (const l of paid) syncLine(l);
  await cartSyncIdle();
}

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
