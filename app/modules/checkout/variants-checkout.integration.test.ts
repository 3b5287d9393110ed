import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, orderItems, orders, products, productVariants } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { getCart, setAllCartItems, setCartItem } from "~/modules/cart/cart.server.ts";
import { defineVariants } from "~/modules/catalog/variants.server.ts";
import { getAdminOrder } from "~/modules/orders/admin-orders.server.ts";
import { expireOrder } from "~/modules/orders/lifecycle.server.ts";
import { getOrder, invoiceFor } from "~/modules/orders/orders.server.ts";
import { optionLabel, type Variant } from "~/rules/variants.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { apiPost, insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { CheckoutError, checkoutLines, placeOrder } from "./checkout.server.ts";

/*
 * Checkout per variant (issue 22, decision 0015): each line is priced from its variant on the
 * server, the last unit of one variant sells once while another variant of the same product keeps
 * selling, an inactive or sold-out variant is refused in the shop's words, and a variant id of
 * another product is refused with nothing written.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
let db: Database;

beforeAll(async () => {
  harness = await startProcessRuntime();
  db = harness.rt.db;
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

async function shopper(tag: string) {
  const account = await createVerifiedUser(harness.rt.auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, home);
  return { ...account, addressId };
}

const gateway = (b: { id: string; addressId: string }) =>
  placeOrder(db, { userId: b.id, addressId: b.addressId, method: "gateway", provider: "sandbox" });

/** A figure in Red (₹499, `red` units) and Blue (₹549, `blue` units), and Green (inactive). */
async function colourFigure(red: number | null, blue: number | null) {
  const p = await insertProduct(db, { pricePaise: 1 });
  const variants = await db.transaction((tx) =>
    defineVariants(tx, p.id, {
      options: [
        {
          name: "Colour",
          values: [
            { value: "Red", swatch: "#cc2222" },
            { value: "Blue", swatch: "#2244cc" },
            { value: "Green", swatch: "#22aa44" },
          ],
        },
      ],
      variants: [
        { values: ["Red"], pricePaise: 49_900, stockCount: red },
        { values: ["Blue"], pricePaise: 54_900, originalPricePaise: 59_900, stockCount: blue },
        { values: ["Green"], pricePaise: 44_900, stockCount: 5, isActive: false },
      ],
    }),
  );
  const [redV, blueV, greenV] = variants as [Variant, Variant, Variant];
  return { product: p, red: redV, blue: blueV, green: greenV };
}

async function variantStock(id: string) {
  const [v] = await db
    .select({ stockCount: productVariants.stockCount, inStock: productVariants.inStock })
    .from(productVariants)
    .where(eq(productVariants.id, id));
  return v;
}

async function productRow(id: string) {
  const [p] = await db
    .select({
      pricePaise: products.pricePaise,
      originalPricePaise: products.originalPricePaise,
      stockCount: products.stockCount,
      inStock: products.inStock,
    })
    .from(products)
    .where(eq(products.id, id));
  return p;
}

const ordersOf = (userId: string) => db.select().from(orders).where(eq(orders.userId, userId));

