import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { adminAudit, orderItems, orders, products, quotes } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { checkoutLines, placeOrder } from "~/modules/checkout/checkout.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import { cube, toBinaryStl } from "~/rules/model3d/testing/shapes.ts";
import { estimatedPrintMinutes, PRINTER_MIN_SAMPLES, printReadyBy } from "~/rules/print-dates.ts";
import { defaultQuoteRates, priceQuote, type QuoteRates } from "~/rules/quote-pricing.ts";
import { addWorkingDays, shortDate } from "~/rules/working-days.ts";
import {
  browserHeaders,
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { printSchedule, recordPrintTime, repriceQuote, saveQuoteRates } from "./quotes.server.ts";

/*
 * Standard and Express, ready-by dates from the print queue, staff re-pricing before payment and
 * recorded print times (issue 26, docs/decisions/0017-print-dates.md). The server prices the
 * speed; a price or speed the browser sends is not believed.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let staff: never;

// One printer printing 1 hour a day: a small queue moves the date by days.
const rates: QuoteRates = {
  ...defaultQuoteRates,
  expressPercent: 50,
  printers: [{ name: "Bambu Lab X1 Carbon", x: 256, y: 256, z: 256, count: 1 }],
  printHoursPerDay: 1,
  minLeadDays: 1,
};

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const admin = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("pd-staff") });
  staff = { ...admin, name: "Staff", isAdmin: true } as never;
  await saveQuoteRates(db, staff, rates);
  await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: null });
});
afterAll(async () => {
  await harness?.stop();
});

const deps = () => ({ db, jobs: harness.rt.jobRunner, publicUrl: harness.rt.env.publicUrl });

async function customer(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, home);
  return { ...account, addressId, cookie: await signInCookie(harness.rt.auth, account) };
}

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

async function upload(cookie: string, side = 20) {
  const { action } = await import("~/routes/api.quotes.upload.ts");
  const headers = browserHeaders({
    origin: TEST_ORIGIN,
    site: "same-origin",
    cookie,
    ip: uniqueIp(),
  });
  headers.set("content-type", "application/octet-stream");
  const request = new Request(`${TEST_ORIGIN}/api/quotes/upload?name=part.stl`, {
    method: "POST",
    headers,
    body: toBinaryStl(cube(side)) as unknown as BodyInit,
  });
  const r = await outcome(() => action({ request } as never));
  expect(r.status).toBe(200);
  return (r.body as { quote: { id: string } }).quote.id;
}

async function pageAction(cookie: string, fields: Record<string, string>) {
  const { action } = await import("~/routes/custom-printing.tsx");
  return outcome(() =>
    action({ request: formPost("/custom-printing", fields, { cookie }), params: {} } as never),
  );
}

async function cartDetails(cookie: string, productId: string) {
  const { loader } = await import("~/routes/api.cart-products.ts");
  const r = await outcome(() =>
    loader({
      request: pageGet(`/api/cart-products?line=${productId}:1`, { cookie }),
    } as never),
  );
  const body = r.body as {
    products: Array<{ id: string; pricePaise: number; name: string }>;
    parts: Record<string, { speed: string; readyBy: string | null; priceNote: string | null }>;
  };
  return { product: body.products.find((p) => p.id === productId), part: body.parts[productId] };
}

const pla = {
  materialId: "pla",
  colour: "Black",
  infillPercent: "20",
  layerHeight: "0.2",
  quantity: "2",
  unit: "mm",
  scalePercent: "100",
};
const geometry = (side: number) => ({
  volume: side ** 3,
  area: 6 * side ** 2,
  size: { x: side, y: side, z: side },
  watertight: true,
});
const priced = (speed: "standard" | "express") =>
  priceQuote(
    geometry(20),
    {
      materialId: "pla",
      colour: "Black",
      infillPercent: 20,
      layerHeight: 0.2,
      quantity: 2,
      unit: "mm",
      scalePercent: 100,
      speed,
    },
    rates,
  ).breakdown;

const X1 = "Bambu Lab X1 Carbon";

const quoteRow = async (id: string) => (await db.select().from(quotes).where(eq(quotes.id, id)))[0];

describe(`print dates and staff pricing (${testDbKind()})`, () => {
  it("Express is priced and dated by the server: a forged price or speed is ignored or refused", async () => {
    const a = await customer("pd-express");
    const quoteId = await upload(a.cookie);
    const express = priced("express");
    const standard = priced("standard");
    expect(express.unitPricePaise).toBe(Math.round(standard.unitPricePaise * 1.5));

    // A speed the shop doesn't offer: refused, nothing written.
    const forgedSpeed = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId,
      ...pla,
      speed: "overnight",
    });
    expect(forgedSpeed.status).toBe(400);
    expect((forgedSpeed.body as { error: string }).error).toBe("Choose Standard or Express");
    expect((await quoteRow(quoteId)).status).toBe("draft");

    // Express with a price, surcharge and date of the browser's own: only the speed is read.
    const added = await pageAction(a.cookie, {
      intent: "add-to-cart",
      quoteId,
      ...pla,
      speed: "express",
      unitPricePaise: "1",
      pricePaise: "1",
      expressPaise: "0",
      readyBy: "2026-01-01",
    });
    expect(added.status).toBe(200);
    const line = (added.body as { line: { productId: string; pricePaise: number; name: string } })
      .line;
    expect(line.pricePaise).toBe(express.unitPricePaise);
    expect(line.name).toBe("Custom print: part (PLA, Black, Express)");
    const minutes = estimatedPrintMinutes(express.printHours, 2);
    const schedule = await printSchedule(db);
    const row = await quoteRow(quoteId);
    expect(row).toMatchObject({
      status: "in_cart",
      unitPricePaise: express.unitPricePaise,
      printMinutes: minutes,
      readyBy: printReadyBy(schedule, minutes, "express"),
    });
    expect(row.options).toMatchObject({ speed: "express" });

    // The cart line shows the speed and the date.
    const shown = await cartDetails(a.cookie, line.productId);
    expect(shown.product?.pricePaise).toBe(express.unitPricePaise);
    expect(shown.part).toEqual({ speed: "express", readyBy: row.readyBy, priceNote: null });

    // A project sent with a price per part: the server's price again.
    const project = await pageAction(a.cookie, {
      intent: "add-project",
      parts: JSON.stringify([{ quoteId, ...pla, speed: "express", unitPricePaise: 1 }]),
    });
    expect(project.status).toBe(200);
    expect((project.body as { lines: Array<{ pricePaise: number }> }).lines[0].pricePaise).toBe(
      express.unitPricePaise,
    );

    // Checkout sells it at the server's price; the order's item says Express.
    expect((await checkoutLines(db, a.id))[0]).toMatchObject({ available: true });
    const order = await placeOrder(db, {
      userId: a.id,
      addressId: a.addressId,
      method: "cod",
      provider: "sandbox",
      attemptToken: `pd-${quoteId}`,
    });
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item).toMatchObject({
      name: "Custom print: part (PLA, Black, Express)",
      unitPricePaise: express.unitPricePaise,
    });
    const ordered = await quoteRow(quoteId);
    expect(ordered).toMatchObject({ status: "ordered", orderId: order.id });
    expect(ordered.readyBy).toBe(printReadyBy(await printSchedule(db), minutes, "express"));
    // The confirmation e-mail says the speed and the date.
    await harness.rt.jobRunner.runDue();
    const outbox = path.join(harness.rt.env.dataDir, "outbox");
    const mails = await Promise.all(
      (await readdir(outbox)).map((f) => readFile(path.join(outbox, f), "utf8")),
    );
    expect(
      mails.some(
        (m) =>
          m.includes(a.email) &&
          m.includes(
            `Custom print: part (PLA, Black, Express), ready by ${shortDate(ordered.readyBy!)}`,
          ),
      ),
    ).toBe(true);
  });

  it("Standard waits behind paid parts not yet printed; a recorded time takes them out and teaches the factor", async () => {
    const [paid] = await db.select().from(quotes).where(eq(quotes.status, "ordered"));
    const [order] = await db.select().from(orders).where(eq(orders.id, paid.orderId!));
    expect(order.status).toBe("processing");
    const queued = await printSchedule(db);
    expect(queued.queuedMinutes).toBe(paid.printMinutes);
    expect(queued.factor).toBe(1);

    // A Standard part now waits behind it; Express doesn't.
    const b = await customer("pd-standard");
    const quoteId = await upload(b.cookie);
    expect((await pageAction(b.cookie, { intent: "add-to-cart", quoteId, ...pla })).status).toBe(
      200,
    );
    const standard = await quoteRow(quoteId);
    const own = standard.printMinutes!;
    expect(standard.readyBy).toBe(printReadyBy(queued, own, "standard"));
    expect(printReadyBy(queued, own, "standard") >= printReadyBy(queued, own, "express")).toBe(
      true,
    );

    // Only a paid part's print time can be recorded, on one of the shop's printers.
    await expect(recordPrintTime(db, staff, quoteId, 30, X1)).rejects.toMatchObject({
      status: 409,
    });
    await expect(recordPrintTime(db, staff, paid.id, 30, "Ender 3")).rejects.toMatchObject({
      status: 400,
      message: "Choose the printer it was printed on.",
    });
    expect(await quoteRow(paid.id)).toMatchObject({ actualPrintMinutes: null, printedOn: null });
    // It took twice the estimate: out of the queue, and the estimates stretch by 2.
    await recordPrintTime(db, staff, paid.id, paid.printMinutes! * 2, X1);
    const after = await printSchedule(db);
    expect(after.queuedMinutes).toBe(0);
    expect(after.factor).toBe(2);
    expect(await quoteRow(paid.id)).toMatchObject({
      actualPrintMinutes: paid.printMinutes! * 2,
      printedOn: X1,
    });
    // One print is too few for the printer's own factor: it takes the shop's.
    expect(after.printers).toEqual([{ name: X1, count: 1, factor: 2 }]);
    const audit = await db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.action, "quote.printed"), eq(adminAudit.targetId, paid.id)));
    expect(audit).toHaveLength(1);
  });

  it("staff re-price a part or the project before payment only; the customer sees the price and the note", async () => {
    const c = await customer("pd-reprice");
    const first = await upload(c.cookie);
    const second = await upload(c.cookie, 15);
    const project = await pageAction(c.cookie, {
      intent: "add-project",
      parts: JSON.stringify([
        { quoteId: first, ...pla },
        { quoteId: second, ...pla },
      ]),
    });
    expect(project.status).toBe(200);
    const [p1, p2] = (project.body as { lines: Array<{ productId: string; pricePaise: number }> })
      .lines;

    // One part: ₹850 a piece, with a note the cart shows.
    await repriceQuote(deps(), staff, first, {
      scope: "part",
      unitPricePaise: 85_000,
      note: "Printed in two halves and glued.",
    });
    const shown = await cartDetails(c.cookie, p1.productId);
    expect(shown.product?.pricePaise).toBe(85_000);
    expect(shown.part?.priceNote).toBe("Printed in two halves and glued.");
    expect(await quoteRow(first)).toMatchObject({ unitPricePaise: 85_000, staffPriced: true });

    // The project: every part in the cart 10 % less.
    const { parts } = await repriceQuote(deps(), staff, first, {
      scope: "project",
      percent: -10,
      note: "A discount for the whole set.",
    });
    expect(parts).toBe(2);
    expect((await quoteRow(first)).unitPricePaise).toBe(76_500);
    expect((await quoteRow(second)).unitPricePaise).toBe(Math.round(p2.pricePaise * 0.9));
    const [product2] = await db.select().from(products).where(eq(products.id, p2.productId));
    expect(product2.pricePaise).toBe(Math.round(p2.pricePaise * 0.9));
    const audit = await db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.action, "quote.reprice"), eq(adminAudit.targetId, first)));
    expect(audit).toHaveLength(2);
    expect(audit.map((e) => e.details)).toContainEqual(
      expect.objectContaining({ fromPaise: 85_000, toPaise: 76_500 }),
    );
    const outbox = path.join(harness.rt.env.dataDir, "outbox");
    const mails = await Promise.all(
      (await readdir(outbox)).map((f) => readFile(path.join(outbox, f), "utf8")),
    );
    expect(
      mails.some((m) => m.includes("A discount for the whole set.") && m.includes(c.email)),
    ).toBe(true);

    // Checkout sells at the new prices.
    const lines = await checkoutLines(db, c.id);
    expect(lines.every((l) => l.available)).toBe(true);

    // An order waiting for payment freezes the price…
    const order = await placeOrder(db, {
      userId: c.id,
      addressId: c.addressId,
      method: "gateway",
      provider: "sandbox",
    });
    expect(order.totalPaise).toBeGreaterThan(0);
    await expect(
      repriceQuote(deps(), staff, first, { scope: "part", unitPricePaise: 1, note: "x" }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await quoteRow(first)).unitPricePaise).toBe(76_500);
  });

  it("a paid part, or one without a price, can't be re-priced", async () => {
    const [paid] = await db.select().from(quotes).where(eq(quotes.status, "ordered"));
    await expect(
      repriceQuote(deps(), staff, paid.id, { scope: "part", unitPricePaise: 100, note: "late" }),
    ).rejects.toMatchObject({
      status: 409,
      message: "This part has been paid for: its price can't change now.",
    });
    const d = await customer("pd-draft");
    const draft = await upload(d.cookie);
    await expect(
      repriceQuote(deps(), staff, draft, { scope: "part", unitPricePaise: 100, note: "x" }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await quoteRow(paid.id)).unitPricePaise).toBe(paid.unitPricePaise);
  });

  it("each printer learns its own factor from its recorded prints, and the ready-by date runs across the printers", async () => {
    // Two printers now: the fast one's prints took half the estimate, the slow one's 3×.
    await saveQuoteRates(db, staff, {
      ...rates,
      printers: [
        { name: "Fast", x: 256, y: 256, z: 256, count: 1 },
        { name: "Slow", x: 300, y: 300, z: 300, count: 2 },
      ],
    });
    const before = await printSchedule(db);
    const shopFactor = before.factor;
    expect(before.printers).toEqual([
      { name: "Fast", count: 1, factor: shopFactor },
      { name: "Slow", count: 2, factor: shopFactor },
    ]);
    const e = await customer("pd-printers");
    const paid: Array<{ id: string; printMinutes: number }> = [];
    for (let i = 0; i < 2 * PRINTER_MIN_SAMPLES; i++) {
      const quoteId = await upload(e.cookie, 10 + i);
      expect(
        (await pageAction(e.cookie, { intent: "add-to-cart", quoteId, ...pla, quantity: "1" }))
          .status,
      ).toBe(200);
      paid.push({ id: quoteId, printMinutes: (await quoteRow(quoteId)).printMinutes! });
    }
    const order = await placeOrder(db, {
      userId: e.id,
      addressId: e.addressId,
      method: "cod",
      provider: "sandbox",
      attemptToken: `pd-printers-${e.id}`,
    });
    expect((await quoteRow(paid[0].id)).orderId).toBe(order.id);
    // Four on Fast: too few, still the shop's factor.
    for (const p of paid.slice(0, PRINTER_MIN_SAMPLES - 1)) {
      await recordPrintTime(db, staff, p.id, Math.max(1, Math.round(p.printMinutes / 2)), "Fast");
    }
    const few = await printSchedule(db);
    expect(few.printers[0].factor).toBe(few.factor);
    // The fifth: Fast's own factor (about 0.5), whatever the shop's is.
    const fifth = paid[PRINTER_MIN_SAMPLES - 1];
    await recordPrintTime(
      db,
      staff,
      fifth.id,
      Math.max(1, Math.round(fifth.printMinutes / 2)),
      "Fast",
    );
    for (const p of paid.slice(PRINTER_MIN_SAMPLES)) {
      await recordPrintTime(db, staff, p.id, p.printMinutes * 3, "Slow");
    }
    const learned = await printSchedule(db);
    const fastRatios = paid
      .slice(0, PRINTER_MIN_SAMPLES)
      .map((p) => Math.max(1, Math.round(p.printMinutes / 2)) / p.printMinutes);
    expect(learned.printers[0].factor).toBeCloseTo(
      fastRatios.reduce((a, b) => a + b, 0) / fastRatios.length,
      10,
    );
    expect(learned.printers[1]).toEqual({ name: "Slow", count: 2, factor: 3 });
    expect(learned.factor).not.toBe(learned.printers[0].factor);

    // The date: 1 hour a day on each printer; Fast does 60 ÷ f₁ estimated minutes, each Slow 20.
    const perDay = 60 / learned.printers[0].factor + 2 * (60 / 3);
    const f = await customer("pd-printers-date");
    const quoteId = await upload(f.cookie, 80);
    expect(
      (
        await pageAction(f.cookie, {
          intent: "add-to-cart",
          quoteId,
          ...pla,
          quantity: "10",
          speed: "express",
        })
      ).status,
    ).toBe(200);
    const row = await quoteRow(quoteId);
    const days = Math.max(rates.minLeadDays, Math.ceil(row.printMinutes! / perDay - 1e-9));
    expect(days).toBeGreaterThan(1);
    expect(row.readyBy).toBe(addWorkingDays(learned.today, days, new Set(learned.holidays)));
    expect(row.readyBy).toBe(printReadyBy(learned, row.printMinutes!, "express"));
  });
});
