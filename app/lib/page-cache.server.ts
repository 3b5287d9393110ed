import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { PARKED_MODULE_TYPE } from "./script-priority.server.ts";

/**
 * The rendered HTML of the storefront's public pages, kept in memory for visitors who are not
 * signed in, so that a product page or a listing is rendered once per catalogue change instead of
 * once per visit.
 *
 * - Only GET requests with no cookie but the theme and the cart badge's count (each with a
 *   well-formed value, part of the key), and no query parameter but the pages' own, are looked up.
 *   Anyone signed in, or carrying any other cookie, gets a fresh render.
 * - Only pages whose route opts in (`handle.pageCache`), answered 200 without setting a cookie, are
 *   stored (see app/entry.server.tsx).
 * - Every change to the tables those pages read is announced by the database after its commit
 *   (triggers in drizzle/0005_page_cache_feed.sql); the cache then drops everything. A render that
 *   began before the announcement is not stored, so a page can't outlive the data it showed. While
 *   the announcements can't be heard (e.g. a lost database connection) nothing is looked up.
 * - Entries are kept compressed (brotli and gzip), least recently used first out, and for at most
 *   `maxAgeMs` whatever happens.
 * - A cached page can't carry a fresh nonce, so its Content-Security-Policy allows exactly its own
 *   inline scripts by their SHA-256 hashes instead.
 * - The catalogue data behind those pages (`remember`) is kept the same way for the renders the
 *   cache can't answer (signed-in customers, any other cookie): read once per change, dropped with
 *   the pages, and while changes can't be heard read every time.
 * - One render per page at a time: a miss for a page that has been stored before and that another
 *   request is already rendering waits for that render (`claim`) instead of starting its own, so
 *   a change to the catalogue under heavy traffic costs one render per page, not one per visitor
 *   in flight.
 */

/**
 * The channel the database announces storefront changes on: the triggers of
 * drizzle/0005_page_cache_feed.sql, and code that changes what the pages show in a table without
 * a trigger (discounts, shown on promotion cards).
 */
export const STOREFRONT_CHANNEL = "layerkart_storefront";

const brotli = promisify(zlib.brotliCompress);
/** Page numbers, as the pages' links write them. */
const PARAM_VALUE = /^[1-9]\d{0,3}$/;
const gzip = promisify(zlib.gzip);

/** Cookies a public page may read, with the values that make a distinct page. */
export type CookieRule = { name: string; value: RegExp };

/** A query parameter a page understands, with the paths it goes with and its values. */
export type ParamRule = { name: string; path: RegExp; value: RegExp };

export type PageCacheOptions = {
  /** Total size of the compressed entries; 0 turns the cache off. */
  maxBytes: number;
  /** An entry is rendered again after this long, even without a change. */
  maxAgeMs: number;
  cookies: CookieRule[];
  /** Query parameters the cached pages understand; a URL with any other one isn't cached. */
  params: string[];
  /**
   * Parameters other than page numbers: the paths they may come with and the one spelling of
   * their value (a product page's `variant`, a lower-case uuid). Elsewhere, or written otherwise,
   * the URL isn't cached.
   */
  paramRules?: ParamRule[];
  /** The Content-Security-Policy for a page whose inline scripts have these hashes. */
  policyForScriptHashes?: (hashes: string[]) => string;
  now?: () => number;
};

/**
 * Whether a stored page may be personalised for a signed-in customer (decision 0026), and what
 * else must be asked about them first: on a product page, whether they bought it or reviewed it
 * (then the page shows them a review button: it is rendered for them in full).
 */
export type PersonalUse = { reviewsOf?: string };

export type CachedPage = {
  headers: Array<[string, string]>;
  /** Set when the page may be served personalised to signed-in customers. */
  personal?: PersonalUse;
  /** The uncompressed page, kept once a personalised answer needed it (counted in `bytes`). */
  html?: string;
  /** The same as UTF-8 bytes, kept with it (counted too). */
  htmlBytes?: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Uncompressed length. */
  length: number;
  storedAt: number;
  bytes: number;
};

