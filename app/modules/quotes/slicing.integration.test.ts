import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { createSlicer, findExecutable } from "~/adapters/slicer/index.server.ts";
import type { SliceRequest, SliceResult, Slicer } from "~/adapters/slicer/types.ts";
import { jobs, orders, products, quotes } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { checkoutLines, placeOrder } from "~/modules/checkout/checkout.server.ts";
import { createJobRunner } from "~/modules/jobs/jobs.server.ts";
import { lockOrder, markPaid } from "~/modules/orders/lifecycle.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import { cube, toBinaryStl } from "~/rules/model3d/testing/shapes.ts";
import { estimatedPrintMinutes } from "~/rules/print-dates.ts";
import {
  defaultQuoteRates,
  priceQuote,
  type QuoteOptions,
  type QuoteRates,
} from "~/rules/quote-pricing.ts";
import { slicingText } from "~/rules/slicing.ts";
import {
  browserHeaders,
  createVerifiedUser,
  outcome,
  pageGet,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { addProjectToCart, addQuoteToCart, saveQuoteRates } from "./quotes.server.ts";
import { sliceQuotedPart } from "./slicing.server.ts";

/*
 * Slicer-true estimates (docs/decisions/0020): a part priced into the cart is sliced in the job
 * queue; its figures replace the estimate, its price changes beyond the tolerance and only before
 * an order holds it. A fake slicer runs the rules everywhere; the real PrusaSlicer runs when it is
 * installed (CI installs it).
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let staff: never;

// No minimum and no setup fee, so the price follows the grams and the hours.
const rates: QuoteRates = {
  ...defaultQuoteRates,
  minimumPaise: 0,
  setupFeePaise: 0,
  slicerTolerancePercent: 10,
};

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const admin = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("sl-staff") });
  staff = { ...admin, name: "Staff", isAdmin: true } as never;
  await saveQuoteRates(db, staff, rates);
  await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: null });
});
afterAll(async () => {
  await harness?.stop();
});

const home = {
  label: "Home" as const,
  name: "Asha Rao",
  line1: "12 MG Road",
  line2: null,
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, home);
  return { ...account, addressId, cookie: await signInCookie(harness.rt.auth, account) };
}

async function upload(cookie: string, side = 20) {
  const { action } = await import("~/routes/api.quotes.upload.ts");
  const headers = browserHeaders({
    origin: TEST_ORIGIN,
    site: "same-origin",
    cookie,
    ip: uniqueIp(),
  });
  headers.set("content-type", "application/octet-stream");
  const request = new Request(`${TEST_ORIGIN}/api/quotes/upload?name=cube.stl`, {
    method: "POST",
    headers,
    body: toBinaryStl(cube(side)) as unknown as BodyInit,
  });
  const r = await outcome(() => action({ request } as never));
  expect(r.status).toBe(200);
  return (r.body as { quote: { id: string } }).quote.id;
}

const options: QuoteOptions = {
  materialId: "pla",
  colour: "Black",
  infillPercent: 20,
  layerHeight: 0.2,
  quantity: 2,
  unit: "mm",
  scalePercent: 100,
  speed: "standard",
};

const quoteRow = async (id: string) => (await db.select().from(quotes).where(eq(quotes.id, id)))[0];
const productOf = async (quoteId: string) =>
  (await db.select().from(products).where(eq(products.quoteId, quoteId)))[0];

/** A slicer that answers with set figures, remembering what it was asked. */
function fakeSlicer(answer: (request: SliceRequest) => SliceResult): Slicer & {
  asked: SliceRequest[];
} {
  const asked: SliceRequest[] = [];
  return {
    name: "prusa-slicer",
    asked,
    stop: () => {},
    slice: async (request) => {
      asked.push(request);
      return answer(request);
    },
  };
}

const deps = (slicer: Slicer) => ({ db, files: harness.rt.privateFiles, slicer });

/** The part in the cart, its slicing job queued: returns the quote and its job's payload. */
async function inCart(tag: string) {
  const c = await customer(tag);
  const quoteId = await upload(c.cookie);
  await addQuoteToCart(db, c.id, quoteId, options, new Date(), true);
  const row = await quoteRow(quoteId);
  expect(row.slice).toMatchObject({ status: "queued" });
  return { c, quoteId, job: { quoteId, key: row.slice!.key }, before: row };
}

const instant = priceQuote(
  { volume: 8000, area: 2400, size: { x: 20, y: 20, z: 20 }, watertight: true },
  options,
  rates,
).breakdown;
/** Figures whose price is `factor` times the instant one's (material and time both scaled). */
const scaled = (factor: number): SliceResult => ({
  ok: true,
  grams: instant.grams * factor,
  supportGrams: 0,
  printSeconds: instant.printHours * 3600 * factor,
});

describe(`slicer-true estimates with a fake slicer (${testDbKind()})`, () => {
  it("a priced part is sliced in the job queue; past the tolerance the price, note, cart and checkout follow", async () => {
    const { c, quoteId, before } = await inCart("sl-update");
    expect(before.unitPricePaise).toBe(instant.unitPricePaise);
    const [queued] = await db.select().from(jobs).where(eq(jobs.kind, "slice-quote"));
    expect(queued).toBeDefined();

    const slicer = fakeSlicer(() => scaled(1.5));
    const runner = createJobRunner(
      db,
      { "slice-quote": (job) => sliceQuotedPart(deps(slicer), job) },
      { kinds: ["slice-quote"], parallel: 2 },
    );
    expect(await runner.runDue()).toBeGreaterThanOrEqual(1);
    // The slicer was asked for the part in mm, with the material and the chosen settings.
    const asked = slicer.asked.find((a) => a.stl.byteLength === 84 + 50 * 12)!;
    expect(asked).toMatchObject({
      materialId: "pla",
      density: 1.24,
      layerHeightMm: 0.2,
      infillPercent: 20,
      supports: false,
    });

    const row = await quoteRow(quoteId);
    const newPrice = priceQuote(
      { volume: 8000, area: 2400, size: { x: 20, y: 20, z: 20 }, watertight: true },
      options,
      rates,
      { grams: instant.grams * 1.5, supportGrams: 0, printMinutes: instant.printHours * 90 },
    ).breakdown.unitPricePaise;
    expect(newPrice).not.toBe(instant.unitPricePaise);
    expect(row.unitPricePaise).toBe(newPrice);
    expect(row.printMinutes).toBe(estimatedPrintMinutes(instant.printHours * 1.5, 2));
    expect(row.slice).toMatchObject({
      status: "done",
      outcome: "updated",
      slicedUnitPricePaise: newPrice,
      instant: { unitPricePaise: instant.unitPricePaise },
    });
    expect(row.priceNote).toContain("Our slicer worked out");
    expect((await productOf(quoteId)).pricePaise).toBe(newPrice);

    // The cart shows the slicer's note; checkout charges the new server price.
    const { loader } = await import("~/routes/api.cart-products.ts");
    const productId = (await productOf(quoteId)).id;
    const r = await outcome(() =>
      loader({
        request: pageGet(`/api/cart-products?line=${productId}:2`, {
          cookie: c.cookie,
        }),
      } as never),
    );
    const parts = (r.body as { parts: Record<string, { priceNote: string; priceNoteBy: string }> })
      .parts;
    expect(Object.values(parts)[0]).toMatchObject({
      priceNote: row.priceNote,
      priceNoteBy: "slicer",
    });
    expect((await checkoutLines(db, c.id))[0]).toMatchObject({ available: true });
    const order = await placeOrder(db, {
      userId: c.id,
      addressId: c.addressId,
      method: "cod",
      provider: "sandbox",
      attemptToken: `sl-${quoteId}`,
    });
    const [placed] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(placed.subtotalPaise).toBe(newPrice * 2);
    expect(slicingText.updatedTitle).toBe("Price updated after slicing your model");
  });

  it("within the tolerance the figures replace the estimate but the price stays", async () => {
    const { c, quoteId, job } = await inCart("sl-within");
    await sliceQuotedPart(deps(fakeSlicer(() => scaled(1.05))), job);
    const row = await quoteRow(quoteId);
    expect(row.unitPricePaise).toBe(instant.unitPricePaise);
    expect(row.priceNote).toBeNull();
    expect(row.slice).toMatchObject({ status: "done", outcome: "within-tolerance" });
    expect(row.printMinutes).toBe(estimatedPrintMinutes(instant.printHours * 1.05, 2));
    // Checkout still verifies the instant price it charges.
    expect((await checkoutLines(db, c.id))[0]).toMatchObject({ available: true });
  });

  it("after payment, or while an order waits for it, the result is kept for staff and no price changes", async () => {
    // Paid online.
    const paid = await inCart("sl-paid");
    const order = await placeOrder(db, {
      userId: paid.c.id,
      addressId: paid.c.addressId,
      method: "gateway",
      provider: "sandbox",
      attemptToken: `sl-paid-${paid.quoteId}`,
    });
    // Waiting for payment: frozen.
    await sliceQuotedPart(deps(fakeSlicer(() => scaled(3))), paid.job);
    let row = await quoteRow(paid.quoteId);
    expect(row.slice).toMatchObject({ status: "done", outcome: "awaiting-payment" });
    expect(row.unitPricePaise).toBe(instant.unitPricePaise);

    // Paid, then a (re-queued) result arrives: stored, price and order untouched.
    await db.transaction(async (tx) => markPaid(tx, await lockOrder(tx, order.id), new Date()));
    row = await quoteRow(paid.quoteId);
    expect(row.status).toBe("ordered");
    await db
      .update(quotes)
      .set({ slice: { ...row.slice!, status: "queued" } })
      .where(eq(quotes.id, paid.quoteId));
    await sliceQuotedPart(deps(fakeSlicer(() => scaled(3))), paid.job);
    row = await quoteRow(paid.quoteId);
    expect(row.slice).toMatchObject({ status: "done", outcome: "paid" });
    expect(row.unitPricePaise).toBe(instant.unitPricePaise);
    expect(row.priceNote).toBeNull();
    expect((await productOf(paid.quoteId)).pricePaise).toBe(instant.unitPricePaise);
    const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(after.subtotalPaise).toBe(instant.unitPricePaise * 2);
  });

  it("a failure or time-out leaves the instant estimate; a result for an older pricing is dropped", async () => {
    const { quoteId, job, before } = await inCart("sl-fail");
    await sliceQuotedPart(
      deps(
        fakeSlicer(() => ({
          ok: false,
          reason: "timeout",
          message: "slicing took longer than 1 s",
        })),
      ),
      job,
    );
    let row = await quoteRow(quoteId);
    expect(row.slice).toMatchObject({
      status: "failed",
      error: "timeout: slicing took longer than 1 s",
    });
    expect(row.unitPricePaise).toBe(before.unitPricePaise);
    expect(row.printMinutes).toBe(before.printMinutes);

    // Priced again: the old job's key no longer matches, so it changes nothing.
    const c2 = await customer("sl-stale");
    const q2 = await upload(c2.cookie);
    await addQuoteToCart(db, c2.id, q2, options, new Date(), true);
    const stale = { quoteId: q2, key: (await quoteRow(q2)).slice!.key };
    await addQuoteToCart(db, c2.id, q2, { ...options, quantity: 3 }, new Date(), true);
    const slicer = fakeSlicer(() => scaled(3));
    await sliceQuotedPart(deps(slicer), stale);
    expect(slicer.asked).toHaveLength(0);
    row = await quoteRow(q2);
    expect(row.slice).toMatchObject({ status: "queued" });
    expect(row.quantity).toBe(3);
  });
});

describe(`a slice cut short by the shop stopping (${testDbKind()})`, () => {
  it("is not recorded as a failure: the job fails to be tried again and the part stays queued", async () => {
    const { quoteId, job } = await inCart("sl-stopped");
    const stopped = fakeSlicer(() => ({
      ok: false,
      reason: "stopped",
      message: "the shop stopped while slicing",
    }));
    await expect(sliceQuotedPart(deps(stopped), job)).rejects.toThrow("the shop stopped");
    expect((await quoteRow(quoteId)).slice).toMatchObject({ status: "queued", key: job.key });
    // Tried again after the restart: sliced as usual.
    await sliceQuotedPart(deps(fakeSlicer(() => scaled(1.05))), job);
    expect((await quoteRow(quoteId)).slice).toMatchObject({ status: "done" });
  });
});

/** Sessions of this test's database waiting for a row lock (PostgreSQL). */
async function waitingForLocks(): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  )) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0].n;
}

