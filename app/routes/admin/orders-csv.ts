import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { userProfiles } from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { orderCsvRows } from "~/modules/orders/admin-orders.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  csvDateHeading,
  DEFAULT_ADMIN_TIMEZONE,
  exportTimeZone,
  isAdminTimezone,
} from "~/rules/admin-dates.ts";
import { ORDER_CSV_COLUMNS, parseOrderFilters } from "~/rules/admin-orders.ts";
import { istToday } from "~/rules/india-time.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/orders-csv";

/*
 * /admin/orders.csv: the orders the list's filters select (every page), one row per order,
 * amounts in rupees with 2 decimals, times in the admin's time zone (named in the Date column's
 * heading; "This device" is the zone the browser sends as ?tz=). Cells a spreadsheet would run as formulas are defused.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const url = new URL(request.url);
  const filters = parseOrderFilters(url.searchParams);
  const { db } = await runtime();
  let rows: string[][];
  let zone: string;
  try {
    // Times in the admin's zone, as on their screens, and the Date column says which.
    const [profile] = await db
      .select({ timezone: userProfiles.adminTimezone })
      .from(userProfiles)
      .where(eq(userProfiles.userId, viewer.id));
    const choice = isAdminTimezone(profile?.timezone) ? profile.timezone : DEFAULT_ADMIN_TIMEZONE;
    zone = exportTimeZone(choice, url.searchParams.get("tz"));
    rows = await orderCsvRows(db, filters, zone);
  } catch (error) {
    log.error("order CSV export failed", { error, adminId: viewer.id });
    return new Response("Failed to load", {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const fields = ORDER_CSV_COLUMNS.map((c) => (c === "Date" ? csvDateHeading(zone) : c));
  const csv = Papa.unparse({ fields, data: rows }, { newline: "\r\n" });
  const filename = `orders-${istToday().replaceAll("-", "")}.csv`;
  return new Response(`\uFEFF${csv}\r\n`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