/** Handed out on a miss; a render may only be stored under the generation it started in. */
export type PageCacheTicket = { key: string; generation: number; storing?: boolean };

/** A miss: render the page under the ticket, or wait for the render already under way. */
export type PageCacheClaim = { ticket: PageCacheTicket } | { wait: Promise<void> };

export type PageCacheStats = {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  stores: number;
  invalidations: number;
  /** Misses that waited for another request's render of the same page. */
  coalesced: number;
  /** Signed-in customers' requests answered from a stored page, personalised. */
  personal: number;
  listening: boolean;
};

/** At most this many catalogue reads are remembered (least recently used first out). */
const MAX_REMEMBERED = 2_000;

type Remembered = { value: Promise<unknown>; storedAt: number };

/** Headers never stored with a page (per response, or replaced on a hit). */
const UNSTORED_HEADERS = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "content-security-policy",
  "transfer-encoding",
  "x-request-id",
  "server-timing",
  "x-page-cache",
]);

export class PageCache {
  readonly #options: Required<Omit<PageCacheOptions, "policyForScriptHashes">> &
    Pick<PageCacheOptions, "policyForScriptHashes">;
  readonly #entries = new Map<string, CachedPage>();
  readonly #remembered = new Map<string, Remembered>();
  readonly #cookieRules: Map<string, RegExp>;
  readonly #params: Set<string>;
  readonly #paramRules: Map<string, ParamRule>;
  #bytes = 0;
  #generation = 0;
  #listening = false;
  #stats = { hits: 0, misses: 0, stores: 0, invalidations: 0, coalesced: 0, personal: 0 };
  /** Keys of pages stored at least once (whatever changed since): the ones worth waiting for. */
  readonly #storedBefore = new Set<string>();
  /** Keys signed-in customers asked for whose visitors' page may serve them (`want`). */
  readonly #wanted = new Set<string>();
  /** Renders under way, by key: the first miss's ticket and what its waiters wait on. */
  readonly #renders = new Map<
    string,
    { ticket: PageCacheTicket; done: Promise<void>; finish: () => void }
  >();

  constructor(options: PageCacheOptions) {
    this.#options = { now: Date.now, paramRules: [], ...options };
    this.#cookieRules = new Map(options.cookies.map((c) => [c.name, c.value]));
    this.#params = new Set(options.params);
    this.#paramRules = new Map((options.paramRules ?? []).map((r) => [r.name, r]));
  }

  get enabled(): boolean {
    return this.#options.maxBytes > 0 && this.#listening;
  }

