import { allSubscribers } from "~/modules/subscribers/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { subscribersCsv, subscribersCsvFilename } from "~/rules/subscribers-csv.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/subscribers-csv";

/** /admin/subscribers.csv: every newsletter subscriber, newest first, as a download. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const csv = subscribersCsv(await allSubscribers(db));
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${subscribersCsvFilename(new Date())}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
