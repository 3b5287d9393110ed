/**
 * A route's `handle` when every visitor who isn't signed in sees its page alike, so the server may
 * keep the rendered page in its page cache (app/lib/page-cache.server.ts) until the catalogue
 * changes. Only for pages that read nothing per visitor but the root's theme and cart count.
 */
export const publicPageHandle = { pageCache: true } as const;

/**
 * A public page whose only difference for a signed-in customer is the header's account area, the
 * hearts of their favourites (and the root loader's viewer and favourites behind them): such a
 * customer's request may be answered from the visitors' stored page, personalised (decision 0026).
 * `product`: a product page, which also shows a customer who bought or reviewed the product a
 * review button (those customers get the page rendered in full).
 */
export const personalPageHandle = { pageCache: true, personal: "page" } as const;
export const personalProductPageHandle = { pageCache: true, personal: "product" } as const;
