import {
  type ComponentProps,
  type ComponentType,
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
} from "react";
import { ProductImage } from "~/components/product/product-image";
import { Button } from "~/components/ui/button";
import { offerEnded, promotionShows } from "~/rules/promotion-offer.ts";
import type { LivePromotion } from "~/rules/promotion-schema.ts";
import { NewsletterBox } from "./newsletter-box";
import { PromotionOfferLine, useOfferClock } from "./promotion-offer";

// The interest dialog (Radix's dialog, the form) downloads when an offer's button is pointed at,
// focused or pressed, not with the home page (DESIGN.md decision 10).
const loadInterestDialog = () => import("./interest-dialog");
// If its file can't be had (a tab older than the shop's last update), the page is loaded again
// rather than failing; offline, the button does nothing.
const InterestDialog = lazy(
  (): Promise<{ default: ComponentType<InterestDialogProps> }> =>
    loadInterestDialog().catch(() => ({ default: ReloadWhenOnline })),
);
type InterestDialogProps = ComponentProps<typeof import("./interest-dialog").default>;

function ReloadWhenOnline(_props: object) {
  useEffect(() => {
    if (navigator.onLine) window.location.reload();
  }, []);
  return null;
}
const prefetchInterestDialog = () => void loadInterestDialog().catch(() => undefined);

/** 'Special Offers': the live promotions, each with an interest dialog, and the newsletter box. */
export function PromotionsSection({ promotions }: { promotions: LivePromotion[] }) {
  const [open, setOpen] = useState<LivePromotion | null>(null);
  const [dialogUsed, setDialogUsed] = useState(false);
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
                    onPointerEnter={prefetchInterestDialog}
                    onFocus={prefetchInterestDialog}
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      setDialogUsed(true);
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
      {dialogUsed ? (
        <Suspense fallback={null}>
          <InterestDialog promotion={open} onClose={() => setOpen(null)} returnFocusTo={opener} />
        </Suspense>
      ) : null}
    </section>
  );
}
