import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quotes, userProfiles } from "~/db/schema.ts";
import routes from "~/routes.ts";
import {
  browserHeaders,
  createVerifiedUser,
  outcome,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../support/accounts.ts";
import { insertOrder, insertProduct } from "../support/factories.ts";
import { testDbKind } from "../support/test-database.ts";

/*
 * The access matrix: every route of app/routes.ts × {anonymous, customer A, customer B, admin},
 * for its loader (GET) and its action (POST with an empty form), against one table of expected
 * outcomes. A route missing from the table fails the test, so a new page or endpoint can't be
 * added without saying who may use it. Routes with ids are called with customer A's records, so
 * customer B reaching them would show up as an IDOR.
 */

type Access =
  /** Anyone; nobody is asked to sign in. */
  | "public"
  /** Signed-in customers (and admins); anonymous visitors are sent to sign in. */
  | "customer"
  /** Admins only: customers are refused, anonymous visitors sent to sign in. */
  | "admin"
  /** Customer A's own record: B and admins get "not found", anonymous sign-in. */
  | "owner"
  /** Customer A's own record, which staff may also open: B gets "not found". */
  | "owner-or-staff"
  /** A public page whose actions need a signed-in customer. */
  | "browse"
  /** Server-to-server (payment and courier webhooks): refused without the sender's proof. */
  | "gateway"
  /** Better Auth's own endpoints: the table below (BROWSER_AUTH_ENDPOINTS). */
  | "auth-library"
  /** Operators' scrapers with a bearer token (tested in tests/integration/metrics.test.ts). */
  | "token";

const expected: Record<string, Access> = {
  "/": "public",
  "/theme": "public",
  "/api/auth/*": "auth-library",
  "/:listing/:sub?": "public",
  "/product/:id": "public",
  "/search": "public",
  "/contact": "public",
  "/sitemap.xml": "public",
  "/robots.txt": "public",
  "/cart": "public",
  "/api/search": "public",
  "/api/cart-products": "public",
  "/api/favourites": "customer",
  "/api/newsletter": "public",
  "/api/promotion-interest": "public",
  "/api/delivery-estimate": "public",
  "/sign-out": "public",
  "/auth": "public",
  "/forgot-password": "public",
  "/reset-password": "public",
  "/account": "customer",
  "/addresses": "customer",
  "/admin": "admin",
  "/admin/orders": "admin",
  "/admin/orders/:id": "admin",
  "/admin/orders/:id/shipment": "admin",
  "/admin/shipments": "admin",
  "/admin/items": "admin",
  "/admin/items/:id": "admin",
  "/admin/categories": "admin",
  "/admin/sponsored-products": "admin",
  "/admin/promotions": "admin",
  "/admin/discounts": "admin",
  "/admin/discounts/:id": "admin",
  "/admin/import": "admin",
  "/admin/users": "admin",
  "/admin/subscribers": "admin",
  "/admin/settings": "admin",
  "/admin/audit": "admin",
  "/admin/quotes": "admin",
  "/admin/quotes/:id": "admin",
  "/admin/quote-settings": "admin",
  "/admin/preferences": "admin",
  "/admin/orders.csv": "admin",
  "/admin/shipments/labels.pdf": "admin",
  "/admin/shipments/:id/label.pdf": "admin",
  "/admin/products.csv": "admin",
  "/admin/subscribers.csv": "admin",
  "/api/admin/uploads": "admin",
  "/about": "public",
  "/our-story": "public",
  "/careers": "public",
  "/wholesale": "public",
  "/press": "public",
  "/press-kit.zip": "public",
  "/shipping": "public",
  "/returns": "public",
  "/privacy-policy": "public",
  "/terms": "public",
  "/cookie-policy": "public",
  "/refund-policy": "public",
  "/policies": "public",
  "/size-guide": "public",
  "/faq": "public",
  // Signed out, the page says 'Please sign in to see your favourited items.' and loads nothing.
  "/favourites": "public",
  "/api/cart": "customer",
  "/api/reviews": "customer",
  "/checkout": "customer",
  "/payment-success": "public",
  "/api/payment-status": "customer",
  "/api/payment-webhook": "gateway",
  "/api/courier/tracking": "gateway",
  // The order's customer only (issue 20): a transaction id alone no longer settles a payment.
  "/sandbox/pay/:transactionId": "owner",
  "/orders": "customer",
  "/orders/:id/invoice.pdf": "owner",
  "/custom-printing": "browse",
  "/api/quotes/upload": "customer",
  "/quotes/:id/model": "owner-or-staff",
  "/metrics": "token",
  "/*": "public",
};

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

function flatten(entries: RouteEntry[]): Array<{ path: string; file: string }> {
  const out: Array<{ path: string; file: string }> = [];
  for (const e of entries) {
    if (e.children) out.push(...flatten(e.children));
    if (e.index) out.push({ path: "/", file: e.file });
    else if (e.path !== undefined) out.push({ path: `/${e.path}`, file: e.file });
  }
  return out;
}

const table = flatten(routes as unknown as RouteEntry[]);

type Who = "anonymous" | "customerA" | "customerB" | "admin";
type Result = { status: number; location: string | null };

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
const cookies: Record<Who, string | undefined> = {
  anonymous: undefined,
  customerA: undefined,
  customerB: undefined,
  admin: undefined,
};
let params: Record<string, string>;
/** Routes whose :id is a quote (customer A's), not an order. */
let quoteId: string;
const quoteRoutes = new Set(["/quotes/:id/model", "/admin/quotes/:id"]);
const accounts: Partial<Record<Who, { email: string; password: string }>> = {};

beforeAll(async () => {
  harness = await startProcessRuntime();
  const { rt } = harness;
  const a = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("matrix-a") });
  const b = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("matrix-b") });
  const admin = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("matrix-admin") });
  await rt.db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
  Object.assign(accounts, { customerA: a, customerB: b, admin });
  cookies.customerA = await signInCookie(rt.auth, a, "198.51.100.11");
  cookies.customerB = await signInCookie(rt.auth, b, "198.51.100.12");
  cookies.admin = await signInCookie(rt.auth, admin, "198.51.100.13");
  const product = await insertProduct(rt.db);
  const order = await insertOrder(rt.db, a.id, [product.id], "unpaid");
  const [quote] = await rt.db
    .insert(quotes)
    .values({
      userId: a.id,
      fileName: "part.stl",
      storagePath: "quotes/matrix-part.stl",
      fileBytes: 84,
      geometry: {
        format: "stl",
        fileUnit: null,
        triangles: 12,
        vertices: 8,
        volume: 1000,
        area: 600,
        size: { x: 10, y: 10, z: 10 },
        watertight: true,
        openEdges: 0,
        nonManifoldEdges: 0,
        invertedNormals: false,
      },
    })
    .returning();
  await rt.privateFiles.put(quote.storagePath, new Uint8Array(84), "model/stl");
  quoteId = quote.id;
  params = {
    id: order.id,
    listing: "products",
    transactionId: "ORD-20260101-1234-00000000",
    "*": "no-such-page",
  };
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

