import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { orders, shipments, userProfiles } from "~/db/schema.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import {
  createVerifiedUser,
  formPost,
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
 * The manual courier, the default (decision 0016): staff book through the shipment page with the
 * courier and AWB they typed (the order ships, the customer is told), the label is the shop's own
 * PDF, a booking without an AWB is refused with nothing written, and no webhook is accepted.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;
let admin: { id: string; email: string; cookie: string };
let customerId: string;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  const a = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("ship-admin") });
  await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, a.id));
  admin = { ...a, cookie: await signInCookie(harness.rt.auth, a) };
  const c = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail("ship-cust") });
  customerId = c.id;
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

const page = () => import("~/routes/admin/order-shipment.tsx");

async function book(orderId: string, fields: Record<string, string>) {
  const route = await page();
  return outcome(() =>
    route.action({
      request: formPost(`/admin/orders/${orderId}/shipment`, fields, { cookie: admin.cookie }),
      params: { id: orderId },
      context: {},
    } as never),
  );
}

describe(`the manual courier on ${testDbKind()}`, () => {
  it("is the courier when nothing is configured", () => {
    expect(harness.rt.shipping.name).toBe("manual");
  });

  it("books with the typed courier and AWB: the order ships, the label is the shop's PDF", async () => {
    const product = await insertProduct(db, { weightGrams: 300 });
    const order = await insertOrder(db, customerId, [product.id]);
    await db.update(orders).set({ status: "processing" }).where(eq(orders.id, order.id));
    const loaded = (await outcome(async () =>
      (
        await page()
      ).loader({
        request: pageGet(`/admin/orders/${order.id}/shipment`, { cookie: admin.cookie }),
        params: { id: order.id },
        context: {},
      } as never),
    )) as { status: number; body: { quote: { grams: number; options: { serviceable: boolean } } } };
    expect(loaded.status).toBe(200);
    expect(loaded.body.quote).toMatchObject({ grams: 300, options: { serviceable: true } });

    const fields = {
      intent: "book",
      courierId: "manual",
      grams: "300",
      lengthCm: "15",
      widthCm: "15",
      heightCm: "10",
    };
    const missing = await book(order.id, { ...fields, courierName: "DTDC" });
    expect(missing.status).toBe(400);
    expect(await db.select().from(shipments).where(eq(shipments.orderId, order.id))).toEqual([]);

    const ok = await book(order.id, { ...fields, courierName: "DTDC", awb: "D123456789" });
    expect(ok.status).toBe(200);
    const [o] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(o).toMatchObject({ status: "shipped", carrier: "DTDC", trackingNumber: "D123456789" });
    const [s] = await db.select().from(shipments).where(eq(shipments.orderId, order.id));
    expect(s).toMatchObject({ carrier: "manual", stage: "in_transit", awb: "D123456789" });

    const label = await import("~/routes/admin/shipment-label.ts");
    const res = (await label.loader({
      request: pageGet(`/admin/shipments/${s.id}/label.pdf`, { cookie: admin.cookie }),
      params: { id: s.id },
      context: {},
    } as never)) as Response;
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    // The from block names the ships-from PIN's city and state from the directory, and the PIN.
    expect((await getShopSettings(db)).shipFromPin).toBe("560001");
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text.replace(/\s+/g, " ").split("From ")[1]).toMatch(
      /Bengaluru( Urban)?, Karnataka - PIN 560001/,
    );
  });

  it("accepts no tracking webhook", async () => {
    const route = await import("~/routes/api.courier-tracking.ts");
    const res = (await route.action({
      request: new Request(`${TEST_ORIGIN}/api/courier/tracking`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "anything" },
        body: JSON.stringify({ awb: "D123456789" }),
      }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(res.status).toBe(401);
  });
});
