import Papa from "papaparse";
import { log } from "~/lib/log.server.ts";
import { orderCsvRows } from "~/modules/orders/admin-orders.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { ORDER_CSV_COLUMNS, parseOrderFilters } from "~/rules/admin-orders.ts";
import { istToday } from "~/rules/india-time.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/orders-csv";

/*
 * /admin/orders.csv: the orders the list's filters select (every page), one row per order,
 * amounts in rupees with 2 decimals. Cells a spreadsheet would run as formulas are defused.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const { db } = await runtime();
  let rows: string[][];
  try {
    rows = await orderCsvRows(db, filters);
  } catch (error) {
    log.error("order CSV export failed", { error, adminId: viewer.id });
    return new Response("Failed to load", {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const csv = Papa.unparse({ fields: [...ORDER_CSV_COLUMNS], data: rows }, { newline: "\r\n" });
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
