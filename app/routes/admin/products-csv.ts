import { listProductsForExport } from "~/modules/catalog/import.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { productsCsv, productsCsvFilename } from "~/rules/product-csv.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/products-csv";

/** /admin/products.csv: every product as CSV (re-importable on /admin/import). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const rows = await listProductsForExport(db);
  // A byte-order mark so spreadsheet programs read the file as UTF-8 (the import drops it).
  return new Response(`\uFEFF${productsCsv(rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${productsCsvFilename(new Date())}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
