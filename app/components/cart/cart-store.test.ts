import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/*
 * The cart store in a fake browser (localStorage, a cookie, fetch) against a fake stored cart
 * that answers /api/cart as the shop does. A page load is a fresh import of the module, with the
 * browser's localStorage kept.
 */

type StoredLine = { productId: string; variantId: string | null; quantity: number };

const ACCOUNT = "customer@example.com";

let storage: Map<string, string>;
/** Each account's stored cart; `stored` is the one of the account signed in (`session`). */
let carts: Map<string, StoredLine[]>;
let session: string;
let stored: StoredLine[];
/** While set, a GET waits for it (its answer is read when it was asked). */
let getHeld: Promise<void> | null;
/** While set, the shop answers every request with this status and no cart. */
let failWith: number | null;
/** Requests made to /api/cart, as "GET" or "POST <intent>". */
let requests: string[];
/** Answers not read by the page: each keeps its request open in a browser. */
let unread: Response[];

function lineOf(productId: string) {
  return {
    productId,
    variantId: null,
    name: `Product ${productId}`,
    pricePaise: 49_900,
    image: null,
    category: "3D Prints",
    addedAt: "2026-11-28T10:00:00.000Z",
  };
}

function answer(body: unknown): Response {
  const res = new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json" },
  });
  unread.push(res);
  return res;
}

async function fakeFetch(url: string, init?: { method?: string; body?: FormData }) {
  if (url !== "/api/cart") throw new Error(`unexpected fetch ${url}`);
  // The network: the shop sees the request a moment later.
  await new Promise((resolve) => setTimeout(resolve, 1));
  const toLines = () => stored.map((l) => ({ ...lineOf(l.productId), quantity: l.quantity }));
  if (failWith !== null) {
    requests.push(`${init?.method ?? "GET"} ${failWith}`);
    const res = new Response("Unexpected Server Error", { status: failWith });
    unread.push(res);
    return res;
  }
  if (!init?.method || init.method === "GET") {
    requests.push("GET");
    const lines = toLines();
    if (getHeld) await getHeld;
    return answer({ lines });
  }
  const form = init.body as FormData;
  const intent = String(form.get("intent"));
  requests.push(`POST ${intent}`);
  if (intent === "set-all") {
    stored = (JSON.parse(String(form.get("lines"))) as StoredLine[]).map((l) => ({
      productId: l.productId,
      variantId: l.variantId ?? null,
      quantity: l.quantity,
    }));
  } else if (intent === "set") {
    const productId = String(form.get("productId"));
    const quantity = Number(form.get("quantity"));
    stored = stored.filter((l) => l.productId !== productId);
    if (quantity > 0) stored.push({ productId, variantId: null, quantity });
  } else if (intent === "remove") {
    stored = stored.filter((l) => l.productId !== String(form.get("productId")));
  } else if (intent === "clear") {
    stored = [];
  }
  carts.set(session, stored);
  return answer({ ok: true, lines: toLines() });
}

/** Signs the browser in as `account` (the shop's session cookie): requests are that account's. */
function signInAs(account: string) {
  carts.set(session, stored);
  session = account;
  stored = carts.get(account) ?? [];
}

/** A page load: the module's state starts afresh; the browser's storage stays. */
async function loadPage() {
  vi.resetModules();
  return import("./cart-store.ts");
}

const localCart = () =>
  (JSON.parse(storage.get("lk_cart") ?? "[]") as Array<{ productId: string; quantity: number }>)
    .map((l) => `${l.productId}:${l.quantity}`)
    .sort();

