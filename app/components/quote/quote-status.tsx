import { Badge } from "~/components/ui/badge";
import { quoteStatusLabel } from "~/rules/quote-pricing.ts";

const variants = {
  draft: "outline",
  in_cart: "secondary",
  review_requested: "default",
  offered: "success",
  ordered: "success",
  closed: "outline",
} as const;

/** A quote's status as a small label. */
export function QuoteStatusBadge({ status }: { status: string }) {
  const variant = variants[status as keyof typeof variants] ?? "outline";
  return (
    <Badge variant={variant} data-testid="quote-status">
      {quoteStatusLabel[status] ?? status}
    </Badge>
  );
}
