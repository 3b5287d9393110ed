/**
 * LayerKart's HTTP server: compression, static files with the right caching, security headers,
 * health checks, request ids and clean shutdown, around the React Router request handler.
 * Run after `npm run build`: `node server/index.ts`.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import onHeaders from "on-headers";
import type { ServerBuild } from "react-router";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const buildFile = path.join(buildDir, "server/index.js");
if (!existsSync(buildFile)) {
  process.stderr.write("No build found: run `npm run build` first (or `npm run shop`).\n");
  process.exit(1);
}

type Entry = typeof import("../app/entry.server.tsx");
const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
const entry = build.entry.module as unknown as Entry;
const {
  log,
  runtime,
  stopRuntime,
  runWithRequestId,
  currentQueryCount,
  observeRequest,
  earlyHit,
  encodedBody,
  setPageCacheTicket,
  bodyLimitFor,
  personalPage,
} = entry;

let rt: Awaited<ReturnType<Entry["runtime"]>>;
try {
  rt = await runtime();
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    process.stderr.write(`${error.message}\n`);
  } else {
    log.error("start-up failed", { error });
  }
  process.exit(1);
}
const config = rt.env;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", config.trustProxy);

/** The request's id: the client's own if well-formed, else a new one. */
function requestIdOf(req: http.IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

/** Once the response is sent: the request's metrics and (at LOG_LEVEL=verbose) its log line. */
function observeWhenFinished(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  id: string,
  pathname: string,
) {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const method = req.method ?? "GET";
    observeRequest(method, pathname, res.statusCode, ms / 1000);
    if (!log.enabled("verbose")) return;
    runWithRequestId(id, () =>
      log.verbose("request", {
        method,
        path: pathname,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      }),
    );
  });
}

// A request id for every request, in the logs and in the response.
app.use((req, res, next) => {
  const id = requestIdOf(req);
  res.setHeader("X-Request-Id", id);
  // The auth rate limiter keys on this header; a client can't choose it.
  req.headers["x-layerkart-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  // Each response says how many database queries it took (Server-Timing), for budgets and
  // benches; off in production unless SERVER_TIMING=true (it tells outsiders about our queries).
  if (config.serverTiming) {
    onHeaders(res, () => {
      res.setHeader("Server-Timing", `db;desc="${currentQueryCount()} queries"`);
    });
  }
  observeWhenFinished(req, res, id, req.path);
  runWithRequestId(id, next);
});

// Cross-site request forgery: a browser's state-changing request must come from the shop's own
// pages. Browsers say where a request comes from (Sec-Fetch-Site, Origin); a request with neither
// is not from a browser, so carries no ambient cookies to abuse. Payment webhooks come from the
// gateway and are checked by their signatures instead.
const publicOrigin = new URL(config.publicUrl).origin;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const CROSS_SITE_ALLOWED = new Set<string>(["/api/payment-webhook"]);
app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method) || CROSS_SITE_ALLOWED.has(req.path)) return next();
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  if (site === "same-origin" || site === "none" || origin === publicOrigin) return next();
  // Without PUBLIC_URL the shop is whatever address it was reached at (127.0.0.1, a LAN address).
  if (!config.publicUrlFixed && origin === `${req.protocol}://${req.get("host")}`) return next();
  if (!site && !origin) return next();
  log.warning("cross-site request refused", { method: req.method, path: req.path, origin, site });
  res.status(403).json({ ok: false, error: "This request must come from the shop's own pages." });
});

// One body limit for every request, by the kind of route (app/lib/body-limits.server.ts): a
// declared Content-Length over it is answered 413 before anything is read; a chunked body is
// counted as the route reads it and cut off with 413 once it passes. Nothing larger is buffered.
app.use((req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const limit = bodyLimitFor(req.path, config.formBodyBytes);
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > limit) return tooLarge(req, res, limit);
  let size = 0;
  const count = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      // The route reading the body sees it fail (never end short, which would read as a smaller
      // form), and nothing more reaches it.
      req.removeAllListeners("data");
      if (req.listenerCount("error") > 0) req.emit("error", new Error("request body too large"));
      tooLarge(req, res, limit);
    }
  };
  // Paused first, so that counting doesn't start the flow: the body still flows only as fast as
  // the route reads it, and a route that never reads it never has it counted.
  req.pause();
  req.on("data", count);
  next();
});

