import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminAudit,
  orders,
  returnRequests,
  shopSettings,
  subscribers,
  userProfiles,
} from "~/db/schema.ts";
import { allProductsPage, dailySales, waitingWork } from "~/modules/admin/dashboard.server.ts";
import { countAudit, listAudit } from "~/modules/audit/audit.server.ts";
import { getShopSettings, updateShopSettings } from "~/modules/settings/settings.server.ts";
import { subscribe } from "~/modules/subscribers/subscribers.server.ts";
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
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { LastAdminError, listUsers, setAdmin } from "./users.server.ts";

/*
 * The admin "people" screens on the process runtime: dashboard, users (the last-admin rule, also
 * under concurrent revocations on PostgreSQL), subscribers and their CSV, settings, audit log.
 */

type RouteModule = {
  loader?: (args: never) => Promise<unknown>;
  action?: (args: never) => Promise<unknown>;
};

const screens: { path: string; load: () => Promise<RouteModule> }[] = [
  { path: "/admin", load: () => import("~/routes/admin/index.tsx") },
  { path: "/admin/users", load: () => import("~/routes/admin/users.tsx") },
  { path: "/admin/subscribers", load: () => import("~/routes/admin/subscribers.tsx") },
  { path: "/admin/subscribers.csv", load: () => import("~/routes/admin/subscribers-csv.ts") },
  { path: "/admin/settings", load: () => import("~/routes/admin/settings.tsx") },
  { path: "/admin/audit", load: () => import("~/routes/admin/audit.tsx") },
];

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Awaited<ReturnType<typeof startProcessRuntime>>["rt"]["db"];
let boss: { id: string; email: string; password: string };
let customer: { id: string; email: string; password: string };
let bossCookie: string;
let customerCookie: string;

const asBoss = () => ({ id: boss.id, email: boss.email });

/** Only these accounts are admins now (everyone else loses the flag). */
async function onlyAdmins(...ids: string[]) {
  await db.update(userProfiles).set({ isAdmin: false });
  if (ids.length) {
    await db.update(userProfiles).set({ isAdmin: true }).where(inArray(userProfiles.userId, ids));
  }
}
const adminIds = async () =>
  (
    await db
      .select({ id: userProfiles.userId })
      .from(userProfiles)
      .where(eq(userProfiles.isAdmin, true))
  ).map((r) => r.id);

beforeAll(async () => {
  harness = await startProcessRuntime({ ADMIN_EMAILS: "boss@example.com" });
  db = harness.rt.db;
  const { auth } = harness.rt;
  boss = await createVerifiedUser(auth, db, { email: "boss@example.com", name: "The Boss" });
  bossCookie = await signInCookie(auth, boss); // the admin rule makes boss an admin
  customer = await createVerifiedUser(auth, db, {
    email: uniqueEmail("customer"),
    name: "Asha Rao",
  });
  customerCookie = await signInCookie(auth, customer);
  expect(await adminIds()).toEqual([boss.id]);
});
afterAll(async () => {
  await harness?.stop();
});