function request(path: string, method: "GET" | "POST", who: Who, cookie = cookies[who]): Request {
  const url = `${TEST_ORIGIN}${path
    .replace(":listing", params.listing)
    .replace("/:sub?", "")
    .replace(":transactionId", params.transactionId)
    .replace(":id", quoteRoutes.has(path) ? quoteId : params.id)
    .replace("*", params["*"])}`;
  const headers = browserHeaders({
    cookie,
    origin: method === "POST" ? TEST_ORIGIN : undefined,
    site: method === "POST" ? "same-origin" : undefined,
    ip: `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
  });
  if (method === "GET") return new Request(url, { headers });
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(url, { method, headers, body: "" });
}

async function call(file: string, path: string, method: "GET" | "POST", who: Who) {
  const mod = (await import(/* @vite-ignore */ `../../app/${file}`)) as Record<
    string,
    ((args: unknown) => Promise<unknown>) | undefined
  >;
  const fn = method === "GET" ? mod.loader : mod.action;
  if (!fn) return null;
  // Signing out ends the session it is sent with: give it a session of its own.
  const account = accounts[who];
  const cookie =
    path === "/sign-out" && method === "POST" && account
      ? await signInCookie(harness.rt.auth, account)
      : cookies[who];
  const req = request(path, method, who, cookie);
  const routeParams: Record<string, string> = {};
  for (const name of path.match(/:(\w+)/g) ?? [])
    routeParams[name.slice(1)] = params[name.slice(1)];
  if (quoteRoutes.has(path)) routeParams.id = quoteId;
  if (path.includes("*")) routeParams["*"] = params["*"];
  const res = await outcome(() => fn({ request: req, params: routeParams, context: {} }));
  return { status: res.status, location: res.location } satisfies Result;
}

const toSignIn = (r: Result) =>
  r.status === 401 || (r.status >= 300 && r.status < 400 && (r.location ?? "").startsWith("/auth"));
const refusedAsCustomer = (r: Result) =>
  r.status === 403 || (r.status >= 300 && r.status < 400 && r.location === "/");
const allowed = (r: Result) =>
  r.status < 500 && r.status !== 401 && r.status !== 403 && !toSignIn(r);

function verdict(access: Access, who: Who, r: Result, method: "GET" | "POST"): string | null {
  if (r.status >= 500) return `server error ${r.status}`;
  switch (access) {
    case "browse":
      return verdict(method === "GET" ? "public" : "customer", who, r, method);
    case "owner-or-staff":
      if (who === "anonymous") return toSignIn(r) ? null : "anonymous visitor let in";
      if (who === "customerA" || who === "admin") return allowed(r) ? null : `${who} refused`;
      return r.status === 404 || r.status === 403 ? null : "someone else's record reachable";
    case "public":
      return toSignIn(r) || r.status === 403 ? "asked to sign in on a public route" : null;
    case "customer":
      if (who === "anonymous") return toSignIn(r) ? null : "anonymous visitor let in";
      return allowed(r) ? null : "signed-in user refused";
    case "admin":
      if (who === "anonymous") return toSignIn(r) ? null : "anonymous visitor let in";
      if (who === "admin") return allowed(r) ? null : "admin refused";
      return refusedAsCustomer(r) ? null : "customer let into the admin area";
    case "owner":
      if (who === "anonymous") return toSignIn(r) ? null : "anonymous visitor let in";
      if (who === "customerA") return allowed(r) ? null : "owner refused";
      return r.status === 404 || r.status === 403 ? null : "someone else's record reachable";
    case "gateway":
      return r.status === 401 ? null : "unsigned notification accepted";
    case "token":
      // No session opens it: without the configured token it is not there at all.
      return r.status === 404 || r.status === 401 ? null : "reachable without the token";
    default:
      return null;
  }
}

describe(`access matrix on ${testDbKind()}`, () => {
  it("lists every route of the app, and nothing that isn't one", () => {
    const paths = table.map((r) => r.path);
    expect(
      paths.filter((p) => !(p in expected)),
      "routes missing from the matrix",
    ).toEqual([]);
    expect(
      Object.keys(expected).filter((p) => !paths.includes(p)),
      "stale entries",
    ).toEqual([]);
  });

  it("every loader and action answers each kind of visitor as the table says", async () => {
    const problems: string[] = [];
    for (const { path, file } of table) {
      const access = expected[path];
      if (!access || access === "auth-library") continue;
      for (const method of ["GET", "POST"] as const) {
        // The webhook's loader only says "use POST".
        if (access === "gateway" && method === "GET") continue;
        for (const who of ["anonymous", "customerA", "customerB", "admin"] as const) {
          const r = await call(file, path, method, who);
          if (!r) continue;
          const problem = verdict(access, who, r, method);
          if (problem)
            problems.push(
              `${method} ${path} as ${who}: ${problem} (${r.status} ${r.location ?? ""})`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it("Better Auth's endpoints: those behind the shop's screens answer, every other is not there", async () => {
    const route = (await import("~/routes/api.auth.$.ts")) as unknown as Record<
      "loader" | "action",
      (args: unknown) => Promise<Response>
    >;
    // [method, endpoint, reachable from a browser]
    const endpoints: Array<["GET" | "POST", string, boolean]> = [
      ["POST", "/sign-up/email", true],
      ["POST", "/sign-in/email", true],
      ["POST", "/send-verification-email", true],
      ["GET", "/verify-email?token=nope", true],
      ["POST", "/request-password-reset", true],
      ["GET", "/reset-password/nope?callbackURL=%2Freset-password", true],
      ["POST", "/reset-password", true],
      ["GET", "/ok", true],
      ["GET", "/get-session", false],
      ["GET", "/list-sessions", false],
      ["GET", "/list-accounts", false],
      ["GET", "/account-info", false],
      ["POST", "/update-user", false],
      ["POST", "/change-password", false],
      ["POST", "/set-password", false],
      ["POST", "/change-email", false],
      ["POST", "/delete-user", false],
      ["POST", "/revoke-session", false],
      ["POST", "/revoke-sessions", false],
      ["POST", "/revoke-other-sessions", false],
      ["POST", "/update-session", false],
      ["POST", "/verify-password", false],
      ["POST", "/sign-in/social", false],
      ["POST", "/link-social", false],
      ["POST", "/unlink-account", false],
      ["POST", "/refresh-token", false],
      ["POST", "/get-access-token", false],
      ["GET", "/no-such-endpoint", false],
    ];
    const problems: string[] = [];
    for (const [method, endpoint, reachable] of endpoints) {
      for (const who of ["anonymous", "customerA", "admin"] as const) {
        const headers = browserHeaders({
          cookie: cookies[who],
          origin: method === "POST" ? TEST_ORIGIN : undefined,
          site: method === "POST" ? "same-origin" : undefined,
          ip: `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
        });
        headers.set("content-type", "application/json");
        const request = new Request(`${TEST_ORIGIN}/api/auth${endpoint}`, {
          method,
          headers,
          body: method === "POST" ? JSON.stringify({}) : undefined,
        });
        const fn = method === "GET" ? route.loader : route.action;
        const res = await fn({ request, params: { "*": endpoint.slice(1) }, context: {} });
        const text = await res.text();
        if (res.status >= 500) problems.push(`${method} ${endpoint} as ${who}: ${res.status}`);
        if (!reachable && res.status !== 404)
          problems.push(`${method} ${endpoint} as ${who}: reachable (${res.status})`);
        if (reachable && res.status === 404 && endpoint !== "/no-such-endpoint")
          problems.push(`${method} ${endpoint} as ${who}: missing`);
        if (/"token"\s*:/.test(text))
          problems.push(`${method} ${endpoint} as ${who}: a session token in the answer`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
