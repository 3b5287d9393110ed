import { CreditCard, Lock, MapPin, Smartphone, Wallet } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import {
  data,
  Link,
  redirect,
  useFetcher,
  useNavigate,
  useNavigation,
  useRevalidator,
} from "react-router";
import { z } from "zod";
import {
  cartActions,
  cartSyncIdle,
  refreshStoredCart,
  useCart,
} from "~/components/cart/cart-store";
import { CouponField, DiscountRows, FreeShippingNote } from "~/components/cart/coupon-field";
import { setCoupon, useCoupon } from "~/components/cart/coupon-store";
import { rememberPayment } from "~/components/checkout/payment-storage";
import { ProductImage } from "~/components/product/product-image";
import { Button } from "~/components/ui/button";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { flashCookie } from "~/modules/accounts/flash.server.ts";
import { listAddresses } from "~/modules/addresses/addresses.server.ts";
import { CheckoutError, checkoutSummary, placeOrder } from "~/modules/checkout/checkout.server.ts";
import { openOnlinePayments } from "~/modules/orders/lifecycle.server.ts";
import { initiateOrderPayment, paymentDepsFor } from "~/modules/payments/payments.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { formFields } from "~/rules/account-schemas.ts";
import { cartNotSavedText } from "~/rules/cart-sync.ts";
import { deliveryText } from "~/rules/delivery.ts";
import { formatPaise } from "~/rules/money.ts";
import { checkoutText, paymentMethodLabel } from "~/rules/orders.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { shippingNoteText } from "~/rules/shipping-display.ts";
import { optionLabel } from "~/rules/variants.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/checkout";

/*
 * /checkout (SPEC.md §2 Checkout, §4 Checkout flow, §5 checkout blocks, §8 checkout messages).
 * Everything shown is the server's: the stored cart at current prices, the shop's shipping and
 * tax, the customer's addresses. Placing the order re-reads all of it (the browser's figures are
 * only compared, never used).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const rt = await runtime();
  // The code the cart applied (or one typed here): priced again by the server.
  const couponText = new URL(request.url).searchParams.get("coupon")?.trim().slice(0, 40) || null;
  // Each code priced counts against the customer, as the cart's count against an address
  // (api.cart-products): past the limit the page is priced without it and says why.
  const couponBusy = couponText
    ? (await rateLimited(rt.db, request, "discount-code", viewer.id)) !== null
    : false;
  let addresses: Awaited<ReturnType<typeof listAddresses>> | null = null;
  try {
    addresses = await listAddresses(rt.db, viewer.id);
  } catch (error) {
    log.error("checkout could not load addresses", { error, userId: viewer.id });
  }
  // The shipping to each saved address's PIN: the page shows the chosen one's, as the order will.
  const [summary, openPayments] = await Promise.all([
    checkoutSummary(
      rt.db,
      viewer.id,
      couponBusy ? null : couponText,
      (addresses ?? []).map((a) => a.postalCode),
      new Date(),
      rt.courierRates,
    ),
    openOnlinePayments(rt.db, viewer.id),
  ]);
  const { lines: priced, quotes, settings } = summary;
  if (priced.length === 0) throw redirect("/cart");
  if (addresses && addresses.length === 0) {
    throw redirect("/addresses?from=checkout", {
      headers: {
        "Set-Cookie": flashCookie("no-addresses", rt.env.publicUrl.startsWith("https://")),
      },
    });
  }
  return {
    customer: { name: viewer.name, email: viewer.email },
    addresses,
    lines: priced,
    // Worded here, so the page's JavaScript carries no shipping rules.
    quotes: Object.fromEntries(
      Object.entries(quotes).map(([pin, q]) => [
        pin,
        q.kind === "priced"
          ? {
              shipping: q.shipping,
              priced: q.priced,
              // Paid on delivery the courier that collects cash may charge another rate.
              codPriced: q.codPriced?.priced ?? null,
              kind: q.kind,
              note:
                q.shipping.kind === "rated"
                  ? shippingNoteText({ kind: "rated", pin, grams: q.shipping.grams })
                  : null,
              // Cash on delivery to this PIN: its fee, or why not (worded here, like the note).
              cod:
                q.cod.kind === "available"
                  ? { available: true as const, feePaise: q.cod.feePaise }
                  : {
                      available: false as const,
                      reason:
                        q.cod.kind === "over-limit"
                          ? `Available for orders up to ${formatPaise(q.cod.limitPaise)}`
                          : q.cod.kind === "zone-off"
                            ? `Not available for PIN code ${pin}`
                            : "Not available for this order",
                    },
            }
          : {
              ...q,
              message: `${deliveryText.unknownPin}. Please choose an address with another PIN code.`,
            },
      ]),
    ),
    couponCode: couponText?.toUpperCase() ?? null,
    /** Why the code wasn't priced before the pricing itself was asked (too many codes tried). */
    couponRefusal: couponBusy ? RATE_LIMITED_MESSAGE : null,
    freeShippingThresholdPaise: settings.freeShippingThresholdPaise,
    cod: { enabled: settings.codEnabled },
    gatewayLabel: paymentMethodLabel("gateway", rt.payments.name),
    /** Orders still waiting for an online payment: a cash on delivery order cancels them. */
    openPayments: openPayments.map((o) => o.orderNumber),
    /** One per page view: a resubmitted cash-on-delivery form finds the order it placed. */
    attemptToken: crypto.randomUUID(),
  };
}

