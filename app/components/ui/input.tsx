import type * as React from "react";
import { cn } from "~/lib/cn";

/**
 * Single-line text field. Pair it with a `<Label htmlFor>` or an `aria-label`. Its look is the
 * `.input` component class (app/app.css): the header's search box is on every page.
 */
export function Input({ className, type, ...props }: React.ComponentProps<"input">) {
  return <input type={type} className={className ? cn("input", className) : "input"} {...props} />;
}
