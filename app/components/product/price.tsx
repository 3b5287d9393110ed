import { cn } from "~/lib/cn";
import { formatPaise } from "~/rules/money.ts";

export function Price({
  pricePaise,
  originalPricePaise,
  className,
  size = "default",
  from = false,
  testId,
}: {
  pricePaise: number;
  /** The lowest of prices that differ (a product's variants): "from ₹X". */
  from?: boolean;
  testId?: string;
  originalPricePaise?: number | null;
  className?: string;
  size?: "default" | "lg";
}) {
  // "from ₹X" with one variant's original price beside it would read as the whole range's.
  const showOriginal = !from && originalPricePaise != null && originalPricePaise > pricePaise;
  return (
    <p className={className ? `price ${className}` : "price"} data-testid={testId}>
      <span className={cn("font-semibold", size === "lg" ? "text-3xl" : "text-base")}>
        {from ? <span className="font-normal text-muted-foreground text-sm">from </span> : null}
        {formatPaise(pricePaise)}
      </span>
      {showOriginal ? (
        <s className={cn("text-muted-foreground", size === "lg" ? "text-lg" : "text-sm")}>
          <span className="sr-only">Original price </span>
          {formatPaise(originalPricePaise)}
        </s>
      ) : null}
    </p>
  );
}
