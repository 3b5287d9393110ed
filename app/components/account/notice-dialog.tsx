import type * as React from "react";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A message that needs the customer's attention (e.g. "Verify your email"). In the browser it is
 * a modal dialog; before the page's JavaScript runs (or without it) the same content is shown in
 * the page, so the forms behind it still tell the customer what happened.
 */
export function NoticeDialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
}) {
  const hydrated = useHydrated();
  if (!hydrated) {
    if (!open) return null;
    return (
      <section
        aria-labelledby="notice-title"
        role="alert"
        className="grid gap-3 rounded-lg border bg-card p-5 shadow-xs"
      >
        <h2 id="notice-title" className="font-semibold text-lg">
          {title}
        </h2>
        <div className="text-muted-foreground text-sm">{description}</div>
        {children}
        {footer ? <div className="flex flex-wrap gap-2">{footer}</div> : null}
      </section>
    );
  }
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription asChild>
            <div>{description}</div>
          </DialogDescription>
        </DialogHeader>
        {children}
        {footer ? <DialogFooter>{footer}</DialogFooter> : null}
      </DialogContent>
    </Dialog>
  );
}
