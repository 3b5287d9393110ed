import { count, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit, discountRedemptions, discounts, userProfiles } from "~/db/schema.ts";
import { discountsGiven } from "~/modules/admin/dashboard.server.ts";
import {
  createDiscount,
  DiscountCodeTakenError,
  getDiscountForAdmin,
  listDiscountsForAdmin,
} from "~/modules/discounts/admin.server.ts";
import { recordDiscountUses, releaseDiscountUses } from "~/modules/discounts/discounts.server.ts";
import { createPromotion } from "~/modules/promotions/admin.server.ts";
import { listLivePromotions } from "~/modules/promotions/promotions.server.ts";
import { discountSchema } from "~/rules/discount-schema.ts";
import type { AppliedDiscount } from "~/rules/discounts.ts";
import {
  browserHeaders,
  createVerifiedUser,
  outcome,
  pageGet,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertOrder, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * Discounts in the admin area (issue #23) on the process runtime: who may use the screens,
 * create, edit (a taken code refused, whatever its case), pause, resume, archive and restore,
 * each audited; the figures (uses, rupees given away, uses given back); a promotion card
 * carrying a discount; the orders CSV and the dashboard; and the page cache hearing the changes.
 */

type RouteModule = {
  loader: (args: never) => Promise<unknown>;
  action: (args: never) => Promise<unknown>;
};
const listRoute = () => import("~/routes/admin/discounts.tsx") as Promise<RouteModule>;
const formRoute = () => import("~/routes/admin/discount.tsx") as Promise<RouteModule>;

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let adminCookie: string;
let customerCookie: string;
let admin: { id: string; email: string };
let customer: { id: string; email: string };

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const { auth } = harness.rt;
  const a = await createVerifiedUser(auth, db, { email: uniqueEmail("discount-admin") });
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, a.id));
  admin = { id: a.id, email: a.email };
  adminCookie = await signInCookie(auth, a);
  const c = await createVerifiedUser(auth, db, { email: uniqueEmail("discount-customer") });
  customer = { id: c.id, email: c.email };
  customerCookie = await signInCookie(auth, c);
});
afterAll(async () => {
  await harness?.stop();
});

const args = (request: Request, id?: string) =>
  ({ request, params: id ? { id } : {}, context: {} }) as never;

function formRequest(path: string, fields: Record<string, string | string[]>, cookie?: string) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
  }
  const headers = browserHeaders({ origin: TEST_ORIGIN, site: "same-origin", cookie });
  headers.set("content-type", "application/x-www-form-urlencoded");
  return new Request(`${TEST_ORIGIN}${path}`, { method: "POST", headers, body: body.toString() });
}

const save = async (id: string, fields: Record<string, string | string[]>, cookie = adminCookie) =>
  outcome(async () =>
    (await formRoute()).action(
      args(formRequest(`/admin/discounts/${id}`, { intent: "save", ...fields }, cookie), id),
    ),
  );
const move = async (id: string, intent: string, cookie = adminCookie) =>
  outcome(async () =>
    (await listRoute()).action(args(formRequest("/admin/discounts", { intent, id }, cookie))),
  );
const loadList = async (cookie = adminCookie) =>
  outcome(async () => (await listRoute()).loader(args(pageGet("/admin/discounts", { cookie }))));
const loadOne = async (id: string, cookie = adminCookie, query = "") =>
  outcome(async () =>
    (await formRoute()).loader(args(pageGet(`/admin/discounts/${id}${query}`, { cookie }), id)),
  );

const characters20 = {
  name: "Characters 20% off",
  method: "code",
  code: "chars20",
  kind: "percent",
  percent: "20",
  cap: "300",
  appliesTo: "categories",
  categories: ["3D Characters"],
  usageLimit: "100",
};

const rowCount = async () => (await db.select({ n: count() }).from(discounts))[0].n;
const idFrom = (location: string | null) => {
  const m = /^\/admin\/discounts\/([0-9a-f-]{36})\?saved=1$/.exec(location ?? "");
  if (!m) throw new Error(`not a saved discount's page: ${location}`);
  return m[1];
};

