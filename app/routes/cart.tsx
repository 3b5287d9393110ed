import { Minus, Plus, ShoppingBag, Trash2 } from "lucide-react";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Link } from "react-router";
import { cartActions, useCart, useStoredCartRead } from "~/components/cart/cart-store";
import { CouponField, DiscountRows, FreeShippingNote } from "~/components/cart/coupon-field";
import { setCoupon, useCoupon } from "~/components/cart/coupon-store";
import { useProceedToCheckout } from "~/components/cart/use-proceed-to-checkout";
import { ProductImage } from "~/components/product/product-image";
import { Button, buttonVariants } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { useRootData } from "~/lib/root-data";
import { useHydrated } from "~/lib/use-hydrated";
import { useJsonLoad } from "~/lib/use-json-load";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { itemCount, lineKey, MAX_LINE_QUANTITY } from "~/rules/cart.ts";
import { CUSTOM_PART_CATEGORY, CUSTOM_PART_EXPIRED } from "~/rules/custom-part.ts";
import type { PricedOrder } from "~/rules/discounts.ts";
import { formatPaise } from "~/rules/money.ts";
import { type CartPartDetails, partDateText, printDatesText } from "~/rules/print-dates.ts";
import type { ProductCardData } from "~/rules/product-display.ts";
import { isPurchasable, quantityLimit } from "~/rules/product-display.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { type CartShipping, shippingNoteText } from "~/rules/shipping-display.ts";
import { slicingText } from "~/rules/slicing.ts";
import { orderTotals } from "~/rules/totals.ts";
import { linePath } from "~/rules/variant-picker.ts";
import { optionLabel, type VariantOffer } from "~/rules/variants.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/cart";

/** The cart's words when the shop can't be reached (offline, a dropped connection). */
const CODE_NOT_CHECKED = "We couldn't check this code. Please try again.";
const NOT_REFRESHED =
  "We couldn't update prices and shipping. They update when you're back online.";

// The PIN box (issue 24) only with a summary to show: an empty cart doesn't download it.
const PinBox = lazy(() =>
  import("~/components/shipping/pin-box").then((m) => ({ default: m.PinBox })),
);

/**
 * The PIN code this browser remembers (the PIN box keeps it in localStorage as `lk_pin`), and
 * again whenever the box on this page changes it. Read here without loading the box's code.
 */
function readRememberedPin(): string | null {
  try {
    const stored = window.localStorage.getItem("lk_pin") ?? "";
    return /^[1-9]\d{5}$/.test(stored) ? stored : null;
  } catch {
    return null;
  }
}

function useRememberedPin(): string | null {
  // Not drawn, only sent with the pricing request: the server's render and the browser's agree.
  const [pin, setPin] = useState<string | null>(() =>
    typeof window === "undefined" ? null : readRememberedPin(),
  );
  useEffect(() => {
    const read = () => setPin(readRememberedPin());
    read();
    window.addEventListener("lk-pin-changed", read);
    window.addEventListener("storage", read);
    return () => {
      window.removeEventListener("lk-pin-changed", read);
      window.removeEventListener("storage", read);
    };
  }, []);
  return pin;
}

