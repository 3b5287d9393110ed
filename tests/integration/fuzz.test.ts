import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quotes, shopSettings, subscribers, userProfiles } from "~/db/schema.ts";
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
 * Fuzzing (issue #9): generated form bodies — the fields each action reads, filled with random
 * text, numbers, ids, JSON and nothing at all, and (issue 20) control characters, overlong text
 * and repeated fields — are sent to every action of the app as a signed-in
 * customer and as an admin. No input may cause a server error (5xx); bad input is a 4xx, and a
 * refused request leaves no partial write: every table's row count and latest update time are the
 * same after it as before (sessions and Better Auth's own bookkeeping aside).
 */

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };
const flatten = (entries: RouteEntry[]): Array<{ path: string; file: string }> =>
  entries.flatMap((e) => [
    ...(e.children ? flatten(e.children) : []),
    ...(e.index
      ? [{ path: "/", file: e.file }]
      : e.path !== undefined
        ? [{ path: `/${e.path}`, file: e.file }]
        : []),
  ]);

/** Actions that end the session they're sent with, or belong to another library. */
const skipped = new Set(["/sign-out", "/api/auth/*", "/api/payment-webhook"]);

const FIELDS = [
  "intent",
  "id",
  "productId",
  "orderId",
  "addressId",
  "quantity",
  "lines",
  "rating",
  "title",
  "review",
  "email",
  "name",
  "firstName",
  "lastName",
  "subject",
  "message",
  "phone",
  "label",
  "line1",
  "city",
  "state",
  "postalCode",
  "country",
  "price",
  "category",
  "description",
  "discount",
  "paymentMethod",
  "expectedTotalPaise",
  "couponCode",
  "reason",
  "item",
  "status",
  "timezone",
  "names",
  "add",
  "delete",
  "productIds",
  "carrier",
  "trackingNumber",
  "trackingUrl",
  "action",
  "userId",
  "isAdmin",
  "outcome",
  "shippingFee",
  "taxRate",
  "gstin",
  "storagePath",
  // custom-print quotes
  "quoteId",
  "parts",
  "materialId",
  "colour",
  "infillPercent",
  "layerHeight",
  "unit",
  "scalePercent",
  "note",
  "kind",
  "unitPrice",
  "rates",
  // discounts (issue #23) and the promotion card's discount
  "method",
  "code",
  "percent",
  "cap",
  "amount",
  "buyQuantity",
  "getQuantity",
  "appliesTo",
  "categories",
  "minSubtotal",
  "firstOrderOnly",
  "startsAt",
  "endsAt",
  "usageLimit",
  "perCustomerLimit",
  "combinesWithAutomatic",
  "discountId",
  "whenDiscountEnds",
  // the options and variant table (issue 22)
  "options",
  "variants",
  // courier shipments (issue 24)
  "courierId",
  "grams",
  "lengthCm",
  "widthCm",
  "heightCm",
  "courierName",
  "awb",
];

/**
 * Issue 20: characters PostgreSQL refuses or no form should carry, text that isn't in Unicode's
 * composed form, and text far longer than any field.
 */
const hostile = fc.oneof(
  // NUL, the one PostgreSQL refuses outright, most often.
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
      .map(([a, b]) => `${a}\u0000${b}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.constantFrom("\u0007", "\u001b[31m", "\u007f", "\u0085", "\u009b", "\ud800"),
        fc.string({ maxLength: 10 }),
      )
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("Cafe\u0301", "e\u0301\u0301\u0301", "\u202eevil", "\ufeffname"),
  },
  { weight: 1, arbitrary: fc.constantFrom(5_001, 20_000, 300_000).map((n) => "x".repeat(n)) },
);

const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "0", "-1", "1", "99999999999", "1.005", "NaN", "true", "null", "[]", "{}"),
  fc.uuid(),
  fc.constantFrom(
    "set",
    "remove",
    "set-all",
    "clear",
    "add",
    "delete",
    "save",
    "set-default",
    "return",
    "ship",
    "cancel",
    "gateway",
    "cod",
    "add-to-cart",
    "add-project",
    "request-review",
    "accept-offer",
    "offer",
    "reply",
    "pause",
    "resume",
    "archive",
    "restore",
    "percent",
    "flat",
    "free_shipping",
    "buy_get",
    "categories",
    "automatic",
    "2026-12-31T23:59",
    "pla",
    "mm",
    "0.2",
    "variant-options",
    "variant-update",
  ),
  fc.json({ maxDepth: 2 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  hostile,
);

/** Field names: the ones actions read, and a few no form has. */
const field = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: fc.constantFrom("\u0000", "name\u0000", "x".repeat(5_000)) },
);

/** Up to 10 fields, a name possibly repeated (`item=X&item=X`, `id=a&id=b`). */
const body = fc.array(fc.tuple(field, value), { maxLength: 10 });

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
/** One query giving each table's row count and latest updated_at (where it has one). */
let fingerprintQuery = "";
/** Counters a refused request may move (rate limits), and sign-in state. */
const BOOKKEEPING = new Set([
  "session",
  "rate_limit",
  "form_rate_limits",
  "job_leases",
  "verification",
  "__drizzle_migrations",
]);

async function fingerprint(): Promise<string> {
  const result = await harness.rt.db.execute(sql.raw(fingerprintQuery));
  return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
}
const cookies: Record<"customer" | "admin", string> = { customer: "", admin: "" };
/** Forms that pass every check, for the customer's own records (filled in beforeAll). */
const validForms: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  harness = await startProcessRuntime();
  const { rt } = harness;
  const customer = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("fuzz-c") });
  const admin = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("fuzz-a") });
  await rt.db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
  cookies.customer = await signInCookie(rt.auth, customer);
  cookies.admin = await signInCookie(rt.auth, admin);
  const product = await insertProduct(rt.db);
  await insertOrder(rt.db, customer.id, [product.id], "paid");
  const [quote] = await rt.db
    .insert(quotes)
    .values({
      userId: customer.id,
      fileName: "part.stl",
      storagePath: "quotes/fuzz-part.stl",
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
  Object.assign(validForms, {
    "/contact": {
      firstName: "Asha",
      lastName: "Rao",
      email: "asha@example.com",
      subject: "Hello",
      message: "A question about a print",
    },
    "/account": { name: "Asha Rao", phone: "9876543210" },
    "/addresses": {
      intent: "save",
      label: "Home",
      name: "Asha Rao",
      line1: "1 MG Road",
      city: "Pune",
      state: "Maharashtra",
      postalCode: "411001",
      country: "India",
      phone: "9876543210",
    },
    "/api/reviews": { productId: product.id, rating: "5", title: "Nice", review: "Good print" },
    "/custom-printing": { intent: "request-review", quoteId: quote.id, note: "Please check" },
    "/api/newsletter": { email: "reader@example.com" },
  });
  const columns = (
    (await rt.db.execute(
      sql`select table_name as t, bool_or(column_name = 'updated_at') as u
          from information_schema.columns where table_schema = 'public'
          group by table_name order by table_name`,
    )) as unknown as { rows: Array<{ t: string; u: boolean }> }
  ).rows.filter((r) => !BOOKKEEPING.has(r.t));
  fingerprintQuery = columns
    .map(
      (r) =>
        `select '${r.t}' as t, count(*)::text as n, ${r.u ? "max(updated_at)::text" : "''"} as u from "${r.t}"`,
    )
    .join(" union all ");
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

// 30 actions × 200 × two databases: over 10,000 generated inputs per npm test.
const RUNS_PER_ACTION = Number(process.env.FUZZ_RUNS ?? 200);

describe(`fuzzing every action on ${testDbKind()}`, () => {
  it("the partial-write check sees a write and an update", async () => {
    const start = await fingerprint();
    await harness.rt.db.insert(subscribers).values({ email: uniqueEmail("fuzz-probe") });
    const inserted = await fingerprint();
    expect(inserted).not.toBe(start);
    await harness.rt.db
      .update(shopSettings)
      .set({ updatedAt: new Date(Date.now() + 60_000) })
      .where(eq(shopSettings.id, 1));
    expect(await fingerprint()).not.toBe(inserted);
  });

  it("no generated form body causes a server error or, refused, a partial write", async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const { path, file } of flatten(routes as unknown as RouteEntry[])) {
      if (skipped.has(path)) continue;
      const mod = (await import(/* @vite-ignore */ `../../app/${file}`)) as {
        action?: (args: unknown) => Promise<unknown>;
      };
      if (!mod.action) continue;
      const url = `${TEST_ORIGIN}${path.replace("/:sub?", "").replace(/:\w+/g, "00000000-0000-4000-8000-000000000000")}`;
      await fc
        .assert(
          fc.asyncProperty(
            body,
            fc.constantFrom("customer", "admin") as fc.Arbitrary<"customer" | "admin">,
            async (fields, who) => {
              const form = new URLSearchParams();
              for (const [k, v] of fields) form.append(k, v);
              const headers = browserHeaders({
                cookie: cookies[who],
                origin: TEST_ORIGIN,
                site: "same-origin",
                ip: `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
              });
              headers.set("content-type", "application/x-www-form-urlencoded");
              const request = new Request(url, { method: "POST", headers, body: form.toString() });
              const params = {
                id: "00000000-0000-4000-8000-000000000000",
                transactionId: "x",
                listing: "products",
              };
              sent += 1;
              const before = await fingerprint();
              let status: number;
              try {
                status = (await outcome(() => mod.action!({ request, params, context: {} })))
                  .status;
              } catch (error) {
                // A thrown error is a 500 for the visitor.
                status = 500;
                failures.push(
                  `${path} as ${who} with ${JSON.stringify(fields).slice(0, 300)}: ${String(error).slice(0, 200)}`,
                );
                return false;
              }
              if (status >= 500) {
                failures.push(
                  `${path} as ${who} with ${JSON.stringify(fields).slice(0, 300)}: ${status}`,
                );
                return false;
              }
              if (status >= 400 && (await fingerprint()) !== before) {
                failures.push(
                  `${path} as ${who} with ${JSON.stringify(fields).slice(0, 300)}: refused (${status}) but wrote`,
                );
                return false;
              }
              return true;
            },
          ),
          // One failure per action is enough to report; the next action still runs.
          { numRuns: RUNS_PER_ACTION, seed: 20261122, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    console.log(`fuzz: ${sent} generated requests`);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);

  it("the delivery estimate's query (issue 24): no generated query causes a server error or a write", async () => {
    const route = (await import("~/routes/api.delivery-estimate.ts")) as unknown as {
      loader: (args: unknown) => Promise<unknown>;
    };
    const product = await insertProduct(harness.rt.db);
    const pin = fc.oneof(
      fc.constantFrom("700016", "560001", "999999", "012345", "110001", " 194101 ", "７０００１６"),
      fc.stringMatching(/^\d{0,8}$/),
      value,
    );
    const query = fc.array(
      fc.tuple(
        fc.constantFrom("pin", "product", "kind", "q", "pin", "ready"),
        fc.oneof(
          pin,
          fc.constant(product.id),
          fc.constantFrom("custom", "cart", "other"),
          // A custom part's ready-by day (issue 26): real, impossible, past and far days.
          fc.constantFrom("2026-12-04", "2026-02-30", "2000-01-01", "9999-12-31", "2026-12-4"),
        ),
      ),
      { maxLength: 4 },
    );
    const failures: string[] = [];
    await fc
      .assert(
        fc.asyncProperty(query, async (pairs) => {
          const params = new URLSearchParams();
          for (const [k, v] of pairs) params.append(k, v);
          const headers = browserHeaders({
            ip: `198.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          });
          const request = new Request(`${TEST_ORIGIN}/api/delivery-estimate?${params}`, {
            headers,
          });
          const before = await fingerprint();
          let status: number;
          try {
            status = (await outcome(() => route.loader({ request, params: {}, context: {} })))
              .status;
          } catch (error) {
            failures.push(`?${params}: ${String(error).slice(0, 200)}`);
            return false;
          }
          if (status >= 500) {
            failures.push(`?${params}: ${status}`);
            return false;
          }
          if ((await fingerprint()) !== before) {
            failures.push(`?${params}: wrote (${status})`);
            return false;
          }
          return true;
        }),
        { numRuns: RUNS_PER_ACTION, seed: 20261125, endOnFailure: true },
      )
      .catch(() => undefined);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);

  it("the cart's pricing with a PIN code (issue 24): no generated query causes a server error or a write", async () => {
    const route = (await import("~/routes/api.cart-products.ts")) as unknown as {
      loader: (args: unknown) => Promise<unknown>;
    };
    const product = await insertProduct(harness.rt.db, { weightGrams: 900, boxLengthCm: 30 });
    const pin = fc.oneof(
      fc.constantFrom("700016", "560001", "999999", "012345", " 194101 ", "７０００１６"),
      fc.stringMatching(/^\d{0,8}$/),
      value,
    );
    const line = fc.oneof(
      fc.constant(`${product.id}:1`),
      fc.integer({ min: -5, max: 10_000 }).map((n) => `${product.id}:${n}`),
      value,
    );
    const query = fc.array(
      fc.tuple(fc.constantFrom("pin", "line", "code", "pin"), fc.oneof(pin, line)),
      { maxLength: 5 },
    );
    const failures: string[] = [];
    await fc
      .assert(
        fc.asyncProperty(query, async (pairs) => {
          const params = new URLSearchParams();
          for (const [k, v] of pairs) params.append(k, v);
          const request = new Request(`${TEST_ORIGIN}/api/cart-products?${params}`, {
            headers: browserHeaders({}),
          });
          const before = await fingerprint();
          let status: number;
          try {
            status = (await outcome(() => route.loader({ request, params: {}, context: {} })))
              .status;
          } catch (error) {
            failures.push(`?${params}: ${String(error).slice(0, 200)}`);
            return false;
          }
          if (status >= 500) {
            failures.push(`?${params}: ${status}`);
            return false;
          }
          if ((await fingerprint()) !== before) {
            failures.push(`?${params}: wrote (${status})`);
            return false;
          }
          return true;
        }),
        { numRuns: RUNS_PER_ACTION, seed: 20261126, endOnFailure: true },
      )
      .catch(() => undefined);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);

  it("the options and variant table (issue 22): no generated body causes a server error or, refused, a partial write", async () => {
    const { rt } = harness;
    const product = await insertProduct(rt.db, { stockCount: 5 });
    const item = (await import("~/routes/admin/item.tsx")) as unknown as {
      action: (args: unknown) => Promise<unknown>;
    };
    // A first save, so the product has options, values and variants to aim at.
    const first = new URLSearchParams({
      intent: "variant-options",
      options: JSON.stringify([{ name: "Colour", values: [{ value: "Red" }, { value: "Blue" }] }]),
    });
    const send = async (form: URLSearchParams) => {
      const headers = browserHeaders({
        cookie: cookies.admin,
        origin: TEST_ORIGIN,
        site: "same-origin",
        ip: `198.21.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      headers.set("content-type", "application/x-www-form-urlencoded");
      const request = new Request(`${TEST_ORIGIN}/admin/items/${product.id}`, {
        method: "POST",
        headers,
        body: form.toString(),
      });
      return (
        await outcome(() => item.action({ request, params: { id: product.id }, context: {} }))
      ).status;
    };
    expect(await send(first)).toBe(200);
    const ids = (
      (await rt.db.execute(
        sql`select v.id as variant, o.id as option, ov.id as value from product_variants v
            join product_options o on o.product_id = v.product_id
            join product_option_values ov on ov.option_id = o.id
            where v.product_id = ${product.id}`,
      )) as unknown as { rows: Array<{ variant: string; option: string; value: string }> }
    ).rows;
    const id = fc.oneof(
      fc.constantFrom(...ids.flatMap((r) => [r.variant, r.option, r.value])),
      fc.uuid(),
      value,
    );
    const cell = fc.oneof(value, fc.constantFrom("1", "0.99", "250", "#e11d48", "SKU-1", ""));
    const option = fc.record(
      {
        id,
        name: cell,
        values: fc.array(fc.record({ id, value: cell, swatch: cell }, { requiredKeys: [] }), {
          maxLength: 4,
        }),
      },
      { requiredKeys: [] },
    );
    const row = fc.record(
      {
        id,
        sku: cell,
        price: cell,
        originalPrice: cell,
        stockCount: cell,
        isActive: fc.oneof(fc.boolean(), cell),
        image: cell,
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.record({
        intent: fc.constant("variant-options"),
        options: fc.oneof(
          fc.array(option, { maxLength: 4 }).map((o) => JSON.stringify(o)),
          value,
        ),
      }),
      fc.record({
        intent: fc.constant("variant-update"),
        variants: fc.oneof(
          fc.array(row, { maxLength: 4 }).map((r) => JSON.stringify(r)),
          value,
        ),
      }),
    );
    const failures: string[] = [];
    await fc
      .assert(
        fc.asyncProperty(body, async (fields) => {
          const before = await fingerprint();
          let status: number;
          try {
            status = await send(new URLSearchParams(fields));
          } catch (error) {
            failures.push(
              `${JSON.stringify(fields).slice(0, 300)}: ${String(error).slice(0, 200)}`,
            );
            return false;
          }
          if (status >= 500) {
            failures.push(`${JSON.stringify(fields).slice(0, 300)}: ${status}`);
            return false;
          }
          if (status >= 400 && (await fingerprint()) !== before) {
            failures.push(`${JSON.stringify(fields).slice(0, 300)}: refused (${status}) but wrote`);
            return false;
          }
          return true;
        }),
        { numRuns: RUNS_PER_ACTION, seed: 20261127, endOnFailure: true },
      )
      .catch(() => undefined);
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);

  it("hostile text in forms that are otherwise valid: never a server error, refused without a write", async () => {
    const failures: string[] = [];
    for (const { path, file } of flatten(routes as unknown as RouteEntry[])) {
      const base = validForms[path];
      if (!base) continue;
      const mod = (await import(/* @vite-ignore */ `../../app/${file}`)) as {
        action: (args: unknown) => Promise<unknown>;
      };
      const textFields = Object.keys(base).filter((k) => k !== "intent");
      const mutation = fc.record({
        replace: fc.dictionary(fc.constantFrom(...textFields), hostile, { minKeys: 1, maxKeys: 2 }),
        repeat: fc.option(fc.constantFrom(...textFields)),
      });
      await fc
        .assert(
          fc.asyncProperty(mutation, async ({ replace, repeat }) => {
            const form = new URLSearchParams({ ...base, ...replace });
            if (repeat) form.append(repeat, base[repeat]);
            const headers = browserHeaders({
              cookie: cookies.customer,
              origin: TEST_ORIGIN,
              site: "same-origin",
              ip: `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            });
            headers.set("content-type", "application/x-www-form-urlencoded");
            const request = new Request(`${TEST_ORIGIN}${path}`, {
              method: "POST",
              headers,
              body: form.toString(),
            });
            const described = `${path} with ${JSON.stringify(replace).slice(0, 200)}`;
            const before = await fingerprint();
            let status: number;
            try {
              status = (await outcome(() => mod.action({ request, params: {}, context: {} })))
                .status;
            } catch (error) {
              failures.push(`${described}: ${String(error).slice(0, 200)}`);
              return false;
            }
            if (status >= 500) {
              failures.push(`${described}: ${status}`);
              return false;
            }
            if (status >= 400 && (await fingerprint()) !== before) {
              failures.push(`${described}: refused (${status}) but wrote`);
              return false;
            }
            return true;
          }),
          {
            numRuns: Math.max(20, Math.round(RUNS_PER_ACTION / 4)),
            seed: 20261125,
            endOnFailure: true,
          },
        )
        .catch(() => undefined);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);
});
