import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import type { Mailer } from "~/adapters/mail/types.ts";
import { discounts, orderItems, orders } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import { placeOrder } from "~/modules/checkout/checkout.server.ts";
import { getAdminOrder } from "~/modules/orders/admin-orders.server.ts";
import { sendOrderEmail } from "~/modules/orders/orders.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import { DEFAULT_RATE_TABLE } from "~/rules/shipping-rates.ts";
import {
  createVerifiedUser,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  TEST_ORIGIN,
  uniqueEmail,
} from "../support/accounts.ts";
import { insertOrder, insertProduct } from "../support/factories.ts";
import { testDbKind } from "../support/test-database.ts";

/*
 * Issue #23: an order placed with a code and an automatic offer shows them everywhere it is shown
 * (/orders, the admin order, the confirmation e-mail, the GST invoice), with the tax on the
 * discounted value and every figure agreeing with what was stored. An order without discounts
 * shows none.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
  await updateShopSettings(db, {
    codEnabled: true,
    codMaxOrderPaise: null,
    shippingFeePaise: 9_900,
    taxRateBasisPoints: 800,
    shopState: "Karnataka",
    // A flat ₹99 within the city whatever the weight (the orders ship from and to 560001).
    shipFromPin: "560001",
    shippingRates: {
      ...DEFAULT_RATE_TABLE,
      local: { ...DEFAULT_RATE_TABLE.local, firstPaise: 9_900, additionalPaise: 0 },
    },
  });
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

const ordersPage = () => import("~/routes/orders.tsx");
const invoiceRoute = () => import("~/routes/orders.$id.invoice.ts");

type Listed = {
  orders: Array<{
    id: string;
    subtotalPaise: number;
    discountPaise: number;
    shippingPaise: number;
    taxPaise: number;
    totalPaise: number;
    discounts: Array<{ label: string; on: string; amountPaise: number; discountId: string }>;
    items: Array<{ name: string; discountPaise: number }>;
  }>;
};

async function pdfText(res: Response): Promise<string> {
  const proxy = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
  const { text } = await extractText(proxy, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

describe(`an order's discounts on ${testDbKind()}`, () => {
  it("a code and a free-shipping offer show on /orders, the admin order, the e-mail and the invoice", async () => {
    const account = await createVerifiedUser(harness.rt.auth, db, {
      email: uniqueEmail("disc-show"),
    });
    const cookie = await signInCookie(harness.rt.auth, account);
    const { addressId } = await saveAddress(db, account.id, home);
    const [code] = await db
      .insert(discounts)
      .values({
        name: "Diwali 20% off",
        code: "Diwali20",
        kind: "percent",
        percentBasisPoints: 2_000,
        capPaise: 30_000,
        appliesTo: "categories",
        categories: ["3D Characters"],
        combinesWithAutomatic: true,
      })
      .returning();
    const [ship] = await db
      .insert(discounts)
      .values({ name: "Free shipping this Diwali", kind: "free_shipping" })
      .returning();
    const dragon = await insertProduct(db, {
      name: "Articulated Dragon",
      category: "3D Characters",
      pricePaise: 99_900,
    });
    const vase = await insertProduct(db, {
      name: "Spiral Vase",
      category: "Home Decor",
      pricePaise: 129_900,
    });
    await setCartItem(db, account.id, dragon.id, 2);
    await setCartItem(db, account.id, vase.id, 1);

    const placed = await placeOrder(db, {
      userId: account.id,
      addressId,
      method: "cod",
      provider: "sandbox",
      couponCode: "diwali20",
      attemptToken: "disc-show-1",
    });
    // 2 × ₹999 + ₹1,299 = ₹3,297; 20% of the dragons (₹399.60) capped at ₹300, all on their line;
    // shipping ₹99 taken off by the offer; 8% tax on ₹2,997 = ₹239.76.
    const [stored] = await db.select().from(orders).where(eq(orders.id, placed.id));
    expect(stored).toMatchObject({
      subtotalPaise: 329_700,
      discountPaise: 30_000 + 9_900,
      shippingPaise: 9_900,
      taxPaise: 23_976,
      totalPaise: 329_700 - 30_000 + 23_976,
    });

    // /orders
    const listed = await outcome(async () =>
      (await ordersPage()).loader(routeArgs(pageGet("/orders", { cookie })) as never),
    );
    const [mine] = (listed.body as Listed).orders;
    expect(mine.id).toBe(placed.id);
    expect(mine.discounts).toEqual([
      {
        discountId: ship.id,
        code: null,
        name: "Free shipping this Diwali",
        on: "shipping",
        label: "Free shipping this Diwali",
        amountPaise: 9_900,
      },
      {
        discountId: code.id,
        code: "DIWALI20",
        name: "Diwali 20% off",
        on: "items",
        label: "Discount (DIWALI20)",
        amountPaise: 30_000,
      },
    ]);
    const byName = Object.fromEntries(mine.items.map((i) => [i.name, i.discountPaise]));
    expect(byName).toEqual({ "Articulated Dragon": 30_000, "Spiral Vase": 0 });
    expect(mine.subtotalPaise - mine.discountPaise + mine.shippingPaise + mine.taxPaise).toBe(
      mine.totalPaise,
    );

    // The admin order, with each discount's id for its page.
    const admin = await getAdminOrder(db, placed.id);
    expect(admin.discounts.map((d) => [d.label, d.amountPaise, d.discountId])).toEqual([
      ["Free shipping this Diwali", 9_900, ship.id],
      ["Discount (DIWALI20)", 30_000, code.id],
    ]);
    expect(admin.items.find((i) => i.name === "Articulated Dragon")?.discountPaise).toBe(30_000);

    // The confirmation e-mail.
    const sent: Array<{ to: string; subject: string; text: string; html: string }> = [];
    const mailer: Mailer = {
      async send(mail) {
        sent.push(mail as (typeof sent)[number]);
      },
    } as Mailer;
    await sendOrderEmail(
      { db, mailer, publicUrl: TEST_ORIGIN },
      { orderId: placed.id, template: "confirmation" },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toMatch(/Subtotal +₹3,297\.00/);
    expect(sent[0].text).toMatch(/Discount \(DIWALI20\) +−₹300\.00/);
    expect(sent[0].text).toMatch(/Free shipping this Diwali +−₹99\.00/);
    expect(sent[0].text).toMatch(/Total +₹3,236\.76/);
    expect(sent[0].html).toContain("Discount (DIWALI20)");
    expect(sent[0].html).toContain("−₹300.00");

    // The GST invoice: the dragons taxed on ₹1,698, the code and the offer in the totals.
    const res = (await (
      await invoiceRoute()
    ).loader({
      request: pageGet(`/orders/${placed.id}/invoice.pdf`, { cookie }),
      params: { id: placed.id },
      context: {},
    } as never)) as Response;
    expect(res.status).toBe(200);
    const text = await pdfText(res);
    expect(text).toContain("Discount Taxable Value");
    expect(text).toContain("2 999.00 300.00 1,698.00");
    expect(text).toContain("Discount (DIWALI20) -Rs. 300.00");
    expect(text).toContain("Taxable value Rs. 2,997.00");
    expect(text).toContain("Free shipping this Diwali -Rs. 99.00");
    expect(text).toContain("Grand Total Rs. 3,236.76");
  });

  it("an order without discounts shows none", async () => {
    const account = await createVerifiedUser(harness.rt.auth, db, {
      email: uniqueEmail("disc-none"),
    });
    const cookie = await signInCookie(harness.rt.auth, account);
    const product = await insertProduct(db);
    const order = await insertOrder(db, account.id, [product.id]);
    const listed = await outcome(async () =>
      (await ordersPage()).loader(routeArgs(pageGet("/orders", { cookie })) as never),
    );
    const [mine] = (listed.body as Listed).orders;
    expect(mine.discounts).toEqual([]);
    expect(mine.items.map((i) => i.discountPaise)).toEqual([0]);
    expect((await getAdminOrder(db, order.id)).discounts).toEqual([]);
    const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(item.discountPaise).toBe(0);
  });
});
