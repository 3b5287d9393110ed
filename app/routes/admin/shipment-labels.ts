import { CarrierError } from "~/adapters/shipping/index.server.ts";
import { mergePdfs } from "~/adapters/shipping/manual.server.ts";
import { log } from "~/lib/log.server.ts";
import { labelsForDay } from "~/modules/shipping/shipments.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { parseDay } from "~/rules/admin-orders.ts";
import { istToday } from "~/rules/india-time.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/shipment-labels";

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
  });

/**
 * /admin/shipments/labels.pdf?day=yyyy-mm-dd: the labels of every shipment booked that day (in
 * India; today by default) in one PDF, for printing them all at once.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const given = new URL(request.url).searchParams.get("day");
  const day = given ? parseDay(given) : istToday();
  if (!day) return text("Please give the day as yyyy-mm-dd.", 400);
  const rt = await runtime();
  try {
    const pdf = await labelsForDay({ db: rt.db, carrier: rt.shipping }, day, mergePdfs);
    if (!pdf) return text(`No shipments were booked on ${day}.`, 404);
    return new Response(pdf as BodyInit, {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="labels-${day}.pdf"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof CarrierError) {
      log.warning("courier labels failed", { error, day, adminId: viewer.id });
      return text("The courier didn't give the labels. Please try again in a minute.", 502);
    }
    throw error;
  }
}
