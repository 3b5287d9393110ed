import { renderInvoicePdf } from "~/modules/orders/invoice-pdf.server.ts";
import { OrderNotFoundError } from "~/modules/orders/lifecycle.server.ts";
import { InvoiceUnavailableError, invoiceFor } from "~/modules/orders/orders.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { isUuid } from "~/rules/ids.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/orders.$id.invoice";

const text = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
  });

/**
 * /orders/:id/invoice.pdf — the GST invoice of one of the signed-in customer's orders
 * (DESIGN.md decision 8). Another customer's order is answered like a missing one.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const id = params.id ?? "";
  if (!isUuid(id)) return text("Order not found", 404);
  const { db } = await runtime();
  try {
    const doc = await invoiceFor(db, viewer.id, id);
    const bytes = await renderInvoicePdf(doc);
    return new Response(bytes as BodyInit, {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="invoice-${doc.orderNumber}.pdf"`,
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof OrderNotFoundError) return text("Order not found", 404);
    if (error instanceof InvoiceUnavailableError) return text(error.message, 409);
    throw error;
  }
}
