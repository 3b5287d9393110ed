import { promisify } from "node:util";
import zlib from "node:zlib";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { AccountMenuView } from "~/components/layout/account-menu";
import { SignInLink } from "~/components/layout/site-header";
import { heartIconClass } from "~/components/product/favourite-button";
import { SpriteIcon } from "~/components/ui/icon-sprite";
import {
  accountAreaSplice,
  applySplices,
  headSplice,
  heartSplices,
  personalScript,
} from "~/lib/personal-page.server.ts";
import { PERSONAL_SCRIPT_ID } from "~/lib/root-data";
import { quickViewerWith, type ViewerExtras } from "~/modules/accounts/viewer.server.ts";
import { favouriteIdsFrom, favouriteIdsOf } from "~/modules/favourites/favourites.server.ts";
import { reviewContextOf } from "~/modules/reviews/reviews.server.ts";
import { runtime } from "~/runtime.server.ts";

/*
 * A signed-in customer's storefront page from the visitors' page cache (decision 0026): the stored
 * page of the same address and cookies (theme, cart count), with the customer's account menu, the
 * hearts of their favourites and their data for hydration put in by exact string replacement.
 * One database query (session, name, favourites, and on a product page whether they bought or
 * reviewed it). Anything unexpected answers null, and the server renders the page in full.
 */

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Better Auth's session cookie, as the root middleware knows it (`__Secure-` behind https). */
const SESSION_COOKIE = /^(?:__Secure-)?better-auth\.session_token$/;

/** A signed-in request the server may try to answer from the page cache. */
export type PersonalRequest = {
  method: string | undefined;
  url: string | undefined;
  cookie: string | undefined;
  /** brotli or gzip: the encoding the client takes. */
  encoding: "br" | "gzip";
};

export type PersonalAnswer =
  | {
      served: true;
      headers: Array<[string, string]>;
      body: Buffer;
    }
  | {
      served: false;
      /** The visitors' page isn't stored: the cookies a visitor's request for it would carry. */
      warm?: { url: string; cookie: string };
    };

let fixedParts: { visitorAccount: string; unfilled: string; filled: string } | undefined;

/** The visitor's account area and the two heart icons, as the full render writes them. */
function parts() {
  fixedParts ??= {
    visitorAccount: renderToStaticMarkup(
      <MemoryRouter>
        <SignInLink />
      </MemoryRouter>,
    ),
    unfilled: renderToStaticMarkup(<SpriteIcon name="heart" className={heartIconClass(false)} />),
    filled: renderToStaticMarkup(<SpriteIcon name="heart" className={heartIconClass(true)} />),
  };
  return fixedParts;
}

/** The customer's account menu, as the full render writes it. */
export function accountMenuMarkup(viewer: { name: string; email: string }): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <AccountMenuView viewer={viewer} />
    </MemoryRouter>,
  );
}

/** The request's cookies without the session cookie; null without exactly one session cookie. */
function withoutSession(cookie: string): string | null {
  let sessions = 0;
  const rest: string[] = [];
  for (const part of cookie.split(";")) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf("=");
    const name = eq === -1 ? trimmed : trimmed.slice(0, eq);
    if (SESSION_COOKIE.test(name)) sessions += 1;
    else rest.push(trimmed);
  }
  return sessions === 1 ? rest.join("; ") : null;
}

/**
 * The visitors' cache key a signed-in request would be personalised from; null when its cookies
 * or parameters rule that out.
 */
export async function personalKeyOf(request: Request): Promise<string | null> {
  const cookie = request.headers.get("cookie");
  const visitorCookie = cookie ? withoutSession(cookie) : null;
  if (visitorCookie === null) return null;
  const url = new URL(request.url);
  const rt = await runtime();
  return rt.pageCache.keyFor("GET", url.pathname + url.search, visitorCookie || undefined);
}

export async function personalPage(request: PersonalRequest): Promise<PersonalAnswer> {
  const { method, url, cookie } = request;
  if (method !== "GET" || !url || !cookie) return { served: false };
  const visitorCookie = withoutSession(cookie);
  if (visitorCookie === null) return { served: false };
  const rt = await runtime();
  const cache = rt.pageCache;
  // Any cookie but the theme, the cart count and the session (a flash message, Better Auth's
  // session data or "don't remember me") or an unknown parameter: no key, a full render.
  const key = cache.keyFor("GET", url, visitorCookie || undefined);
  if (!key || !cache.enabled) return { served: false };
  const page = cache.getPersonal(key);
  if (!page) {
    // Nothing stored yet (or not for personal use): rendered in full. The visitors' page is worth
    // rendering once only for a page that may be personalised (stored before, or asked for by a
    // signed-in customer whose full render said so): never for assets, uploads, 404s or
    // signed-in pages, which every signed-in request would otherwise fetch twice.
    return cache.worthWarming(key)
      ? { served: false, warm: { url, cookie: visitorCookie } }
      : { served: false };
  }
  const extras: ViewerExtras = { favouriteIds: favouriteIdsOf };
  if (page.personal?.reviewsOf) extras.reviewing = reviewContextOf(page.personal.reviewsOf);
  // Better Auth judges every case but the common one: then the page is rendered in full.
  const found = await quickViewerWith(rt, cookie, extras);
  if (!found) return { served: false };
  if (found.extras.reviewing !== undefined && found.extras.reviewing !== false) {
    return { served: false };
  }
  const favouriteIds = favouriteIdsFrom(found.extras.favouriteIds);
  if (!favouriteIds) return { served: false };
  const viewer = { name: found.viewer.name, email: found.viewer.email };

  const html = cache.htmlOf(key, page);
  const { visitorAccount, unfilled, filled } = parts();
  const account = accountAreaSplice(html, visitorAccount, accountMenuMarkup(viewer));
  const hearts = heartSplices(html, favouriteIds, { unfilled, filled });
  const data = headSplice(html, personalScript(PERSONAL_SCRIPT_ID, { viewer, favouriteIds }));
  if (!account || !hearts || !data) return { served: false };
  const raw = applySplices(html, [account, ...hearts, data], page.htmlBytes);
  if (raw === null) return { served: false };

  // Compressed per answer, quickly: the page is the customer's alone and never stored.
  const body =
    request.encoding === "br"
      ? await brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : await gzip(raw, { level: GZIP_LEVEL });
  cache.countPersonal();
  const headers: Array<[string, string]> = [];
  for (const [name, value] of page.headers) {
    // As the root middleware sends it to anyone with a session (privateWhenSignedIn).
    if (name.toLowerCase() === "cache-control") continue;
    headers.push([name, value]);
  }
  headers.push(
    ["Cache-Control", "private, no-store"],
    ["Vary", "Accept-Encoding"],
    ["Content-Encoding", request.encoding],
    ["Content-Length", String(body.length)],
    ["X-Page-Cache", "personal"],
  );
  return { served: true, headers, body };
}

/** Per-answer compression levels (docs/performance.md, 2026-11-27: cost against size). */
export const BROTLI_QUALITY = 1;
export const GZIP_LEVEL = 1;