function tooLarge(req: express.Request, res: express.Response, limit: number) {
  log.warning("request body too large", { method: req.method, path: req.path, limit });
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  // The rest of the body is never read, and the connection is not used again. Once the answer is
  // sent the connection stops reading (the client's sending stalls) and closes a second later:
  // time for the client to read the answer, which closing at once, with the body unread, would
  // reset away. (Node closes a `Connection: close` response's socket through destroySoon.)
  res.setHeader("Connection", "close");
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.pause();
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  const message = "This request is too large. Please send less and try again.";
  setFileHeaders(res);
  if (req.path.startsWith("/api/") || !req.accepts("html")) {
    res.status(413).json({ ok: false, error: message });
  } else {
    res
      .status(413)
      .type("html")
      .send(errorPage(413, message, res.getHeader("X-Request-Id")));
  }
}

const securityHeaders = helmet({
  // HTML documents get a nonce-based policy from app/entry.server.tsx; files get `filePolicy`.
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: config.publicUrl.startsWith("https://")
    ? { maxAge: 31_536_000, includeSubDomains: true }
    : false,
  referrerPolicy: { policy: "strict-origin-when-cross-origin" },
});
app.use(securityHeaders);
app.use(compression());

app.get("/healthz", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
});
app.get("/readyz", async (_req, res) => {
  res.set("Cache-Control", "no-store");
  try {
    await rt.database.ping();
    res.json({ status: "ready", database: rt.database.kind });
  } catch (error) {
    log.warning("readiness check failed", { error });
    res.status(503).json({ status: "unavailable" });
  }
});

// Static and uploaded files are never documents that may run anything.
const filePolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";
const setFileHeaders = (res: express.Response) =>
  res.setHeader("Content-Security-Policy", filePolicy);

// Hashed build assets never change: cache them for a year.
app.use(
  "/assets",
  express.static(path.join(buildDir, "client/assets"), {
    immutable: true,
    maxAge: "1y",
    index: false,
    fallthrough: false,
    setHeaders: setFileHeaders,
  }),
);
// Uploaded files get a timestamp in their name, so they are safe to cache for long too.
const uploadCache = "public, max-age=2592000, immutable";
if (rt.storage.kind === "local") {
  app.use(
    "/uploads",
    express.static(path.join(config.dataDir, "uploads"), {
      immutable: true,
      maxAge: "30d",
      index: false,
      dotfiles: "deny",
      setHeaders: setFileHeaders,
    }),
  );
}
// What the folder doesn't have (or everything, in object storage, unless S3_PUBLIC_URL sends
// browsers elsewhere) is read through the storage. A size variant that isn't made yet (an
// imported image whose variants job hasn't run) is answered with the stored image itself, not
// cached, so pages never show a broken picture.
const VARIANT = /\.w\d+\.(avif|webp)$/;
app.get("/uploads/*key", async (req, res, next) => {
  const storagePath = (req.params as { key: string[] }).key.join("/");
  try {
    let bytes = rt.storage.kind === "local" ? null : await rt.storage.get(storagePath);
    let cache = uploadCache;
    if (!bytes && VARIANT.test(storagePath)) {
      bytes = await rt.storage.get(storagePath.replace(VARIANT, ""));
      cache = "no-cache";
    }
    if (!bytes) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    setFileHeaders(res);
    res.setHeader("Cache-Control", cache);
    const served = cache === uploadCache ? storagePath : storagePath.replace(VARIANT, "");
    res.type(path.extname(served) || "application/octet-stream").send(bytes);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Invalid storage path")) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    next(error);
  }
});
app.use(
  express.static(path.join(buildDir, "client"), {
    maxAge: "1h",
    index: false,
    setHeaders: setFileHeaders,
  }),
);

// A public page that a visitor who isn't signed in has been shown since the catalogue last changed
// is answered from the page cache (app/lib/page-cache.server.ts); on a miss, the render below
// may store it.
// A miss for a page another request is rendering waits for that render (at most 3 s). A HEAD is
// answered with a stored page's headers (Node sends no body), or else goes on and stores nothing.
app.use(async (req, res, next) => {
  if (req.method !== "GET" && req.method !== "HEAD") return next();
  const key = rt.pageCache.keyFor("GET", req.originalUrl, req.headers.cookie);
  if (!key) return next();
  let page = rt.pageCache.get(key, { countMiss: req.method === "GET" });
  if (!page && req.method === "HEAD") return next();
  if (!page) {
    const claim = rt.pageCache.claim(key);
    if (claim && "wait" in claim) {
      await Promise.race([claim.wait, delay(3_000, undefined, { ref: false })]);
      page = rt.pageCache.get(key);
    }
    if (!page) {
      // This request renders; if nothing ends up stored, whoever waits is woken when it ends.
      const ticket = claim && "ticket" in claim ? claim.ticket : rt.pageCache.ticket(key);
      if (ticket) {
        setPageCacheTicket(ticket);
        res.on("close", () => {
          if (!ticket.storing) rt.pageCache.finish(ticket);
        });
      }
      return next();
    }
  }
  const { body, encoding } = encodedBody(page, req.get("accept-encoding"));
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding");
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.setHeader("X-Page-Cache", "hit");
  res.status(200).end(body);
});

