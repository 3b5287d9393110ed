import { useSyncExternalStore } from "react";
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

/** A line's identity: its product and variant (none: the product's default variant). */
type LineRef = { productId: string; variantId?: string | null };

const lineOf = (ref: LineRef) => getSnapshot().find((l) => lineKey(l) === lineKey(ref));
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
    if (sync?.ready) send({ intent: "set-all", lines: storedLines(getSnapshot()) });
  },
  clear: () => {
    commit(clearCart());
    if (sync?.ready) send({ intent: "clear" });
  },
};

/*
 * Syncing with the stored cart (SPEC.md §4 "Cart"). On sign-in the stored cart is loaded, merged
 * with this browser's cart (larger quantity per product) and written back in full; individual
 * changes are not sent during the merge, and every change after it is. On sign-out the local
 * cart is cleared. Which account the local cart was last synced with is remembered (as a hash) so
 * a reload doesn't merge again and a sign-out in another tab or an expired session still clears it.
 */
const SYNCED_KEY = "lk_cart_synced";

type CartOp =
  | { intent: "set"; productId: string; variantId: string | null; quantity: number }
  | { intent: "remove"; productId: string; variantId: string | null }
  | {
      intent: "set-all";
      lines: Array<{ productId: string; variantId: string | null; quantity: number }>;
    }
  | { intent: "clear" };

let sync: { account: string; ready: boolean } | null = null;
/** Bumped whenever the account changes, so a merge that is still loading is abandoned. */
let generation = 0;
/** A change on its way to the stored cart; `account` is its account's hash (null: not kept). */
type Queued = { id: string; account: string | null; op: CartOp };
let queue: Queued[] = [];
let flushing: Promise<void> | null = null;

const storedLines = (c: Cart) =>
  c.map((l) => ({ productId: l.productId, variantId: l.variantId ?? null, quantity: l.quantity }));

function syncLine(ref: LineRef) {
  if (!sync?.ready) return;
  const line = lineOf(ref);
  const { productId } = ref;
  const variantId = ref.variantId ?? null;
  send(
    line
      ? { intent: "set", productId, variantId, quantity: line.quantity }
      : { intent: "remove", productId, variantId },
  );
}

/*
 * A change the server has not answered yet is also kept in localStorage, under its account. A
 * page load cuts off a request still on its way (Add to Cart, then a link or a reload at once),
 * and offline it fails: the next page sends what is kept before it reads the stored cart, which
 * would otherwise replace the change here. Every change is idempotent (a quantity, a removal, a
 * whole cart), so one that did arrive does no harm sent twice.
 */
const PENDING_KEY = "lk_cart_pending";

function readPending(): Queued[] {
  try {
    const kept = JSON.parse(window.localStorage.getItem(PENDING_KEY) ?? "[]") as unknown;
    return Array.isArray(kept) ? (kept as Queued[]) : [];
  } catch {
    return [];
  }
}

function writePending(entries: Queued[]) {
  try {
    if (entries.length > 0) window.localStorage.setItem(PENDING_KEY, JSON.stringify(entries));
    else window.localStorage.removeItem(PENDING_KEY);
  } catch {
    // Private mode or a full quota: this page still sends the change.
  }
}

/** Forgets kept changes: the given ones, or every one of an account (all when null). */
function forgetPending(which: { ids: ReadonlySet<string> } | { account: string | null }) {
  writePending(
    readPending().filter((p) =>
      "ids" in which ? !which.ids.has(p.id) : which.account !== null && p.account !== which.account,
    ),
  );
}

const sameLine = (a: CartOp, b: CartOp) =>
  "productId" in a && "productId" in b && lineKey(a) === lineKey(b);

/** A later change of the same line, or a whole-cart change, makes an earlier one moot. */
const supersedes = (later: CartOp, earlier: CartOp) =>
  later.intent === "set-all" || later.intent === "clear" || sameLine(later, earlier);

function enqueue(entry: Queued) {
  queue = [...queue.filter((q) => !supersedes(entry.op, q.op)), entry];
}