export async function loader() {
  const { db } = await runtime();
  const s = await getShopSettings(db);
  return {
    settings: {
      shippingFeePaise: s.shippingFeePaise,
      taxRateBasisPoints: s.taxRateBasisPoints,
      freeShippingThresholdPaise: s.freeShippingThresholdPaise,
    },
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Your Cart",
    description: "The prints in your LayerKart cart.",
    path: "/cart",
    origin: originFrom(matches),
    noindex: true,
  });

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const cart = useCart();
  const hydrated = useHydrated();
  const storedRead = useStoredCartRead();
  const signedIn = Boolean(useRootData()?.viewer);
  const coupon = useCoupon();
  const proceed = useProceedToCheckout("/cart", coupon);
  // Offline, the last answer stays (the page isn't replaced by an error).
  const current = useJsonLoad<{
    products: ProductCardData[];
    variants?: VariantOffer[];
    pricing:
      | (PricedOrder & {
          code: string | null;
          shipping: CartShipping | null;
          codFeePaise: number | null;
        })
      | null;
    parts?: Record<string, CartPartDetails>;
  }>();
  // A code being tried: kept once the server accepts it.
  const [trying, setTrying] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const code = trying ?? coupon;
  const linesKey = cart
    .map((l) => `${l.productId}:${l.quantity}${l.variantId ? `:${l.variantId}` : ""}`)
    .sort()
    .join(",");

  // Refresh the lines with the server's current prices and availability, and the summary with
  // the server's figures (shipping, tax, discounts).
  const pin = useRememberedPin();
  const loadCurrent = current.load;
  const currentUrl = useMemo(() => {
    if (!linesKey) return null;
    const params = new URLSearchParams(linesKey.split(",").map((line) => ["line", line]));
    if (code) params.set("code", code);
    // The remembered PIN code: the shipping is the rate checkout charges to it.
    if (pin) params.set("pin", pin);
    return `/api/cart-products?${params}`;
  }, [linesKey, code, pin]);
  useEffect(() => {
    if (currentUrl) void loadCurrent(currentUrl);
  }, [currentUrl, loadCurrent]);
  // A code the shop couldn't be asked about (its read failed) is not applied: said so, and the
  // customer can try again.
  useEffect(() => {
    if (trying === null || !current.failed || current.settledUrl !== currentUrl) return;
    setRefusal(CODE_NOT_CHECKED);
    setTrying(null);
  }, [trying, current.failed, current.settledUrl, currentUrl]);

  // A refresh that failed leaves figures for other lines: the same rules without them, then.
  const pricing = current.failed ? null : (current.data?.pricing ?? null);
  // The server's answer for a code being tried: applied, it's kept; refused, the reason shows.
  useEffect(() => {
    if (current.state !== "idle" || !pricing || trying === null || pricing.code !== trying) return;
    if (pricing.codeRefusal) {
      setRefusal(pricing.codeRefusal.message);
    } else {
      setCoupon(trying);
      setRefusal(null);
    }
    setTrying(null);
  }, [current.state, pricing, trying]);
  // A kept code that stopped applying (the cart changed) says why, and can be removed.
  const keptRefusal =
    trying === null && coupon !== null && pricing?.code === coupon
      ? (pricing.codeRefusal?.message ?? null)
      : null;

  const byId = useMemo(
    () => new Map((current.data?.products ?? []).map((p) => [p.id, p])),
    [current.data],
  );
  const variantById = useMemo(
    () => new Map((current.data?.variants ?? []).map((v) => [v.id, v])),
    [current.data],
  );
  const lines = cart.map((line) => {
    const found = byId.get(line.productId);
    // A line of a variant is priced and stocked as its variant (decision 0015).
    const variant = line.variantId ? variantById.get(line.variantId) : undefined;
    const covered = Boolean(found && (!line.variantId || variant));
    const product =
      found && variant
        ? {
            ...found,
            pricePaise: variant.pricePaise,
            inStock: variant.inStock,
            stockCount: variant.stockCount,
            isActive: found.isActive && variant.isActive,
          }
        : found && line.variantId && current.data
          ? undefined
          : found;
    return {
      ...line,
      options: variant?.options ?? line.options ?? [],
      pricePaise: product?.pricePaise ?? line.pricePaise,
      name: product?.name ?? line.name,
      image: product?.image ?? line.image,
      category: product?.category ?? line.category,
      // Unknown (so not held against the line) until an answer that covers it: none yet, a
      // failed read, or the answer for these lines not in yet (a line added since).
      available:
        !current.data || current.failed || (!covered && current.settledUrl !== currentUrl)
          ? true
          : Boolean(product && isPurchasable(product)),
      limit: product ? quantityLimit(product) : MAX_LINE_QUANTITY,
      custom: line.category === CUSTOM_PART_CATEGORY,
      part: current.data?.parts?.[line.productId] ?? null,
    };
  });
  // Lines that can't be bought don't count towards what checkout would charge.
  const subtotal = lines.reduce(
    (sum, l) => (l.available ? sum + l.pricePaise * l.quantity : sum),
    0,
  );
  // The server's figures once they arrive (they include discounts); until then, the same rules
  // without them.
  const local = orderTotals(subtotal, loaderData.settings);
  const totals = pricing ?? { ...local, applied: [], freeShippingShortfallPaise: null };
  const count = itemCount(cart);
  const overLimit = (l: (typeof lines)[number]) => l.available && !l.custom && l.quantity > l.limit;
  const blocked = lines.some((l) => !l.available || overLimit(l));

  // The cart lives in this browser: until it's read, show the page's outline, not "empty". Every
  // state is at least a screen tall, so the footer never jumps into view when the lines arrive.
  if (!hydrated) {
    return (
      <div className="mx-auto min-h-svh max-w-6xl px-4 py-8" aria-busy="true">
        <h1 className="font-bold text-3xl">Shopping Cart</h1>
        <Skeleton className="mt-6 h-40 w-full" />
      </div>
    );
  }

  // Signed in on this device for the first time (or reloaded): the stored cart is on its way.
  if (cart.length === 0 && signedIn && !storedRead) {
    return (
      <div className="mx-auto min-h-svh max-w-6xl px-4 py-8" aria-busy="true">
        <h1 className="font-bold text-3xl">Shopping Cart</h1>
        <Skeleton className="mt-6 h-40 w-full" />
      </div>
    );
  }

  if (cart.length === 0) {
    return (
      <section className="mx-auto flex min-h-svh max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
        <ShoppingBag aria-hidden="true" className="size-12 text-muted-foreground" />
        <h1 className="font-bold text-3xl">Your Cart is Empty</h1>
        <p className="text-muted-foreground">Find something you'll love among our prints.</p>
        <Link to="/" className={buttonVariants()}>
          Continue Shopping
        </Link>
      </section>
    );
  }

  return (
    <div className="mx-auto min-h-svh max-w-6xl px-4 py-8">
      <h1 className="font-bold text-3xl">
        Shopping Cart ({count} {count === 1 ? "item" : "items"})
      </h1>
      {/* One column that may shrink below its lines' widest content (which wraps then): two
          variant lines made a 390 px phone's cart 10 px too wide. */}
      <div className="mt-6 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_22rem]">
        <ul className="divide-y rounded-lg border bg-card" aria-label="Cart items">
          {lines.map((line) => (
            <li key={lineKey(line)} className="flex gap-4 p-4" data-testid="cart-line">
              <Link
                to={line.custom ? "/custom-printing#my-quotes" : linePath(line)}
                className="shrink-0"
                tabIndex={-1}
                aria-hidden="true"
              >
                <ProductImage
                  src={line.image}
                  alt=""
                  sizes="96px"
                  className="size-20 rounded-md object-cover sm:size-24"
                />
              </Link>
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <h2 className="font-medium">
                  <Link
                    to={line.custom ? "/custom-printing#my-quotes" : linePath(line)}
                    className="hover:underline"
                  >
                    {line.name}
                  </Link>
                </h2>
                {line.options.length > 0 ? (
                  <p className="text-sm" data-testid="line-options">
                    {optionLabel(line.options)}
                  </p>
                ) : null}
                <p className="text-muted-foreground text-sm">{line.category}</p>
                <p className="text-sm">
                  <span className="sr-only">Unit price </span>
                  {formatPaise(line.pricePaise)} each
                </p>
                {line.part ? <CartPartLines part={line.part} /> : null}
                {!line.available ? (
                  <p className="font-medium text-destructive text-sm">
                    {line.custom
                      ? `${CUSTOM_PART_EXPIRED} Remove it to check out.`
                      : "No longer available: remove it to check out."}
                  </p>
                ) : overLimit(line) ? (
                  <p className="font-medium text-destructive text-sm">
                    Only {line.limit} left: lower the quantity to check out.
                  </p>
                ) : null}
                <div className="mt-1 flex flex-wrap items-center gap-3">
                  {line.custom ? (
                    <p className="text-sm" data-testid="line-quantity">
                      Quantity {line.quantity} (set on the quote)
                    </p>
                  ) : (
                    /* biome-ignore lint/a11y/useSemanticElements: a labelled group of two buttons, not a form section */
                    <div
                      className="inline-flex items-center rounded-md border"
                      role="group"
                      aria-label={`Quantity of ${line.name}`}
                    >
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Decrease quantity of ${line.name}`}
                        onClick={() => cartActions.update(lineKey(line), line.quantity - 1)}
                      >
                        <Minus aria-hidden="true" />
                      </Button>
                      <output className="w-8 text-center tabular-nums" data-testid="line-quantity">
                        {line.quantity}
                      </output>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Increase quantity of ${line.name}`}
                        disabled={line.quantity >= line.limit}
                        onClick={() => cartActions.update(lineKey(line), line.quantity + 1)}
                      >
                        <Plus aria-hidden="true" />
                      </Button>
                    </div>
                  )}
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => cartActions.remove(lineKey(line))}
                  >
                    <Trash2 aria-hidden="true" />
                    Remove
                  </Button>
                </div>
              </div>
              <p className="font-semibold" data-testid="line-total">
                <span className="sr-only">Line total </span>
                {formatPaise(line.pricePaise * line.quantity)}
              </p>
            </li>
          ))}
        </ul>
        <aside aria-labelledby="summary-heading" className="h-fit rounded-lg border bg-card p-5">
          <h2 id="summary-heading" className="font-semibold text-lg">
            Order Summary
          </h2>
          {current.failed ? (
            <p
              role="status"
              className="mt-2 text-muted-foreground text-xs"
              data-testid="summary-stale"
            >
              {NOT_REFRESHED}
            </p>
          ) : null}
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd data-testid="summary-subtotal">{formatPaise(totals.subtotalPaise)}</dd>
            </div>
            <DiscountRows applied={totals.applied} />
            <div className="flex justify-between gap-2">
              <dt>
                Shipping
                {pricing ? (
                  <span
                    className="block text-muted-foreground text-xs"
                    data-testid="summary-shipping-note"
                  >
                    {shippingNoteText(pricing.shipping)}
                  </span>
                ) : (
                  // The note's line, kept while the cart is priced: the rows below don't jump.
                  <span className="block text-xs" aria-hidden="true">
                    {"\u00a0"}
                  </span>
                )}
              </dt>
              <dd data-testid="summary-shipping">{formatPaise(totals.shippingPaise)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Tax ({loaderData.settings.taxRateBasisPoints / 100}%)</dt>
              <dd data-testid="summary-tax">{formatPaise(totals.taxPaise)}</dd>
            </div>
            <div className="flex justify-between border-t pt-2 font-semibold text-base">
              <dt>Total</dt>
              <dd data-testid="summary-total">{formatPaise(totals.totalPaise)}</dd>
            </div>
            {pricing?.codFeePaise ? (
              <div className="flex justify-between gap-2 text-muted-foreground text-xs">
                <dt>Cash on delivery fee, if you pay on delivery</dt>
                <dd data-testid="summary-cod-fee">+{formatPaise(pricing.codFeePaise)}</dd>
              </div>
            ) : null}
          </dl>
          <FreeShippingNote shortfallPaise={totals.freeShippingShortfallPaise} />
          {loaderData.settings.freeShippingThresholdPaise !== null ? (
            <p className="mt-3 text-muted-foreground text-xs">
              Free shipping on orders of{" "}
              {formatPaise(loaderData.settings.freeShippingThresholdPaise)} or more
            </p>
          ) : null}
          <div className="mt-4 border-t pt-4">
            <CouponField
              applied={trying === null ? coupon : null}
              refusal={keptRefusal ?? refusal}
              busy={current.state !== "idle"}
              onApply={(typed) => {
                setRefusal(null);
                setTrying(typed.trim().toUpperCase());
              }}
              onRemove={() => {
                setCoupon(null);
                setRefusal(null);
              }}
            />
          </div>
          <Button className="mt-5 w-full" size="lg" onClick={proceed} disabled={blocked}>
            Proceed to Checkout
          </Button>
          <Link to="/" className={buttonVariants({ variant: "link", className: "mt-2 w-full" })}>
            Continue Shopping
          </Link>
          <Suspense fallback={null}>
            <PinBox item={{ kind: "cart", amountPaise: totals.totalPaise }} className="mt-4" />
          </Suspense>
        </aside>
      </div>
    </div>
  );
}

/** A custom part's speed and date, and staff's note when they changed its price. */
function CartPartLines({ part }: { part: CartPartDetails }) {
  return (
    <>
      <p className="text-sm" data-testid="line-part-date">
        {partDateText(part.speed, part.readyBy)}
      </p>
      {part.priceNote ? (
        <p className="text-sm" data-testid="line-price-note">
          <span className="font-medium">
            {part.priceNoteBy === "slicer" ? slicingText.updatedTitle : printDatesText.repriced}:
          </span>{" "}
          {part.priceNote}
        </p>
      ) : null}
    </>
  );
}
