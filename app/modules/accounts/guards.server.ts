import { data, redirect } from "react-router";
import { getViewer, type Viewer, type ViewerDeps } from "./viewer.server.ts";

/*
 * The one place that decides who may load or change signed-in and admin data (DESIGN.md
 * decision 4: enforced on the server for every admin page, action and endpoint).
 *
 * - Pages (any path outside /api/): a visitor without a session is sent to
 *   /auth?redirectTo=<this page>; a signed-in non-admin opening an admin page goes to /.
 * - Page actions (POST and friends): a non-admin gets 403.
 * - API routes (/api/…): 401 JSON without a session, 403 JSON for a non-admin.
 * - Any state-changing request the browser marks as cross-site is refused with 403.
 */

const isApi = (url: URL) => url.pathname === "/api" || url.pathname.startsWith("/api/");
const isRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

function refuseCrossSite(request: Request, url: URL) {
  if (isRead(request) || request.headers.get("sec-fetch-site") !== "cross-site") return;
  if (isApi(url)) throw Response.json({ error: "Forbidden" }, { status: 403 });
  throw data("Forbidden", { status: 403, statusText: "Forbidden" });
}

/**
 * The page a request is for. A client-side navigation fetches a page's data from `<path>.data`
 * (`/_.data` for the home page, `<path>/_.data` for a path with a trailing slash) with a `_routes`
 * parameter; the way back after signing in must be the page itself.
 */
export function pageOf(url: URL): string {
  let pathname = url.pathname;
  if (pathname.endsWith("/_.data")) pathname = pathname.slice(0, -"_.data".length);
  else if (pathname === "/_root.data") pathname = "/";
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length) || "/";
  const params = new URLSearchParams(url.search);
  params.delete("_routes");
  const search = params.toString();
  return search ? `${pathname}?${search}` : pathname;
}

function signInRequired(url: URL): never {
  if (isApi(url)) throw Response.json({ error: "Sign in required" }, { status: 401 });
  throw redirect(`/auth?redirectTo=${encodeURIComponent(pageOf(url))}`);
}

function adminRequired(request: Request, url: URL): never {
  if (isApi(url)) throw Response.json({ error: "Forbidden" }, { status: 403 });
  if (!isRead(request)) throw data("Forbidden", { status: 403, statusText: "Forbidden" });
  throw redirect("/");
}

/**
 * Guards bound to a runtime (tests pass their own; route modules use the process runtime's, from
 * app/routes/guards.server.ts).
 */
export function guardsFor(rt: ViewerDeps) {
  async function requireUser(request: Request): Promise<Viewer> {
    const url = new URL(request.url);
    refuseCrossSite(request, url);
    const viewer = await getViewer(rt, request);
    if (!viewer) signInRequired(url);
    return viewer;
  }
  async function requireAdmin(request: Request): Promise<Viewer> {
    const viewer = await requireUser(request);
    if (!viewer.isAdmin) adminRequired(request, new URL(request.url));
    return viewer;
  }
  return { requireUser, requireAdmin };
}
