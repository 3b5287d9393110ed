/**
 * A route's `handle` when every visitor who isn't signed in sees its page alike, so the server may
 * keep the rendered page in its page cache (app/lib/page-cache.server.ts) until the catalogue
 * changes. Only for pages that read nothing per visitor but the root's theme and cart count.
 */
export const publicPageHandle = { pageCache: true } as const;