describe(`admin people screens on ${testDbKind()}: who may use them`, () => {
  for (const screen of screens) {
    it(`${screen.path}: customer sent away (403 on changes), visitor asked to sign in, admin served`, async () => {
      const mod = await screen.load();
      const customerPage = await outcome(() =>
        mod.loader!(routeArgs(pageGet(screen.path, { cookie: customerCookie })) as never),
      );
      expect(customerPage).toMatchObject({ status: 302, location: "/" });
      const visitorPage = await outcome(() =>
        mod.loader!(routeArgs(pageGet(screen.path)) as never),
      );
      expect(visitorPage).toMatchObject({
        status: 302,
        location: `/auth?redirectTo=${encodeURIComponent(screen.path)}`,
      });
      const adminPage = await outcome(() =>
        mod.loader!(routeArgs(pageGet(screen.path, { cookie: bossCookie })) as never),
      );
      expect(adminPage.status).toBe(200);

      if (mod.action) {
        const fields = { intent: "grant", userId: customer.id, shopName: "Hacked" };
        const byCustomer = await outcome(() =>
          mod.action!(
            routeArgs(formPost(screen.path, fields, { cookie: customerCookie })) as never,
          ),
        );
        expect(byCustomer.status).toBe(403);
        const byVisitor = await outcome(() =>
          mod.action!(routeArgs(formPost(screen.path, fields)) as never),
        );
        expect(byVisitor.status).toBe(302);
        expect(byVisitor.location).toMatch(/^\/auth\?redirectTo=/);
      }
    });
  }

  it("nothing was changed by the refused requests", async () => {
    expect(await adminIds()).toEqual([boss.id]);
    expect((await getShopSettings(db)).shopName).toBe("LayerKart");
    expect(await countAudit(db)).toBe(0);
  });
});

