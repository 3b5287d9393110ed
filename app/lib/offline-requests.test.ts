import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A browser's window as far as the module uses it: its address, `fetch` and `online` events. */
function browser() {
  const listeners = new Set<() => void>();
  const sent: Array<{ url: string; method: string }> = [];
  let fail = false;
  const network = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(input), method: init?.method ?? "GET" });
    if (fail) throw new TypeError("Failed to fetch");
    return new Response("ok");
  });
  const window = {
    location: { origin: "https://shop.example", href: "https://shop.example/contact" },
    fetch: network as typeof fetch,
    addEventListener: (type: string, listener: () => void) => {
      if (type === "online") listeners.add(listener);
    },
    removeEventListener: (type: string, listener: () => void) => {
      if (type === "online") listeners.delete(listener);
    },
  };
  const navigator = { onLine: true };
  vi.stubGlobal("window", window);
  vi.stubGlobal("navigator", navigator);
  return {
    window,
    sent,
    listening: () => listeners.size,
    offline: () => {
      navigator.onLine = false;
    },
    online: () => {
      navigator.onLine = true;
      for (const listener of [...listeners]) listener();
    },
    failing: (on: boolean) => {
      fail = on;
    },
  };
}

/** The module fresh (its wrapper and counts are per page). */
async function fresh() {
  vi.resetModules();
  return import("./offline-requests.ts");
}

/** Lets pending promises settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);
/** The browser's `online`, and the wait after it. */
async function backOnline(b: ReturnType<typeof browser>) {
  b.online();
  await vi.advanceTimersByTimeAsync(1000);
}

