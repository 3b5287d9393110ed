import { RotateCcw } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import {
  paymentStatusTone,
  returnStatusTone,
  STATUS_TONE_CLASSES,
  statusLabel,
  statusTone,
} from "~/rules/orders.ts";

/*
 * Status badges of the order screens (the customer's and the admin's): the order status, the
 * payment status and a pending return, in the tones of app/rules/orders.ts.
 */

export function OrderStatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <Badge variant="outline" data-tone={tone} className={STATUS_TONE_CLASSES[tone]}>
      {statusLabel(status)}
    </Badge>
  );
}

/** The payment status; `label` ("Payment") prefixes it where nothing else says what it is. */
export function PaymentStatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = paymentStatusTone(status);
  return (
    <Badge variant="outline" data-tone={tone} className={STATUS_TONE_CLASSES[tone]}>
      {label ? `${label} ${status}` : statusLabel(status)}
    </Badge>
  );
}

export function ReturnBadge({ status }: { status: string }) {
  const tone = returnStatusTone(status);
  return (
    <Badge variant="outline" data-tone={tone} className={STATUS_TONE_CLASSES[tone]}>
      <RotateCcw aria-hidden="true" />
      Return {status}
    </Badge>
  );
}