describe(`users and the last-admin rule on ${testDbKind()}`, () => {
  it("lists users newest first with badges, search and the configuration hint", async () => {
    const page = await listUsers(db, {
      adminRule: { adminEmails: ["boss@example.com"], adminEmailDomain: "" },
    });
    expect(page.users.map((u) => u.email)).toEqual([customer.email, boss.email]);
    expect(page.users[1]).toMatchObject({
      name: "The Boss",
      isAdmin: true,
      emailVerified: true,
      adminByConfiguration: true,
    });
    expect(page.users[0]).toMatchObject({ isAdmin: false, adminByConfiguration: false });
    expect(page.admins).toBe(1);
    const found = await listUsers(db, {
      query: "asha",
      adminRule: { adminEmails: [], adminEmailDomain: "" },
    });
    expect(found.users.map((u) => u.id)).toEqual([customer.id]);
    const none = await listUsers(db, {
      query: "100%_",
      adminRule: { adminEmails: [], adminEmailDomain: "" },
    });
    expect(none.total).toBe(0);
  });

  it("grants and revokes through the page action, each change in the audit log", async () => {
    const { action } = await import("~/routes/admin/users.tsx");
    const grant = await outcome(() =>
      action(
        routeArgs(
          formPost(
            "/admin/users",
            { intent: "grant", userId: customer.id },
            { cookie: bossCookie },
          ),
        ) as never,
      ),
    );
    expect(grant).toMatchObject({ status: 200, body: { kind: "changed", isAdmin: true } });
    expect((await adminIds()).sort()).toEqual([boss.id, customer.id].sort());
    // A minute back: a grant and a revoke recorded in one millisecond would make "newest first"
    // a coin toss (the tie is broken by the random id).
    await db
      .update(adminAudit)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(and(eq(adminAudit.action, "user.grant-admin"), eq(adminAudit.targetId, customer.id)));

    const revoke = await outcome(() =>
      action(
        routeArgs(
          formPost(
            "/admin/users",
            { intent: "revoke", userId: customer.id },
            { cookie: bossCookie },
          ),
        ) as never,
      ),
    );
    expect(revoke).toMatchObject({ status: 200, body: { kind: "changed", isAdmin: false } });
    expect(await adminIds()).toEqual([boss.id]);

    const entries = await listAudit(db, { actionPrefix: "user." });
    expect(entries.map((e) => e.action)).toEqual(["user.revoke-admin", "user.grant-admin"]);
    expect(entries[0]).toMatchObject({
      actorId: boss.id,
      actorEmail: boss.email,
      targetType: "user",
      targetId: customer.id,
      summary: `Revoked admin from ${customer.email}`,
      details: { before: { isAdmin: true }, after: { isAdmin: false } },
    });
  });

  it("refuses to remove the last admin with 409, also when they revoke themselves", async () => {
    const { action } = await import("~/routes/admin/users.tsx");
    const before = await countAudit(db);
    const self = await outcome(() =>
      action(
        routeArgs(
          formPost("/admin/users", { intent: "revoke", userId: boss.id }, { cookie: bossCookie }),
        ) as never,
      ),
    );
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({
      kind: "failed",
      message: expect.stringMatching(/only admin/),
    });
    expect(await adminIds()).toEqual([boss.id]);
    expect(await countAudit(db)).toBe(before);

    // With a second admin, revoking yourself is allowed (and sends you out of the admin area).
    await setAdmin(db, asBoss(), customer.id, true);
    const customerAdminCookie = await signInCookie(harness.rt.auth, customer);
    const selfOk = await outcome(() =>
      action(
        routeArgs(
          formPost(
            "/admin/users",
            { intent: "revoke", userId: customer.id },
            { cookie: customerAdminCookie },
          ),
        ) as never,
      ),
    );
    expect(selfOk).toMatchObject({ status: 302, location: "/" });
    expect(await adminIds()).toEqual([boss.id]);
  });

  it("answers bad requests with 4xx", async () => {
    const { action } = await import("~/routes/admin/users.tsx");
    const run = (fields: Record<string, string>) =>
      outcome(() =>
        action(routeArgs(formPost("/admin/users", fields, { cookie: bossCookie })) as never),
      );
    expect((await run({ intent: "promote", userId: customer.id })).status).toBe(400);
    expect((await run({ intent: "grant" })).status).toBe(400);
    expect((await run({ intent: "grant", userId: "no-such-user" })).status).toBe(404);
  });

  it("two concurrent revocations of the last two admins leave exactly one admin", async () => {
    const { auth } = harness.rt;
    const others = await Promise.all(
      [1, 2, 3].map((i) =>
        createVerifiedUser(auth, db, { email: uniqueEmail(`admin${i}`), name: `Admin ${i}` }),
      ),
    );
    const [x, y, z] = others.map((o) => ({ id: o.id, email: o.email }));
    for (let round = 0; round < 5; round++) {
      // Each revokes the other at the same moment.
      await onlyAdmins(x.id, y.id);
      const crossed = await Promise.allSettled([
        setAdmin(db, x, y.id, false),
        setAdmin(db, y, x.id, false),
      ]);
      expect(crossed.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = crossed.find((r) => r.status === "rejected");
      expect(refused?.status === "rejected" && refused.reason).toBeInstanceOf(LastAdminError);
      expect(await adminIds()).toHaveLength(1);

      // A third admin revokes both at the same moment (and is no admin: the rule counts admins).
      await onlyAdmins(x.id, y.id);
      const both = await Promise.allSettled([
        setAdmin(db, z, x.id, false),
        setAdmin(db, z, y.id, false),
      ]);
      expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await adminIds()).toHaveLength(1);
    }
    await onlyAdmins(boss.id);
    // The audit log has one entry per revocation that happened.
    const revocations = await db
      .select()
      .from(adminAudit)
      .where(
        and(
          eq(adminAudit.action, "user.revoke-admin"),
          inArray(adminAudit.actorId, [x.id, y.id, z.id]),
        ),
      );
    expect(revocations).toHaveLength(10);
  });
});

