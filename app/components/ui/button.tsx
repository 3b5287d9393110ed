import { Slot } from "radix-ui";
import type * as React from "react";

const variants = {
  default: "btn-primary",
  destructive: "btn-destructive",
  outline: "btn-outline",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  link: "btn-link",
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
 * in the markup, and any utility added beside them wins (they sit in the components layer), so
 * no class merging is needed: plain strings, cheap for a listing's 48 buttons.
 */
export function buttonVariants({
  variant,
  size,
  className,
}: ButtonLook & { className?: string } = {}): string {
  const look = `btn ${variants[variant ?? "default"]} ${sizes[size ?? "default"]}`;
  return className ? `${look} ${className}` : look;
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
  return (
    <Comp data-slot="button" className={buttonVariants({ variant, size, className })} {...props} />
  );
}
