import { cn } from "~/lib/cn";
import { formatPaise } from "~/rules/money.ts";

export function Price({
  pricePaise,
  originalPricePaise,
  className,
  size = "default",
}: {
  pricePaise: number;
  originalPricePaise?: number | null;
  className?: string;
  size?: "default" | "lg";
}) {
  const showOriginal = originalPricePaise != null && originalPricePaise > pricePaise;
  return (
    <p className={cn("flex flex-wrap items-baseline gap-x-2", className)}>
      <span className={cn("font-semibold", size === "lg" ? "text-3xl" : "text-base")}>
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
