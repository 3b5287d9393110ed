import { eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import { shopSettings } from "~/db/schema.ts";

export type ShopSettings = typeof shopSettings.$inferSelect;

/** The shop's settings row (created by the first migration). */
export async function getShopSettings(db: Database): Promise<ShopSettings> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1));
  if (!row) throw new Error("shop_settings row is missing: run the migrations");
  return row;
}

export async function updateShopSettings(
  db: Database,
  changes: Partial<Omit<ShopSettings, "id" | "updatedAt">>,
): Promise<void> {
  await db
    .update(shopSettings)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(shopSettings.id, 1));
}