describe(`discounts in the admin area on ${testDbKind()}`, () => {
  it("anonymous visitors are sent to sign in; customers are refused and change nothing", async () => {
    for (const run of [
      () => loadList(""),
      () => loadOne("new", ""),
      () => save("new", characters20, ""),
      () => move("00000000-0000-4000-8000-000000000000", "pause", ""),
    ]) {
      const res = await run();
      expect(res.status).toBe(302);
      expect(res.location).toMatch(/^\/auth\?redirectTo=/);
    }
    expect(await loadList(customerCookie)).toMatchObject({ status: 302, location: "/" });
    expect(await loadOne("new", customerCookie)).toMatchObject({ status: 302, location: "/" });
    expect((await save("new", characters20, customerCookie)).status).toBe(403);
    expect((await move(crypto.randomUUID(), "pause", customerCookie)).status).toBe(403);
    expect(await rowCount()).toBe(0);
  });

  let id = "";

  it("creates a 20% code capped at ₹300 for a category; it is live, audited, in the list", async () => {
    const res = await save("new", characters20);
    expect(res.status).toBe(302);
    id = idFrom(res.location);
    const [row] = await db.select().from(discounts).where(eq(discounts.id, id));
    expect(row).toMatchObject({
      name: "Characters 20% off",
      code: "CHARS20",
      kind: "percent",
      percentBasisPoints: 2000,
      capPaise: 30_000,
      appliesTo: "categories",
      categories: ["3D Characters"],
      usageLimit: 100,
      usesCount: 0,
      state: "active",
      combinesWithAutomatic: false,
    });
    const [audit] = await db.select().from(adminAudit).where(eq(adminAudit.targetId, id));
    expect(audit).toMatchObject({
      action: "discount.create",
      actorEmail: admin.email,
      summary: 'Created discount "Characters 20% off" (CHARS20): 20% off, up to ₹300',
    });
    const list = (await loadList()).body as { discounts: Array<{ id: string; status: string }> };
    expect(list.discounts.find((d) => d.id === id)?.status).toBe("live");
    const page = (await loadOne(id, adminCookie, "?saved=1")).body as {
      saved: boolean;
      form: { percent: string; cap: string; code: string; method: string };
    };
    expect(page.saved).toBe(true);
    // The product picker's search.
    const product = await insertProduct(db, { name: "Picker Dragon Figure" });
    const found = (await loadOne(id, adminCookie, "?q=picker%20dragon")).body as {
      results: Array<{ id: string; name: string }>;
    };
    expect(found.results).toEqual([
      expect.objectContaining({ id: product.id, name: "Picker Dragon Figure" }),
    ]);
    expect(page.form).toMatchObject({
      percent: "20",
      cap: "300.00",
      code: "CHARS20",
      method: "code",
    });
  });

  it("refuses a code already taken, whatever its case, and keeps what was typed", async () => {
    const before = await rowCount();
    const res = await save("new", { ...characters20, name: "Copy cat", code: "Chars20" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      fieldErrors: {
        code: "The code “CHARS20” is already used by “Characters 20% off”. Choose another code.",
      },
      values: { name: "Copy cat", code: "Chars20", categories: ["3D Characters"] },
    });
    expect(await rowCount()).toBe(before);
    // Two saves at once of one new code: one is saved, the other refused as taken (on
    // PostgreSQL both may pass the check; the unique index decides).
    const raced = discountSchema.parse({ ...characters20, name: "Raced", code: "race-1" });
    const results = await Promise.allSettled([
      createDiscount(db, admin, raced),
      createDiscount(db, admin, { ...raced, code: "Race-1" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(DiscountCodeTakenError);
    const [{ n }] = await db
      .select({ n: count() })
      .from(discounts)
      .where(sql`lower(${discounts.code}) = 'race-1'`);
    expect(n).toBe(1);
  });

  it("refuses bad input with a message per field, writing nothing", async () => {
    const before = await rowCount();
    const res = await save("new", {
      name: "",
      method: "code",
      code: "no spaces",
      kind: "percent",
      percent: "120",
      appliesTo: "products",
      startsAt: "2026-12-31T10:00",
      endsAt: "2026-12-01T10:00",
    });
    expect(res.status).toBe(400);
    expect(Object.keys((res.body as { fieldErrors: object }).fieldErrors).sort()).toEqual([
      "code",
      "endsAt",
      "name",
      "percent",
      "productIds",
    ]);
    expect(await rowCount()).toBe(before);
    expect((await save("new", { ...characters20, code: "OTHER" }, adminCookie)).status).toBe(302);
    expect((await loadOne("not-an-id")).status).toBe(404);
    expect((await loadOne(crypto.randomUUID())).status).toBe(404);
    expect((await save(crypto.randomUUID(), characters20)).status).toBe(404);
  });

  it("edits a discount, naming what changed; the total can't go below the uses", async () => {
    const res = await save(id, { ...characters20, name: "Characters 25% off", percent: "25" });
    expect(res.status).toBe(302);
    expect(idFrom(res.location)).toBe(id);
    const [row] = await db.select().from(discounts).where(eq(discounts.id, id));
    expect(row).toMatchObject({ name: "Characters 25% off", percentBasisPoints: 2500 });
    const audits = await db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.action, "discount.update"));
    expect(audits.at(-1)?.details).toMatchObject({ changed: ["name", "percentBasisPoints"] });
    // Its own code in another case is not "taken".
    expect((await save(id, { ...characters20, code: "Chars20" })).status).toBe(302);

    await db.update(discounts).set({ usesCount: 3 }).where(eq(discounts.id, id));
    const low = await save(id, { ...characters20, usageLimit: "2" });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({
      fieldErrors: { usageLimit: "It has been used 3 times already: the total can't be lower." },
    });
    await db.update(discounts).set({ usesCount: 0 }).where(eq(discounts.id, id));
  });

  it("pauses, resumes, archives and restores, each audited; a move that doesn't fit is refused", async () => {
    const status = async () =>
      (
        (await loadList()).body as { discounts: Array<{ id: string; status: string }> }
      ).discounts.find((d) => d.id === id)?.status;
    expect(await move(id, "pause")).toMatchObject({ status: 200, body: { ok: true } });
    expect(await status()).toBe("paused");
    expect((await move(id, "pause")).status).toBe(409);
    expect((await move(id, "resume")).status).toBe(200);
    expect(await status()).toBe("live");
    expect((await move(id, "archive")).status).toBe(200);
    expect(await status()).toBe("archived");
    expect((await move(id, "resume")).status).toBe(409);
    expect((await move(id, "restore")).status).toBe(200);
    expect(await status()).toBe("paused");
    expect((await move(id, "resume")).status).toBe(200);
    expect((await move(id, "delete")).status).toBe(400);
    expect((await move("nope", "pause")).status).toBe(404);
    expect((await move(crypto.randomUUID(), "pause")).status).toBe(404);
    const actions = (
      await db
        .select({ action: adminAudit.action })
        .from(adminAudit)
        .where(eq(adminAudit.targetId, id))
    ).map((a) => a.action);
    for (const a of ["discount.pause", "discount.resume", "discount.archive", "discount.restore"]) {
      expect(actions).toContain(a);
    }
  });

  it("counts uses and the rupees given away; a use given back no longer counts", async () => {
    const product = await insertProduct(db);
    const applied = (amount: number): AppliedDiscount[] => [
      {
        discountId: id,
        code: "CHARS20",
        name: "Characters 20% off",
        kind: "percent",
        itemsPaise: amount,
        shippingPaise: 0,
      },
    ];
    const first = await insertOrder(db, customer.id, [product.id], "paid");
    const second = await insertOrder(db, customer.id, [product.id], "unpaid");
    const now = new Date();
    await db.transaction(async (tx) => {
      await recordDiscountUses(tx, first, applied(6_980), now);
      await recordDiscountUses(tx, second, applied(5_000), now);
    });
    // The orders record what they were placed with (as checkout writes it).
    await db.execute(
      sql`update orders set discount_paise = 6980, applied_discounts = ${JSON.stringify(applied(6_980))}::jsonb where id = ${first.id}`,
    );
    let detail = await getDiscountForAdmin(db, id);
    expect(detail).toMatchObject({ usesCount: 2, givenAwayPaise: 11_980 });
    await db.transaction((tx) => releaseDiscountUses(tx, second.id, new Date()));
    detail = await getDiscountForAdmin(db, id);
    expect(detail).toMatchObject({ usesCount: 1, givenAwayPaise: 6_980 });
    expect(
      detail?.orders.map((o) => [o.orderNumber, o.amountPaise, o.releasedAt !== null]),
    ).toEqual(
      expect.arrayContaining([
        [first.orderNumber, 6_980, false],
        [second.orderNumber, 5_000, true],
      ]),
    );
    expect(detail?.orders[0]).toMatchObject({ customerEmail: customer.email });
    const listed = (await listDiscountsForAdmin(db)).find((d) => d.id === id);
    expect(listed).toMatchObject({ usesCount: 1, givenAwayPaise: 6_980 });

    // The orders CSV names the discount and its amount; the dashboard adds up its period.
    const csvRoute = await import("~/routes/admin/orders-csv.ts");
    const res = (await csvRoute.loader(
      args(
        pageGet(`/admin/orders.csv?q=${encodeURIComponent(first.orderNumber)}`, {
          cookie: adminCookie,
        }),
      ),
    )) as Response;
    const rows = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, "").trim()).data;
    const at = (name: string) => rows[0].indexOf(name);
    expect(rows[1][at("Discounts")]).toBe("CHARS20 · Characters 20% off");
    expect(rows[1][at("Discount amount")]).toBe("69.80");
    expect(await discountsGiven(db, { days: 30 })).toEqual({ orders: 1, amountPaise: 6_980 });
    const [again] = await db.select({ n: count() }).from(discountRedemptions);
    expect(again.n).toBe(2);
  });

  it("a promotion card shows its discount's code and end, and says so or hides once it has ended", async () => {
    const ends = new Date("2026-12-31T18:29:00Z");
    const shown = await createDiscount(
      db,
      admin,
      discountSchema.parse({
        name: "Diwali 200 off",
        method: "code",
        code: "diwali200",
        kind: "flat",
        amount: "200",
        appliesTo: "order",
        endsAt: "2026-12-31T23:59",
      }),
    );
    const auto = await createDiscount(
      db,
      admin,
      discountSchema.parse({
        name: "Free shipping",
        method: "automatic",
        kind: "free_shipping",
        appliesTo: "order",
      }),
    );
    const deps = { db, storage: harness.rt.storage };
    const promo = (name: string, discountId: string, hide: boolean) =>
      createPromotion(
        deps,
        admin,
        {
          name,
          description: "",
          discount: null,
          cta: null,
          discountId,
          hideWhenDiscountEnds: hide,
        },
        null,
      );
    await promo("Say it ended", shown.id, false);
    await promo("Hide when ended", shown.id, true);
    await promo("Automatic", auto.id, false);
    const before = new Date("2026-12-01T00:00:00Z");
    const live = await listLivePromotions(db, before);
    expect(live.find((p) => p.name === "Say it ended")?.offer).toEqual({
      code: "DIWALI200",
      endsAt: ends.toISOString(),
      endsLabel: "Ends 31 Dec",
      startsLabel: null,
      ended: false,
      hideWhenEnded: false,
    });
    expect(live.find((p) => p.name === "Automatic")?.offer).toMatchObject({
      code: null,
      ended: false,
    });
    const after = await listLivePromotions(db, new Date("2027-01-01T00:00:00Z"));
    expect(after.map((p) => p.name)).not.toContain("Hide when ended");
    expect(after.find((p) => p.name === "Say it ended")?.offer?.ended).toBe(true);

    // Paused counts as ended for the card; the admin's choice of discount is checked.
    expect((await move(shown.id, "pause")).status).toBe(200);
    const paused = await listLivePromotions(db, before);
    expect(paused.map((p) => p.name)).not.toContain("Hide when ended");
    await expect(promo("Forged", crypto.randomUUID(), false)).rejects.toThrow();
  });

  it("every discount change tells the page cache the storefront changed", async () => {
    const { pageCache } = harness.rt;
    const start = pageCache.stats().invalidations;
    expect((await move(id, "pause")).status).toBe(200);
    await expect
      .poll(() => pageCache.stats().invalidations, { timeout: 5_000 })
      .toBeGreaterThan(start);
    const next = pageCache.stats().invalidations;
    expect((await move(id, "resume")).status).toBe(200);
    await expect
      .poll(() => pageCache.stats().invalidations, { timeout: 5_000 })
      .toBeGreaterThan(next);
  });

  it("no generated form body makes the new-discount form fail; a refused one writes nothing", async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom("", "0", "-1", "20", "1.005", "on", "code", "automatic", "percent", "flat"),
      fc.constantFrom("free_shipping", "buy_get", "order", "categories", "products", "custom"),
      fc.constantFrom("2026-12-31T23:59", "2026-02-30T10:00", "x\u0000y", "x".repeat(5_000)),
      fc.uuid(),
    );
    const field = fc.constantFrom(
      "intent",
      "name",
      "method",
      "code",
      "kind",
      "percent",
      "cap",
      "amount",
      "buyQuantity",
      "getQuantity",
      "appliesTo",
      "categories",
      "productIds",
      "minSubtotal",
      "firstOrderOnly",
      "startsAt",
      "endsAt",
      "usageLimit",
      "perCustomerLimit",
      "combinesWithAutomatic",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(field, value), { maxLength: 14 }), async (pairs) => {
        const fields: Record<string, string[]> = { intent: ["save"] };
        for (const [k, v] of pairs) fields[k] = [...(fields[k] ?? []), v];
        const before = await rowCount();
        const res = await outcome(async () =>
          (await formRoute()).action(
            args(formRequest("/admin/discounts/new", fields, adminCookie), "new"),
          ),
        );
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(await rowCount()).toBe(before);
      }),
      { numRuns: 150, seed: 20261125 },
    );
  }, 120_000);
});
