import { CarrierError } from "~/adapters/shipping/index.server.ts";
import { log } from "~/lib/log.server.ts";
import { ShipmentError, shipmentLabel } from "~/modules/shipping/shipments.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { isUuid } from "~/rules/ids.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/shipment-label";

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
  });

/** /admin/shipments/:id/label.pdf: a booked shipment's label (the courier's, or the shop's own). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  if (!isUuid(params.id)) return text("Shipment not found", 404);
  const rt = await runtime();
  try {
    const { shipment, pdf } = await shipmentLabel({ db: rt.db, carrier: rt.shipping }, params.id);
    return new Response(pdf as BodyInit, {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="label-${shipment.awb.replace(/[^A-Za-z0-9_-]/g, "")}.pdf"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof ShipmentError) {
      return text(error.message, error.message.startsWith("There is no") ? 404 : 409);
    }
    if (error instanceof CarrierError) {
      log.warning("courier label failed", { error, shipmentId: params.id, adminId: viewer.id });
      return text("The courier didn't give the label. Please try again in a minute.", 502);
    }
    throw error;
  }
}
