import { randomBytes } from "node:crypto";
import { PassThrough, Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { EARLY_TAPS_SCRIPT } from "~/lib/early-taps.ts";
import { log } from "~/lib/log.server.ts";
import { NonceContext } from "~/lib/nonce.ts";
import type { PersonalUse } from "~/lib/page-cache.server.ts";
import { currentPageCacheTicket } from "~/lib/request-context.server.ts";
import { pipeWithScriptsAfterPaint } from "~/lib/script-priority.server.ts";
import { contentSecurityPolicy } from "~/lib/security-headers.ts";
import { runtime } from "~/runtime.server.ts";

export { bodyLimitFor } from "~/lib/body-limits.server.ts";
export { log } from "~/lib/log.server.ts";
// The custom server (server/index.ts) reaches the runtime through these exports, so that the
// bundle and the server share one database handle.
export { observeRequest } from "~/lib/metrics.server.ts";
export { earlyHit, encodedBody } from "~/lib/page-cache.server.ts";
export {
  currentQueryCount,
  runWithRequestId,
  setPageCacheTicket,
} from "~/lib/request-context.server.ts";
export { personalPage } from "~/personal-pages.server.tsx";

import { personalKeyOf } from "~/personal-pages.server.tsx";

export { runtime, stopRuntime } from "~/runtime.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = randomBytes(16).toString("base64");
  if (import.meta.env.PROD) {
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  }

  // A public page for an anonymous visitor is rendered whole and kept in the page cache.
  const ticket = currentPageCacheTicket();
  const cacheable =
    ticket !== undefined &&
    responseStatusCode === 200 &&
    !responseHeaders.has("set-cookie") &&
    isPublicPage(routerContext);
  const personal = cacheable ? personalUseOf(routerContext) : undefined;
  // A signed-in customer's full render of a page that may be personalised: the visitors' page
  // under the same key is worth rendering, so their next requests come from the cache.
  if (
    !cacheable &&
    responseStatusCode === 200 &&
    request.method === "GET" &&
    (routerContext.staticHandlerContext.loaderData.root as { viewer?: unknown } | undefined)
      ?.viewer &&
    personalUseOf(routerContext)
  ) {
    void wantVisitorPage(request);
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      cacheable || (userAgent && isbot(userAgent)) || routerContext.isSpaMode
        ? "onAllReady"
        : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const done = () => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          };
          const body = cacheable
            ? new PassThrough({
                final(callback) {
                  done();
                  callback();
                },
              })
            : coalesced(done);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // The scripts start after the page's first paint (decision 0032). Taps made before the
          // page hydrates are noted, and replayed once it has (decision 0031).
          pipeWithScriptsAfterPaint(
            pipe,
            body,
            `<script nonce="${nonce}">${EARLY_TAPS_SCRIPT}</script>`,
            nonce,
          );
          if (cacheable && ticket && responseStatusCode === 200) {
            resolve(renderedForCache(body, responseHeaders, ticket, nonce, personal));
            return;
          }
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("render error", { error });
        },
      },
    );
  });
}

/** Coalesced writes are sent once this many bytes are waiting. */
const COALESCE_BYTES = 64 * 1024;

/**
 * The rendered stream in few large chunks instead of React's many small writes (a listing is
 * about fifty): each chunk costs a compression call and a trip through the web stream, which
 * together were a fifth of a signed-in render's CPU. What React writes in one go (the shell, a
 * resolved Suspense boundary) is passed on as one chunk as soon as it stops writing, so nothing
 * is held back from the browser.
 */
function coalesced(onEnd: () => void): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let scheduled = false;
  const send = () => {
    scheduled = false;
    if (size === 0) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending, size));
    pending = [];
    size = 0;
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= COALESCE_BYTES) send();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(send);
      }
      callback();
    },
    flush(callback) {
      send();
      onEnd();
      callback();
    },
  });
  return stream;
}

/**
 * Whether this is a page every anonymous visitor sees alike: each matched route says so
 * (`handle.pageCache`), and nobody is signed in.
 */
function isPublicPage(context: EntryContext): boolean {
  const { matches, loaderData, errors } = context.staticHandlerContext;
  if (errors || matches.length === 0) return false;
  const root = loaderData.root as { viewer?: unknown; flash?: unknown } | undefined;
  if (!root || root.viewer || root.flash) return false;
  return matches.every(
    (match) =>
      match.route.id === "root" ||
      (context.routeModules[match.route.id]?.handle as { pageCache?: boolean } | undefined)
        ?.pageCache === true,
  );
}

/**
 * Whether signed-in customers may get this page from the cache, personalised (decision 0026): every
 * matched route says so (`handle.personal`); a product page names its product, whose review
 * button depends on the customer.
 */
function personalUseOf(context: EntryContext): PersonalUse | undefined {
  let use: PersonalUse = {};
  for (const match of context.staticHandlerContext.matches) {
    if (match.route.id === "root") continue;
    const handle = context.routeModules[match.route.id]?.handle as
      | { personal?: "page" | "product" }
      | undefined;
    if (handle?.personal === "product") {
      const id = match.params.id;
      if (!id || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
      use = { reviewsOf: id };
    } else if (handle?.personal !== "page") {
      return undefined;
    }
  }
  return use;
}

async function wantVisitorPage(request: Request): Promise<void> {
  try {
    const key = await personalKeyOf(request);
    if (key) (await runtime()).pageCache.want(key);
  } catch (error) {
    log.warning("page cache: could not note a personal page", { error });
  }
}

/** Reads the whole page, stores it in the page cache and answers with it. */
async function renderedForCache(
  body: PassThrough,
  headers: Headers,
  ticket: NonNullable<ReturnType<typeof currentPageCacheTicket>>,
  nonce: string,
  personal: PersonalUse | undefined,
): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  const html = Buffer.concat(chunks).toString("utf8");
  const rt = await runtime();
  // Storing compresses in the background; this visitor needn't wait for it.
  rt.pageCache.store(ticket, html, headers, nonce, personal).catch((error: unknown) => {
    log.warning("page cache store failed", { error });
  });
  headers.set("X-Page-Cache", "miss");
  return new Response(html, { headers, status: 200 });
}

/** Unexpected loader/action/render errors are logged with the request id; aborted requests aren't. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  log.error("unhandled error", { error, url: request.url, method: request.method });
};
