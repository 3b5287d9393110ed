import { CircleAlert, CircleCheck } from "lucide-react";
import type * as React from "react";
import { cn } from "~/lib/cn";

/**
 * A message about the whole form, in the page (it works without JavaScript and stays until the
 * next submission). Errors are announced at once; success politely.
 */
export function FormAlert({
  tone = "error",
  title,
  children,
  className,
}: {
  tone?: "error" | "success";
  title?: string;
  children?: React.ReactNode;
  className?: string;
}) {
  const Icon = tone === "error" ? CircleAlert : CircleCheck;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "flex gap-3 rounded-md border p-3 text-sm",
        tone === "error"
          ? "border-destructive/50 bg-destructive/10 text-foreground"
          : "border-success/50 bg-success/10 text-foreground",
        className,
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn(
          "mt-0.5 size-4 shrink-0",
          tone === "error" ? "text-destructive" : "text-success",
        )}
      />
      <div className="grid gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}