describe(`dashboard figures on ${testDbKind()}`, () => {
  // 22 Nov 2026, 17:30 in India: the 30 days are 24 Oct … 22 Nov (IST).
  const now = new Date("2026-11-22T12:00:00Z");

  it("counts paid orders and revenue per India day, across the IST midnight", async () => {
    const product = await insertProduct(db);
    const place = async (
      at: string,
      totalPaise: number,
      paymentStatus: "paid" | "unpaid" | "refunded" = "paid",
    ) => {
      const order = await insertOrder(db, customer.id, [product.id], paymentStatus);
      await db
        .update(orders)
        .set({ createdAt: new Date(at), totalPaise })
        .where(eq(orders.id, order.id));
      return order;
    };
    await place("2026-11-21T18:29:59Z", 10_000); // 21 Nov 23:59:59 IST
    await place("2026-11-21T18:30:00Z", 20_000); // 22 Nov 00:00:00 IST
    await place("2026-11-22T11:59:59Z", 5_050); // 22 Nov 17:29:59 IST
    await place("2026-11-22T10:00:00Z", 99_999, "unpaid"); // not paid: not counted
    await place("2026-11-22T10:00:00Z", 99_999, "refunded"); // refunded: not counted
    await place("2026-10-23T18:29:59Z", 7_000); // 23 Oct 23:59:59 IST: before the window
    await place("2026-10-23T18:30:00Z", 3_000); // 24 Oct 00:00 IST: the window's first day
    await place("2026-11-22T18:30:00Z", 8_000); // 23 Nov IST: tomorrow, not yet shown

    const days = await dailySales(db, { now });
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-10-24", orders: 1, revenuePaise: 3_000 });
    expect(days.at(-1)).toEqual({ day: "2026-11-22", orders: 2, revenuePaise: 25_050 });
    expect(days.at(-2)).toEqual({ day: "2026-11-21", orders: 1, revenuePaise: 10_000 });
    expect(days.reduce((s, d) => s + d.orders, 0)).toBe(4);
    expect(days.filter((d) => d.orders === 0)).toHaveLength(27);
    // Consecutive days, no gaps.
    for (let i = 1; i < days.length; i++) {
      const gap = Date.parse(days[i].day) - Date.parse(days[i - 1].day);
      expect(gap).toBe(24 * 60 * 60 * 1000);
    }
    // Just after midnight in India the window moves on a day.
    const later = await dailySales(db, { now: new Date("2026-11-22T18:30:00Z") });
    expect(later[0].day).toBe("2026-10-25");
    expect(later.at(-1)).toEqual({ day: "2026-11-23", orders: 1, revenuePaise: 8_000 });
  });

  it("counts orders to ship and return requests waiting; quotes are not stored yet", async () => {
    const product = await insertProduct(db);
    const a = await insertOrder(db, customer.id, [product.id]);
    const b = await insertOrder(db, customer.id, [product.id]);
    const c = await insertOrder(db, customer.id, [product.id]);
    await db
      .update(orders)
      .set({ status: "processing" })
      .where(inArray(orders.id, [a.id, b.id]));
    await db.update(orders).set({ status: "delivered" }).where(eq(orders.id, c.id));
    const item = {
      orderItemId: crypto.randomUUID(),
      productId: product.id,
      name: "x",
      quantity: 1,
    };
    await db.insert(returnRequests).values([
      { orderId: c.id, userId: customer.id, items: [item], reason: "Broken", status: "requested" },
      { orderId: a.id, userId: customer.id, items: [item], reason: "Meh", status: "rejected" },
    ]);
    expect(await waitingWork(db)).toEqual({
      ordersToShip: 2,
      returnsWaiting: 1,
      quotesWaiting: 0,
    });
  });

  it("pages every product 100 at a time, through the loader's ?all=1", async () => {
    const existing = (await allProductsPage(db, 1)).total;
    for (let i = existing; i < 105; i++) await insertProduct(db, { isActive: i % 2 === 0 });
    const first = await allProductsPage(db, 1);
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 105, pageSize: 100 });
    expect(first.products).toHaveLength(100);
    const second = await allProductsPage(db, 2);
    expect(second.products).toHaveLength(5);
    const ids = new Set([...first.products, ...second.products].map((p) => p.id));
    expect(ids.size).toBe(105);
    expect((await allProductsPage(db, 99)).page).toBe(2);

    const { loader } = await import("~/routes/admin/index.tsx");
    const without = await outcome(() =>
      loader(routeArgs(pageGet("/admin", { cookie: bossCookie })) as never),
    );
    expect(without.body).toMatchObject({ products: null, work: { ordersToShip: 2 } });
    const withAll = await outcome(() =>
      loader(routeArgs(pageGet("/admin?all=1&page=2", { cookie: bossCookie })) as never),
    );
    expect(withAll.body).toMatchObject({ products: { page: 2, total: 105 } });
  });
});