  /**
   * Whether changes are being heard. Until they are (and after they stop being heard) the cache
   * is empty and looks nothing up; when hearing resumes it starts empty, as changes may have been
   * missed.
   */
  setListening(listening: boolean): void {
    if (listening === this.#listening) return;
    this.invalidate();
    this.#listening = listening;
  }

  /** The data behind the pages changed: drop every page, and every render under way. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#remembered.clear();
    this.#bytes = 0;
    this.#stats.invalidations += 1;
  }

  /**
   * A catalogue read, shared by every render until the catalogue changes: `load` runs on the first
   * call for a key (and again after a change, after `maxAgeMs`, or after it failed); calls in the
   * meantime get the same promise. Only for data that the storefront change feed announces (the
   * tables in drizzle/0005_page_cache_feed.sql) and that is the same for every visitor; the value
   * is shared, so callers must not change it. A read that began before a change is not kept.
   */
  remember<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
    if (!this.enabled) return Promise.resolve(load());
    const now = this.#options.now();
    const found = this.#remembered.get(key);
    this.#remembered.delete(key);
    if (found && now - found.storedAt <= this.#options.maxAgeMs) {
      this.#remembered.set(key, found);
      return found.value as Promise<T>;
    }
    // A promise, run once: a query builder (a thenable) would run its query again on every await.
    const value = Promise.resolve(load());
    const entry: Remembered = { value, storedAt: now };
    this.#remembered.set(key, entry);
    value.catch(() => {
      if (this.#remembered.get(key) === entry) this.#remembered.delete(key);
    });
    if (this.#remembered.size > MAX_REMEMBERED) {
      const oldest = this.#remembered.keys().next().value;
      if (oldest !== undefined) this.#remembered.delete(oldest);
    }
    return value;
  }

  /**
   * The cache key of a request, or null when its answer may differ per visitor (any cookie not
   * listed, a malformed listed one) or per unknown parameter.
   */
  keyFor(method: string, url: string, cookieHeader: string | undefined | null): string | null {
    if (method !== "GET") return null;
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!pathname.startsWith("/") || pathname.startsWith("//")) return null;
    let query = "";
    if (q !== -1 && q < url.length - 1) {
      const params = new URLSearchParams(url.slice(q + 1));
      const pairs: string[] = [];
      const seen = new Set<string>();
      for (const [name, value] of params) {
        // Only the pages' own parameters, once each, written plainly: any other spelling of the
        // same page would be another entry (and another render) for nothing.
        if (seen.has(name)) return null;
        const rule = this.#paramRules.get(name);
        if (rule) {
          if (!rule.path.test(pathname) || !rule.value.test(value)) return null;
        } else if (!this.#params.has(name) || !PARAM_VALUE.test(value)) {
          return null;
        }
        seen.add(name);
        pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
      }
      pairs.sort();
      query = pairs.join("&");
    }
    const cookies: string[] = [];
    if (cookieHeader) {
      for (const part of cookieHeader.split(";")) {
        const trimmed = part.trim();
        if (!trimmed) continue;
        const eq = trimmed.indexOf("=");
        const name = eq === -1 ? trimmed : trimmed.slice(0, eq);
        const value = eq === -1 ? "" : trimmed.slice(eq + 1);
        const rule = this.#cookieRules.get(name);
        if (!rule?.test(value) || cookies.some((c) => c.startsWith(`${name}=`))) return null;
        cookies.push(`${name}=${value}`);
      }
      cookies.sort();
    }
    return `${pathname}?${query}#${cookies.join(";")}`;
  }

