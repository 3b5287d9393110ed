import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  earlyHit,
  encodedBody,
  inlineScriptHashes,
  PageCache,
  type PageCacheOptions,
  type PageCacheTicket,
} from "./page-cache.server.ts";
import { PARKED_MODULE_TYPE } from "./script-priority.server.ts";

function cache(options: Partial<PageCacheOptions> = {}) {
  let now = 1_000;
  const c = new PageCache({
    maxBytes: 1024 * 1024,
    maxAgeMs: 60_000,
    cookies: [
      { name: "lk_theme", value: /^(light|dark|system)$/ },
      { name: "lk_cart_count", value: /^\d{1,4}$/ },
    ],
    params: ["page", "reviews"],
    policyForScriptHashes: (hashes) => `script-src 'self' ${hashes.join(" ")}`,
    now: () => now,
    ...options,
  });
  c.setListening(true);
  return { c, advance: (ms: number) => (now += ms) };
}

const html = (text: string) =>
  `<!DOCTYPE html><html><body><p>${text}</p><script>window.a=1</script></body></html>`;
const headers = () => new Headers({ "Content-Type": "text/html; charset=utf-8" });

async function stored(c: PageCache, url: string, body = html(url)) {
  const key = c.keyFor("GET", url, undefined);
  if (!key) throw new Error("not cacheable");
  const ticket = c.ticket(key);
  if (!ticket) throw new Error("no ticket");
  return c.store(ticket, body, headers());
}

describe("which requests the page cache may answer", () => {
  const { c } = cache();

  it("keys a plain GET by its path", () => {
    expect(c.keyFor("GET", "/products", undefined)).toBe("/products?#");
    expect(c.keyFor("HEAD", "/products", undefined)).toBeNull();
    expect(c.keyFor("POST", "/products", undefined)).toBeNull();
  });

  it("takes the pages' own parameters in any order, and nothing else", () => {
    expect(c.keyFor("GET", "/products?page=2", undefined)).toBe("/products?page=2#");
    expect(c.keyFor("GET", "/product/x?reviews=2&page=1", undefined)).toBe(
      c.keyFor("GET", "/product/x?page=1&reviews=2", undefined),
    );
    expect(c.keyFor("GET", "/products?page=2&utm_source=x", undefined)).toBeNull();
    expect(c.keyFor("GET", "/search?q=dragon", undefined)).toBeNull();
    // Other spellings of a page, or a parameter given twice, are rendered, not stored.
    expect(c.keyFor("GET", "/products?page=01", undefined)).toBeNull();
    expect(c.keyFor("GET", "/products?page=abc", undefined)).toBeNull();
    expect(c.keyFor("GET", "/products?page=2&page=3", undefined)).toBeNull();
  });

  it("takes a parameter with a rule only on its paths and in its one spelling", () => {
    const { c } = cache({
      paramRules: [{ name: "variant", path: /^\/product\/[^/]+$/, value: /^[0-9a-f]{4}$/ }],
    });
    expect(c.keyFor("GET", "/product/x?variant=ab12", undefined)).toBe("/product/x?variant=ab12#");
    expect(c.keyFor("GET", "/product/x?variant=ab12&reviews=2", undefined)).toBe(
      "/product/x?reviews=2&variant=ab12#",
    );
    expect(c.keyFor("GET", "/product/x?variant=ab13", undefined)).not.toBe(
      c.keyFor("GET", "/product/x?variant=ab12", undefined),
    );
    // Another spelling, another page, given twice: rendered, not stored.
    expect(c.keyFor("GET", "/product/x?variant=AB12", undefined)).toBeNull();
    expect(c.keyFor("GET", "/products?variant=ab12", undefined)).toBeNull();
    expect(c.keyFor("GET", "/product/x?variant=ab12&variant=ab13", undefined)).toBeNull();
    // A rule's value isn't a page number, nor a page number a rule's value.
    expect(c.keyFor("GET", "/product/x?variant=12", undefined)).toBeNull();
  });

  it("tells the theme and the cart count apart, and refuses any other cookie", () => {
    const plain = c.keyFor("GET", "/", undefined);
    const dark = c.keyFor("GET", "/", "lk_theme=dark");
    const darkWithCart = c.keyFor("GET", "/", "lk_cart_count=3; lk_theme=dark");
    expect(new Set([plain, dark, darkWithCart]).size).toBe(3);
    expect(c.keyFor("GET", "/", "lk_theme=dark; lk_cart_count=3")).toBe(darkWithCart);
    // Signed in, a flash message, or anything unknown: rendered for this visitor alone.
    expect(c.keyFor("GET", "/", "better-auth.session_token=abc")).toBeNull();
    expect(c.keyFor("GET", "/", "lk_theme=dark; lk_flash=signed-out")).toBeNull();
    // A listed cookie with a value outside its rule can't make new entries.
    expect(c.keyFor("GET", "/", "lk_theme=<script>")).toBeNull();
    expect(c.keyFor("GET", "/", "lk_cart_count=99999999")).toBeNull();
    expect(c.keyFor("GET", "/", "lk_theme=dark; lk_theme=light")).toBeNull();
  });

  it("refuses URLs that aren't a path on this site", () => {
    expect(c.keyFor("GET", "//evil.example/x", undefined)).toBeNull();
    expect(c.keyFor("GET", "http://evil.example/x", undefined)).toBeNull();
  });
});

