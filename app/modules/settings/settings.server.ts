import { eq } from "drizzle-orm";
import type { Database, Tx } from "~/adapters/db/index.server.ts";
import { shopSettings } from "~/db/schema.ts";
import type { Viewer } from "~/modules/accounts/viewer.server.ts";
import { recordAudit } from "~/modules/audit/audit.server.ts";
import { formatPaise } from "~/rules/money.ts";
import {
  basisPointsToPercentText,
  SETTINGS_KEYS,
  type SettingsValues,
  settingsLabels,
} from "~/rules/settings-schema.ts";
import { type RateTable, rateTableOf } from "~/rules/shipping-rates.ts";

type SettingsRow = typeof shopSettings.$inferSelect;
/** The shop's settings, whole: a rate table saved before a field existed has its default. */
export type ShopSettings = Omit<SettingsRow, "shippingRates"> & { shippingRates: RateTable };

const readSettings = (row: SettingsRow): ShopSettings => ({
  ...row,
  shippingRates: rateTableOf(row.shippingRates),
});

/** The shop's settings row (created by the first migration). */
export async function getShopSettings(db: Database | Tx): Promise<ShopSettings> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1));
  if (!row) throw new Error("shop_settings row is missing: run the migrations");
  return readSettings(row);
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

type SettingsKey = keyof SettingsValues;

/** A setting as people read it: "₹9.99", "8%", "on", "none". */
function shown(key: SettingsKey, value: SettingsValues[SettingsKey]): string {
  if (value === null || value === "") return "none";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  if (typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "none" : entries.map(([k, v]) => `${k}: ${v}`).join(", ");
  }
  if (key === "dispatchDays" || key === "printLeadDays") return `${value} working days`;
  if (key === "taxRateBasisPoints") return `${basisPointsToPercentText(value as number)}%`;
  if (typeof value === "number") return formatPaise(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  return `"${value}"`;
}

export type SavedSettings = { changed: SettingsKey[] };

/** JSON with every object's keys sorted. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Saves the admin settings form (already validated by settingsSchema): the row is locked, the
 * changed fields are written, and the audit log records each one's old and new value in the same
 * transaction. Nothing changed: nothing written, nothing recorded.
 */
export async function saveShopSettings(
  db: Database,
  actor: Pick<Viewer, "id" | "email">,
  values: SettingsValues,
): Promise<SavedSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(shopSettings).where(eq(shopSettings.id, 1)).for("update");
    if (!row) throw new Error("shop_settings row is missing: run the migrations");
    const current = readSettings(row);
    // Lists and maps (holidays, lead times, courier days) compare by content; the database
    // gives a map's keys in its own order.
    const same = (a: unknown, b: unknown) => a === b || canonical(a) === canonical(b);
    const changed = SETTINGS_KEYS.filter((key) => !same(current[key], values[key]));
    if (changed.length === 0) return { changed };

    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of changed) {
      before[key] = current[key];
      after[key] = values[key];
    }
    await tx
      .update(shopSettings)
      .set({ ...after, updatedAt: new Date() })
      .where(eq(shopSettings.id, 1));
    const summary = changed
      .map(
        (key) => `${settingsLabels[key]} ${shown(key, current[key])} → ${shown(key, values[key])}`,
      )
      .join("; ");
    await recordAudit(tx, actor, {
      action: "settings.update",
      targetType: "settings",
      targetId: "shop",
      summary: summary.length > 500 ? `${summary.slice(0, 497)}…` : summary,
      details: { before, after },
    });
    return { changed };
  });
}
