import type * as React from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/cn";

/** The id of a field's error message, for `aria-describedby`. */
export const errorId = (id: string) => `${id}-error`;

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} className="text-destructive text-sm">
      {message}
    </p>
  );
}

export type FormFieldProps = Omit<React.ComponentProps<"input">, "id"> & {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  /** Replaces the plain input (e.g. a password input with a show/hide toggle). */
  children?: React.ReactNode;
};

/** A labelled input with its error message underneath, wired for screen readers. */
export function FormField({
  id,
  label,
  error,
  hint,
  className,
  children,
  ...props
}: FormFieldProps) {
  const describedBy = [error ? errorId(id) : null, hint ? `${id}-hint` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children ?? (
        <Input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...props}
        />
      )}
      {hint ? (
        <p id={`${id}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} message={error} />
    </div>
  );
}