describe("storing and serving pages", () => {
  it("serves a stored page until the data changes", async () => {
    const { c } = cache();
    expect(await stored(c, "/products")).toBe(true);
    const key = c.keyFor("GET", "/products", undefined) as string;
    const page = c.get(key);
    expect(page).toBeDefined();
    expect(zlib.brotliDecompressSync(page?.br as Buffer).toString()).toBe(html("/products"));
    expect(zlib.gunzipSync(page?.gzip as Buffer).toString()).toBe(html("/products"));
    c.invalidate();
    expect(c.get(key)).toBeUndefined();
    expect(c.stats()).toMatchObject({ hits: 1, misses: 1, stores: 1, entries: 0 });
  });

  it("drops a render that began before a change", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/products", undefined) as string;
    const ticket = c.ticket(key);
    c.invalidate();
    expect(await c.store(ticket!, html("old data"), headers())).toBe(false);
    expect(c.get(key)).toBeUndefined();
  });

  it("drops a render whose change arrives while it is being compressed", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/products", undefined) as string;
    const storing = c.store(c.ticket(key)!, html("old data"), headers());
    c.invalidate();
    expect(await storing).toBe(false);
    expect(c.get(key)).toBeUndefined();
  });

  it("looks nothing up and stores nothing while changes can't be heard", async () => {
    const { c } = cache();
    await stored(c, "/products");
    const key = c.keyFor("GET", "/products", undefined) as string;
    const ticket = c.ticket(key)!;
    c.setListening(false);
    expect(c.get(key)).toBeUndefined();
    expect(c.ticket(key)).toBeNull();
    expect(await c.store(ticket, html("x"), headers())).toBe(false);
    // Hearing again starts empty: changes may have been missed meanwhile.
    c.setListening(true);
    expect(c.get(key)).toBeUndefined();
  });

  it("lets one request render a page while the others for it wait, then serves them the page", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/products", undefined) as string;
    // Only a page that has been stored before is waited for.
    expect(await stored(c, "/products")).toBe(true);
    c.invalidate();
    const first = c.claim(key);
    if (!first || !("ticket" in first)) throw new Error("the first miss renders");
    const second = c.claim(key);
    const third = c.claim(key);
    if (!second || !("wait" in second) || !third || !("wait" in third)) {
      throw new Error("later misses wait");
    }
    let woken = false;
    void second.wait.then(() => (woken = true));
    await Promise.resolve();
    expect(woken).toBe(false);
    expect(await c.store(first.ticket, html("fresh"), headers())).toBe(true);
    await second.wait;
    await third.wait;
    expect(c.get(key)).toBeDefined();
    expect(c.stats().coalesced).toBe(2);
    // The render is over: the next miss (after a change) renders again.
    c.invalidate();
    expect(c.claim(key)).toHaveProperty("ticket");
  });

  it("wakes the waiters when the render ends without storing, and lets the next miss render", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/products", undefined) as string;
    await stored(c, "/products");
    c.invalidate();
    const first = c.claim(key) as { ticket: PageCacheTicket };
    const second = c.claim(key) as { wait: Promise<void> };
    c.finish(first.ticket);
    await second.wait;
    expect(c.get(key)).toBeUndefined();
    expect(c.claim(key)).toHaveProperty("ticket");
  });

  it("never holds back requests for a page that has never been stored (a 404, a data request)", () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/no-such-page", undefined) as string;
    expect(c.claim(key)).toHaveProperty("ticket");
    expect(c.claim(key)).toHaveProperty("ticket");
    expect(c.stats().coalesced).toBe(0);
  });

  it("doesn't make a miss wait for a render of data that has since changed", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/products", undefined) as string;
    await stored(c, "/products");
    const stale = c.claim(key) as { ticket: PageCacheTicket };
    c.invalidate();
    const fresh = c.claim(key);
    expect(fresh).toHaveProperty("ticket");
    // The stale render ending doesn't end the fresh one's claim.
    expect(await c.store(stale.ticket, html("old"), headers())).toBe(false);
    expect(c.claim(key)).toHaveProperty("wait");
  });

  it("is off with no memory", async () => {
    const { c } = cache({ maxBytes: 0 });
    const key = c.keyFor("GET", "/products", undefined) as string;
    expect(c.ticket(key)).toBeNull();
    expect(c.get(key)).toBeUndefined();
  });

  it("keeps the first of two renders of the same data, so every visitor gets the same page", async () => {
    const { c, advance } = cache({ maxAgeMs: 10_000 });
    const key = c.keyFor("GET", "/about", undefined) as string;
    // Two first requests at once: neither waits for the other, as the page was never stored.
    const first = c.claim(key);
    const second = c.claim(key);
    if (!first || !("ticket" in first) || !second || !("ticket" in second)) {
      throw new Error("both render");
    }
    expect(await c.store(first.ticket, html("first render"), headers())).toBe(true);
    expect(await c.store(second.ticket, html("second render"), headers())).toBe(false);
    expect(zlib.brotliDecompressSync(c.get(key)?.br as Buffer).toString()).toBe(
      html("first render"),
    );
    // Once the stored page has aged out, a new render takes its place.
    advance(11_000);
    expect(await stored(c, "/about", html("later render"))).toBe(true);
    expect(zlib.brotliDecompressSync(c.get(key)?.br as Buffer).toString()).toBe(
      html("later render"),
    );
  });

  it("renders a page again once it is older than the maximum age", async () => {
    const { c, advance } = cache({ maxAgeMs: 10_000 });
    await stored(c, "/about");
    const key = c.keyFor("GET", "/about", undefined) as string;
    advance(9_000);
    expect(c.get(key)).toBeDefined();
    advance(2_000);
    expect(c.get(key)).toBeUndefined();
  });

  it("never stores a response that sets a cookie", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/", undefined) as string;
    const withCookie = new Headers({ "Set-Cookie": "a=b" });
    expect(await c.store(c.ticket(key)!, html("x"), withCookie)).toBe(false);
  });

  it("keeps within its memory, dropping the least recently used first", async () => {
    // Hashes don't repeat, so the pages don't compress to nothing.
    const page = (n: number) =>
      html(
        Array.from({ length: 100 }, (_, i) =>
          createHash("sha512").update(`${n}:${i}`).digest("hex"),
        ).join(""),
      );
    const probe = cache().c;
    await stored(probe, "/p0", page(0));
    const maxBytes = Math.floor(probe.stats().bytes * 6.5); // room for 6 pages
    const { c } = cache({ maxBytes });
    for (let n = 0; n < 4; n++) await stored(c, `/p${n}`, page(n));
    const key = (n: number) => c.keyFor("GET", `/p${n}`, undefined) as string;
    expect(c.get(key(0))).toBeDefined(); // now the most recently used
    for (let n = 4; n < 8; n++) await stored(c, `/p${n}`, page(n));
    expect(c.stats().bytes).toBeLessThanOrEqual(maxBytes);
    expect(c.stats().entries).toBe(6);
    expect(c.get(key(0))).toBeDefined();
    expect(c.get(key(1))).toBeUndefined();
    expect(c.get(key(7))).toBeDefined();
  });

  it("keeps the response's headers but not per-response ones, and allows its scripts by hash", async () => {
    const { c } = cache();
    const key = c.keyFor("GET", "/", undefined) as string;
    const h = new Headers({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-cache",
      "Content-Security-Policy": "script-src 'nonce-abc'",
      "X-Request-Id": "r1",
    });
    const storing = c.store(c.ticket(key)!, html("x"), h);
    // What the renderer adds for its own response afterwards isn't part of the page.
    h.set("X-Page-Cache", "miss");
    h.set("X-Later", "1");
    await storing;
    const names = new Map(c.get(key)?.headers.map(([n, v]) => [n.toLowerCase(), v]));
    expect(names.get("cache-control")).toBe("private, no-cache");
    expect(names.has("x-request-id")).toBe(false);
    expect(names.has("x-page-cache")).toBe(false);
    expect(names.has("x-later")).toBe(false);
    const hash = createHash("sha256").update("window.a=1").digest("base64");
    expect(names.get("content-security-policy")).toBe(`script-src 'self' 'sha256-${hash}'`);
  });
});