describe("the page's requests while offline", () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("pass through untouched online, and offline unless they are the page's data or forms", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    await b.window.fetch("/contact.data", { method: "POST" });
    b.offline();
    await b.window.fetch("/api/cart", { method: "POST" }).catch(() => {});
    await b.window.fetch("https://elsewhere.example/x.data").catch(() => {});
    expect(b.sent.map((s) => s.url)).toEqual([
      "/contact.data",
      "/api/cart",
      "https://elsewhere.example/x.data",
    ]);
  });

  it("keep a form sent offline until the browser is back online, then send it once", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    const seen: Array<string | null> = [];
    m.subscribeWaiting(() => seen.push(m.waitingNow()));
    b.offline();
    const answer = b.window.fetch("/contact.data", { method: "POST", body: "message" });
    await settle();
    expect(b.sent).toEqual([]);
    expect(m.waitingNow()).toBe("send");
    // Not at the browser's word: a phone's first request after reconnecting often fails.
    b.online();
    await vi.advanceTimersByTimeAsync(900);
    expect(b.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(await (await answer).text()).toBe("ok");
    expect(b.sent).toEqual([{ url: "/contact.data", method: "POST" }]);
    expect(m.waitingNow()).toBe(null);
    expect(seen).toEqual(["send", null]);
    expect(b.listening()).toBe(0);
  });

  it("keep a page's data asked for offline until back online; a form sent waits first", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    const page = b.window.fetch(new URL("https://shop.example/products.data?_routes=root"));
    await settle();
    expect(m.waitingNow()).toBe("read");
    const form = b.window.fetch("/addresses.data", { method: "post" });
    await settle();
    expect(m.waitingNow()).toBe("send");
    await backOnline(b);
    await Promise.all([page, form]);
    expect(b.sent.map((s) => s.url)).toEqual([
      "https://shop.example/products.data?_routes=root",
      "/addresses.data",
    ]);
    expect(m.waitingNow()).toBe(null);
  });

  it("drop a request cancelled while it waits, as React Router cancels any other", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    const cancel = new AbortController();
    const answer = b.window.fetch("/contact.data", { method: "POST", signal: cancel.signal });
    await settle();
    cancel.abort();
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
    expect(m.waitingNow()).toBe(null);
    await backOnline(b);
    await settle();
    expect(b.sent).toEqual([]);
    expect(b.listening()).toBe(0);
  });

  it("don't send again a form that failed on its way (it may have reached the shop); ask a page's data again", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.failing(true);
    const form = b.window.fetch("/checkout.data", { method: "POST" });
    const page = b.window.fetch("/orders.data");
    // The connection went while both were on their way.
    b.offline();
    await expect(form).rejects.toThrow("Failed to fetch");
    await settle();
    expect(m.waitingNow()).toBe("read");
    b.failing(false);
    await backOnline(b);
    expect((await page).ok).toBe(true);
    expect(b.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST /checkout.data",
      "GET /orders.data",
      "GET /orders.data",
    ]);
  });

  it("fail as before when a page's data fails online (the shop is down: waiting for 'online' would never end)", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.failing(true);
    await expect(b.window.fetch("/orders.data")).rejects.toThrow("Failed to fetch");
    expect(m.waitingNow()).toBe(null);
  });

  it("keep React Router's asking for a route it hasn't met (before a review is sent) until back online", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    // The links on the page: nothing waits for them, and offline they fail quietly as before.
    await b.window.fetch("/__manifest?paths=%2Fcart&version=1").catch(() => {});
    expect(b.sent).toHaveLength(1);
    expect(m.waitingNow()).toBe(null);
    b.sent.length = 0;
    // On the way to a form (React Router passes the fetcher's signal).
    const routes = b.window.fetch("/__manifest?paths=%2Fapi%2Freviews&version=1", {
      signal: new AbortController().signal,
    });
    await settle();
    expect(b.sent).toEqual([]);
    expect(m.waitingNow()).toBe("read");
    await backOnline(b);
    await routes;
    expect(b.sent.map((s) => s.url)).toEqual(["/__manifest?paths=%2Fapi%2Freviews&version=1"]);
  });

  it("wait for the next time when the browser goes offline again before the request is made", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    const answer = b.window.fetch("/contact.data", { method: "POST" });
    await settle();
    b.online();
    await vi.advanceTimersByTimeAsync(500);
    b.offline();
    await vi.advanceTimersByTimeAsync(5000);
    expect(b.sent).toEqual([]);
    expect(m.waitingNow()).toBe("send");
    await backOnline(b);
    await answer;
    expect(b.sent).toHaveLength(1);
    expect(m.waitingNow()).toBe(null);
  });

  it("drop a request cancelled while it waits again (offline again before the second was up)", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    const cancel = new AbortController();
    const removed = vi.spyOn(cancel.signal, "removeEventListener");
    const answer = b.window.fetch("/contact.data", { method: "POST", signal: cancel.signal });
    await settle();
    b.online();
    await vi.advanceTimersByTimeAsync(500);
    b.offline();
    await vi.advanceTimersByTimeAsync(1000);
    cancel.abort();
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
    expect(b.sent).toEqual([]);
    expect(m.waitingNow()).toBe(null);
    expect(b.listening()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    // Each wait took its cancel listener away again.
    expect(removed).toHaveBeenCalledTimes(2);
  });

  it("drop a Request cancelled by its own signal while it waits", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    b.offline();
    const cancel = new AbortController();
    const answer = b.window.fetch(
      new Request("https://shop.example/contact.data", { method: "POST", signal: cancel.signal }),
    );
    await settle();
    expect(m.waitingNow()).toBe("send");
    b.online();
    cancel.abort();
    await expect(answer).rejects.toMatchObject({ name: "AbortError" });
    // The settling second's timer went with it.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(b.sent).toEqual([]);
    expect(m.waitingNow()).toBe(null);
    expect(b.listening()).toBe(0);
  });

  it("wrap fetch once, however often installed", async () => {
    const b = browser();
    const m = await fresh();
    m.holdDataRequestsWhileOffline();
    const wrapped = b.window.fetch;
    m.holdDataRequestsWhileOffline();
    expect(b.window.fetch).toBe(wrapped);
  });
});
