import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/*
 * The cart store in a fake browser (localStorage, a cookie, fetch) against a fake stored cart
 * that answers /api/cart as the shop does. A page load is a fresh import of the module, with the
 * browser's localStorage kept.
 */

type StoredLine = { productId: string; variantId: string | null; quantity: number };

const ACCOUNT = "customer@example.com";

let storage: Map<string, string>;
let stored: StoredLine[];
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
  const toLines = () => stored.map((l) => ({ ...lineOf(l.productId), quantity: l.quantity }));
  if (!init?.method || init.method === "GET") {
    requests.push("GET");
    return answer({ lines: toLines() });
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
  return answer({ ok: true, lines: toLines() });
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
  stored = [];
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
});