describe(`checkout per variant on ${testDbKind()}`, () => {
  it("prices each line from its variant and keeps the option values on the order", async () => {
    const { product, red, blue } = await colourFigure(null, 4);
    // The product row keeps the summary: the lowest active price (Green is inactive).
    expect(await productRow(product.id)).toEqual({
      pricePaise: 49_900,
      originalPricePaise: null,
      stockCount: null,
      inStock: true,
    });
    const b = await shopper("two-colours");
    await setCartItem(db, b.id, product.id, 2, red.id);
    await setCartItem(db, b.id, product.id, 1, blue.id);
    const cart = await getCart(db, b.id);
    expect(
      cart.map((l) => [l.variantId, l.quantity, l.pricePaise, optionLabel(l.options)]),
    ).toEqual([
      [red.id, 2, 49_900, "Colour: Red"],
      [blue.id, 1, 54_900, "Colour: Blue"],
    ]);
    const lines = await checkoutLines(db, b.id);
    expect(lines.map((l) => [l.variantId, l.available, l.stockLeft])).toEqual([
      [red.id, true, null],
      [blue.id, true, 4],
    ]);

    const order = await gateway(b);
    const items = await db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(orderItems.unitPricePaise);
    expect(items.map((i) => [i.variantId, i.unitPricePaise, i.quantity, i.options])).toEqual([
      [red.id, 49_900, 2, [{ name: "Colour", value: "Red" }]],
      [blue.id, 54_900, 1, [{ name: "Colour", value: "Blue" }]],
    ]);
    // /orders, the admin's order page and the invoice show the options as ordered.
    const mine = await getOrder(db, b.id, order.id);
    expect(mine.items.map((i) => [i.name, i.options]).sort()).toEqual([
      [product.name, "Colour: Blue"],
      [product.name, "Colour: Red"],
    ]);
    const admin = await getAdminOrder(db, order.id);
    expect(admin.items.map((i) => i.options).sort()).toEqual(["Colour: Blue", "Colour: Red"]);
    await db.update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, order.id));
    const invoice = await invoiceFor(db, b.id, order.id);
    expect(invoice.lines.map((l) => l.name).sort()).toEqual([
      `${product.name} (Colour: Blue)`,
      `${product.name} (Colour: Red)`,
    ]);
    await db.update(orders).set({ paymentStatus: "unpaid" }).where(eq(orders.id, order.id));
    expect(await variantStock(blue.id)).toEqual({ stockCount: 3, inStock: true });
    // The product's count is its active variants' sum, or none when one isn't counted.
    expect(await productRow(product.id)).toMatchObject({ stockCount: null, inStock: true });

    // Its payment window closes: the units go back to the variant they came from, once.
    const later = new Date(Date.now() + 24 * 3600_000);
    expect(await expireOrder(db, order.id, later)).toBe(true);
    await expireOrder(db, order.id, later);
    expect(await variantStock(blue.id)).toEqual({ stockCount: 4, inStock: true });
  });

  it("sells the last unit of one variant once under 50 checkouts while another variant keeps selling", async () => {
    const { product, red, blue } = await colourFigure(1, 100);
    // 50 checkouts of the product at once: 45 want Red's last unit, 5 want Blue.
    const lastBuyers = await Promise.all(
      Array.from({ length: 45 }, (_, i) => shopper(`last-red-${i}`)),
    );
    const blueBuyers = await Promise.all(Array.from({ length: 5 }, (_, i) => shopper(`blue-${i}`)));
    await Promise.all(lastBuyers.map((b) => setCartItem(db, b.id, product.id, 1, red.id)));
    await Promise.all(blueBuyers.map((b) => setCartItem(db, b.id, product.id, 2, blue.id)));
    // Interleaved, so the blue checkouts queue on the same product's lock as the red ones.
    const everyone = lastBuyers.flatMap((b, i) =>
      i < blueBuyers.length ? [b, blueBuyers[i]] : [b],
    );
    expect(everyone).toHaveLength(50);
    const results = await Promise.allSettled(everyone.map((b) => gateway(b)));
    const outcomeOf = (id: string) => results[everyone.findIndex((b) => b.id === id)];
    const redPlaced = lastBuyers.filter((b) => outcomeOf(b.id).status === "fulfilled");
    expect(redPlaced).toHaveLength(1);
    for (const b of lastBuyers) {
      const r = outcomeOf(b.id);
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(CheckoutError);
    }
    for (const b of blueBuyers) expect(outcomeOf(b.id).status).toBe("fulfilled");

    expect(await variantStock(red.id)).toEqual({ stockCount: 0, inStock: false });
    expect(await variantStock(blue.id)).toEqual({ stockCount: 90, inStock: true });
    expect(await productRow(product.id)).toMatchObject({ stockCount: 90, inStock: true });
    const redItems = await db.select().from(orderItems).where(eq(orderItems.variantId, red.id));
    expect(redItems).toHaveLength(1);
    const blueItems = await db.select().from(orderItems).where(eq(orderItems.variantId, blue.id));
    expect(blueItems).toHaveLength(5);
  }, 180_000);

  it("refuses a sold-out or inactive variant in the shop's words, writing nothing", async () => {
    const { product, red, green } = await colourFigure(0, 3);
    const b = await shopper("sold-out");
    await setCartItem(db, b.id, product.id, 1, red.id);
    const soldOut = await gateway(b).catch((e: unknown) => e);
    expect(soldOut).toBeInstanceOf(CheckoutError);
    expect(soldOut).toMatchObject({
      title: "Sold out",
      description: `“${product.name} (Colour: Red)” is sold out. Remove it from your cart to continue.`,
    });

    const c = await shopper("inactive");
    await setCartItem(db, c.id, product.id, 1, green.id);
    expect((await checkoutLines(db, c.id))[0]).toMatchObject({ available: false, stockLeft: 0 });
    const inactive = await gateway(c).catch((e: unknown) => e);
    expect(inactive).toMatchObject({
      title: "Item unavailable",
      description: `“${product.name} (Colour: Green)” is no longer available. Remove it from your cart to continue.`,
    });
    expect(await ordersOf(b.id)).toEqual([]);
    expect(await ordersOf(c.id)).toEqual([]);
    expect(await variantStock(green.id)).toEqual({ stockCount: 5, inStock: true });

    // Through the checkout page: a 400 with the same words.
    const cookie = await signInCookie(harness.rt.auth, b);
    const page = await outcome(async () =>
      (await import("~/routes/checkout.tsx")).action(
        routeArgs(
          formPost("/checkout", { paymentMethod: "gateway", addressId: b.addressId }, { cookie }),
        ) as never,
      ),
    );
    expect(page.status).toBe(400);
    expect(page.body).toMatchObject({ kind: "error", title: "Sold out" });
    expect(await ordersOf(b.id)).toEqual([]);
  });

  it("refuses a variant id of another product: 400 from the cart, nothing written", async () => {
    const figure = await colourFigure(3, 3);
    const other = await colourFigure(3, 3);
    const b = await shopper("foreign");
    const cookie = await signInCookie(harness.rt.auth, b);
    await setCartItem(db, b.id, figure.product.id, 1, figure.red.id);
    const before = await getCart(db, b.id);
    const api = await import("~/routes/api.cart.ts");
    for (const body of [
      { intent: "set", productId: figure.product.id, variantId: other.blue.id, quantity: 1 },
      {
        intent: "set-all",
        lines: [
          { productId: figure.product.id, variantId: figure.blue.id, quantity: 1 },
          { productId: figure.product.id, variantId: other.red.id, quantity: 1 },
        ],
      },
      { intent: "set", productId: figure.product.id, variantId: "not-a-uuid", quantity: 1 },
    ]) {
      const res = await outcome(async () =>
        api.action(routeArgs(apiPost("/api/cart", body, { cookie, json: true })) as never),
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await getCart(db, b.id)).toEqual(before);

    // A line written past the cart module naming another product's variant: checkout refuses it.
    await db
      .update(cartItems)
      .set({ variantId: other.red.id })
      .where(and(eq(cartItems.userId, b.id), eq(cartItems.variantId, figure.red.id)));
    await expect(gateway(b)).rejects.toBeInstanceOf(CheckoutError);
    expect(await ordersOf(b.id)).toEqual([]);
    expect(await variantStock(other.red.id)).toEqual({ stockCount: 3, inStock: true });
  });

  it("keeps one line per variant, and a line without a variant is the product's default", async () => {
    const { product, red, blue } = await colourFigure(5, 5);
    const plain = await insertProduct(db, { pricePaise: 19_900, stockCount: 2 });
    const b = await shopper("lines");
    await setAllCartItems(db, b.id, [
      { productId: product.id, variantId: blue.id, quantity: 1 },
      { productId: product.id, quantity: 2 },
      { productId: product.id, variantId: red.id, quantity: 1 },
      { productId: plain.id, quantity: 1 },
    ]);
    expect((await getCart(db, b.id)).map((l) => [l.variantId, l.quantity])).toEqual([
      [blue.id, 1],
      // No variant given: the default (Red, the first that sells), larger quantity kept.
      [red.id, 2],
      [expect.any(String), 1],
    ]);
    const order = await gateway(b);
    expect(order.totalPaise).toBeGreaterThan(0);
    // A product without options behaves as before: its count and flag move with its one variant.
    expect(await productRow(plain.id)).toMatchObject({ stockCount: 1, inStock: true });
  });
});