// Mounted without a path pattern, so Express never decodes the address itself: React Router
// answers a malformed one (`/%`) with the shop's 404 page. The handler always runs in production
// mode: an error's message and stack stay in the log, never in the page (issue 20).
app.use(createRequestHandler({ build, mode: "production" }));

// The last word on anything that went wrong outside React Router (a malformed upload path, a
// broken body, an error in a handler above): the shop's own page with the request id, never
// Express's stack trace.
app.use(
  (error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const given = (error as { status?: unknown; statusCode?: unknown }) ?? {};
    const raw = Number(given.status ?? given.statusCode);
    const status = raw >= 400 && raw < 600 ? raw : error instanceof URIError ? 400 : 500;
    if (status >= 500) log.error("request failed", { error, method: req.method, path: req.path });
    else log.warning("request refused", { status, method: req.method, path: req.path });
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const message =
      status === 404
        ? "We couldn't find that page."
        : status < 500
          ? "The shop couldn't read that request. Please check the address and try again."
          : "Something went wrong on our side. Please try again in a moment.";
    setFileHeaders(res);
    res
      .status(status)
      .set("Cache-Control", "no-store")
      .type("html")
      .send(errorPage(status, message, res.getHeader("X-Request-Id")));
  },
);

/** A self-contained page in the shop's name: no scripts, nothing from the failed request. */
function errorPage(status: number, message: string, requestId: unknown): string {
  const id = typeof requestId === "string" ? requestId.replace(/[^\w-]/g, "") : "";
  return `<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${status} · LayerKart</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;color:#1c1917;line-height:1.5}a{color:#c2410c}small{color:#78716c}</style>
</head><body><h1>LayerKart</h1><p><strong>${status}</strong> ${message}</p>
<p><a href="/">Back to the shop</a></p>${id ? `<p><small>Request id: ${id}</small></p>` : ""}</body></html>`;
}

// Page cache hits before the general stack. A hit is a GET (or HEAD) for a page the cache stored,
// and a page is only stored by a request that went through everything above and the React Router
// handler: static files, uploads and health checks never reach the cache, the cross-site and body
// checks concern other methods, and what the rest adds to a response doesn't depend on the
// request. So a hit is answered here with the same headers, without the stack's cost per request
// (docs/decisions/0009, amended 2026-11-25). Only clients that take brotli or gzip: the rest go
// the general way.
const helmetHeaders = headersSetBy(securityHeaders);
/**
 * A hit's headers, per stored page and encoding, worked out on its first hit: all but the request
 * id (slot 1) are the same for every request.
 */
const hitHeaders = new WeakMap<object, { br?: string[]; gzip?: string[] }>();

function headersOfHit(
  page: object & { headers: Array<[string, string]> },
  encoding: "br" | "gzip",
  length: number,
) {
  let byEncoding = hitHeaders.get(page);
  if (!byEncoding) {
    byEncoding = {};
    hitHeaders.set(page, byEncoding);
  }
  let headers = byEncoding[encoding];
  if (!headers) {
    // As the general path sets them, later ones replacing earlier ones of the same name.
    const merged = new Map<string, [string, string]>();
    for (const [name, value] of [
      ...helmetHeaders,
      ...page.headers,
      ["Vary", "Accept-Encoding"],
      ["X-Page-Cache", "hit"],
    ] as Array<[string, string]>) {
      merged.set(name.toLowerCase(), [name, value]);
    }
    headers = [
      "X-Request-Id",
      "",
      ...[...merged.values()].flat(),
      "Content-Encoding",
      encoding,
      "Content-Length",
      String(length),
    ];
    // A hit takes no database query.
    if (config.serverTiming) headers.push("Server-Timing", 'db;desc="0 queries"');
    byEncoding[encoding] = headers;
  }
  return headers;
}

function answerPageCacheHit(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const hit = earlyHit(
    rt.pageCache,
    req.method,
    req.url,
    req.headers.cookie,
    req.headers["accept-encoding"],
  );
  if (!hit) return false;
  const id = requestIdOf(req);
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  observeWhenFinished(req, res, id, q === -1 ? url : url.slice(0, q));
  const headers = headersOfHit(hit.page, hit.encoding, hit.body.length).slice();
  headers[1] = id;
  res.writeHead(200, headers);
  res.end(hit.body);
  return true;
}

