import { type RefObject, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { indianMobile } from "~/rules/phone.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";

type InterestResult = { ok: true } | { ok: false; errors: Record<string, string> };

/** An offer's 'I'm interested' dialog, loaded when an offer's button is first pressed. */
export default function InterestDialog({
  promotion,
  onClose,
  returnFocusTo,
}: {
  promotion: LivePromotion | null;
  onClose: () => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const fetcher = useFetcher<InterestResult>();
  const [done, setDone] = useState(false);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.errors : {};

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDone(true);
  }, [fetcher.state, fetcher.data]);

  return (
    <Dialog
      open={promotion !== null}
      onOpenChange={(o) => {
        if (!o) {
          onClose();
          setDone(false);
        }
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo.current) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{promotion?.name}</DialogTitle>
          <DialogDescription>
            {done ? "" : "Leave your details and we'll get in touch about this offer."}
          </DialogDescription>
        </DialogHeader>
        {done ? (
          <>
            <p role="status" className="font-medium">
              Thank you! We will contact you shortly.
            </p>
            <DialogFooter>
              <DialogClose asChild>
                <Button>Close</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : (
          <fetcher.Form
            method="post"
            action="/api/promotion-interest"
            className="space-y-4"
            noValidate
          >
            <input type="hidden" name="promotionId" value={promotion?.id ?? ""} />
            <div className="space-y-1.5">
              <Label htmlFor="interest-name">Name</Label>
              <Input
                id="interest-name"
                name="name"
                required
                autoComplete="name"
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? "interest-name-error" : undefined}
              />
              {errors.name ? (
                <p id="interest-name-error" className="text-destructive text-sm">
                  {errors.name}
                </p>
              ) : null}
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="interest-email">Email (optional)</Label>
              <Input
                id="interest-email"
                name="email"
                type="email"
                autoComplete="email"
                aria-invalid={errors.email ? true : undefined}
              />
              {errors.email ? <p className="text-destructive text-sm">{errors.email}</p> : null}
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="interest-phone">Phone (optional)</Label>
              <Input
                id="interest-phone"
                name="phone"
                type="tel"
                autoComplete="tel"
                inputMode="tel"
                // "+91 98765 43210" is understood and shown as the 10 digits it is kept as.
                onBlur={(e) => {
                  e.currentTarget.value =
                    indianMobile(e.currentTarget.value) ?? e.currentTarget.value;
                }}
                aria-invalid={errors.phone ? true : undefined}
              />
              {errors.phone ? <p className="text-destructive text-sm">{errors.phone}</p> : null}
            </div>
            {errors.form ? <p className="text-destructive text-sm">{errors.form}</p> : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={fetcher.state !== "idle"}>
                Submit
              </Button>
            </DialogFooter>
          </fetcher.Form>
        )}
      </DialogContent>
    </Dialog>
  );
}