async function untilWaiting(n: number) {
  for (let i = 0; i < 500 && (await waitingForLocks()) < n; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(await waitingForLocks()).toBe(n);
}

// Lock order (decision 0020, amended): every path locks a part's product row before its quote.
// Concurrency shows on PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(testDbKind() !== "postgres")(
  `the slicer's result and the cart take the part's locks in one order (${testDbKind()})`,
  () => {
    it("a result recorded while the customer puts the part in the cart again: neither deadlocks", async () => {
      const { c, quoteId, job } = await inCart("sl-locks");
      const product = await productOf(quoteId);
      // Another transaction holds the part's product row, so both queue behind it: the slicer's
      // result first, then the customer's add. Quote-then-product (as adding once did) would
      // hold the quote while waiting for the product the result holds, waiting for the quote.
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      const holder = db.transaction(async (tx) => {
        await tx.select().from(products).where(eq(products.id, product.id)).for("update");
        await held;
      });
      await untilWaiting(0);
      const sliced = sliceQuotedPart(deps(fakeSlicer(() => scaled(1.5))), job);
      await untilWaiting(1);
      const added = addQuoteToCart(
        db,
        c.id,
        quoteId,
        { ...options, quantity: 3 },
        new Date(),
        true,
      );
      await untilWaiting(2);
      release();
      const results = await Promise.allSettled([holder, sliced, added]);
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual([
        "ok",
        "ok",
        "ok",
      ]);
      // The result came first (the price moved), then the new pricing queued a new slice.
      const row = await quoteRow(quoteId);
      expect(row.quantity).toBe(3);
      expect(row.slice).toMatchObject({ status: "queued" });
      expect(row.slice!.key).not.toBe(job.key);
    });

    it("results arriving while the customer adds the parts again, one by one and as a project, 20 times: every transaction completes", async () => {
      const c = await customer("sl-race");
      const a = await upload(c.cookie);
      const b = await upload(c.cookie, 24);
      const keyOf = async (id: string) => ({ quoteId: id, key: (await quoteRow(id)).slice!.key });
      await addProjectToCart(
        db,
        c.id,
        [
          { quoteId: a, options },
          { quoteId: b, options },
        ],
        new Date(),
        true,
      );
      const failures: string[] = [];
      for (let round = 0; round < 20; round++) {
        const [jobA, jobB] = [await keyOf(a), await keyOf(b)];
        const quantity = 1 + (round % 4);
        const results = await Promise.allSettled([
          sliceQuotedPart(deps(fakeSlicer(() => scaled(1.5))), jobA),
          sliceQuotedPart(deps(fakeSlicer(() => scaled(0.5))), jobB),
          addQuoteToCart(db, c.id, a, { ...options, quantity }, new Date(), true),
          addProjectToCart(
            db,
            c.id,
            [
              { quoteId: b, options: { ...options, quantity } },
              { quoteId: a, options: { ...options, quantity } },
            ],
            new Date(),
            true,
          ),
        ]);
        for (const r of results) if (r.status === "rejected") failures.push(String(r.reason));
      }
      expect(failures).toEqual([]);
    });
  },
);

