import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, orders, userProfiles } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import { checkoutSummary } from "~/modules/checkout/checkout.server.ts";
import { getShopSettings, updateShopSettings } from "~/modules/settings/settings.server.ts";
import { settingsText } from "~/rules/settings-schema.ts";
import { DEFAULT_RATE_TABLE } from "~/rules/shipping-rates.ts";
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
import { deliveryEstimate } from "./delivery.server.ts";
import { shippingFor } from "./rates.server.ts";

/*
 * Issue 24, rates the server computes: checkout charges the rate for the delivery address's PIN
 * and the cart's chargeable weight, whatever the form says; a PIN the directory doesn't know is
 * refused; free shipping still makes it ₹0.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
beforeAll(async () => {
  harness = await startProcessRuntime();
  await updateShopSettings(harness.rt.db, {
    shipFromPin: "560001",
    shopState: "Karnataka",
    shippingFeePaise: 999,
    taxRateBasisPoints: 800,
    freeShippingThresholdPaise: null,
    shippingRates: DEFAULT_RATE_TABLE,
  });
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

const kolkata = {
  label: "Home" as const,
  name: "Asha Rao",
  line1: "12 Park Street",
  line2: null,
  city: "Kolkata",
  state: "West Bengal",
  postalCode: "700016",
  country: "India",
  phone: "9876543210",
};

async function customer(tag: string) {
  const { db, auth } = harness.rt;
  const account = await createVerifiedUser(auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, kolkata);
  return { ...account, addressId, cookie: await signInCookie(auth, account) };
}

const checkout = async (cookie: string, fields: Record<string, string>) => {
  const route = await import("~/routes/checkout.tsx");
  return outcome(() => route.action(routeArgs(formPost("/checkout", fields, { cookie })) as never));
};

describe(`shipping rates on ${testDbKind()}`, () => {
  it("rates a cart by zone and chargeable weight", async () => {
    const { db } = harness.rt;
    const heavy = await insertProduct(db, {
      weightGrams: 1_200,
      boxLengthCm: 20,
      boxWidthCm: 15,
      boxHeightCm: 10,
    });
    const bulky = await insertProduct(db, {
      weightGrams: 300,
      boxLengthCm: 40,
      boxWidthCm: 30,
      boxHeightCm: 20,
    });
    const s = await getShopSettings(db);
    // Bengaluru → Kolkata is metro to metro: 1,200 g → 1.5 kg = ₹65 + 2 × ₹55.
    expect(
      await shippingFor(db, s, "700016", [{ productId: heavy.id, quantity: 1 }]),
    ).toMatchObject({ kind: "rated", zone: "metro", grams: 1_500, paise: 17_500 });
    // A large light box is charged by its volume: 40×30×20 / 5000 = 4.8 kg → 5 kg, within the city.
    expect(
      await shippingFor(db, s, "560001", [{ productId: bulky.id, quantity: 1 }]),
    ).toMatchObject({ kind: "rated", zone: "local", grams: 5_000, paise: 4_000 + 9 * 3_000 });
    // A special zone (Ladakh), and a PIN that doesn't exist.
    expect(
      await shippingFor(db, s, "194101", [{ productId: heavy.id, quantity: 1 }]),
    ).toMatchObject({ kind: "rated", zone: "special", paise: 12_000 + 2 * 10_000 });
    expect(await shippingFor(db, s, "999999", [{ productId: heavy.id, quantity: 1 }])).toEqual({
      kind: "unknown-pin",
      pin: "999999",
    });
    // The PIN box on a product page shows the product's rate on its own; the cart's box doesn't.
    expect(await deliveryEstimate(db, { pin: "700016", productId: heavy.id })).toMatchObject({
      kind: "estimate",
      shippingPaise: 17_500,
    });
    expect(await deliveryEstimate(db, { pin: "700016", kind: "cart" })).toMatchObject({
      kind: "estimate",
      shippingPaise: null,
    });
  });

  it("charges the server's rate, ignoring a forged shipping amount, and shows the same on the page", async () => {
    const { db } = harness.rt;
    const u = await customer("rate-forged");
    const p = await insertProduct(db, {
      pricePaise: 50_000,
      weightGrams: 1_200,
      boxLengthCm: 20,
      boxWidthCm: 15,
      boxHeightCm: 10,
    });
    await setCartItem(db, u.id, p.id, 1);

    const page = await checkoutSummary(db, u.id, null, ["700016"]);
    const quote = page.quotes["700016"];
    expect(quote).toMatchObject({ kind: "priced", shipping: { zone: "metro", paise: 17_500 } });
    const shown = quote.kind === "priced" ? quote.priced : null;
    expect(shown?.shippingPaise).toBe(17_500);

    // A total worked out with the forged ₹0 shipping is not the server's: refused, nothing written.
    const forgedTotal = await checkout(u.cookie, {
      paymentMethod: "gateway",
      addressId: u.addressId,
      expectedTotalPaise: String(50_000 + 4_000),
      shippingPaise: "0",
      shippingFeePaise: "0",
    });
    expect(forgedTotal.status).toBe(409);
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(0);

    const placed = await checkout(u.cookie, {
      paymentMethod: "gateway",
      addressId: u.addressId,
      expectedTotalPaise: String(shown?.totalPaise),
      shippingPaise: "0",
      shippingFeePaise: "0",
      shipping: "1",
    });
    expect(placed.body).toMatchObject({ kind: "redirect" });
    const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
    // ₹500 + ₹175 shipping + 8% of ₹500 tax.
    expect(o).toMatchObject({
      subtotalPaise: 50_000,
      shippingPaise: 17_500,
      taxPaise: 4_000,
      totalPaise: 71_500,
    });
    expect(o.shippingMethod).toMatchObject({
      costPaise: 17_500,
      zone: "metro",
      chargeableGrams: 1_500,
    });
  });

  it("the cart rates a signed-in customer's cart to their default address before any PIN is typed", async () => {
    const { db } = harness.rt;
    const u = await customer("rate-cart-default");
    const p = await insertProduct(db, { pricePaise: 50_000, weightGrams: 1_200 });
    const route = await import("~/routes/api.cart-products.ts");
    const cart = (query: string, cookie?: string) =>
      outcome(() =>
        route.loader(
          routeArgs(
            pageGet(`/api/cart-products?line=${p.id}:1${query}`, cookie ? { cookie } : {}),
          ) as never,
        ),
      );
    // Signed in: the default address's PIN (Kolkata, metro to metro, 1.5 kg: ₹175), as checkout.
    expect((await cart("", u.cookie)).body).toMatchObject({
      pricing: { shippingPaise: 17_500, shipping: { kind: "rated", pin: "700016" } },
    });
    // A PIN typed in the box wins (within the city: ₹40 + ₹30 × 2).
    expect((await cart("&pin=560001", u.cookie)).body).toMatchObject({
      pricing: { shippingPaise: 10_000, shipping: { pin: "560001" } },
    });
    // A guest without a PIN: the flat estimate.
    expect((await cart("")).body).toMatchObject({
      pricing: { shippingPaise: 999, shipping: null },
    });
  });

  it("refuses an address whose PIN code the directory doesn't know", async () => {
    const { db } = harness.rt;
    const u = await customer("rate-unknown");
    // Saved before the directory refused it (saving checks now): written directly.
    const [old] = await db
      .insert(addresses)
      .values({ ...kolkata, userId: u.id, postalCode: "999999" })
      .returning({ id: addresses.id });
    const p = await insertProduct(db, { pricePaise: 30_000 });
    await setCartItem(db, u.id, p.id, 1);
    const page = await checkoutSummary(db, u.id, null, ["999999"]);
    expect(page.quotes["999999"]).toEqual({ kind: "unknown-pin" });

    const refused = await checkout(u.cookie, { paymentMethod: "gateway", addressId: old.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      kind: "error",
      title: "We don't deliver to this PIN code yet",
    });
    expect(await db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(0);
  });

  it("the rate table is edited in /admin/settings: refused in the shop's words, then charged", async () => {
    const { db, auth } = harness.rt;
    const admin = await createVerifiedUser(auth, db, { email: uniqueEmail("rates-admin") });
    await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
    const cookie = await signInCookie(auth, admin);
    const route = await import("~/routes/admin/settings.tsx");
    const loaded = (await route.loader(
      routeArgs(pageGet("/admin/settings", { cookie })) as never,
    )) as { form: Record<string, string> };
    expect(loaded.form).toMatchObject({ rateMetroFirst: "65.00", rateMetroAdditional: "55.00" });
    const save = (fields: Record<string, string>) =>
      outcome(() =>
        route.action(
          routeArgs(
            formPost("/admin/settings", { ...loaded.form, ...fields }, { cookie }),
          ) as never,
        ),
      );
    const refused = await save({ rateMetroFirst: "sixty", rateRestAdditional: "" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      fieldErrors: { rateMetroFirst: settingsText.rate, rateRestAdditional: settingsText.rate },
    });
    try {
      expect((await save({ rateMetroFirst: "₹70.50" })).body).toMatchObject({ kind: "saved" });
      const p = await insertProduct(db, { weightGrams: 400 });
      const s = await getShopSettings(db);
      expect(await shippingFor(db, s, "700016", [{ productId: p.id, quantity: 1 }])).toMatchObject({
        zone: "metro",
        paise: 7_050,
      });
    } finally {
      await updateShopSettings(db, { shippingRates: DEFAULT_RATE_TABLE });
    }
  });

  it("free shipping over the threshold still makes the rate ₹0", async () => {
    const { db } = harness.rt;
    await updateShopSettings(db, { freeShippingThresholdPaise: 100_000 });
    try {
      const u = await customer("rate-free");
      const p = await insertProduct(db, { pricePaise: 120_000, weightGrams: 2_000 });
      await setCartItem(db, u.id, p.id, 1);
      expect(await deliveryEstimate(db, { pin: "700016", productId: p.id })).toMatchObject({
        shippingPaise: 0,
      });
      const placed = await checkout(u.cookie, { paymentMethod: "gateway", addressId: u.addressId });
      expect(placed.body).toMatchObject({ kind: "redirect" });
      const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
      expect(o.shippingPaise).toBe(0);
      expect(o.totalPaise).toBe(120_000 + 9_600);
    } finally {
      await updateShopSettings(db, { freeShippingThresholdPaise: null });
    }
  });
});
