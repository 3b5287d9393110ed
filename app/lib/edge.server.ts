import { data, type MiddlewareFunction } from "react-router";
import { hasControlCharacters, UNUSUAL_CHARACTERS } from "~/rules/text.ts";

/*
 * Rules for every request the app answers, pages, data requests and resource routes alike
 * (root middleware, app/root.tsx; issue 20).
 */

/**
 * An address whose path or query string holds a control character (`?q=%00`) is answered 400
 * before any loader reads it: PostgreSQL refuses NUL in text, and no page of the shop has a use
 * for the others. Loaders read queries with `queryParam` (app/lib/forms.server.ts), which also
 * gives them composed Unicode.
 */
export const refuseControlCharacters: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url);
  let path = url.pathname;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    // A malformed escape is the router's to answer (404); it never reaches a loader decoded.
  }
  const query = [...url.searchParams].some(
    ([key, value]) => hasControlCharacters(key) || hasControlCharacters(value),
  );
  if (query || hasControlCharacters(path)) {
    throw data(UNUSUAL_CHARACTERS, { status: 400, statusText: "Bad Request" });
  }
  return next();
};

/** Better Auth's session cookie (`__Secure-` prefixed behind https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/**
 * What is rendered for a signed-in viewer (their orders, account, addresses, checkout, the admin
 * area, and every other page, which shows their name) is never kept by a browser's or a proxy's
 * cache: `Cache-Control: private, no-store` on every response to a request with a session.
 */
export const privateWhenSignedIn: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  if (!SESSION_COOKIE.test(request.headers.get("cookie") ?? "")) return response;
  try {
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch {
    // Immutable headers (a Response.redirect()): answer with a copy that has them.
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", "private, no-store");
    return copy;
  }
};
