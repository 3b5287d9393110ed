/*
 * The page's own requests to the shop while the browser is offline. React Router asks the server
 * for a page's data and sends every form through `fetch` (its `.data` addresses). Offline, that
 * `fetch` fails at once, and React Router shows the error page in place of the page: a message
 * typed into the contact form, an address or a review was gone with it.
 *
 * `holdDataRequestsWhileOffline()` (app/entry.client.tsx, before hydrating) wraps `fetch`: a
 * request to a `.data` address, or to `/__manifest` on the way to a page or a form (where React
 * Router first learns of a route the page hasn't met, say `/api/reviews` before a review is
 * sent), made while the browser says it is offline, is not made yet. It waits for the browser to
 * be back online (and SETTLE_MS more: a phone's first request after reconnecting often fails) and
 * is made then, once. The page stays as it was, its form showing that it is being sent, and
 * `OfflineNotice` says why. Nothing was sent before, so nothing is sent twice.
 *
 * A request cancelled meanwhile (the customer went elsewhere, or sent the form again) is dropped
 * as React Router cancels any other. A request made online that fails on its way is React
 * Router's as before: it may have reached the shop, and only what reads (GET) is asked again,
 * once the browser is back online, if it is offline by then.
 */

/** What waits: a form sent (anything but GET), or only something read (a page's data). */
export type Waiting = "send" | "read" | null;

/** How long after the browser says it is online a held request waits still. */
export const SETTLE_MS = 1000;

let waitingSends = 0;
let waitingReads = 0;
const listeners = new Set<() => void>();

function changed(sends: number, reads: number) {
  waitingSends += sends;
  waitingReads += reads;
  for (const listener of listeners) listener();
}

/** What is waiting for the browser to be back online now (a form sent comes first). */
export function waitingNow(): Waiting {
  if (waitingSends > 0) return "send";
  return waitingReads > 0 ? "read" : null;
}

export function subscribeWaiting(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

type Fetch = typeof fetch;

/**
 * React Router's single-fetch address of a page's data or action here, or its asking for a route
 * on the way to a page or a form. Its asking for the routes of the links on the page (with no
 * signal: nothing waits for it, and offline it fails quietly, to be asked again) is left alone.
 * That difference is React Router 8.4's (fog-of-war.js): check it when upgrading.
 */
function isHeldRequest(url: URL, signal: AbortSignal | undefined): boolean {
  if (url.origin !== window.location.origin) return false;
  return url.pathname.endsWith(".data") || (url.pathname === "/__manifest" && signal !== undefined);
}

function requestOf(input: Parameters<Fetch>[0], init: Parameters<Fetch>[1]) {
  const request = input instanceof Request ? input : undefined;
  const address = request ? request.url : input instanceof URL ? input.href : String(input);
  return {
    url: new URL(address, window.location.href),
    method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
    signal: init?.signal ?? request?.signal ?? undefined,
  };
}

/**
 * Resolves SETTLE_MS after the browser says it is online, if it still is; rejects as the request
 * is cancelled.
 */
function backOnline(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      window.removeEventListener("online", online);
      signal?.removeEventListener("abort", aborted);
    };
    let settling: ReturnType<typeof setTimeout> | undefined;
    const online = () => {
      window.removeEventListener("online", online);
      settling = setTimeout(() => {
        done();
        // Offline again meanwhile: wait for the next time.
        if (navigator.onLine) resolve();
        else backOnline(signal).then(resolve, reject);
      }, SETTLE_MS);
    };
    const aborted = () => {
      clearTimeout(settling);
      done();
      reject(signal?.reason);
    };
    window.addEventListener("online", online);
    signal?.addEventListener("abort", aborted);
  });
}

async function waitThenSend(
  send: Fetch,
  kind: "send" | "read",
  signal: AbortSignal | undefined,
  args: Parameters<Fetch>,
): Promise<Response> {
  const counts: [number, number] = kind === "send" ? [1, 0] : [0, 1];
  changed(...counts);
  try {
    await backOnline(signal);
  } finally {
    changed(-counts[0], -counts[1]);
  }
  return send(...args);
}

/** Wraps `window.fetch` (once) so the page's data and forms wait while the browser is offline. */
export function holdDataRequestsWhileOffline(): void {
  const own = window.fetch as Fetch & { heldWhileOffline?: true };
  if (own.heldWhileOffline) return;
  const send: Fetch = own.bind(window);
  const held: Fetch & { heldWhileOffline?: true } = async (input, init) => {
    let request: ReturnType<typeof requestOf>;
    try {
      request = requestOf(input, init);
    } catch {
      return send(input, init);
    }
    if (!isHeldRequest(request.url, request.signal)) return send(input, init);
    const kind = request.method === "GET" || request.method === "HEAD" ? "read" : "send";
    if (!navigator.onLine) return waitThenSend(send, kind, request.signal, [input, init]);
    try {
      return await send(input, init);
    } catch (error) {
      // A page's data may be asked again; a form that may have reached the shop may not.
      if (kind === "read" && !navigator.onLine && !request.signal?.aborted) {
        return waitThenSend(send, kind, request.signal, [input, init]);
      }
      throw error;
    }
  };
  held.heldWhileOffline = true;
  window.fetch = held;
}
