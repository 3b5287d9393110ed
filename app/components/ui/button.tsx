import { Slot } from "radix-ui";
import type * as React from "react";
import { cn } from "~/lib/cn";

// The hover colours stay utilities beside the component classes: a caller's plain background
// (say `bg-background/85`) must not cancel the hover, as it didn't when every class was a utility.
const variants = {
  default: "btn-primary hover:bg-primary/90",
  destructive: "btn-destructive hover:bg-destructive/90",
  outline: "btn-outline hover:bg-accent hover:text-accent-foreground",
  secondary: "btn-secondary hover:bg-secondary/80",
  ghost: "hover:bg-accent hover:text-accent-foreground",
  link: "btn-link hover:underline",
} as const;

const sizes = {
  default: "btn-md",
  sm: "btn-sm",
  lg: "btn-lg",
  icon: "btn-icon",
} as const;

export type ButtonLook = {
  variant?: keyof typeof variants | null;
  size?: keyof typeof sizes | null;
};

/**
 * Class recipe for buttons. Exported so links and other elements can look like buttons
 * (for example `<Link className={buttonVariants({ variant: "outline" })}>`).
 * The default and icon sizes are 40px tall so they stay comfortable touch targets.
 * The looks are component classes in app/app.css (`.btn`, `.btn-outline`, `.btn-sm`, …): short
 * in the markup, and any utility added beside them wins (they sit in the components layer). Only
 * a button given classes of its own pays for merging them.
 */
export function buttonVariants({
  variant,
  size,
  className,
}: ButtonLook & { className?: string } = {}): string {
  const look = `btn ${variants[variant ?? "default"]} ${sizes[size ?? "default"]}`;
  // A caller's hover colour replaces the look's (tailwind-merge); the rest can't conflict.
  return className ? cn(look, className) : look;
}

export type ButtonProps = React.ComponentProps<"button"> &
  ButtonLook & {
    /** Render the single child element (e.g. a router `<Link>`) with the button's styling. */
    asChild?: boolean;
  };

/**
 * A button. Icon-only buttons (`size="icon"`) must be given an `aria-label` or sr-only text.
 * Like a plain <button>, it submits its form unless given `type="button"`.
 */
export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  return <Comp className={buttonVariants({ variant, size, className })} {...props} />;
}
