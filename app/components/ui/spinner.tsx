import { LoaderCircle } from "lucide-react";
import type * as React from "react";
import { cn } from "~/lib/cn";

export type SpinnerProps = Omit<React.ComponentProps<"span">, "children"> & {
  /** Text announced to screen readers (visually hidden). */
  label?: string;
  /** Classes for the spinning icon (e.g. `size-6`). */
  iconClassName?: string;
};

/** Loading indicator announced politely as a status message. */
export function Spinner({ className, iconClassName, label = "Loading…", ...props }: SpinnerProps) {
  return (
    <span
      data-slot="spinner"
      role="status"
      className={cn("inline-flex items-center justify-center text-muted-foreground", className)}
      {...props}
    >
      <LoaderCircle
        aria-hidden="true"
        className={cn("size-5 motion-safe:animate-spin", iconClassName)}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
