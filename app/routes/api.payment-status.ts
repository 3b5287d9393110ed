import { log } from "~/lib/log.server.ts";
import { OrderNotFoundError } from "~/modules/orders/lifecycle.server.ts";
import { checkOrderPayment, paymentDepsFor } from "~/modules/payments/payments.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { isUuid } from "~/rules/ids.ts";
import { checkoutText } from "~/rules/orders.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/api.payment-status";

export type PaymentStatusResponse =
  | {
      success: true;
      status: "SUCCESS" | "FAILED" | "PENDING";
      orderNumber: string;
      /** The ordered products, which the page takes out of the browser's cart on success. */
      productIds: string[];
      /** The ordered variants (a product may have several lines). */
      lines: { productId: string; variantId: string | null }[];
    }
  | { success: false; error: string };

/** A payment that arrived after its order was cancelled (expired or replaced by a newer one). */
export const REFUND_DUE_MESSAGE =
  "This order was cancelled before your payment arrived. We'll refund the full amount to your original payment method within 7 days.";

/**
 * GET /api/payment-status?orderId=… (SPEC.md §7 checkPaymentGatewayStatus): the payment-result
 * page's verification. Only the order's owner gets an answer; anyone else, like an unknown id,
 * gets 404 with nothing about the order. The gateway is asked at most once every few seconds per
 * order (payments module).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const orderId = new URL(request.url).searchParams.get("orderId") ?? "";
  const headers = { "cache-control": "private, no-store" };
  if (!isUuid(orderId)) {
    return Response.json(
      { success: false, error: "Order not found" } satisfies PaymentStatusResponse,
      {
        status: 404,
        headers,
      },
    );
  }
  const rt = await runtime();
  try {
    const status = await checkOrderPayment(paymentDepsFor(rt), viewer.id, orderId);
    if (status.refundDue) {
      return Response.json(
        { success: false, error: REFUND_DUE_MESSAGE } satisfies PaymentStatusResponse,
        { headers },
      );
    }
    return Response.json(
      {
        success: true,
        // A state the shop doesn't know changes nothing: the customer keeps waiting.
        status: status.state === "UNKNOWN" ? "PENDING" : status.state,
        orderNumber: status.orderNumber,
        productIds: status.productIds,
        lines: status.lines,
      } satisfies PaymentStatusResponse,
      { headers },
    );
  } catch (error) {
    if (error instanceof OrderNotFoundError) {
      return Response.json(
        { success: false, error: "Order not found" } satisfies PaymentStatusResponse,
        {
          status: 404,
          headers,
        },
      );
    }
    log.error("payment status check failed", { error, orderId });
    return Response.json(
      { success: false, error: checkoutText.failedToCheckStatus } satisfies PaymentStatusResponse,
      { status: 502, headers },
    );
  }
}
