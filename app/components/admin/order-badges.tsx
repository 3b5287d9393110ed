import { RotateCcw } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { type StatusTone, statusLabel, statusTone } from "~/rules/orders.ts";

/*
 * Status badges of the admin's order screens: the order status with the customer screens' tones
 * (app/rules/orders.ts), the payment status and a pending return.
 */

const toneClasses: Record<StatusTone, string> = {
  green:
    "border-green-200 bg-green-100 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200",
  blue: "border-blue-200 bg-blue-100 text-blue-800 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-200",
  yellow:
    "border-yellow-300 bg-yellow-100 text-yellow-900 dark:border-yellow-800 dark:bg-yellow-950 dark:text-yellow-200",
  red: "border-red-200 bg-red-100 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  neutral: "border-border bg-secondary text-secondary-foreground",
};

export function OrderStatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <Badge variant="outline" data-tone={tone} className={toneClasses[tone]}>
      {statusLabel(status)}
    </Badge>
  );
}

const paymentTone: Record<string, StatusTone> = {
  paid: "green",
  unpaid: "yellow",
  failed: "red",
  refunded: "blue",
};

/** The payment status; `label` ("Payment") prefixes it where nothing else says what it is. */
export function PaymentStatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = paymentTone[status] ?? "neutral";
  return (
    <Badge variant="outline" data-tone={tone} className={toneClasses[tone]}>
      {label ? `${label} ${status}` : statusLabel(status)}
    </Badge>
  );
}

const returnTone: Record<string, StatusTone> = {
  requested: "yellow",
  approved: "blue",
  rejected: "red",
  refunded: "neutral",
};

export function ReturnBadge({ status }: { status: string }) {
  const tone = returnTone[status] ?? "neutral";
  return (
    <Badge variant="outline" data-tone={tone} className={toneClasses[tone]}>
      <RotateCcw aria-hidden="true" />
      Return {status}
    </Badge>
  );
}
