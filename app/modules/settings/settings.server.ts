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
  if (key === "dispatchDays" || key === "printLeadDays") return `${value} working days`;
  if (key === "taxRateBasisPoints") return `${basisPointsToPercentText(value as number)}%`;
  if (typeof value === "number") return formatPaise(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  return `"${value}"`;
}

/** The names of a structured setting's parts (the rate table's zones and fields). */
const PART_NAMES: Record<string, string> = {
  local: "within the city",
  state: "within the state",
  metro: "metro to metro",
  rest: "rest of India",
  special: "special zones",
  firstPaise: "first 500 g",
  additionalPaise: "each further 500 g",
  codFeePaise: "COD fee",
  codLimitPaise: "COD limit",
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A map's leaves by their path ("local firstPaise" → 4000). */
function leaves(
  value: unknown,
  path: string[] = [],
  out = new Map<string, { path: string[]; value: unknown }>(),
) {
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  } else {
    out.set(JSON.stringify(path), { path, value });
  }
  return out;
}

/** One leaf of a structured setting as people read it. */
function shownPart(key: SettingsKey, path: string[], value: unknown): string {
  const field = path[path.length - 1];
  if (value === undefined) return "none";
  if (value === null) return field === "codLimitPaise" ? "no limit" : "none";
  if (key === "transitDays" || key === "printLeadDaysByCategory") return `${value} working days`;
  if (typeof value === "number" && key === "shippingRates") return formatPaise(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  return typeof value === "string" ? `"${value}"` : String(value);
}

/**
 * One changed setting for the audit log. A structured one (the rate table, the courier days, the
 * lead times by category) names only the parts that changed, each readably:
 * "Shipping rates and cash on delivery by zone: within the city first 500 g ₹40.00 → ₹45.00".
 */
export function describeSettingChange(key: SettingsKey, before: unknown, after: unknown): string {
  if (!isPlainObject(before) && !isPlainObject(after)) {
    return `${settingsLabels[key]} ${shown(key, before as SettingsValues[SettingsKey])} → ${shown(key, after as SettingsValues[SettingsKey])}`;
  }
  const a = leaves(before ?? {});
  const b = leaves(after ?? {});
  const parts: string[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(id);
    const now = b.get(id);
    if (was?.value === now?.value) continue;
    const path = (was ?? now)?.path ?? [];
    const name = path.map((p) => PART_NAMES[p] ?? p).join(" ");
    parts.push(`${name} ${shownPart(key, path, was?.value)} → ${shownPart(key, path, now?.value)}`);
  }
  return `${settingsLabels[key]}: ${parts.length > 0 ? parts.join(", ") : "reordered"}`;
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
      .map((key) => describeSettingChange(key, current[key], values[key]))
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
