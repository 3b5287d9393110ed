import type * as React from "react";
import { cn } from "~/lib/cn";

/**
 * Grey placeholder block shown while content loads. Hidden from assistive technology;
 * announce loading with a Spinner or sr-only text nearby.
 */
export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("rounded-md bg-muted motion-safe:animate-pulse", className)}
      {...props}
    />
  );
}
