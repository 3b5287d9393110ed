import { and, eq, isNull } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/adapters/db/index.server.ts";
import { cartItems, discountRedemptions, discounts, orderItems, orders } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import {
  CheckoutError,
  checkoutSummary,
  discountUsedUp,
  placeOrder,
} from "~/modules/checkout/checkout.server.ts";
import { expireOrder } from "~/modules/orders/lifecycle.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
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
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";

/*
 * Discounts at checkout (issue #23) on the real database: the last use of a code goes to exactly
 * one order however many checkouts race for it, a per-customer limit holds across two sessions,
 * an order that is cancelled unpaid gives its use back once, and the browser's figures are never
 * used.
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

let codeSeq = 0;
async function insertDiscount(overrides: Partial<typeof discounts.$inferInsert> = {}) {
  codeSeq += 1;
  const [row] = await db
    .insert(discounts)
    .values({
      name: "Test 20% off",
      code: `T${Date.now().toString(36)}-${codeSeq}`.toUpperCase(),
      kind: "percent",
      percentBasisPoints: 2000,
      ...overrides,
    })
    .returning();
  return row;
}

async function discountRow(id: string) {
  const [d] = await db.select().from(discounts).where(eq(discounts.id, id));
  return d;
}

const checkoutRoute = () => import("~/routes/checkout.tsx");
const pricingRoute = () => import("~/routes/api.cart-products.ts");

describe(`discounts at checkout on ${testDbKind()}`, () => {
  it("50 concurrent checkouts for a code with one use left: exactly one order carries it", async () => {
    const code = await insertDiscount({ usageLimit: 5, usesCount: 4 });
    // Each buyer's own product: nothing but the code is shared, so only its lock decides.
    const buyers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const b = await shopper(`race-${i}`);
        const product = await insertProduct(db, { pricePaise: 50_000 });
        await setCartItem(db, b.id, product.id, 1);
        return { ...b, productId: product.id };
      }),
    );
    const results = await Promise.allSettled(
      buyers.map((b) =>
        placeOrder(db, {
          userId: b.id,
          addressId: b.addressId,
          method: "gateway",
          provider: "sandbox",
          couponCode: code.code!.toLowerCase(),
        }),
      ),
    );
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) {
      const error = (r as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(CheckoutError);
      expect(error).toMatchObject({ code: "discount" });
      expect((error as CheckoutError).description).toBe(
        `“${code.code}” has been fully used. Try another code.`,
      );
    }
    expect((await discountRow(code.id)).usesCount).toBe(5);
    const uses = await db
      .select()
      .from(discountRedemptions)
      .where(eq(discountRedemptions.discountId, code.id));
    expect(uses).toHaveLength(1);
    // The winner's order carries the discount; nobody else's order was written, and their carts
    // are as they were.
    const [winner] = await db.select().from(orders).where(eq(orders.id, uses[0].orderId));
    expect(winner).toMatchObject({ subtotalPaise: 50_000, discountPaise: 10_000 });
    expect(winner.appliedDiscounts).toEqual([
      expect.objectContaining({ discountId: code.id, code: code.code, itemsPaise: 10_000 }),
    ]);
    const ids = buyers.map((b) => b.id);
    const all = await db.select({ userId: orders.userId }).from(orders);
    expect(all.filter((o) => ids.includes(o.userId))).toHaveLength(1);
    const carts = await db.select().from(cartItems);
    expect(carts.filter((c) => ids.includes(c.userId))).toHaveLength(50);
  });

  it("automatic offers used up by concurrent checkouts refuse an order in words, never a server error", async () => {
    // Two offers with one use each on these buyers' products: the better one goes first, then the
    // other; an order priced with an offer that another checkout used up meanwhile is refused as
    // the customer's error (it was a plain Error, a 500), and nothing of it is written.
    const buyers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const b = await shopper(`offer-race-${i}`);
        const product = await insertProduct(db, { pricePaise: 50_000 });
        await setCartItem(db, b.id, product.id, 1);
        return { ...b, productId: product.id };
      }),
    );
    const productIds = buyers.map((b) => b.productId);
    const offer = (name: string, percentBasisPoints: number) =>
      insertDiscount({
        name,
        code: null,
        percentBasisPoints,
        appliesTo: "products",
        productIds,
        usageLimit: 1,
      });
    const better = await offer("Race 30% off", 3000);
    const worse = await offer("Race 10% off", 1000);
    const results = await Promise.allSettled(
      buyers.map((b) =>
        placeOrder(db, {
          userId: b.id,
          addressId: b.addressId,
          method: "gateway",
          provider: "sandbox",
        }),
      ),
    );
    await db.update(discounts).set({ state: "archived" }).where(eq(discounts.id, better.id));
    await db.update(discounts).set({ state: "archived" }).where(eq(discounts.id, worse.id));
    for (const r of results) {
      if (r.status === "fulfilled") continue;
      expect(r.reason).toBeInstanceOf(CheckoutError);
      expect(r.reason).toMatchObject({
        code: "discount",
        title: "Offer ended",
        description: expect.stringMatching(
          /^“Race (30|10)% off” has just been used up, so your total has changed\. Please review your order and place it again\.$/,
        ),
      });
    }
    // Each offer was used once, by an order that carries it; a refused buyer has no order.
    for (const d of [better, worse]) {
      expect((await discountRow(d.id)).usesCount).toBe(1);
      const uses = await db
        .select()
        .from(discountRedemptions)
        .where(eq(discountRedemptions.discountId, d.id));
      expect(uses).toHaveLength(1);
    }
    const ids = buyers.map((b) => b.id);
    const placed = (await db.select({ userId: orders.userId }).from(orders)).filter((o) =>
      ids.includes(o.userId),
    );
    expect(placed).toHaveLength(results.filter((r) => r.status === "fulfilled").length);
  });

  it("a discount used up between pricing and counting its use refuses the order in words", () => {
    const offer = {
      discountId: "d",
      code: null,
      name: "Diwali 10% off",
      kind: "percent" as const,
      itemsPaise: 1,
      shippingPaise: 0,
    };
    expect(discountUsedUp(offer)).toMatchObject({
      code: "discount",
      title: "Offer ended",
      description:
        "“Diwali 10% off” has just been used up, so your total has changed. Please review your order and place it again.",
    });
    expect(discountUsedUp({ ...offer, code: "DIWALI10" })).toMatchObject({
      code: "discount",
      title: "Coupon not applied",
      description: "“DIWALI10” has been fully used. Try another code.",
    });
  });

  it("a per-customer limit holds when one customer checks out from two sessions at once", async () => {
    await updateShopSettings(db, { codEnabled: true, codMaxOrderPaise: null });
    try {
      const code = await insertDiscount({ perCustomerLimit: 1 });
      const u = await shopper("two-sessions");
      const product = await insertProduct(db, { pricePaise: 40_000 });
      await setCartItem(db, u.id, product.id, 1);
      const attempt = (token: string) =>
        placeOrder(db, {
          userId: u.id,
          addressId: u.addressId,
          method: "cod",
          attemptToken: token,
          provider: "sandbox",
          couponCode: code.code,
        });
      const results = await Promise.allSettled([attempt("tab-a"), attempt("tab-b")]);
      const placed = results.filter((r) => r.status === "fulfilled");
      // The first order empties the cart: the other tab is refused (by the code, or by the
      // empty cart when it comes second), never given a second use.
      expect(placed).toHaveLength(1);
      const mine = await db.select().from(orders).where(eq(orders.userId, u.id));
      expect(mine).toHaveLength(1);
      expect(mine[0].discountPaise).toBe(8_000);
      expect((await discountRow(code.id)).usesCount).toBe(1);

      // With a new cart, the same code is refused as already used.
      await setCartItem(db, u.id, product.id, 2);
      const again = await attempt("tab-c").catch((e: unknown) => e);
      expect(again).toBeInstanceOf(CheckoutError);
      expect((again as CheckoutError).description).toBe(`You've already used “${code.code}”.`);
    } finally {
      await updateShopSettings(db, { codEnabled: false });
    }
  });

  it("an unpaid order that expires or is replaced gives its use back, exactly once", async () => {
    const code = await insertDiscount({ usageLimit: 1 });
    const u = await shopper("expiry");
    const product = await insertProduct(db, { pricePaise: 30_000, stockCount: 3 });
    await setCartItem(db, u.id, product.id, 1);
    const first = await placeOrder(db, {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
    });
    expect((await discountRow(code.id)).usesCount).toBe(1);

    // Another customer can't have it while the order holds it.
    const other = await shopper("expiry-other");
    await setCartItem(db, other.id, product.id, 1);
    await expect(
      placeOrder(db, {
        userId: other.id,
        addressId: other.addressId,
        method: "gateway",
        provider: "sandbox",
        couponCode: code.code,
      }),
    ).rejects.toMatchObject({ code: "discount" });

    const later = new Date(Date.now() + 60 * 60_000);
    expect(await expireOrder(db, first.id, later)).toBe(true);
    expect(await expireOrder(db, first.id, later)).toBe(false);
    expect((await discountRow(code.id)).usesCount).toBe(0);
    const [use] = await db
      .select()
      .from(discountRedemptions)
      .where(eq(discountRedemptions.orderId, first.id));
    expect(use.releasedAt).not.toBeNull();

    // Now the other customer gets it; their newer checkout replacing their own unpaid order
    // gives that order's use back first, so the new one can take it.
    const theirs = await placeOrder(db, {
      userId: other.id,
      addressId: other.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
    });
    await setCartItem(db, other.id, product.id, 2);
    const replacing = await placeOrder(db, {
      userId: other.id,
      addressId: other.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
    });
    expect(replacing.id).not.toBe(theirs.id);
    expect((await discountRow(code.id)).usesCount).toBe(1);
    const live = await db
      .select()
      .from(discountRedemptions)
      .where(
        and(eq(discountRedemptions.discountId, code.id), isNull(discountRedemptions.releasedAt)),
      );
    expect(live.map((r) => r.orderId)).toEqual([replacing.id]);
  });

  it("the checkout page prices as the order will when the customer's own unpaid order holds the code", async () => {
    // A code's last use, once per customer, held by the customer's unpaid online order: their
    // next checkout replaces that order and gives the use back, so the page must offer it too
    // (it said "already used" and the order went through at full price, or the totals disagreed).
    const code = await insertDiscount({ usageLimit: 1, perCustomerLimit: 1 });
    const u = await shopper("held-by-own");
    const product = await insertProduct(db, { pricePaise: 50_000, stockCount: 5 });
    await setCartItem(db, u.id, product.id, 1);
    const first = await placeOrder(db, {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
    });
    expect((await discountRow(code.id)).usesCount).toBe(1);

    await setCartItem(db, u.id, product.id, 2);
    const page = await checkoutSummary(db, u.id, code.code, [home.postalCode]);
    const quote = page.quotes[home.postalCode];
    if (quote?.kind !== "priced") throw new Error("the PIN should be priced");
    expect(quote.priced.codeRefusal).toBeFalsy();
    expect(quote.priced.applied.map((a) => a.discountId)).toEqual([code.id]);

    const second = await placeOrder(db, {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
      expectedTotalPaise: quote.priced.totalPaise,
    });
    expect(second.id).not.toBe(first.id);
    expect(second.totalPaise).toBe(quote.priced.totalPaise);
    const [cancelled] = await db.select().from(orders).where(eq(orders.id, first.id));
    expect(cancelled.status).toBe("cancelled");
    const live = await db
      .select()
      .from(discountRedemptions)
      .where(
        and(eq(discountRedemptions.discountId, code.id), isNull(discountRedemptions.releasedAt)),
      );
    expect(live.map((r) => r.orderId)).toEqual([second.id]);
    expect((await discountRow(code.id)).usesCount).toBe(1);
  });

  it("an order discounted below ₹1 is refused online before it holds stock or a use", async () => {
    const code = await insertDiscount({
      percentBasisPoints: 10_000,
      usageLimit: 1,
      combinesWithAutomatic: true,
    });
    const freeShipping = await insertDiscount({
      code: null,
      name: "Free shipping on everything",
      kind: "free_shipping",
      percentBasisPoints: null,
    });
    try {
      const u = await shopper("free-order");
      const product = await insertProduct(db, { pricePaise: 40_000, stockCount: 1 });
      await setCartItem(db, u.id, product.id, 1);
      const refused = placeOrder(db, {
        userId: u.id,
        addressId: u.addressId,
        method: "gateway",
        provider: "sandbox",
        couponCode: code.code,
      });
      await expect(refused).rejects.toBeInstanceOf(CheckoutError);
      await expect(refused).rejects.toMatchObject({
        code: "online-minimum",
        description:
          "Online payments start at ₹1.00. Please choose Cash on Delivery for this order.",
      });
      expect((await discountRow(code.id)).usesCount).toBe(0);
      const [after] = await db.select().from(orders).where(eq(orders.userId, u.id));
      expect(after).toBeUndefined();
    } finally {
      await db
        .update(discounts)
        .set({ state: "archived" })
        .where(eq(discounts.id, freeShipping.id));
    }
  });

  it("ignores a forged discount in the form and stores the server's own, tax on the discounted items", async () => {
    const code = await insertDiscount({
      capPaise: 30_000,
      appliesTo: "categories",
      categories: ["3D Characters"],
    });
    const u = await shopper("forged");
    const cookie = await signInCookie(harness.rt.auth, u);
    const figure = await insertProduct(db, { pricePaise: 120_000, category: "3D Characters" });
    const decor = await insertProduct(db, { pricePaise: 50_000, category: "3D Prints" });
    await setCartItem(db, u.id, figure.id, 2);
    await setCartItem(db, u.id, decor.id, 1);
    const placed = await outcome(async () =>
      (await checkoutRoute()).action(
        routeArgs(
          formPost(
            "/checkout",
            {
              paymentMethod: "gateway",
              addressId: u.addressId,
              couponCode: code.code!,
              discountPaise: "290000",
              discount: "100",
              totalPaise: "1",
            },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(placed.status).toBe(200);
    const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
    // 20% of ₹2,400 is ₹480, capped at ₹300; only the characters line; 8% tax on ₹2,600.
    // Shipping within the city: three default boxes (3 × 450 g volumetric → 1.5 kg) ₹40 + 2 × ₹30.
    expect(o).toMatchObject({
      subtotalPaise: 290_000,
      discountPaise: 30_000,
      shippingPaise: 10_000,
      taxPaise: 20_800,
      totalPaise: 260_000 + 10_000 + 20_800,
    });
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, o.id));
    const byProduct = new Map(items.map((i) => [i.productId, i.discountPaise]));
    expect(byProduct.get(figure.id)).toBe(30_000);
    expect(byProduct.get(decor.id)).toBe(0);

    // A code the shop doesn't have is refused with its message, and nothing is written.
    await setCartItem(db, u.id, decor.id, 1);
    const unknown = await outcome(async () =>
      (await checkoutRoute()).action(
        routeArgs(
          formPost(
            "/checkout",
            { paymentMethod: "gateway", addressId: u.addressId, couponCode: "NOSUCHCODE" },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      kind: "error",
      title: "Coupon not applied",
      description: "“NOSUCHCODE” isn't a valid code. Check it and try again.",
    });
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(1);
  });

  it("the cart's figures come from the server: refusals for a guest, the discount for the customer", async () => {
    const code = await insertDiscount({
      firstOrderOnly: true,
      kind: "flat",
      amountPaise: 20_000,
      percentBasisPoints: null,
    });
    const product = await insertProduct(db, { pricePaise: 60_000 });
    const url = (c: string) =>
      `/api/cart-products?line=${product.id}:2&code=${encodeURIComponent(c)}`;
    const guest = await outcome(async () =>
      (await pricingRoute()).loader(routeArgs(pageGet(url(code.code!))) as never),
    );
    expect(guest.body).toMatchObject({
      pricing: {
        subtotalPaise: 120_000,
        discountPaise: 0,
        codeRefusal: { code: "sign-in", message: `Sign in to use “${code.code}”.` },
      },
    });
    const u = await shopper("pricing");
    const cookie = await signInCookie(harness.rt.auth, u);
    const mine = await outcome(async () =>
      (await pricingRoute()).loader(
        routeArgs(pageGet(url(code.code!.toLowerCase()), { cookie })) as never,
      ),
    );
    expect(mine.body).toMatchObject({
      pricing: {
        subtotalPaise: 120_000,
        discountPaise: 20_000,
        taxPaise: 8_000,
        // Shipping to the customer's default address (Bengaluru, within the city, 1 kg), as
        // checkout will charge it.
        shippingPaise: 7_000,
        shipping: { kind: "rated", pin: "560001" },
        totalPaise: 100_000 + 7_000 + 8_000,
        codeRefusal: null,
        applied: [expect.objectContaining({ code: code.code, itemsPaise: 20_000 })],
      },
    });
    const unknown = await outcome(async () =>
      (await pricingRoute()).loader(routeArgs(pageGet(url("<script>"))) as never),
    );
    expect(unknown.body).toMatchObject({ pricing: { codeRefusal: { code: "unknown" } } });
  });

  it("codes priced in the cart are rate limited per address: past the limit the cart is priced without the code and says why", async () => {
    const code = await insertDiscount();
    const product = await insertProduct(db, { pricePaise: 50_000 });
    const price = async (c: string, ip: string) =>
      (
        await outcome(async () =>
          (
            await pricingRoute()
          ).loader(
            routeArgs(
              pageGet(`/api/cart-products?line=${product.id}:1&code=${encodeURIComponent(c)}`, {
                ip,
              }),
            ) as never,
          ),
        )
      ).body as { pricing: { discountPaise: number; codeRefusal: { code: string } | null } };
    // A script guessing codes from one address: 60 guesses a minute are answered…
    for (let i = 0; i < 60; i += 1) {
      const res = await price(`GUESS-${i}`, "203.0.113.60");
      expect(res.pricing.codeRefusal?.code).toBe("unknown");
    }
    // …then even the real code is refused for a while, with the reason, and the cart still priced.
    const limited = await price(code.code!, "203.0.113.60");
    expect(limited.pricing).toMatchObject({
      discountPaise: 0,
      subtotalPaise: 50_000,
      codeRefusal: {
        code: "busy",
        message: "Too many requests. Please wait a minute and try again.",
      },
    });
    // Another address is not held back.
    const other = await price(code.code!, "203.0.113.61");
    expect(other.pricing.codeRefusal).toBeNull();
    expect(other.pricing.discountPaise).toBeGreaterThan(0);
  });

  it("codes tried at checkout are limited per customer: past the limit the page prices without the code and the order is refused, in words", async () => {
    const code = await insertDiscount();
    const u = await shopper("checkout-busy");
    const cookie = await signInCookie(harness.rt.auth, u);
    const product = await insertProduct(db, { pricePaise: 50_000 });
    await setCartItem(db, u.id, product.id, 1);
    const ip = "203.0.113.70";
    const page = async (c: string) =>
      (
        await outcome(async () =>
          (
            await checkoutRoute()
          ).loader(
            routeArgs(
              pageGet(`/checkout?coupon=${encodeURIComponent(c)}`, { cookie, ip }),
            ) as never,
          ),
        )
      ).body as {
        couponCode: string | null;
        couponRefusal: string | null;
        quotes: Record<string, { priced?: { discountPaise: number } }>;
      };
    const first = await page(code.code!);
    expect(first.couponRefusal).toBeNull();
    expect(Object.values(first.quotes)[0]?.priced?.discountPaise).toBeGreaterThan(0);
    for (let i = 0; i < 59; i += 1) await page(`GUESS-${i}`);
    // The 61st code from this address in the minute: priced without it, and the page says why.
    const limited = await page(code.code!);
    expect(limited.couponCode).toBe(code.code!.toUpperCase());
    expect(limited.couponRefusal).toBe("Too many requests. Please wait a minute and try again.");
    expect(Object.values(limited.quotes)[0]?.priced?.discountPaise).toBe(0);
    // Placing the order with a code from the same address is refused too, and nothing is written.
    const placed = await outcome(async () =>
      (await checkoutRoute()).action(
        routeArgs(
          formPost(
            "/checkout",
            { paymentMethod: "gateway", addressId: u.addressId, couponCode: code.code! },
            { cookie, ip },
          ),
        ) as never,
      ),
    );
    expect(placed.status).toBe(429);
    expect(placed.body).toMatchObject({
      kind: "error",
      description: "Too many requests. Please wait a minute and try again.",
    });
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toEqual([]);
    // Counted per customer, not per address (many share one behind a carrier's NAT): another
    // customer at the same address prices the code.
    const neighbour = await shopper("checkout-neighbour");
    const neighbourCookie = await signInCookie(harness.rt.auth, neighbour);
    await setCartItem(db, neighbour.id, product.id, 1);
    const other = (
      await outcome(async () =>
        (
          await checkoutRoute()
        ).loader(
          routeArgs(
            pageGet(`/checkout?coupon=${encodeURIComponent(code.code!)}`, {
              cookie: neighbourCookie,
              ip,
            }),
          ) as never,
        ),
      )
    ).body as { couponRefusal: string | null };
    expect(other.couponRefusal).toBeNull();
  });

  it("any query the cart could send is answered without a server error", async () => {
    const product = await insertProduct(db, { pricePaise: 10_000 });
    const piece = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(`${product.id}:1`, `${product.id}:-3`, `${product.id}:1e9`, ":", "\u0000"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 4 }),
        fc.string({ maxLength: 60 }),
        async (lines, code) => {
          const params = new URLSearchParams(lines.map((l) => ["line", l]));
          params.set("code", code);
          const res = await outcome(async () =>
            (await pricingRoute()).loader(
              routeArgs(pageGet(`/api/cart-products?${params}`)) as never,
            ),
          );
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a code's last use, and that use given back, tell the page cache (promotion cards show it)", async () => {
    const { pageCache } = harness.rt;
    const code = await insertDiscount({ usageLimit: 1 });
    const u = await shopper("last-use-card");
    const product = await insertProduct(db, { pricePaise: 20_000 });
    await setCartItem(db, u.id, product.id, 1);
    const before = pageCache.stats().invalidations;
    const order = await placeOrder(db, {
      userId: u.id,
      addressId: u.addressId,
      method: "gateway",
      provider: "sandbox",
      couponCode: code.code,
    });
    await expect
      .poll(() => pageCache.stats().invalidations, { timeout: 5_000 })
      .toBeGreaterThan(before);
    const used = pageCache.stats().invalidations;
    await expireOrder(db, order.id, new Date(Date.now() + 60 * 60_000));
    await expect
      .poll(() => pageCache.stats().invalidations, { timeout: 5_000 })
      .toBeGreaterThan(used);
  });
});