const installed = findExecutable("prusa-slicer");

describe.skipIf(!installed)(
  `slicer-true estimates with PrusaSlicer (${testDbKind()})${installed ? "" : " — skipped: prusa-slicer is not installed"}`,
  () => {
    const real = () =>
      createSlicer({ path: "prusa-slicer", timeLimitMs: 60_000, memoryBytes: 2 * 1024 ** 3 });

    it("a quoted 20 mm cube is sliced in the job: grams and time from the slicer, the price past the tolerance with the note", async () => {
      // A material whose estimate is far off (very fast flow): the slicer's time moves the price.
      await saveQuoteRates(db, staff, {
        ...rates,
        hourlyRatePaise: 60_000,
        materials: rates.materials.map((m) => (m.id === "pla" ? { ...m, flowRate: 100 } : m)),
      });
      const { quoteId, job, before } = await inCart("sl-real");
      await sliceQuotedPart(deps(real()), job);
      const row = await quoteRow(quoteId);
      expect(row.slice).toMatchObject({
        status: "done",
        slicer: "prusa-slicer",
        outcome: "updated",
      });
      expect(row.slice!.grams).toBeGreaterThan(3.5);
      expect(row.slice!.grams).toBeLessThan(6);
      expect(row.slice!.printMinutes).toBeGreaterThan(10);
      expect(row.slice!.printMinutes).toBeLessThan(40);
      expect(row.unitPricePaise).toBe(row.slice!.slicedUnitPricePaise);
      expect(row.unitPricePaise).toBeGreaterThan(before.unitPricePaise! * 1.1);
      expect(row.priceNote).toContain("Our slicer worked out");
      expect(row.printMinutes).toBe(Math.ceil(row.slice!.printMinutes! * 2 - 1e-9));
      await saveQuoteRates(db, staff, rates);
    });

    it("after payment the real result changes nothing; a time-out leaves the estimate", async () => {
      const paid = await inCart("sl-real-paid");
      const order = await placeOrder(db, {
        userId: paid.c.id,
        addressId: paid.c.addressId,
        method: "cod",
        provider: "sandbox",
        attemptToken: `sl-real-${paid.quoteId}`,
      });
      await sliceQuotedPart(deps(real()), paid.job);
      const row = await quoteRow(paid.quoteId);
      expect(row.slice).toMatchObject({ status: "done", outcome: "paid" });
      expect(row.unitPricePaise).toBe(paid.before.unitPricePaise);
      const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
      expect(after.subtotalPaise).toBe(paid.before.unitPricePaise! * 2);

      const late = await inCart("sl-real-timeout");
      await sliceQuotedPart(
        deps(createSlicer({ path: "prusa-slicer", timeLimitMs: 1, memoryBytes: 2 * 1024 ** 3 })),
        late.job,
      );
      const timedOut = await quoteRow(late.quoteId);
      expect(timedOut.slice).toMatchObject({ status: "failed" });
      expect(timedOut.slice!.error).toMatch(/^timeout/);
      expect(timedOut.unitPricePaise).toBe(late.before.unitPricePaise);
      expect(timedOut.printMinutes).toBe(late.before.printMinutes);
    });
  },
);