/** The headers a request-independent middleware (helmet) sets, in order. */
function headersSetBy(middleware: express.RequestHandler): Array<[string, string]> {
  const set: Array<[string, string]> = [];
  const res = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: () => {},
  };
  let called = false;
  middleware({} as express.Request, res as unknown as express.Response, () => {
    called = true;
  });
  if (!called) throw new Error("the security headers middleware did not finish synchronously");
  return set;
}

// A signed-in customer's storefront page from the page cache, personalised (decision 0026): a GET
// with a session cookie from a client that takes brotli or gzip. Anything the personal path
// can't answer exactly (Better Auth's cases, a flash message, a review button, a page not stored)
// goes the general way and is rendered in full, as before.
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
/** Visitors' pages being rendered for the personal path, by address and cookies. */
const warming = new Set<string>();

function personalCandidate(req: http.IncomingMessage): "br" | "gzip" | null {
  if (req.method !== "GET" || !rt.pageCache.enabled) return null;
  const cookie = req.headers.cookie;
  if (!cookie || !SESSION_COOKIE.test(cookie)) return null;
  const accepted = req.headers["accept-encoding"] ?? "";
  // As encodedBody picks (brotli first), for the usual header values; anything else goes the
  // general way.
  if (/(?:^|,)\s*br\s*(?:,|$)/.test(accepted)) return "br";
  if (/(?:^|,)\s*gzip\s*(?:,|$)/.test(accepted)) return "gzip";
  return null;
}

async function answerPersonal(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  encoding: "br" | "gzip",
): Promise<boolean> {
  const id = requestIdOf(req);
  const answer = await runWithRequestId(id, async () => {
    const found = await personalPage({
      method: req.method,
      url: req.url,
      cookie: req.headers.cookie,
      encoding,
    });
    return { found, queries: currentQueryCount() };
  });
  if (!answer.found.served) {
    if (answer.found.warm) warmVisitorPage(answer.found.warm.url, answer.found.warm.cookie);
    return false;
  }
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  observeWhenFinished(req, res, id, q === -1 ? url : url.slice(0, q));
  const merged = new Map<string, [string, string]>();
  for (const [name, value] of [...helmetHeaders, ...answer.found.headers]) {
    merged.set(name.toLowerCase(), [name, value]);
  }
  const headers = ["X-Request-Id", id, ...[...merged.values()].flat()];
  if (config.serverTiming) headers.push("Server-Timing", `db;desc="${answer.queries} queries"`);
  res.writeHead(200, headers);
  res.end(answer.found.body);
  return true;
}

/**
 * The visitors' page a signed-in request wanted, rendered once in the background by asking this
 * server for it as a visitor would (the page cache stores it; later signed-in requests are
 * personalised from it). At most one such request per page at a time.
 */
function warmVisitorPage(url: string, cookie: string) {
  const key = `${url}#${cookie}`;
  const address = server.address();
  if (warming.has(key) || warming.size >= 64 || !address || typeof address === "string") return;
  warming.add(key);
  const host =
    address.address === "::" || address.address === "0.0.0.0" ? "127.0.0.1" : address.address;
  const done = () => warming.delete(key);
  http
    .get(
      {
        host,
        port: address.port,
        path: url,
        headers: { "accept-encoding": "br", ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        res.resume();
        res.on("end", done);
        res.on("error", done);
      },
    )
    // A render that hangs must not hold its slot for good (at most 64 at a time).
    .setTimeout(10_000, function (this: http.ClientRequest) {
      this.destroy();
    })
    .on("error", done)
    .on("close", done);
}

const server = http.createServer((req, res) => {
  if (answerPageCacheHit(req, res)) return;
  const encoding = personalCandidate(req);
  if (!encoding) {
    app(req, res);
    return;
  }
  answerPersonal(req, res, encoding).then(
    (answered) => {
      if (!answered) app(req, res);
    },
    (error: unknown) => {
      log.warning("personal page failed; rendering it", { error });
      if (!res.headersSent) app(req, res);
    },
  );
});
server.listen(config.port, config.host, () => {
  log.info(`listening in ${config.nodeEnv} mode`, {
    url: config.publicUrl,
    host: config.host,
    port: config.port,
    mode: config.nodeEnv,
  });
});
server.on("error", (error) => {
  log.error("could not listen", { error, host: config.host, port: config.port });
  process.exit(1);
});
server.keepAliveTimeout = 65_000;
if (config.nodeEnv !== "production") {
  log.warning(
    "not in production mode: React renders with its development build, several times slower; set NODE_ENV=production (npm run shop does)",
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  // Whatever happens, the process is gone within 5 s.
  setTimeout(() => process.exit(1), 4_500).unref();
  server.close();
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), 2_000).unref();
  try {
    await stopRuntime();
  } catch (error) {
    log.error("error while stopping", { error });
  }
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
