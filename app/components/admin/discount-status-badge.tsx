import { Badge, type BadgeProps } from "~/components/ui/badge";
import { discountStatusLabel } from "~/rules/discount-display.ts";
import type { DiscountStatus } from "~/rules/discounts.ts";

const statusVariant: Record<DiscountStatus, BadgeProps["variant"]> = {
  live: "success",
  scheduled: "outline",
  paused: "secondary",
  expired: "secondary",
  "used-up": "secondary",
  archived: "outline",
};

/** A discount's status in the admin area: Live, Scheduled, Paused, Expired, Used up, Archived. */
export function DiscountStatusBadge({ status }: { status: DiscountStatus }) {
  return (
    <Badge variant={statusVariant[status]} data-testid="discount-status">
      {discountStatusLabel[status]}
    </Badge>
  );
}