describe("catalogue reads remembered until the catalogue changes", () => {
  function counter() {
    let calls = 0;
    return { load: async () => ++calls, calls: () => calls };
  }

  it("reads once per key and shares the answer, also with calls while the read is under way", async () => {
    const { c } = cache();
    const read = counter();
    const [a, b] = await Promise.all([c.remember("k", read.load), c.remember("k", read.load)]);
    expect(await c.remember("k", read.load)).toBe(1);
    expect([a, b, read.calls()]).toEqual([1, 1, 1]);
    expect(await c.remember("other", read.load)).toBe(2);
  });

  it("reads again after a change, and drops a read that began before it", async () => {
    const { c } = cache();
    const read = counter();
    const before = c.remember("k", read.load);
    c.invalidate();
    expect(await before).toBe(1);
    expect(await c.remember("k", read.load)).toBe(2);
    expect(await c.remember("k", read.load)).toBe(2);
  });

  it("reads every time while changes can't be heard, or once the answer is older than the maximum age", async () => {
    const { c, advance } = cache();
    const read = counter();
    await c.remember("k", read.load);
    advance(60_001);
    expect(await c.remember("k", read.load)).toBe(2);
    c.setListening(false);
    expect(await c.remember("k", read.load)).toBe(3);
    expect(await c.remember("k", read.load)).toBe(4);
  });

  it("runs a lazy query (a thenable that queries on every await) once", async () => {
    const { c } = cache();
    let runs = 0;
    const query: PromiseLike<number> = {
      // biome-ignore lint/suspicious/noThenProperty: a lazy query, as drizzle's query builders are
      then: (onFulfilled, onRejected) => Promise.resolve(++runs).then(onFulfilled, onRejected),
    };
    await c.remember("q", () => query);
    expect(await c.remember("q", () => query)).toBe(1);
    expect(await c.remember("q", () => query)).toBe(1);
    expect(runs).toBe(1);
  });

  it("doesn't keep a failed read", async () => {
    const { c } = cache();
    await expect(c.remember("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await c.remember("k", async () => "up")).toBe("up");
  });

  it("keeps at most 2,000 reads, dropping the least recently used first", async () => {
    const { c } = cache();
    const read = counter();
    for (let i = 0; i < 2_000; i++) await c.remember(`k${i}`, read.load);
    await c.remember("k0", read.load); // used again: now the most recent
    await c.remember("k2000", read.load); // one too many: k1 goes
    expect(read.calls()).toBe(2_001);
    await c.remember("k0", read.load);
    expect(read.calls()).toBe(2_001);
    await c.remember("k1", read.load);
    expect(read.calls()).toBe(2_002);
  });
});

describe("inline script hashes", () => {
  it("hashes exactly the inline scripts a browser runs", () => {
    const doc = [
      '<script nonce="n">one()</script>',
      '<script type="module" nonce="n">import "/assets/a.js";</script>',
      // Parked until the page has painted, then run by the same text (decision 0032).
      `<script type="${PARKED_MODULE_TYPE}" nonce="n">import "/assets/parked.js";</script>`,
      '<script type="application/ld+json">{"@type":"Product"}</script>',
      '<script src="/assets/b.js"></script>',
      "<p>&lt;script&gt;not()&lt;/script&gt;</p>",
      "<script>\n  multi();\n  line();\n</script>",
    ].join("");
    const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(doc).sort()).toEqual(
      [
        sha("one()"),
        sha('import "/assets/a.js";'),
        sha('import "/assets/parked.js";'),
        sha("\n  multi();\n  line();\n"),
      ].sort(),
    );
  });

  it("given the render's nonce, hashes only the scripts carrying it, never an injected one", () => {
    const doc = [
      '<script nonce="abc">ours()</script>',
      "<script>injected()</script>",
      '<script nonce="other">alsoInjected()</script>',
    ].join("");
    const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(doc, "abc")).toEqual([sha("ours()")]);
  });
});

