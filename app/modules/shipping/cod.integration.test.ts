import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, userProfiles } from "~/db/schema.ts";
import { saveAddress } from "~/modules/addresses/addresses.server.ts";
import { setCartItem } from "~/modules/cart/cart.server.ts";
import { checkoutSummary } from "~/modules/checkout/checkout.server.ts";
import { getShopSettings, updateShopSettings } from "~/modules/settings/settings.server.ts";
import { codText } from "~/rules/cash-on-delivery.ts";
import { settingsText } from "~/rules/settings-schema.ts";
import { DEFAULT_RATE_TABLE, type RateTable } from "~/rules/shipping-rates.ts";
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

/*
 * Issue 24, cash on delivery by zone: a fee and a limit per zone in the shop's settings, the PIN
 * box's answer, and checkout charging the fee (stored on the order, on the invoice, in the e-mail
 * and on /orders) or refusing COD where the zone has it off or the order is over the limit, with
 * nothing written. The form's figures are never used.
 */

/** The demo's terms: ₹49, up to ₹5,000, none in the special zones. */
const table: RateTable = {
  local: { ...DEFAULT_RATE_TABLE.local, codFeePaise: 4_900, codLimitPaise: 500_000 },
  state: { ...DEFAULT_RATE_TABLE.state, codFeePaise: 4_900, codLimitPaise: 500_000 },
  metro: { ...DEFAULT_RATE_TABLE.metro, codFeePaise: 4_900, codLimitPaise: 500_000 },
  rest: { ...DEFAULT_RATE_TABLE.rest, codFeePaise: 4_900, codLimitPaise: 500_000 },
  special: { ...DEFAULT_RATE_TABLE.special, codFeePaise: 4_900, codLimitPaise: 0 },
};

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
beforeAll(async () => {
  harness = await startProcessRuntime();
  await updateShopSettings(harness.rt.db, {
    shipFromPin: "560001",
    shopState: "Karnataka",
    taxRateBasisPoints: 800,
    freeShippingThresholdPaise: null,
    codEnabled: true,
    codMaxOrderPaise: null,
    shippingRates: table,
  });
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

const address = (postalCode: string, city: string, state: string) => ({
  label: "Home" as const,
  name: "Asha Rao",
  line1: "12 Park Street",
  line2: null,
  city,
  state,
  postalCode,
  country: "India",
  phone: "9876543210",
});
const KOLKATA = address("700016", "Kolkata", "West Bengal");
const PORT_BLAIR = address("744101", "South Andaman", "Andaman and Nicobar Islands");

async function customer(tag: string, where = KOLKATA) {
  const { db, auth } = harness.rt;
  const account = await createVerifiedUser(auth, db, { email: uniqueEmail(tag) });
  const { addressId } = await saveAddress(db, account.id, where);
  return { ...account, addressId, cookie: await signInCookie(auth, account) };
}

const checkout = async (cookie: string, fields: Record<string, string>) => {
  const route = await import("~/routes/checkout.tsx");
  return outcome(() => route.action(routeArgs(formPost("/checkout", fields, { cookie })) as never));
};

const ordersOf = (userId: string) =>
  harness.rt.db.select().from(orders).where(eq(orders.userId, userId));

describe(`cash on delivery by zone on ${testDbKind()}`, () => {
  it("an older stored rate table (no COD fields) reads with no fee and no zone limit", async () => {
    const { db } = harness.rt;
    const before = await getShopSettings(db);
    try {
      const old = Object.fromEntries(
        Object.entries(DEFAULT_RATE_TABLE).map(([zone, r]) => [
          zone,
          { firstPaise: r.firstPaise, additionalPaise: r.additionalPaise },
        ]),
      );
      await db.execute(
        sql`update shop_settings set shipping_rates = ${JSON.stringify(old)}::jsonb where id = 1`,
      );
      const s = await getShopSettings(db);
      expect(s.shippingRates).toEqual(DEFAULT_RATE_TABLE);
    } finally {
      await updateShopSettings(db, { shippingRates: before.shippingRates });
    }
  });

  it("the PIN box: available for Kolkata up to the limit, never for an Andaman PIN", async () => {
    const { db } = harness.rt;
    const cheap = await insertProduct(db, { pricePaise: 49_900 });
    const dear = await insertProduct(db, { pricePaise: 600_000 });
    expect(await deliveryEstimate(db, { pin: "700016", productId: cheap.id })).toMatchObject({
      kind: "estimate",
      zone: "metro",
      cod: true,
      codLimitPaise: 500_000,
    });
    expect(await deliveryEstimate(db, { pin: "700016", productId: dear.id })).toMatchObject({
      cod: false,
      codLimitPaise: 500_000,
    });
    expect(await deliveryEstimate(db, { pin: "744101", productId: cheap.id })).toMatchObject({
      zone: "special",
      cod: false,
      codLimitPaise: null,
    });
    // The cart's box: offered in the zone, with the limit its page weighs the cart's total on.
    expect(await deliveryEstimate(db, { pin: "700016", kind: "cart" })).toMatchObject({
      cod: true,
      codLimitPaise: 500_000,
    });
    // The shop's switch off: nowhere.
    await updateShopSettings(db, { codEnabled: false });
    try {
      expect(await deliveryEstimate(db, { pin: "700016", productId: cheap.id })).toMatchObject({
        cod: false,
      });
    } finally {
      await updateShopSettings(db, { codEnabled: true });
    }
  });

  it("charges the zone's fee: stored, in the total, on /orders, in the e-mail and on the invoice; forged figures ignored", async () => {
    const { db } = harness.rt;
    const u = await customer("cod-fee");
    const p = await insertProduct(db, { pricePaise: 50_000, weightGrams: 400 });
    await setCartItem(db, u.id, p.id, 1);

    // The page shows the fee for the chosen address's PIN, as the order will charge it.
    const page = await checkoutSummary(db, u.id, null, ["700016"]);
    const quote = page.quotes["700016"];
    expect(quote).toMatchObject({ kind: "priced", cod: { kind: "available", feePaise: 4_900 } });
    const before = quote.kind === "priced" ? quote.priced.totalPaise : 0;
    // ₹500 + ₹65 metro shipping + 8% tax.
    expect(before).toBe(50_000 + 6_500 + 4_000);

    // The total without the fee isn't what the server charges for cash on delivery: refused.
    const stale = await checkout(u.cookie, {
      paymentMethod: "cod",
      addressId: u.addressId,
      expectedTotalPaise: String(before),
    });
    expect(stale.status).toBe(409);
    expect(await ordersOf(u.id)).toHaveLength(0);

    // Forged fee and shipping fields are not read.
    const placed = await checkout(u.cookie, {
      paymentMethod: "cod",
      addressId: u.addressId,
      expectedTotalPaise: String(before + 4_900),
      codFeePaise: "0",
      codFee: "0",
      shippingPaise: "0",
      shippingFeePaise: "0",
      totalPaise: "1",
      attemptToken: "cod-fee-1",
    });
    expect(placed.body).toMatchObject({ kind: "placed" });
    const [o] = await ordersOf(u.id);
    expect(o).toMatchObject({
      paymentMethod: "cod",
      shippingPaise: 6_500,
      codFeePaise: 4_900,
      taxPaise: 4_000,
      totalPaise: before + 4_900,
    });

    // /orders shows it.
    const ordersRoute = await import("~/routes/orders.tsx");
    const listed = (await ordersRoute.loader(
      routeArgs(pageGet("/orders", { cookie: u.cookie })) as never,
    )) as { orders: Array<{ id: string; codFeePaise: number; totalPaise: number }> };
    expect(listed.orders.find((x) => x.id === o.id)).toMatchObject({
      codFeePaise: 4_900,
      totalPaise: before + 4_900,
    });

    // The confirmation e-mail has its own line for it.
    await harness.rt.jobRunner.sendNow();
    const dir = path.join(harness.rt.env.dataDir, "outbox");
    const mails = await Promise.all(
      (await readdir(dir)).map((f) => readFile(path.join(dir, f), "utf8")),
    );
    const mail = mails.find((m) => m.includes(`Order ${o.orderNumber} confirmed`));
    expect(mail).toContain("Cash on delivery fee");
    expect(mail).toContain("=E2=82=B949.00"); // ₹49.00, quoted-printable

    // The GST invoice adds up with the fee (it refuses figures that don't) and prints it.
    const invoiceRoute = await import("~/routes/orders.$id.invoice.ts");
    const res = (await invoiceRoute.loader({
      request: pageGet(`/orders/${o.id}/invoice.pdf`, { cookie: u.cookie }),
      params: { id: o.id },
      context: {},
    } as never)) as Response;
    expect(res.status).toBe(200);
    const proxy = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    const { text } = await extractText(proxy, { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Cash on delivery fee");
    expect(flat).toContain("49.00");
  });

  it("refuses COD to a zone that has it off, and over the zone's limit, with nothing written", async () => {
    const { db } = harness.rt;
    const island = await customer("cod-island", PORT_BLAIR);
    const p = await insertProduct(db, { pricePaise: 30_000 });
    await setCartItem(db, island.id, p.id, 1);
    const off = await checkout(island.cookie, {
      paymentMethod: "cod",
      addressId: island.addressId,
    });
    expect(off.status).toBe(400);
    expect(off.body).toMatchObject({
      kind: "error",
      title: codText.title,
      description: "Cash on Delivery isn't available for PIN code 744101. Please pay online.",
    });
    expect(await ordersOf(island.id)).toHaveLength(0);
    // Paying online to the same address still works.
    const online = await checkout(island.cookie, {
      paymentMethod: "gateway",
      addressId: island.addressId,
    });
    expect(online.body).toMatchObject({ kind: "redirect" });
    const [paidOnline] = await ordersOf(island.id);
    expect(paidOnline.codFeePaise).toBe(0);

    const big = await customer("cod-big");
    const dear = await insertProduct(db, { pricePaise: 480_000 });
    await setCartItem(db, big.id, dear.id, 1);
    const over = await checkout(big.cookie, { paymentMethod: "cod", addressId: big.addressId });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      description: "Cash on Delivery is available for orders up to ₹5,000.00. Please pay online.",
    });
    expect(await ordersOf(big.id)).toHaveLength(0);

    // The shop-wide switch still turns it off everywhere.
    const small = await customer("cod-switch");
    await setCartItem(db, small.id, p.id, 1);
    await updateShopSettings(db, { codEnabled: false });
    try {
      const switchedOff = await checkout(small.cookie, {
        paymentMethod: "cod",
        addressId: small.addressId,
      });
      expect(switchedOff.status).toBe(400);
      expect(switchedOff.body).toMatchObject({ description: codText.off });
      expect(await ordersOf(small.id)).toHaveLength(0);
    } finally {
      await updateShopSettings(db, { codEnabled: true });
    }
  });

  it("the fee and limit per zone are edited in /admin/settings, in rupees, checked", async () => {
    const { db, auth } = harness.rt;
    const admin = await createVerifiedUser(auth, db, { email: uniqueEmail("cod-admin") });
    await db.update(userProfiles).set({ isAdmin: true }).where(eq(userProfiles.userId, admin.id));
    const cookie = await signInCookie(auth, admin);
    const route = await import("~/routes/admin/settings.tsx");
    const loaded = (await route.loader(
      routeArgs(pageGet("/admin/settings", { cookie })) as never,
    )) as { form: Record<string, string> };
    expect(loaded.form).toMatchObject({
      codFeeMetro: "49.00",
      codLimitMetro: "5000.00",
      codLimitSpecial: "0.00",
    });
    const save = (fields: Record<string, string>) =>
      outcome(() =>
        route.action(
          routeArgs(
            formPost("/admin/settings", { ...loaded.form, ...fields }, { cookie }),
          ) as never,
        ),
      );
    const before = await getShopSettings(db);
    const refused = await save({ codFeeRest: "-5", codLimitState: "lots" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      fieldErrors: { codFeeRest: settingsText.codFee, codLimitState: settingsText.codLimit },
    });
    expect((await getShopSettings(db)).shippingRates).toEqual(before.shippingRates);
    try {
      expect(
        (await save({ codFeeSpecial: "₹99", codLimitSpecial: "2,000", codLimitMetro: "" })).body,
      ).toMatchObject({ kind: "saved" });
      const s = await getShopSettings(db);
      expect(s.shippingRates.special).toMatchObject({ codFeePaise: 9_900, codLimitPaise: 200_000 });
      expect(s.shippingRates.metro.codLimitPaise).toBeNull();
      const p = await insertProduct(db, { pricePaise: 30_000 });
      expect(await deliveryEstimate(db, { pin: "744101", productId: p.id })).toMatchObject({
        cod: true,
      });
    } finally {
      await updateShopSettings(db, { shippingRates: table });
    }
  });
});