beforeEach(() => {
  storage = new Map();
  carts = new Map();
  session = ACCOUNT;
  stored = [];
  getHeld = null;
  failWith = null;
  requests = [];
  unread = [];
  const localStorage = {
    get length() {
      return storage.size;
    },
    key: (i: number) => [...storage.keys()][i] ?? null,
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, String(v)),
    removeItem: (k: string) => void storage.delete(k),
  };
  vi.stubGlobal("window", {
    localStorage,
    location: { protocol: "http:" },
    addEventListener: () => {},
    removeEventListener: () => {},
  });
  vi.stubGlobal("document", { cookie: "" });
  vi.stubGlobal("fetch", vi.fn(fakeFetch));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("cart store, signed in", () => {
  it("a change made before the page follows the account reaches the stored cart", async () => {
    // First page: signing in merges (the stored cart holds a lamp).
    stored = [{ productId: "lamp", variantId: null, quantity: 1 }];
    let store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    await store.cartSyncIdle();
    expect(localCart()).toEqual(["lamp:1"]);

    // Next page: Add to Cart is handled before the root's effects tell the store who is signed in
    // (a tap React handles as the page hydrates).
    store = await loadPage();
    requests = [];
    store.cartActions.add(lineOf("spinner"));
    expect(requests).toEqual([]);
    await store.followCartAccount(ACCOUNT);
    await store.cartSyncIdle();

    // Sent before the stored cart was taken again, so the stored cart didn't replace it.
    expect(requests).toEqual(["POST set", "GET"]);
    expect(stored.map((l) => `${l.productId}:${l.quantity}`).sort()).toEqual([
      "lamp:1",
      "spinner:1",
    ]);
    expect(localCart()).toEqual(["lamp:1", "spinner:1"]);
  });

  it("a guest's change before the page follows nobody stays in the browser only", async () => {
    const store = await loadPage();
    store.cartActions.add(lineOf("spinner"));
    await store.followCartAccount(null);
    expect(requests).toEqual([]);
    expect(localCart()).toEqual(["spinner:1"]);
  });

  it("a change before a first sign-in's merge goes in with the merge", async () => {
    stored = [{ productId: "lamp", variantId: null, quantity: 2 }];
    const store = await loadPage();
    store.cartActions.add(lineOf("spinner"));
    await store.followCartAccount(ACCOUNT);
    await store.cartSyncIdle();
    expect(requests).toEqual(["GET", "POST set-all"]);
    expect(localCart()).toEqual(["lamp:2", "spinner:1"]);
  });

  it("every answer is read or ended, so no request stays open", async () => {
    stored = [{ productId: "lamp", variantId: null, quantity: 1 }];
    let store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    store.cartActions.add(lineOf("spinner"));
    await store.cartSyncIdle();
    store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    store.cartActions.update("lamp", 3);
    await store.cartSyncIdle();
    expect(unread.length).toBeGreaterThanOrEqual(4);
    expect(unread.filter((res) => !res.bodyUsed)).toEqual([]);
  });

  it("a wait for the stored cart waits for changes made before the page follows the account", async () => {
    stored = [{ productId: "lamp", variantId: null, quantity: 1 }];
    let store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    await store.cartSyncIdle();

    // Proceed to Checkout tapped as the next page hydrates, right after Add to Cart.
    store = await loadPage();
    store.cartActions.add(lineOf("spinner"));
    let storedWhenIdle: string[] = [];
    const idle = store.cartSyncIdle().then((ok) => {
      storedWhenIdle = stored.map((l) => l.productId).sort();
      return ok;
    });
    await store.followCartAccount(ACCOUNT);
    expect(await idle).toBe(true);
    expect(storedWhenIdle).toEqual(["lamp", "spinner"]);
  });

  it("a merge still loading for one account never writes into another's stored cart", async () => {
    // This page signs in as A; A's stored cart is read slowly.
    const other = "other@example.com";
    stored = [{ productId: "lamp", variantId: null, quantity: 1 }];
    let release = () => {};
    getHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tab1 = await loadPage();
    const merging = tab1.followCartAccount(ACCOUNT);
    await vi.waitFor(() => expect(requests).toEqual(["GET"]));

    // Meanwhile another tab signs in as B (the browser's session is B's now) and merges.
    signInAs(other);
    stored = [{ productId: "spinner", variantId: null, quantity: 2 }];
    getHeld = null;
    const tab2 = await loadPage();
    await tab2.followCartAccount(other);
    await tab2.cartSyncIdle();
    // This page's root learns of B and follows it; then A's slow read arrives.
    const following = tab1.followCartAccount(other);
    release();
    await merging;
    await following;
    await tab1.cartSyncIdle();

    // B's stored cart is B's: A's lamp was not written into it.
    expect(stored).toEqual([{ productId: "spinner", variantId: null, quantity: 2 }]);
    expect(carts.get(ACCOUNT)).toEqual([{ productId: "lamp", variantId: null, quantity: 1 }]);
  });

  it("an error answer is ended too", async () => {
    stored = [{ productId: "lamp", variantId: null, quantity: 1 }];
    let store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    await store.cartSyncIdle();
    // The shop fails: the next page's refresh (a GET) and a change (a POST) get 500s.
    failWith = 500;
    store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    store.cartActions.add(lineOf("spinner"));
    expect(await store.cartSyncIdle()).toBe(false);
    // A first sign-in whose read fails: its GET gets a 500.
    storage.clear();
    store = await loadPage();
    await store.followCartAccount(ACCOUNT);
    expect(requests).toEqual(expect.arrayContaining(["GET 500", "POST 500"]));
    expect(requests.filter((r) => r.startsWith("GET")).length).toBeGreaterThanOrEqual(2);
    expect(unread.filter((res) => !res.bodyUsed)).toEqual([]);
  });
});
