import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userProfiles } from "~/db/schema.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { guardsFor, pageOf } from "./guards.server.ts";

/*
 * The server-side guards (DESIGN.md decision 4), through the route modules themselves on the
 * process runtime: customers never get admin data, visitors never get signed-in data.
 */

type RouteModule = {
  loader?: (args: never) => Promise<unknown>;
  action?: (args: never) => Promise<unknown>;
};

/** Every admin page and endpoint. New admin routes add a line here. */
const adminEndpoints: { path: string; load: () => Promise<RouteModule> }[] = [
  { path: "/admin", load: () => import("~/routes/admin/index.tsx") },
];

/** Signed-in pages: nothing is loaded or changed without a session. */
const signedInPages: { path: string; load: () => Promise<RouteModule> }[] = [
  { path: "/account", load: () => import("~/routes/account.tsx") },
  { path: "/addresses", load: () => import("~/routes/addresses.tsx") },
];

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let customerCookie: string;
let adminCookie: string;

beforeAll(async () => {
  harness = await startProcessRuntime({ ADMIN_EMAILS: "boss@example.com" });
  const { auth, db } = harness.rt;
  const customer = await createVerifiedUser(auth, db, { email: uniqueEmail("customer") });
  customerCookie = await signInCookie(auth, customer);
  // The admin rule (ADMIN_EMAILS) makes this account an admin when it signs in.
  const boss = await createVerifiedUser(auth, db, { email: "boss@example.com", name: "The Boss" });
  adminCookie = await signInCookie(auth, boss);
  const [profile] = await db.select().from(userProfiles).where(eq(userProfiles.userId, boss.id));
  expect(profile.isAdmin).toBe(true);
});
afterAll(async () => {
  await harness?.stop();
});

describe(`admin endpoints on ${testDbKind()}`, () => {
  for (const endpoint of adminEndpoints) {
    it(`${endpoint.path}: a customer gets 403 for changes and is sent to / from the page`, async () => {
      const mod = await endpoint.load();
      const { requireAdmin } = guardsFor(harness.rt);

      const page = await outcome(() =>
        mod.loader!(routeArgs(pageGet(endpoint.path, { cookie: customerCookie })) as never),
      );
      expect(page).toMatchObject({ status: 302, location: "/" });

      const change = formPost(endpoint.path, { intent: "anything" }, { cookie: customerCookie });
      const refused = await outcome(() =>
        mod.action
          ? mod.action(routeArgs(change) as never)
          : requireAdmin(change).then(() => "allowed"),
      );
      expect(refused.status).toBe(403);
    });

    it(`${endpoint.path}: a visitor is asked to sign in; the admin gets the page`, async () => {
      const mod = await endpoint.load();
      const visitor = await outcome(() => mod.loader!(routeArgs(pageGet(endpoint.path)) as never));
      expect(visitor).toMatchObject({
        status: 302,
        location: `/auth?redirectTo=${encodeURIComponent(endpoint.path)}`,
      });
      const admin = await outcome(() =>
        mod.loader!(routeArgs(pageGet(endpoint.path, { cookie: adminCookie })) as never),
      );
      expect(admin.status).toBe(200);
    });
  }

  it("API routes answer JSON: 401 without a session, 403 for a customer", async () => {
    const { requireAdmin, requireUser } = guardsFor(harness.rt);
    const anonymous = await outcome(() => requireUser(pageGet("/api/admin/anything")));
    expect(anonymous).toMatchObject({ status: 401, body: { error: "Sign in required" } });
    const customer = await outcome(() =>
      requireAdmin(pageGet("/api/admin/anything", { cookie: customerCookie })),
    );
    expect(customer).toMatchObject({ status: 403, body: { error: "Forbidden" } });
    const admin = await outcome(() =>
      requireAdmin(pageGet("/api/admin/anything", { cookie: adminCookie })),
    );
    expect(admin.status).toBe(200);
  });

  it("a change the browser marks cross-site is refused, even with a session", async () => {
    const { requireUser } = guardsFor(harness.rt);
    const forged = formPost(
      "/account",
      { name: "Mallory" },
      { cookie: customerCookie, origin: "https://evil.example", site: "cross-site" },
    );
    expect((await outcome(() => requireUser(forged))).status).toBe(403);
  });
});

describe("the way back after signing in", () => {
  it("is the page, also when a client-side navigation asked for its data", async () => {
    expect(pageOf(new URL("http://shop.test/orders"))).toBe("/orders");
    expect(pageOf(new URL("http://shop.test/orders.data?_routes=routes%2Forders"))).toBe("/orders");
    expect(pageOf(new URL("http://shop.test/_.data"))).toBe("/");
    expect(pageOf(new URL("http://shop.test/orders/_.data"))).toBe("/orders/");
    expect(pageOf(new URL("http://shop.test/.data"))).toBe("/");
    expect(pageOf(new URL("http://shop.test/admin/orders.data?page=2&_routes=x"))).toBe(
      "/admin/orders?page=2",
    );
    const { requireUser } = guardsFor(harness.rt);
    const load = await outcome(() =>
      requireUser(pageGet("/checkout.data?_routes=routes%2Fcheckout")),
    );
    expect(load).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Fcheckout" });
  });
});

describe(`signed-in pages on ${testDbKind()}`, () => {
  for (const page of signedInPages) {
    it(`${page.path} loads and changes nothing without a session`, async () => {
      const mod = await page.load();
      const load = await outcome(() => mod.loader!(routeArgs(pageGet(page.path)) as never));
      expect(load).toMatchObject({
        status: 302,
        location: `/auth?redirectTo=${encodeURIComponent(page.path)}`,
      });
      const change = await outcome(() =>
        mod.action!(routeArgs(formPost(page.path, { intent: "save", name: "X" })) as never),
      );
      expect(change.status).toBe(302);
      expect(change.location).toMatch(/^\/auth\?redirectTo=/);

      const signedIn = await outcome(() =>
        mod.loader!(routeArgs(pageGet(page.path, { cookie: customerCookie })) as never),
      );
      expect(signedIn.status).toBe(200);
    });
  }
});
