import { type RefObject, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { ProductImage } from "~/components/product/product-image";
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
import { offerEnded, promotionShows } from "~/rules/promotion-offer.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";
import { NewsletterBox } from "./newsletter-box";
import { PromotionOfferLine, useOfferClock } from "./promotion-offer";

type InterestResult = { ok: true } | { ok: false; errors: Record<string, string> };

/** 'Special Offers': the live promotions, each with an interest dialog, and the newsletter box. */
export function PromotionsSection({ promotions }: { promotions: LivePromotion[] }) {
  const [open, setOpen] = useState<LivePromotion | null>(null);
  // The dialog has no trigger of its own: focus goes back to the offer's button on closing.
  const opener = useRef<HTMLButtonElement | null>(null);
  const now = useOfferClock(promotions);
  // The server left out cards to hide; the browser hides those whose end has passed since.
  const shown = now === null ? promotions : promotions.filter((p) => promotionShows(p, now));
  return (
    <section aria-labelledby="offers-heading" className="mt-12">
      <h2 id="offers-heading" className="mb-4 font-bold text-2xl">
        Special Offers
      </h2>
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        {shown.length > 0 ? (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {shown.map((promo) => (
              <li
                key={promo.id}
                className="flex flex-col overflow-hidden rounded-lg border bg-card"
              >
                <ProductImage
                  src={promo.image}
                  alt=""
                  sizes="(min-width: 1024px) 20vw, (min-width: 640px) 45vw, 90vw"
                  className="aspect-[4/3] w-full object-cover"
                />
                <div className="flex flex-1 flex-col gap-2 p-4">
                  {promo.discount ? (
                    <p className="font-semibold text-primary text-sm">{promo.discount}</p>
                  ) : null}
                  <h3 className="font-semibold">{promo.name}</h3>
                  <p className="text-muted-foreground text-sm">{promo.description}</p>
                  {promo.offer ? (
                    <PromotionOfferLine
                      offer={promo.offer}
                      ended={now === null ? promo.offer.ended : offerEnded(promo.offer, now)}
                    />
                  ) : null}
                  <Button
                    className="mt-auto"
                    variant="outline"
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      setOpen(promo);
                    }}
                  >
                    {promo.cta || "I'm interested"}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="rounded-lg border bg-card p-6 text-muted-foreground">
            No offers right now. Subscribe to hear about the next one first.
          </p>
        )}
        <NewsletterBox />
      </div>
      <InterestDialog promotion={open} onClose={() => setOpen(null)} returnFocusTo={opener} />
    </section>
  );
}

function InterestDialog({
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