  /**
   * The stored page for a key, if it is still fresh; counts a hit or a miss (`countMiss: false`:
   * only a hit, for a first look whose miss is looked up again and counted later).
   */
  get(key: string, { countMiss = true } = {}): CachedPage | undefined {
    if (!this.enabled) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) {
      if (countMiss) this.#stats.misses += 1;
      return undefined;
    }
    if (this.#options.now() - entry.storedAt > this.#options.maxAgeMs) {
      this.#remove(key, entry);
      if (countMiss) this.#stats.misses += 1;
      return undefined;
    }
    // Most recently used last, so eviction takes from the front.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#stats.hits += 1;
    return entry;
  }

  /**
   * The stored page for a signed-in customer's request under a visitor's key, if fresh and
   * marked for personal use; counted as a personalised answer (not a hit) by `countPersonal`.
   */
  getPersonal(key: string): CachedPage | undefined {
    if (!this.enabled) return undefined;
    const entry = this.#entries.get(key);
    if (!entry?.personal) return undefined;
    if (this.#options.now() - entry.storedAt > this.#options.maxAgeMs) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Whether a visitor's page is worth rendering so that signed-in customers can be answered from
   * it: stored before, or asked for by a signed-in customer on a page that allows it (`want`).
   * Nothing is stored under the key now.
   */
  worthWarming(key: string): boolean {
    if (!this.enabled || this.#entries.has(key)) return false;
    return this.#storedBefore.has(key) || this.#wanted.has(key);
  }

  /** A signed-in customer's full render of a page that may be personalised (decision 0026). */
  want(key: string): void {
    if (this.#wanted.size >= 10_000) this.#wanted.clear();
    this.#wanted.add(key);
  }

  countPersonal(): void {
    this.#stats.personal += 1;
  }

  /**
   * A stored page's HTML, decompressed on first use and kept with the entry (its size counted
   * against the cache's, so the least recently used pages make room for it).
   */
  htmlOf(key: string, entry: CachedPage): string {
    if (entry.html !== undefined) return entry.html;
    const bytes = zlib.brotliDecompressSync(entry.br);
    const html = bytes.toString("utf8");
    if (this.#entries.get(key) !== entry) return html;
    entry.html = html;
    entry.htmlBytes = bytes;
    const added = 2 * bytes.length;
    entry.bytes += added;
    this.#bytes += added;
    for (const [k, old] of this.#entries) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#remove(k, old);
    }
    return html;
  }

  ticket(key: string): PageCacheTicket | null {
    return this.enabled ? { key, generation: this.#generation } : null;
  }

  /**
   * After a miss: the first request for a page gets the ticket to render it (and must `finish`
   * it, which `store` does); later ones, while that render of the current data is under way, get
   * a promise that settles when it ends, and then look the page up again.
   */
  claim(key: string): PageCacheClaim | null {
    if (!this.enabled) return null;
    const ticket: PageCacheTicket = { key, generation: this.#generation };
    // Only pages that have been stored before are waited for: a URL that never makes an entry (a
    // 404, a data request, a page with a form's error) would only hold its requests back.
    if (!this.#storedBefore.has(key)) return { ticket };
    const under = this.#renders.get(key);
    if (under && under.ticket.generation === this.#generation) {
      this.#stats.coalesced += 1;
      return { wait: under.done };
    }
    under?.finish();
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = () => {
        if (this.#renders.get(key)?.ticket === ticket) this.#renders.delete(key);
        resolve();
      };
    });
    this.#renders.set(key, { ticket, done, finish });
    return { ticket };
  }

  /** The render under this ticket has ended (stored or not): wake whoever waits for it. */
  finish(ticket: PageCacheTicket): void {
    const under = this.#renders.get(ticket.key);
    if (under?.ticket === ticket) under.finish();
  }

  /**
   * Stores a rendered page under its ticket, unless the data changed since the render began or a
   * fresh copy of the page is stored already. Resolves to whether it was stored.
   */
  async store(
    ticket: PageCacheTicket,
    html: string,
    headers: Headers,
    nonce?: string,
    personal?: PersonalUse,
  ): Promise<boolean> {
    ticket.storing = true;
    try {
      return await this.#store(ticket, html, headers, nonce, personal);
    } finally {
      this.finish(ticket);
    }
  }

  async #store(
    ticket: PageCacheTicket,
    html: string,
    headers: Headers,
    nonce: string | undefined,
    personal: PersonalUse | undefined,
  ): Promise<boolean> {
    if (!this.#isCurrent(ticket) || headers.has("set-cookie") || this.#holds(ticket.key)) {
      return false;
    }
    // Taken now: the caller goes on to use the same headers for its own response.
    const stored: Array<[string, string]> = [];
    headers.forEach((value, name) => {
      if (!UNSTORED_HEADERS.has(name.toLowerCase())) stored.push([name, value]);
    });
    const body = Buffer.from(html, "utf8");
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 7,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: 7 }),
    ]);
    if (!this.#isCurrent(ticket) || this.#holds(ticket.key)) return false;
    const policy = this.#options.policyForScriptHashes?.(inlineScriptHashes(html, nonce));
    if (policy) stored.push(["Content-Security-Policy", policy]);
    const entry: CachedPage = {
      headers: stored,
      ...(personal ? { personal } : {}),
      br,
      gzip: gz,
      length: body.length,
      storedAt: this.#options.now(),
      bytes: br.length + gz.length + ticket.key.length + 512,
    };
    if (entry.bytes > this.#options.maxBytes / 4) return false;
    const previous = this.#entries.get(ticket.key);
    if (previous) this.#remove(ticket.key, previous);
    this.#entries.set(ticket.key, entry);
    this.#bytes += entry.bytes;
    if (this.#storedBefore.size >= 100_000) this.#storedBefore.clear();
    this.#storedBefore.add(ticket.key);
    for (const [key, old] of this.#entries) {
      if (this.#bytes <= this.#options.maxBytes) break;
      this.#remove(key, old);
    }
    this.#stats.stores += 1;
    return true;
  }

  /**
   * Whether a fresh page is stored under the key already. The first render stored is the page
   * every visitor gets until the data changes or it ages out: a second render of the same data
   * (two first requests at once, before either was stored) doesn't replace it with a copy that
   * differs only in its nonce.
   */
  #holds(key: string): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && this.#options.now() - entry.storedAt <= this.#options.maxAgeMs;
  }

  stats(): PageCacheStats {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      ...this.#stats,
      listening: this.#listening,
    };
  }

  #isCurrent(ticket: PageCacheTicket): boolean {
    return this.enabled && ticket.generation === this.#generation;
  }

  #remove(key: string, entry: CachedPage): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/**
 * A hit the server may answer before its general middleware (server/index.ts): a GET (or a HEAD,
 * answered with the GET's headers and no body) the cache has a fresh page for, from a client that
 * takes brotli or gzip (a client that takes neither is answered by the general path, as before).
 * Counts the hit; a miss is left uncounted for the general path, which looks again.
 */
export function earlyHit(
  cache: PageCache,
  method: string | undefined,
  url: string | undefined,
  cookieHeader: string | undefined,
  acceptEncoding: string | undefined,
): { page: CachedPage; body: Buffer; encoding: "br" | "gzip" } | null {
  if ((method !== "GET" && method !== "HEAD") || url === undefined || !cache.enabled) return null;
  const key = cache.keyFor("GET", url, cookieHeader);
  if (!key) return null;
  const encoding = compressedEncoding(acceptEncoding ?? "");
  if (!encoding) return null;
  const page = cache.get(key, { countMiss: false });
  if (!page) return null;
  return { page, body: encoding === "br" ? page.br : page.gzip, encoding };
}

/** The body of a cached page in the best encoding the client accepts. */
export function encodedBody(
  page: CachedPage,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding: "br" | "gzip" | null } {
  const accepted = parseAcceptEncoding(acceptEncoding ?? "");
  if (accepted.has("br")) return { body: page.br, encoding: "br" };
  if (accepted.has("gzip")) return { body: page.gzip, encoding: "gzip" };
  return { body: zlib.brotliDecompressSync(page.br), encoding: null };
}

/** Brotli or gzip, as encodedBody picks, remembered per header value (clients send a few). */
const encodingByHeader = new Map<string, "br" | "gzip" | null>();
function compressedEncoding(header: string): "br" | "gzip" | null {
  let encoding = encodingByHeader.get(header);
  if (encoding === undefined) {
    const accepted = parseAcceptEncoding(header);
    encoding = accepted.has("br") ? "br" : accepted.has("gzip") ? "gzip" : null;
    if (encodingByHeader.size >= 256) encodingByHeader.clear();
    encodingByHeader.set(header, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const TYPE = /\btype\s*=\s*["']?([^"'\s>]+)/i;

/**
 * SHA-256 hashes (CSP source expressions) of a document's inline scripts that a browser would run.
 * Given the nonce the page was rendered with, only scripts carrying it count: the page's own
 * scripts all do, and one injected into the page (which the nonce policy would have blocked) can't.
 * React escapes `<` in text and attributes, so `<script` only ever starts a real element.
 */
export function inlineScriptHashes(html: string, nonce?: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const attributes = match[1] ?? "";
    if (/\bsrc\s*=/i.test(attributes)) continue;
    if (nonce !== undefined && !attributes.includes(`nonce="${nonce}"`)) continue;
    const type = TYPE.exec(attributes)?.[1]?.toLowerCase();
    // A parked module script runs once the page has painted (decision 0032), by the same text.
    if (type && type !== "module" && type !== "text/javascript" && type !== PARKED_MODULE_TYPE) {
      continue;
    }
    const digest = createHash("sha256")
      .update(match[2] ?? "", "utf8")
      .digest("base64");
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}