/** Queues a change, keeps it until the server answers, and starts sending. */
function send(op: CartOp) {
  const account = sync ? accountHash(sync.account) : null;
  // Not crypto.randomUUID: a shop served over plain http on its own network has no secure context.
  const id = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
  const entry: Queued = { id, account, op };
  enqueue(entry);
  // What it makes moot goes from the kept changes too, another tab's included: sent again by a
  // later page, an older change would undo this one.
  if (account) {
    const kept = readPending().filter((p) => !(p.account === account && supersedes(op, p.op)));
    writePending([...kept, entry]);
  }
  startFlush();
}

function startFlush() {
  flushing ??= flush().finally(() => {
    flushing = null;
  });
}

async function flush() {
  for (let entry = queue[0]; entry; entry = queue[0]) {
    const { op } = entry;
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
      // Offline, or the page is being left: kept, and sent again by the next change, by the
      // browser coming back online, or by the next page.
      return;
    }
    // Answered (a refusal too: sending it again would be refused again).
    queue = queue.filter((q) => q !== entry);
    forgetPending({ ids: new Set([entry.id]) });
    if (res.status === 401) {
      // The session ended: stop sending; the next page load signs the cart out.
      sync = null;
      queue = [];
      if (entry.account) forgetPending({ account: entry.account });
      return;
    }
  }
}

/** Sends again what a failed request left queued (the browser is back online). */
export function retryCartSync() {
  if (sync?.ready && queue.length > 0) startFlush();
}

/** This page takes over the changes an earlier page of the account left unanswered. */
function resumePending(account: string) {
  const hash = accountHash(account);
  for (const kept of readPending()) if (kept.account === hash) enqueue(kept);
  if (queue.length > 0) startFlush();
}

/** Resolves once every queued change has reached the server (checkout waits for it). */
export async function cartSyncIdle(): Promise<void> {
  while (flushing) await flushing;
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

function rememberSynced(account: string | null) {
  try {
    if (account) window.localStorage.setItem(SYNCED_KEY, accountHash(account));
    else window.localStorage.removeItem(SYNCED_KEY);
  } catch {}
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
  if (account === null) {
    if (sync || lastSynced()) {
      generation += 1;
      sync = null;
      queue = [];
      forgetPending({ account: null });
      rememberSynced(null);
      commit(clearCart());
    }
    return Promise.resolve();
  }
  if (sync?.account === account) return Promise.resolve();
  if (lastSynced() === accountHash(account)) {
    // Already merged for this account (a reload): the stored cart is the truth (another device
    // or tab may have changed it since); keep sending changes.
    sync = { account, ready: true };
    resumePending(account);
    return refreshStoredCart();
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
 * checkout).
 */
export async function refreshStoredCart(): Promise<void> {
  if (typeof window === "undefined") return;
  if (merging) await merging;
  if (!sync?.ready) return;
  retryCartSync();
  await cartSyncIdle();
  const mine = generation;
  let stored: Cart;
  try {
    const res = await fetch("/api/cart", { headers: { accept: "application/json" } });
    if (res.status === 401) sync = null;
    if (!res.ok) return;
    stored = setCart(((await res.json()) as { lines: CartLine[] }).lines);
  } catch {
    return;
  }
  // A change made meanwhile goes first; the next refresh picks the rest up.
  if (mine !== generation || !sync?.ready || queue.length > 0 || flushing) return;
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
  queue = [];
  // Signing in merges this browser's cart, which holds every change kept for the account.
  forgetPending({ account: accountHash(account) });
  let stored: Cart;
  try {
    const res = await fetch("/api/cart", { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`cart load failed: ${res.status}`);
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
  send({ intent: "set-all", lines: storedLines(merged) });
  await cartSyncIdle();
}

/**
 * After a successful payment (SPEC.md §4: the cart is emptied): takes the paid products out of
 * the cart here and on the server. Lines added since the order was placed stay, so reopening an
 * old payment page doesn't wipe a new cart.
 */
export async function removePaidLines(lines: readonly LineRef[]): Promise<void> {
  if (typeof window === "undefined") return;
  // A merge still loading would write the paid-for lines back: abandon it.
  if (sync && !sync.ready) {
    generation += 1;
    sync = { ...sync, ready: true };
    rememberSynced(sync.account);
  }
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
  for (const l of paid) {
    send({ intent: "remove", productId: l.productId, variantId: l.variantId ?? null });
  }
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
