import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminAudit } from "~/db/schema.ts";
import { settingsSchema, settingsToForm } from "~/rules/settings-schema.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { getShopSettings, saveShopSettings } from "./settings.server.ts";

/*
 * The audit log's line for a settings change: structured settings (the rate table, the courier
 * days, lead times by category) read as the parts that changed, never "[object Object]".
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
}, 120_000);
afterAll(async () => {
  await t?.destroy();
});

const ACTOR = { id: null as unknown as string, email: "admin@example.com" };

async function lastSummary() {
  const [entry] = await t.db
    .select({ summary: adminAudit.summary })
    .from(adminAudit)
    .where(eq(adminAudit.action, "settings.update"))
    .orderBy(desc(adminAudit.createdAt))
    .limit(1);
  return entry?.summary ?? "";
}

describe("settings changes in the audit log", () => {
  it("names the rate table's, the courier days' and the lead times' changed parts readably", async () => {
    const form = settingsToForm(await getShopSettings(t.db));
    const values = settingsSchema.parse({
      ...form,
      rateLocalFirst: "45",
      codLimitMetro: "2500",
      transitRest: "6",
      printLeadDaysByCategory: "Figurines: 5",
    });
    await saveShopSettings(t.db, ACTOR, values);
    const summary = await lastSummary();
    expect(summary).not.toContain("[object Object]");
    expect(summary).toContain(
      "Shipping rates and cash on delivery by zone: within the city first 500 g ₹40.00 → ₹45.00, metro to metro COD limit no limit → ₹2,500.00",
    );
    expect(summary).toContain(
      "Courier days by zone: rest of India 5 working days → 6 working days",
    );
    expect(summary).toContain("Print lead time by category: Figurines none → 5 working days");
  });

  it("keeps plain settings as before", async () => {
    const form = settingsToForm(await getShopSettings(t.db));
    await saveShopSettings(
      t.db,
      ACTOR,
      settingsSchema.parse({ ...form, shippingFee: "12.50", courierRates: "cheapest" }),
    );
    const summary = await lastSummary();
    expect(summary).toMatch(/^Shipping fee ₹\d+\.\d{2} → ₹12\.50; /);
    expect(summary).toContain('Courier rates "table" → "cheapest"');
  });
});
