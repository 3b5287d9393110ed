import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import { checkoutSummary } from "~/modules/checkout/checkout.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import { DEFAULT_RATE_TABLE } from "~/rules/shipping-rates.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
} from "../../../tests/support/accounts.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import {
  FAKE_SHIPROCKET_USER,
  type FakeShiprocket,
  startFakeShiprocket,
} from "../../../tests/support/fake-shiprocket.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { deliveryEstimate } from "./delivery.server.ts";
import { bookingQuote } from "./shipments.server.ts";

/*
 * Courier rates at checkout (issue 24, decision 0019) with the Shiprocket adapter against the
 * local fake: the cheapest serviceable courier, the preferred one, the cheapest where the preferred
 * one doesn't take the parcel, the rate table when the courier's API is down, and a forged
 * shipping amount in the form still ignored. The fake charges per 500 g: Delhivery Surface ₹82.50,
 * Xpressbees Surface ₹74 (both collect cash), Blue Dart Air ₹156 (prepaid only).
 */

let fake: FakeShiprocket;
let harness: Awaited<ReturnType<typeof startProcessRuntime>>;

beforeAll(async () => {
  fake = await startFakeShiprocket();
  harness = await startProcessRuntime({
    SHIPPING_PROVIDER: "shiprocket",
    SHIPROCKET_EMAIL: FAKE_SHIPROCKET_USER.email,
    SHIPROCKET_PASSWORD: FAKE_SHIPROCKET_USER.password,
    SHIPROCKET_WEBHOOK_TOKEN: "courier-rates-webhook-token-0123",
    SHIPROCKET_API_URL: fake.url,
  });
  await updateShopSettings(harness.rt.db, {
    shipFromPin: "560001",
    shopState: "Karnataka",
    shippingFeePaise: 999,
    taxRateBasisPoints: 0,
    freeShippingThresholdPaise: null,
    codEnabled: true,
    codMaxOrderPaise: null,
    shippingRates: DEFAULT_RATE_TABLE,
  });
}, 120_000);
afterAll(async () => {
  await harness?.stop();
  await fake?.close();
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

/** A customer with a Kolkata address and one ₹500 product of this weight in the cart. */
async function customerWithCart(tag: string, weightGrams: number) {
  const { db, auth } = harness.rt;
  const account = await createVerifiedUser(auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, kolkata);
  const product = await insertProduct(db, {
    pricePaise: 50_000,
    weightGrams,
    boxLengthCm: 10,
    boxWidthCm: 10,
    boxHeightCm: 10,
  });
  await setCartItem(db, account.id, product.id, 1);
  return { ...account, addressId, product, cookie: await signInCookie(auth, account) };
}

const checkout = async (cookie: string, fields: Record<string, string>) => {
  const route = await import("~/routes/checkout.tsx");
  return outcome(() => route.action(routeArgs(formPost("/checkout", fields, { cookie })) as never));
};

const setMode = (courierRates: "table" | "cheapest" | "preferred", preferredCourier = "") =>
  updateShopSettings(harness.rt.db, { courierRates, preferredCourier });

/** Places the order at the total the checkout page shows, with forged shipping fields. */
async function placeAsShown(
  u: Awaited<ReturnType<typeof customerWithCart>>,
  method: "gateway" | "cod",
) {
  const { db, courierRates } = harness.rt;
  const page = await checkoutSummary(db, u.id, null, ["700016"], new Date(), courierRates);
  const quote = page.quotes["700016"];
  if (quote.kind !== "priced") throw new Error("not priced");
  const shown = method === "cod" && quote.codPriced ? quote.codPriced.priced : quote.priced;
  const fee = method === "cod" && quote.cod.kind === "available" ? quote.cod.feePaise : 0;
  const placed = await checkout(u.cookie, {
    paymentMethod: method,
    addressId: u.addressId,
    expectedTotalPaise: String(shown.totalPaise + fee),
    attemptToken: crypto.randomUUID(),
    shippingPaise: "0",
    shippingFeePaise: "0",
    courierId: "43",
  });
  expect(placed.status ?? 200).toBeLessThan(400);
  const [o] = await db.select().from(orders).where(eq(orders.userId, u.id));
  return { o, shown, quote };
}

describe(`courier rates at checkout on ${testDbKind()}`, () => {
  it("charges the cheapest serviceable courier, on the PIN box, checkout and the order, and preselects it for booking", async () => {
    await setMode("cheapest");
    const u = await customerWithCart("courier-cheapest", 1_200);
    // 1.2 kg → 1.5 kg: 3 slabs. Prepaid, Blue Dart Air is dearest; Xpressbees ₹222 is cheapest.
    const estimate = await deliveryEstimate(harness.rt.db, {
      pin: "700016",
      productId: u.product.id,
      courierRates: harness.rt.courierRates,
    });
    expect(estimate).toMatchObject({ kind: "estimate", shippingPaise: 22_200 });
    const { o, shown } = await placeAsShown(u, "gateway");
    expect(shown.shippingPaise).toBe(22_200);
    expect(o).toMatchObject({ shippingPaise: 22_200, totalPaise: 72_200 });
    expect(o.shippingMethod).toMatchObject({
      courierId: "33",
      courierName: "Xpressbees Surface",
      costPaise: 22_200,
      chargeableGrams: 1_500,
    });
    // Staff booking the parcel start from the courier the customer paid for.
    await harness.rt.db.update(orders).set({ status: "processing" }).where(eq(orders.id, o.id));
    const booking = await bookingQuote({ db: harness.rt.db, carrier: harness.rt.shipping }, o.id);
    expect(booking.checkoutCourierId).toBe("33");
  });

  it("charges the preferred courier, and the cheapest one that collects cash when the preferred one doesn't", async () => {
    await setMode("preferred", "delhivery surface");
    const a = await customerWithCart("courier-preferred", 1_200);
    const first = await placeAsShown(a, "gateway");
    expect(first.o).toMatchObject({ shippingPaise: 24_750 });
    expect(first.o.shippingMethod).toMatchObject({ courierName: "Delhivery Surface" });

    // Blue Dart Air takes prepaid parcels only: paid on delivery the page and the order go with
    // Xpressbees, the cheapest that collects cash.
    await setMode("preferred", "Blue Dart Air");
    const b = await customerWithCart("courier-preferred-cod", 1_200);
    const second = await placeAsShown(b, "cod");
    expect(second.quote).toMatchObject({ shipping: { paise: 46_800 } });
    expect(second.shown.shippingPaise).toBe(22_200);
    expect(second.o).toMatchObject({ paymentMethod: "cod", shippingPaise: 22_200 });
    expect(second.o.shippingMethod).toMatchObject({ courierId: "33" });
  });

  it("falls back to the cheapest when the preferred courier doesn't serve the parcel", async () => {
    await setMode("preferred", "Ekart Logistics");
    const u = await customerWithCart("courier-not-serving", 1_200);
    const { o } = await placeAsShown(u, "gateway");
    expect(o).toMatchObject({ shippingPaise: 22_200 });
    expect(o.shippingMethod).toMatchObject({ courierName: "Xpressbees Surface" });
  });

  it("charges the rate table when the courier's API is down, and never blocks checkout", async () => {
    await setMode("cheapest");
    fake.state.ratesDown = true;
    try {
      // 2.2 kg → 2.5 kg, a weight not asked before: metro to metro by the table, ₹65 + 4 × ₹55.
      const u = await customerWithCart("courier-down", 2_200);
      const { o } = await placeAsShown(u, "gateway");
      expect(o).toMatchObject({ shippingPaise: 28_500 });
      expect(o.shippingMethod).toMatchObject({ zone: "metro" });
      expect(o.shippingMethod).not.toHaveProperty("courierId");
    } finally {
      fake.state.ratesDown = false;
    }
  });

  it("charges the rate table when the setting says so", async () => {
    await setMode("table");
    const u = await customerWithCart("courier-table", 1_200);
    const { o } = await placeAsShown(u, "gateway");
    expect(o).toMatchObject({ shippingPaise: 17_500 });
  });

  it("ignores a forged shipping amount: a total worked out with it is refused and nothing is written", async () => {
    await setMode("cheapest");
    const u = await customerWithCart("courier-forged", 1_200);
    const refused = await checkout(u.cookie, {
      paymentMethod: "gateway",
      addressId: u.addressId,
      expectedTotalPaise: String(50_000),
      shippingPaise: "0",
      shippingFeePaise: "0",
      courierId: "33",
      courierPaise: "0",
    });
    expect(refused.status).toBe(409);
    expect(await harness.rt.db.select().from(orders).where(eq(orders.userId, u.id))).toHaveLength(
      0,
    );
  });
});