describe("the body a client gets", () => {
  it("prefers brotli, then gzip, else the plain page", async () => {
    const { c } = cache();
    await stored(c, "/");
    const page = c.get(c.keyFor("GET", "/", undefined) as string)!;
    expect(encodedBody(page, "gzip, deflate, br").encoding).toBe("br");
    expect(encodedBody(page, "gzip, br;q=0").encoding).toBe("gzip");
    const plain = encodedBody(page, "identity");
    expect(plain.encoding).toBeNull();
    expect(plain.body.toString()).toBe(html("/"));
    expect(encodedBody(page, undefined).encoding).toBeNull();
  });
});

describe("hits answered before the server's general stack", () => {
  it("answers a stored page's GET for brotli or gzip clients, counting the hit", async () => {
    const { c } = cache();
    await stored(c, "/products?page=2");
    const br = earlyHit(c, "GET", "/products?page=2", "lk_theme=dark", "gzip, br");
    // A theme cookie makes another page (another key): not stored yet.
    expect(br).toBeNull();
    const hit = earlyHit(c, "GET", "/products?page=2", undefined, "gzip, deflate, br");
    expect(hit?.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(hit!.body).toString()).toBe(html("/products?page=2"));
    expect(earlyHit(c, "GET", "/products?page=2", undefined, "gzip")?.encoding).toBe("gzip");
    expect(c.stats()).toMatchObject({ hits: 2 });
  });

  it("answers a HEAD for a stored page as its GET (the server sends no body), and nothing else", async () => {
    const { c } = cache();
    await stored(c, "/products");
    const head = earlyHit(c, "HEAD", "/products", undefined, "br");
    expect(head?.encoding).toBe("br");
    expect(head?.page).toBe(earlyHit(c, "GET", "/products", undefined, "br")?.page);
    const misses = c.stats().misses;
    expect(earlyHit(c, "HEAD", "/about", undefined, "br")).toBeNull();
    expect(earlyHit(c, "HEAD", "/products", "x=1", "br")).toBeNull();
    expect(c.stats()).toMatchObject({ hits: 2, misses });
  });

  it("leaves everything else to the general stack, without counting a miss it will count", async () => {
    const { c } = cache();
    await stored(c, "/products");
    const before = c.stats();
    // A client that takes neither brotli nor gzip gets the plain page (or deflate) the usual way.
    expect(earlyHit(c, "GET", "/products", undefined, undefined)).toBeNull();
    expect(earlyHit(c, "GET", "/products", undefined, "deflate")).toBeNull();
    expect(earlyHit(c, "GET", "/products", undefined, "br;q=0, gzip;q=0")).toBeNull();
    expect(earlyHit(c, "POST", "/products", undefined, "br")).toBeNull();
    expect(earlyHit(c, "OPTIONS", "/products", undefined, "br")).toBeNull();
    expect(earlyHit(c, "GET", "/products", "better-auth.session_token=x", "br")).toBeNull();
    expect(earlyHit(c, "GET", "/about", undefined, "br")).toBeNull();
    expect(c.stats()).toMatchObject({ hits: before.hits, misses: before.misses });
    c.setListening(false);
    c.setListening(true);
    expect(earlyHit(c, "GET", "/products", undefined, "br")).toBeNull();
  });
});