describe(`settings on ${testDbKind()}`, () => {
  const form = {
    shippingFee: "12.50",
    taxRate: "18",
    freeShippingThreshold: "",
    codEnabled: "on",
    codMaxOrder: "5000",
    shopName: "LayerKart Prints",
    shopAddress: "14, 3rd Cross, Koramangala, Bengaluru",
    shopPhone: "+91 80 4567 8910",
    shopEmail: "hello@layerkart.example",
    gstin: "29abcde1234f1z5",
    shopState: "Karnataka",
    shipFromPin: "560001",
    dispatchDays: "1",
    printLeadDays: "3",
    printLeadDaysByCategory: "",
    transitLocal: "1",
    transitState: "2",
    transitMetro: "3",
    transitRest: "5",
    transitSpecial: "7",
    rateLocalFirst: "40",
    rateLocalAdditional: "30",
    rateStateFirst: "50",
    rateStateAdditional: "40",
    rateMetroFirst: "65",
    rateMetroAdditional: "55",
    rateRestFirst: "80",
    rateRestAdditional: "70",
    rateSpecialFirst: "120",
    rateSpecialAdditional: "100",
    codFeeLocal: "0",
    codFeeState: "0",
    codFeeMetro: "0",
    codFeeRest: "0",
    codFeeSpecial: "0",
    codLimitLocal: "",
    codLimitState: "",
    codLimitMetro: "",
    codLimitRest: "",
    codLimitSpecial: "",
    holidays: "",
  };
  const save = async (fields: Record<string, string>) => {
    const { action } = await import("~/routes/admin/settings.tsx");
    return outcome(() =>
      action(routeArgs(formPost("/admin/settings", fields, { cookie: bossCookie })) as never),
    );
  };

  it("refuses invalid values with 400 and field messages, changing nothing", async () => {
    const before = await getShopSettings(db);
    const auditBefore = await countAudit(db);
    const bad = await save({
      ...form,
      shippingFee: "12.345",
      taxRate: "101",
      gstin: "29ABCDE1234F1X5",
      shopState: "Atlantis",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      kind: "invalid",
      fieldErrors: {
        shippingFee: expect.any(String),
        taxRate: expect.any(String),
        gstin: expect.any(String),
        shopState: expect.any(String),
      },
    });
    expect(await getShopSettings(db)).toEqual(before);
    expect(await countAudit(db)).toBe(auditBefore);
  });

  it("saves valid values, records before and after, and the cart charges the new fee", async () => {
    const saved = await save(form);
    expect(saved).toMatchObject({ status: 200, body: { kind: "saved" } });
    expect(await getShopSettings(db)).toMatchObject({
      shippingFeePaise: 1250,
      taxRateBasisPoints: 1800,
      freeShippingThresholdPaise: null,
      codEnabled: true,
      codMaxOrderPaise: 500_000,
      shopName: "LayerKart Prints",
      gstin: "29ABCDE1234F1Z5",
    });
    const [entry] = await listAudit(db, { actionPrefix: "settings." });
    expect(entry).toMatchObject({
      action: "settings.update",
      actorEmail: boss.email,
      details: {
        before: { shippingFeePaise: 999, taxRateBasisPoints: 800, shopName: "LayerKart" },
        after: { shippingFeePaise: 1250, taxRateBasisPoints: 1800, shopName: "LayerKart Prints" },
      },
    });
    expect(entry.summary).toContain("Shipping fee ₹9.99 → ₹12.50");
    expect(entry.summary).toContain("Tax rate 8% → 18%");

    const cart = await import("~/routes/cart.tsx");
    const cartData = (await cart.loader()) as { settings: { shippingFeePaise: number } };
    expect(cartData.settings.shippingFeePaise).toBe(1250);

    // The same values again: saved, but nothing to record.
    const count = await countAudit(db);
    expect(await save(form)).toMatchObject({ status: 200, body: { kind: "saved", changed: 0 } });
    expect(await countAudit(db)).toBe(count);
    await updateShopSettings(db, { shippingFeePaise: 999, taxRateBasisPoints: 800 });
  });

  it("answers a non-form body with 415", async () => {
    const { action } = await import("~/routes/admin/settings.tsx");
    const request = new Request("http://localhost:3000/admin/settings", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: bossCookie },
      body: "{}",
    });
    expect((await outcome(() => action(routeArgs(request) as never))).status).toBe(415);
    expect(
      await db.select({ id: shopSettings.id }).from(shopSettings).where(eq(shopSettings.id, 1)),
    ).toHaveLength(1);
  });
});