/** The checkout form: how to pay, the chosen address, the total shown and the page's token. */
const checkoutForm = z.object({
  paymentMethod: z.enum(["gateway", "cod"]),
  addressId: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || null)
    .pipe(z.uuid().nullable()),
  // A total that isn't a whole number of paise was not one the page showed: no comparison.
  expectedTotalPaise: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v && /^\d+$/.test(v) ? Number(v) : null)),
  attemptToken: z
    .string()
    .optional()
    .transform((v) => v || null),
  couponCode: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || null),
});

export type CheckoutResult =
  | { kind: "redirect"; paymentUrl: string; orderId: string; transactionId: string }
  | { kind: "placed"; orderId: string }
  | { kind: "error"; title: string; description: string };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const form = await readForm(request);
  const rt = await runtime();
  const parsed = checkoutForm.safeParse(formFields(form));
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    return data<CheckoutResult>(
      field === "addressId"
        ? {
            kind: "error",
            title: checkoutText.addressNotAvailable,
            description: "Please choose another address or add a new one.",
          }
        : {
            kind: "error",
            title: checkoutText.failedToPlaceOrder,
            description: "Please choose how to pay.",
          },
      { status: 400 },
    );
  }
  const {
    paymentMethod: method,
    addressId,
    expectedTotalPaise: expected,
    attemptToken,
    couponCode,
  } = parsed.data;
  if (couponCode && (await rateLimited(rt.db, request, "discount-code", viewer.id)) !== null) {
    return data<CheckoutResult>(
      { kind: "error", title: checkoutText.failedToPlaceOrder, description: RATE_LIMITED_MESSAGE },
      { status: 429 },
    );
  }
  let order: Awaited<ReturnType<typeof placeOrder>>;
  try {
    order = await placeOrder(rt.db, {
      userId: viewer.id,
      addressId,
      method,
      expectedTotalPaise: expected,
      attemptToken,
      couponCode,
      provider: rt.payments.name,
      courierRates: rt.courierRates,
    });
  } catch (error) {
    if (error instanceof CheckoutError) {
      return data<CheckoutResult>(
        { kind: "error", title: error.title, description: error.description },
        { status: error.code === "changed" ? 409 : 400 },
      );
    }
    log.error("placing an order failed", { error, userId: viewer.id });
    return data<CheckoutResult>(
      {
        kind: "error",
        title: checkoutText.failedToPlaceOrder,
        description: checkoutText.failedToPlaceOrderDescription,
      },
      { status: 500 },
    );
  }
  if (order.paymentMethod === "cod") {
    // The confirmation was queued with the order; send it now (the job runner retries failures).
    if (!order.reused) {
      await rt.jobRunner.sendNow().catch((error) => {
        log.warning("sending the order confirmation now failed; it will be retried", {
          error,
          orderId: order.id,
        });
      });
    }
    return data<CheckoutResult>(
      { kind: "placed", orderId: order.id },
      {
        headers: {
          "Set-Cookie": flashCookie("order-placed", rt.env.publicUrl.startsWith("https://")),
        },
      },
    );
  }
  try {
    const payment = await initiateOrderPayment(paymentDepsFor(rt), viewer.id, order.id);
    return data<CheckoutResult>({ kind: "redirect", ...payment });
  } catch (error) {
    log.error("payment initiation failed", { error, orderId: order.id });
    return data<CheckoutResult>(
      {
        kind: "error",
        title: checkoutText.paymentFailed,
        description: checkoutText.paymentFailedDescription,
      },
      { status: 502 },
    );
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Checkout",
    description: "Review your order and pay securely.",
    path: "/checkout",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function Checkout({ loaderData }: Route.ComponentProps) {
  const {
    addresses,
    lines,
    quotes,
    customer,
    cod,
    freeShippingThresholdPaise,
    couponCode,
    couponRefusal,
  } = loaderData;
  const fetcher = useFetcher<CheckoutResult>();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const cart = useCart();
  const defaultAddress = addresses?.find((a) => a.isDefault) ?? addresses?.[0];
  const [addressId, setAddressId] = useState(defaultAddress?.id ?? "");
  const [method, setMethod] = useState<"gateway" | "cod">("gateway");
  const [leaving, setLeaving] = useState(false);
  const ids = { address: useId(), payment: useId() };
  const address = addresses?.find((a) => a.id === addressId);
  // The chosen address's figures, as the server prices them (its PIN's shipping rate).
  const quote = address ? quotes[address.postalCode] : undefined;
  const unserved = quote?.kind === "unknown-pin" ? quote.message : null;
  const totals =
    quote?.kind === "priced"
      ? method === "cod" && quote.codPriced
        ? quote.codPriced
        : quote.priced
      : null;
  const coupon = couponCode
    ? { code: couponCode, refusal: couponRefusal ?? totals?.codeRefusal?.message ?? null }
    : null;
  // Cash on delivery to the chosen address's PIN, as the server weighs it (zone, limit, fee).
  const codQuote = quote?.kind === "priced" ? quote.cod : null;
  const codAllowed = codQuote?.available === true;
  const codFeePaise = method === "cod" && codQuote?.available ? codQuote.feePaise : 0;
  // Another address where cash on delivery isn't offered: back to paying online.
  useEffect(() => {
    if (method === "cod" && codQuote && !codQuote.available) setMethod("gateway");
  }, [method, codQuote]);
  const totalPaise = totals ? totals.totalPaise + codFeePaise : null;
  const navigation = useNavigation();
  const storedCoupon = useCoupon();
  const couponApplied = coupon && !coupon.refusal ? coupon.code : null;
  // The code the cart applied comes along when checkout was opened without one.
  useEffect(() => {
    if (coupon === null && storedCoupon) {
      navigate(`/checkout?coupon=${encodeURIComponent(storedCoupon)}`, { replace: true });
    }
  }, [coupon, storedCoupon, navigate]);
  const linesBlocked = lines.some((l) => !l.available);
  const blocked = linesBlocked || totals === null;
  const busy = fetcher.state !== "idle" || leaving;

  useEffect(() => {
    if (addresses === null) {
      toast({
        title: checkoutText.failedToLoadAddresses,
        description: checkoutText.failedToLoadAddressesDescription,
        variant: "destructive",
      });
    }
  }, [addresses]);

  // Checkout orders the stored cart. When this browser's copy differs (another device or tab
  // changed it), this browser takes the stored cart rather than overwriting it.
  const localKey = cart
    .map((l) => `${l.productId}:${l.quantity}`)
    .sort()
    .join(",");
  const serverKey = lines
    .map((l) => `${l.productId}:${l.quantity}`)
    .sort()
    .join(",");
  const revalidate = revalidator.revalidate;
  const syncedPair = useRef<string | null>(null);
  useEffect(() => {
    const pair = `${localKey}|${serverKey}`;
    if (!localKey || localKey === serverKey || syncedPair.current === pair) return;
    // Once per difference: let this browser's own changes arrive, reload the page's figures,
    // and take the stored cart.
    syncedPair.current = pair;
    void cartSyncIdle()
      .then(() => refreshStoredCart())
      .then(() => revalidate());
  }, [localKey, serverKey, revalidate]);

  // Back from the payment page (restored from the back/forward cache): the form works again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  useOutcomeToast(
    fetcher,
    (result) =>
      result.kind === "error"
        ? { title: result.title, description: result.description, variant: "destructive" }
        : null,
    (result) => {
      if (result.kind === "redirect") {
        setLeaving(true);
        setCoupon(null);
        rememberPayment({ orderId: result.orderId, transactionId: result.transactionId });
        window.location.assign(result.paymentUrl);
      } else if (result.kind === "placed") {
        setCoupon(null);
        cartActions.ordered();
        navigate("/orders");
      } else {
        void revalidate();
      }
    },
  );

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!addressId) {
      toast({
        title: checkoutText.noAddressSelected,
        description: checkoutText.noAddressSelectedDescription,
        variant: "destructive",
      });
      return;
    }
    if (!address) {
      toast({
        title: checkoutText.addressNotAvailable,
        description: "Please choose another address or add a new one.",
        variant: "destructive",
      });
      return;
    }
    const form = new FormData(event.currentTarget);
    // The order is made from the stored cart: not while a change made here hasn't reached it.
    if (!(await cartSyncIdle())) {
      toast({ ...cartNotSavedText, variant: "destructive" });
      return;
    }
    fetcher.submit(form, { method: "post" });
  };

  const totalText = totalPaise !== null ? formatPaise(totalPaise) : "";
  const submitLabel = busy
    ? method === "gateway"
      ? checkoutText.redirecting
      : checkoutText.placing
    : method === "gateway"
      ? totals
        ? `Pay ${totalText}`
        : "Pay"
      : `Place Order${totals ? ` · ${totalText}` : ""}`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="font-bold text-3xl tracking-tight">Checkout</h1>
      <form
        method="post"
        onSubmit={submit}
        className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]"
        aria-busy={busy}
      >
        {totalPaise !== null && (
          <input type="hidden" name="expectedTotalPaise" value={totalPaise} />
        )}
        <input type="hidden" name="attemptToken" value={loaderData.attemptToken} />
        {couponApplied && <input type="hidden" name="couponCode" value={couponApplied} />}
        <div className="flex flex-col gap-6">
          <section className="rounded-lg border bg-card p-4 sm:p-6" aria-labelledby={ids.address}>
            <h2 id={ids.address} className="flex items-center gap-2 font-semibold text-lg">
              <MapPin aria-hidden="true" className="size-5" /> Shipping Address
            </h2>
            <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
              <label className="flex min-w-0 flex-1 flex-col gap-1.5 font-medium text-sm">
                Deliver to
                <select
                  name="addressId"
                  value={addressId}
                  onChange={(e) => setAddressId(e.target.value)}
                  className="h-10 w-full min-w-0 truncate rounded-md border border-input bg-background px-3 text-base sm:text-sm"
                  disabled={busy}
                >
                  {(addresses ?? []).length === 0 && <option value="">No saved addresses</option>}
                  {(addresses ?? []).map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.label} · {a.name}, {a.line1}, {a.city}
                      {a.isDefault ? " (default)" : ""}
                    </option>
                  ))}
                </select>
              </label>
              <Link
                to="/addresses?from=checkout"
                className="inline-flex h-10 items-center rounded-md px-3 font-medium text-primary text-sm underline-offset-4 hover:underline"
              >
                + Add New Address
              </Link>
            </div>
            {address && (
              <div className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
                <div>
                  <h3 className="font-medium text-muted-foreground">Contact</h3>
                  <p className="mt-1">{customer.name}</p>
                  <p className="break-all">{customer.email}</p>
                  <p>{address.phone}</p>
                </div>
                <div>
                  <h3 className="font-medium text-muted-foreground">Shipping to</h3>
                  <address className="mt-1 not-italic">
                    {address.name}
                    <br />
                    {address.line1}
                    <br />
                    {address.city}, {address.state} {address.postalCode}
                    <br />
                    {address.country}
                  </address>
                </div>
              </div>
            )}
          </section>

          <fieldset className="rounded-lg border bg-card p-4 sm:p-6" disabled={busy}>
            <legend
              id={ids.payment}
              className="float-left flex items-center gap-2 font-semibold text-lg"
            >
              <Wallet aria-hidden="true" className="size-5" /> Payment Method
            </legend>
            <div className="clear-both mt-4 flex flex-col gap-3">
              <PaymentOption
                value="gateway"
                checked={method === "gateway"}
                onSelect={() => setMethod("gateway")}
                icon={<Smartphone aria-hidden="true" className="size-5" />}
                title={loaderData.gatewayLabel}
                note="UPI, cards and net banking on a secure payment page"
                badge="Recommended"
              />
              {cod.enabled && (
                <PaymentOption
                  value="cod"
                  checked={method === "cod"}
                  onSelect={() => setMethod("cod")}
                  disabled={!codAllowed}
                  icon={<Wallet aria-hidden="true" className="size-5" />}
                  title="Cash on Delivery"
                  note={
                    codQuote === null
                      ? "Pay in cash when your order arrives"
                      : codQuote.available
                        ? `Pay in cash when your order arrives${
                            codQuote.feePaise > 0
                              ? ` · ${formatPaise(codQuote.feePaise)} cash on delivery fee`
                              : ""
                          }`
                        : codQuote.reason
                  }
                />
              )}
              <PaymentOption
                value="card"
                checked={false}
                onSelect={() => {}}
                disabled
                icon={<CreditCard aria-hidden="true" className="size-5" />}
                title="Credit / Debit Card"
                note="Coming Soon"
              />
            </div>
          </fieldset>
        </div>

        <aside className="h-fit rounded-lg border bg-card p-4 sm:p-6 lg:sticky lg:top-20">
          <h2 className="font-semibold text-lg">Order Summary</h2>
          <ul className="mt-4 flex flex-col gap-3" aria-label="Items in this order">
            {lines.map((l) => (
              <li key={l.variantId} className="flex gap-3 text-sm">
                <ProductImage
                  src={l.image}
                  alt=""
                  sizes="56px"
                  className="size-14 shrink-0 rounded-md object-cover"
                />
                <div className="min-w-0 flex-1">
                  <p className="line-clamp-2 font-medium">{l.name}</p>
                  {l.options.length > 0 ? <p>{optionLabel(l.options)}</p> : null}
                  <p className="text-muted-foreground">
                    {l.quantity} × {formatPaise(l.pricePaise)}
                  </p>
                  {!l.available && (
                    <p className="font-medium text-destructive">
                      {l.stockLeft !== null && l.stockLeft > 0
                        ? `Only ${l.stockLeft} left`
                        : "Unavailable"}
                    </p>
                  )}
                </div>
                <p className="font-medium tabular-nums">{formatPaise(l.pricePaise * l.quantity)}</p>
              </li>
            ))}
          </ul>
          {totals ? (
            <dl className="mt-4 flex flex-col gap-2 border-t pt-4 text-sm">
              <SummaryRow label="Subtotal" value={formatPaise(totals.subtotalPaise)} />
              <DiscountRows applied={totals.applied} />
              <SummaryRow
                label="Shipping"
                note={quote?.kind === "priced" ? (quote.note ?? undefined) : undefined}
                value={totals.shippingPaise === 0 ? "Free" : formatPaise(totals.shippingPaise)}
                testId="checkout-shipping"
              />
              {codFeePaise > 0 && (
                <SummaryRow
                  label="Cash on delivery fee"
                  value={formatPaise(codFeePaise)}
                  testId="checkout-cod-fee"
                />
              )}
              <SummaryRow label="Tax" value={formatPaise(totals.taxPaise)} />
              <div className="flex justify-between border-t pt-2 font-semibold text-base">
                <dt>Total</dt>
                <dd className="tabular-nums" data-testid="checkout-total">
                  {totalText}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="mt-4 border-t pt-4 text-sm" role="alert" data-testid="checkout-unserved">
              {unserved ?? checkoutText.noAddressSelectedDescription}
            </p>
          )}
          <FreeShippingNote shortfallPaise={totals?.freeShippingShortfallPaise ?? null} />
          {freeShippingThresholdPaise !== null && (
            <p className="mt-2 text-muted-foreground text-xs">
              Free shipping on orders of {formatPaise(freeShippingThresholdPaise)} or more
            </p>
          )}
          <div className="mt-4 border-t pt-4">
            <CouponField
              applied={couponApplied}
              refusal={coupon?.refusal ?? null}
              busy={navigation.state !== "idle" || busy}
              onApply={(typed) => {
                // Kept for the cart too (which says why, should it stop applying).
                const code = typed.trim().toUpperCase();
                setCoupon(code);
                navigate(`/checkout?coupon=${encodeURIComponent(code)}`, {
                  replace: true,
                  preventScrollReset: true,
                });
              }}
              onRemove={() => {
                setCoupon(null);
                navigate("/checkout?coupon=", { replace: true, preventScrollReset: true });
              }}
            />
          </div>
          {linesBlocked && (
            <p className="mt-4 text-destructive text-sm" role="alert">
              Some items can't be ordered right now.{" "}
              <Link to="/cart" className="underline">
                Update your cart
              </Link>{" "}
              to continue.
            </p>
          )}
          {method === "cod" && loaderData.openPayments.length > 0 && (
            <p
              className="mt-4 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
              role="status"
              data-testid="open-payment-notice"
            >
              {checkoutText.openPaymentReplaced(loaderData.openPayments)}
            </p>
          )}
          <input type="hidden" name="paymentMethod" value={method} />
          <Button type="submit" size="lg" className="mt-4 w-full" disabled={busy || blocked}>
            <Lock aria-hidden="true" className="size-4" />
            {submitLabel}
          </Button>
          <p className="mt-2 text-center text-muted-foreground text-xs">
            Prices include every charge shown. You can review the order before paying.
          </p>
        </aside>
      </form>
    </div>
  );
}

function SummaryRow({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId?: string;
}) {
  return (
    <div className="flex justify-between gap-2">
      <dt className="text-muted-foreground">
        {label}
        {note && <span className="block text-xs">{note}</span>}
      </dt>
      <dd className="tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function PaymentOption(props: {
  value: string;
  checked: boolean;
  onSelect: () => void;
  disabled?: boolean;
  icon: React.ReactNode;
  title: string;
  note: string;
  badge?: string;
}) {
  return (
    <label
      className={`flex items-center gap-3 rounded-md border p-3 ${
        props.disabled
          ? "cursor-not-allowed opacity-60"
          : "cursor-pointer has-[:checked]:border-primary has-[:checked]:bg-primary/5"
      }`}
    >
      <input
        type="radio"
        name="paymentChoice"
        value={props.value}
        checked={props.checked}
        onChange={props.onSelect}
        disabled={props.disabled}
        className="size-4 accent-primary"
      />
      {props.icon}
      <span className="flex flex-1 flex-col">
        <span className="font-medium">
          {props.title}
          {props.badge && (
            <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 font-medium text-primary text-xs">
              {props.badge}
            </span>
          )}
        </span>
        <span className="text-muted-foreground text-sm">{props.note}</span>
      </span>
    </label>
  );
}