describe(`subscribers and the audit log on ${testDbKind()}`, () => {
  it("lists subscribers newest first and exports them as a formula-safe CSV", async () => {
    const { loader: listLoader } = await import("~/routes/admin/subscribers.tsx");
    const empty = await outcome(() =>
      listLoader(routeArgs(pageGet("/admin/subscribers", { cookie: bossCookie })) as never),
    );
    expect(empty.body).toMatchObject({ total: 0, subscribers: [] });

    await subscribe(db, "first@example.com");
    // A minute apart: two inserts in one millisecond would make "newest first" a coin toss.
    await db
      .update(subscribers)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(subscribers.email, "first@example.com"));
    await subscribe(db, "=HYPERLINK(1)@example.com");
    const list = await outcome(() =>
      listLoader(routeArgs(pageGet("/admin/subscribers", { cookie: bossCookie })) as never),
    );
    expect(list.body).toMatchObject({ total: 2, page: 1, pageCount: 1 });
    const emails = (list.body as { subscribers: { email: string }[] }).subscribers.map(
      (s) => s.email,
    );
    expect(emails).toEqual(["=hyperlink(1)@example.com", "first@example.com"]);

    const { loader: csvLoader } = await import("~/routes/admin/subscribers-csv.ts");
    const res = (await csvLoader(
      routeArgs(pageGet("/admin/subscribers.csv", { cookie: bossCookie })) as never,
    )) as Response;
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await res.text()).trim().split("\r\n");
    expect(lines[0]).toBe("email,subscribed_at");
    expect(lines[1]).toMatch(/^'=hyperlink\(1\)@example\.com,\d{4}-\d{2}-\d{2}T/);
    expect(lines[2]).toMatch(/^first@example\.com,/);
  });

  it("filters the audit log by action prefix and by admin, and pages it", async () => {
    const all = await countAudit(db);
    expect(all).toBeGreaterThan(3);
    expect(await countAudit(db, { actionPrefix: "settings." })).toBe(1);
    expect(await countAudit(db, { actionPrefix: "user.grant" })).toBe(2);
    expect(await countAudit(db, { actor: "BOSS@" })).toBeGreaterThan(0);
    expect(await countAudit(db, { actor: boss.id })).toBe(await countAudit(db, { actor: "boss@" }));
    expect(await countAudit(db, { actionPrefix: "%" })).toBe(0); // taken literally
    const firstTwo = await listAudit(db, { limit: 2 });
    const nextTwo = await listAudit(db, { limit: 2, offset: 2 });
    expect(new Set([...firstTwo, ...nextTwo].map((e) => e.id)).size).toBe(4);

    const { loader } = await import("~/routes/admin/audit.tsx");
    const page = await outcome(() =>
      loader(routeArgs(pageGet("/admin/audit?action=user.", { cookie: bossCookie })) as never),
    );
    const body = page.body as { entries: { action: string }[]; families: string[] };
    expect(body.entries.every((e) => e.action.startsWith("user."))).toBe(true);
    expect(body.families).toEqual(["settings", "user"]);
  });
});
