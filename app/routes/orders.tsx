import {
  Download,
  ExternalLink,
  LoaderCircle,
  Package,
  PackageOpen,
  Receipt,
  RotateCcw,
  Truck,
} from "lucide-react";
import { useId, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { OrderStatusBadge } from "~/components/orders/status-badges";
import { ProductImage } from "~/components/product/product-image";
import { ReviewDialog } from "~/components/reviews/review-dialog";
import { Button, buttonVariants } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server.ts";
import { OrderNotFoundError } from "~/modules/orders/lifecycle.server.ts";
import { listOrders, ReturnRequestError, requestReturn } from "~/modules/orders/orders.server.ts";
import { shipmentsForOrders } from "~/modules/shipping/shipments.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { type CarrierStage, expectedDateText, FINAL_STAGES, stageLabels } from "~/rules/courier.ts";
import { isUuid } from "~/rules/ids.ts";
import { inIndia } from "~/rules/india-time.ts";
import { formatPaise } from "~/rules/money.ts";
import { paymentMethodLabel, statusLabel } from "~/rules/orders.ts";
import { readyByText } from "~/rules/print-dates.ts";
import { returnLinesSchema } from "~/rules/return-lines.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { linePath } from "~/rules/variant-picker.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/orders";

/*
 * My Orders (SPEC.md §2): the signed-in customer's orders with their reviews, details, tracking,
 * returns and GST invoices (DESIGN.md decision 8).
 */

/** The longest return reason the server accepts. */
const RETURN_REASON_MAX = 1000;

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const { db } = await runtime();
  const list = await listOrders(db, viewer.id);
  // The courier's updates for each order's parcel (decision 0016), without the carrier's ids.
  const shipments = await shipmentsForOrders(
    db,
    list.map((o) => o.id),
  );
  const tracking: Record<string, CustomerTracking> = {};
  for (const [orderId, s] of shipments) {
    if (s.stage === "cancelled") continue;
    tracking[orderId] = {
      courierName: s.courierName,
      awb: s.awb,
      stage: s.stage,
      expectedDate: s.expectedDate,
      events: s.events.map((e) => ({
        id: e.id,
        stage: e.stage,
        location: e.location,
        occurredAt: e.occurredAt.toISOString(),
      })),
    };
  }
  return { orders: list, tracking };
}

/** What the action answers to a return request. */
export type ReturnResult = { ok: true } | { ok?: false; error: string };

const failed = (error: string, status: number) => data<ReturnResult>({ error }, { status });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") !== "return") return failed("Unknown request", 400);
  const orderId = String(form.get("orderId") ?? "");
  if (!isUuid(orderId)) return failed("Order not found", 404);
  // One entry per line; a line named twice is merged, not returned twice (issue 20).
  const lines = returnLinesSchema.safeParse(form.getAll("item"));
  if (!lines.success) return failed(lines.error.issues[0].message, 400);
  const items = lines.data;
  const { db } = await runtime();
  try {
    await requestReturn(db, viewer.id, orderId, {
      items,
      reason: String(form.get("reason") ?? ""),
    });
    return data<ReturnResult>({ ok: true });
  } catch (error) {
    if (error instanceof ReturnRequestError) return failed(error.message, 400);
    if (error instanceof OrderNotFoundError) return failed(error.message, 404);
    throw error;
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "My Orders",
    description: "Your LayerKart orders, their delivery status and invoices.",
    path: "/orders",
    origin: originFrom(matches),
    noindex: true,
  });
}

type Order = Route.ComponentProps["loaderData"]["orders"][number];
type OrderItem = Order["items"][number];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "22 Nov 2026", the date in India; the same on the server and in every browser. */
function formatDate(iso: string): string {
  const ist = inIndia(new Date(iso));
  if (Number.isNaN(ist.getTime())) return "";
  return `${ist.getUTCDate()} ${MONTHS[ist.getUTCMonth()]} ${ist.getUTCFullYear()}`;
}

const returnLabel = (status: string) => `Return ${status}`;

const safeUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

type CustomerTracking = {
  courierName: string;
  awb: string;
  stage: CarrierStage;
  expectedDate: string | null;
  events: Array<{ id: string; stage: CarrierStage; location: string | null; occurredAt: string }>;
};

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders, tracking } = loaderData;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:py-10">
      <div className="mb-6 sm:mb-8">
        <h1 className="font-bold text-3xl tracking-tight">My Orders</h1>
        <p className="mt-1 text-muted-foreground">Track, review and return your prints.</p>
      </div>
      {orders.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center">
          <PackageOpen aria-hidden="true" className="size-10 text-muted-foreground" />
          <h2 className="font-semibold text-xl">No orders yet</h2>
          <p className="max-w-sm text-muted-foreground">
            When you place an order, it will show up here.
          </p>
          <Link to="/" className={cn(buttonVariants(), "mt-2")}>
            Continue Shopping
          </Link>
        </section>
      ) : (
        <ul className="grid gap-4 sm:gap-6" aria-label="Orders">
          {orders.map((order) => (
            <li key={order.id}>
              <OrderCard order={order} tracking={tracking[order.id] ?? null} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function OrderCard({ order, tracking }: { order: Order; tracking: CustomerTracking | null }) {
  useReturnToast(order);
  const headingId = `order-${order.id}`;
  // Reviews are for goods that were (or will be) received, not a cancelled order's.
  const canReview = order.paymentStatus === "paid" && order.status !== "cancelled";
  return (
    <article
      aria-labelledby={headingId}
      data-testid="order-card"
      className="flex flex-col gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-xs sm:p-5"
    >
      <header className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={headingId} className="break-all font-semibold">
              {order.orderNumber}
            </h2>
            <OrderStatusBadge status={order.status} />
          </div>
          <p className="text-muted-foreground text-sm">
            Placed on <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
          </p>
        </div>
        <div className="text-sm sm:text-right">
          <p>
            <span className="text-muted-foreground">Total </span>
            <span className="font-semibold text-base">
              {formatPaise(order.totalPaise, order.currency)}
            </span>
          </p>
          {order.discounts.length > 0 ? (
            <p className="text-muted-foreground" data-testid="order-savings">
              {savingsText(order)}
            </p>
          ) : null}
        </div>
      </header>

      <ul className="grid gap-3 border-t pt-4" aria-label={`Items in ${order.orderNumber}`}>
        {order.items.map((item) => (
          <li key={item.id} className="flex gap-3">
            <ItemImage item={item} />
            <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <ItemName item={item} />
                <p className="text-muted-foreground text-sm">
                  {item.quantity} × {formatPaise(item.unitPricePaise, item.currency)}
                </p>
                {item.custom && item.readyBy && order.status === "processing" ? (
                  <p className="text-sm" data-testid="item-ready-by">
                    {readyByText(item.readyBy)}
                  </p>
                ) : null}
              </div>
              {canReview && item.productId && !item.custom ? (
                <ReviewDialog
                  productId={item.productId}
                  productName={item.name}
                  existing={item.myReview}
                  size="sm"
                  className="self-start sm:self-center"
                  aria-label={`${item.myReview ? "Edit Review" : "Write Review"}: ${item.name}`}
                />
              ) : null}
            </div>
          </li>
        ))}
      </ul>

      {tracking ? <TrackingTimeline orderNumber={order.orderNumber} tracking={tracking} /> : null}

      <div className="flex flex-col gap-2 border-t pt-4 sm:flex-row sm:flex-wrap sm:items-center">
        <DetailsDialog order={order} />
        {order.status === "shipped" ? <TrackDialog order={order} /> : null}
        {order.returnRequest ? (
          <p
            className="inline-flex h-9 items-center gap-2 px-1 text-muted-foreground text-sm"
            data-testid="return-status"
          >
            <RotateCcw aria-hidden="true" className="size-4" />
            {returnLabel(order.returnRequest.status)}
          </p>
        ) : order.status === "delivered" ? (
          <ReturnDialog order={order} />
        ) : null}
        <InvoiceButton order={order} />
      </div>
    </article>
  );
}

const eventTime = (iso: string) => {
  const ist = inIndia(new Date(iso));
  if (Number.isNaN(ist.getTime())) return "";
  const h = ist.getUTCHours();
  const m = String(ist.getUTCMinutes()).padStart(2, "0");
  return `${ist.getUTCDate()} ${MONTHS[ist.getUTCMonth()]}, ${h % 12 || 12}:${m} ${h < 12 ? "am" : "pm"}`;
};

/** The courier's updates, newest first, and the date it is expected (issue 24). */
function TrackingTimeline({
  orderNumber,
  tracking,
}: {
  orderNumber: string;
  tracking: CustomerTracking;
}) {
  const id = useId();
  const done = FINAL_STAGES.includes(tracking.stage);
  const events = [...tracking.events].reverse();
  return (
    <section
      aria-labelledby={id}
      className="grid gap-3 border-t pt-4 text-sm"
      data-testid="tracking-timeline"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={id} className="font-medium">
          <span className="sr-only">{orderNumber}: </span>
          Tracking · {tracking.courierName}{" "}
          <span className="break-all font-mono text-muted-foreground">{tracking.awb}</span>
        </h3>
        {tracking.expectedDate && !done ? (
          <p data-testid="tracking-expected">
            Expected by <strong>{expectedDateText(tracking.expectedDate)}</strong>
          </p>
        ) : null}
      </div>
      {events.length === 0 ? (
        <p className="text-muted-foreground">
          Your parcel is packed and booked with the courier. Updates will appear here.
        </p>
      ) : (
        <ol className="grid gap-2 border-l pl-4">
          {events.map((e, i) => (
            <li key={e.id} className="relative" data-testid="tracking-event">
              <span
                aria-hidden="true"
                className={cn(
                  "-left-[1.3rem] absolute top-1.5 size-2 rounded-full",
                  i === 0 ? "bg-primary" : "bg-muted-foreground/40",
                )}
              />
              <p className={cn(i === 0 && "font-medium")}>{stageLabels[e.stage]}</p>
              <p className="text-muted-foreground">
                <time dateTime={e.occurredAt}>{eventTime(e.occurredAt)}</time>
                {e.location ? ` · ${e.location}` : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function ItemImage({ item }: { item: OrderItem }) {
  return (
    <div className="size-16 shrink-0 overflow-hidden rounded-md border bg-muted">
      <ProductImage src={item.imageUrl} alt="" sizes="64px" className="size-full object-cover" />
    </div>
  );
}

function ItemName({ item }: { item: OrderItem }) {
  // The option values as ordered ("Colour: Red · Size: 7 cm"), for a product with options.
  const options = item.options ? (
    <p className="text-sm" data-testid="item-options">
      {item.options}
    </p>
  ) : null;
  if (!item.productId || item.custom) {
    return (
      <>
        <p className="break-words font-medium">{item.name}</p>
        {options}
      </>
    );
  }
  return (
    <>
      <Link
        to={linePath({ ...item, productId: item.productId })}
        prefetch="intent"
        className="break-words font-medium underline-offset-4 hover:underline focus-visible:underline"
      >
        {item.name}
      </Link>
      {options}
    </>
  );
}

const actionButton = "max-sm:w-full";

function SummaryRow({
  label,
  value,
  note,
  strong = false,
  testId,
}: {
  label: string;
  value: string;
  /** A smaller line under the label (a code's offer name). */
  note?: string;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div
      className={cn("flex justify-between gap-4", strong && "border-t pt-2 font-semibold")}
      data-testid={testId}
    >
      <dt className={cn("min-w-0 break-words", !strong && "text-muted-foreground")}>
        {label}
        {note ? <span className="block text-xs">{note}</span> : null}
      </dt>
      <dd className="shrink-0">{value}</dd>
    </div>
  );
}

/** "You saved ₹300.00 with DIWALI20": the card's one line about the order's discounts. */
function savingsText(order: Order): string {
  // Codes first (the customer typed them), then the offers.
  const ordered = [...order.discounts].sort((x, y) => Number(!x.code) - Number(!y.code));
  const names = [...new Set(ordered.map((d) => d.code ?? d.name).filter(Boolean))];
  const saved = `You saved ${formatPaise(order.discountPaise, order.currency)}`;
  return names.length > 0 ? `${saved} with ${names.join(" and ")}` : saved;
}

/** The order's codes and offers, off the items (before tax) or off the shipping. */
function DiscountRows({ order, on }: { order: Order; on: "items" | "shipping" }) {
  return order.discounts
    .filter((d) => d.on === on)
    .map((d, i) => (
      <SummaryRow
        key={`${d.discountId ?? "stored"}-${on}-${i}`}
        label={d.label}
        note={d.code && d.name ? d.name : undefined}
        value={`−${formatPaise(d.amountPaise, order.currency)}`}
        testId="order-discount"
      />
    ));
}

function DetailsDialog({ order }: { order: Order }) {
  const a = order.shippingAddress;
  const money = (paise: number) => formatPaise(paise, order.currency);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className={actionButton}
          aria-label={`View Details: ${order.orderNumber}`}
        >
          <Receipt aria-hidden="true" />
          View Details
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Order {order.orderNumber}</DialogTitle>
          <DialogDescription>
            Placed on <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-5 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-muted-foreground">Status</span>
            <OrderStatusBadge status={order.status} />
            {order.returnRequest ? (
              <span className="text-muted-foreground">
                · {returnLabel(order.returnRequest.status)}
              </span>
            ) : null}
          </div>

          <section className="grid gap-2">
            <h3 className="font-semibold">Items</h3>
            <ul className="grid gap-2">
              {order.items.map((item) => (
                <li key={item.id} className="flex justify-between gap-4">
                  <span className="min-w-0 break-words">
                    {item.name}{" "}
                    <span className="text-muted-foreground">
                      × {item.quantity} @ {formatPaise(item.unitPricePaise, item.currency)}
                    </span>
                  </span>
                  <span className="shrink-0 text-right">
                    {formatPaise(item.unitPricePaise * item.quantity, item.currency)}
                    {item.discountPaise > 0 ? (
                      <span
                        className="block text-muted-foreground text-xs"
                        data-testid="item-discount"
                      >
                        −{formatPaise(item.discountPaise, item.currency)} off
                      </span>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          </section>

          <section className="grid gap-1">
            <h3 className="font-semibold">Shipping</h3>
            <p>{order.shippingMethod.label}</p>
            <address className="grid gap-0.5 text-muted-foreground not-italic">
              <span className="text-foreground">{a.name}</span>
              <span>{a.line1}</span>
              {a.line2 ? <span>{a.line2}</span> : null}
              <span>
                {a.city}, {a.state} {a.postalCode}
              </span>
              <span>{a.country}</span>
              {a.phone ? <span>Phone: {a.phone}</span> : null}
            </address>
          </section>

          <section className="grid gap-2">
            <h3 className="font-semibold">Payment</h3>
            <dl className="grid gap-1">
              <SummaryRow label="Subtotal" value={money(order.subtotalPaise)} />
              <DiscountRows order={order} on="items" />
              <SummaryRow
                label="Shipping"
                value={order.shippingPaise === 0 ? "Free" : money(order.shippingPaise)}
              />
              <DiscountRows order={order} on="shipping" />
              {order.codFeePaise > 0 && (
                <SummaryRow label="Cash on delivery fee" value={money(order.codFeePaise)} />
              )}
              <SummaryRow
                label={
                  order.discounts.some((d) => d.on === "items")
                    ? "Tax (on the discounted items)"
                    : "Tax"
                }
                value={money(order.taxPaise)}
              />
              <SummaryRow label="Total" value={money(order.totalPaise)} strong />
            </dl>
            <dl className="mt-1 grid gap-1">
              <SummaryRow
                label="Payment method"
                value={paymentMethodLabel(order.paymentMethod, order.paymentProvider)}
              />
              <SummaryRow label="Payment status" value={statusLabel(order.paymentStatus)} />
            </dl>
            {order.status === "cancelled" && order.paymentStatus === "paid" ? (
              <p className="mt-2 text-sm" data-testid="refund-due">
                This order was cancelled after you paid: we'll refund the full amount to your
                original payment method within 7 days.
              </p>
            ) : null}
          </section>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function TrackDialog({ order }: { order: Order }) {
  const tracking = order.tracking;
  const url = safeUrl(tracking?.trackingUrl ?? null);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className={actionButton}
          aria-label={`Track Package: ${order.orderNumber}`}
        >
          <Truck aria-hidden="true" />
          Track Package
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Track Package</DialogTitle>
          <DialogDescription>Order {order.orderNumber}</DialogDescription>
        </DialogHeader>
        {tracking ? (
          <div className="grid gap-4 text-sm">
            <dl className="grid gap-2">
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Carrier</dt>
                <dd className="break-words text-right">{tracking.carrier}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Tracking number</dt>
                <dd className="break-all text-right font-mono">{tracking.trackingNumber}</dd>
              </div>
              {order.shippedAt ? (
                <div className="flex justify-between gap-4">
                  <dt className="text-muted-foreground">Shipped on</dt>
                  <dd>
                    <time dateTime={order.shippedAt}>{formatDate(order.shippedAt)}</time>
                  </dd>
                </div>
              ) : null}
            </dl>
            {url ? (
              <DialogFooter>
                <a
                  href={url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonVariants()}
                >
                  <ExternalLink aria-hidden="true" />
                  Track on carrier site
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </DialogFooter>
            ) : null}
          </div>
        ) : (
          <p className="flex items-start gap-2 text-muted-foreground text-sm">
            <Package aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            Your order is on its way. Tracking details will appear here soon.
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ReturnDialog({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className={actionButton}
          aria-label={`Return Items: ${order.orderNumber}`}
        >
          <RotateCcw aria-hidden="true" />
          Return Items
        </Button>
      </DialogTrigger>
      {open ? <ReturnForm order={order} onDone={() => setOpen(false)} /> : null}
    </Dialog>
  );
}

type Choice = { checked: boolean; quantity: string };

const returnFetcherKey = (order: Order) => `return-${order.id}`;

/**
 * Says 'Return requested' once the request is saved. Lives on the order card, which stays on the
 * page: the dialog closes (and its form unmounts) as soon as the saved request reloads the page.
 */
function useReturnToast(order: Order) {
  const fetcher = useFetcher<ReturnResult>({ key: returnFetcherKey(order) });
  useOutcomeToast(fetcher, (result) =>
    "ok" in result && result.ok
      ? {
          title: "Return requested",
          description: `We'll be in touch about order ${order.orderNumber}.`,
        }
      : null,
  );
}

function ReturnForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const fetcher = useFetcher<ReturnResult>({ key: returnFetcherKey(order) });
  const busy = fetcher.state !== "idle";
  const id = useId();
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(
      order.items.map((i) => [
        i.id,
        { checked: order.items.length === 1, quantity: String(i.quantity) },
      ]),
    ),
  );
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<{ items?: string; reason?: string; server?: string }>({});
  // The outcome's toast is useReturnToast's (the dialog may be gone by then).
  useOutcomeToast(
    fetcher,
    () => null,
    (result) => {
      if ("ok" in result && result.ok) onDone();
      else setProblem({ server: "error" in result ? result.error : "Please try again." });
    },
  );

  const choose = (itemId: string, change: Partial<Choice>) =>
    setChoices((c) => ({ ...c, [itemId]: { ...c[itemId], ...change } }));

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const chosen = order.items.filter((i) => choices[i.id]?.checked);
    const next: typeof problem = {};
    if (chosen.length === 0) next.items = "Please choose at least one item to return.";
    if (!reason.trim()) next.reason = "Please tell us why you're returning the items.";
    setProblem(next);
    if (next.items || next.reason) return;
    const form = new FormData();
    form.set("intent", "return");
    form.set("orderId", order.id);
    form.set("reason", reason.trim());
    for (const item of chosen) form.append("item", `${item.id}:${choices[item.id].quantity}`);
    fetcher.submit(form, { method: "post", action: "/orders" });
  };

  return (
    <DialogContent aria-busy={busy}>
      <DialogHeader>
        <DialogTitle>Return Items</DialogTitle>
        <DialogDescription>
          Choose what you'd like to return from order {order.orderNumber}.
        </DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={submit} className="grid gap-4">
        <fieldset disabled={busy} className="grid gap-4">
          <fieldset
            className="grid gap-3"
            aria-describedby={problem.items ? `${id}-items-error` : undefined}
          >
            <legend className="mb-2 font-medium text-sm">Items</legend>
            {order.items.map((item) => {
              const choice = choices[item.id];
              const boxId = `${id}-${item.id}`;
              return (
                <div key={item.id} className="flex items-center gap-3">
                  <input
                    id={boxId}
                    type="checkbox"
                    checked={choice.checked}
                    onChange={(e) => choose(item.id, { checked: e.target.checked })}
                    className="size-5 shrink-0 accent-primary"
                  />
                  <Label
                    htmlFor={boxId}
                    className="min-w-0 flex-1 break-words font-normal leading-snug"
                  >
                    {item.name}
                  </Label>
                  {item.quantity > 1 ? (
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={item.quantity}
                      step={1}
                      value={choice.quantity}
                      disabled={!choice.checked}
                      onChange={(e) => choose(item.id, { quantity: e.target.value })}
                      aria-label={`Quantity to return: ${item.name} (up to ${item.quantity})`}
                      className="w-20 shrink-0"
                    />
                  ) : (
                    <span className="w-20 shrink-0 text-center text-muted-foreground text-sm">
                      Qty 1
                    </span>
                  )}
                </div>
              );
            })}
            {problem.items ? (
              <p id={`${id}-items-error`} className="text-destructive text-sm">
                {problem.items}
              </p>
            ) : null}
          </fieldset>
          <div className="grid gap-2">
            <div className="flex items-baseline justify-between">
              <Label htmlFor={`${id}-reason`}>Reason</Label>
              <span className="text-muted-foreground text-xs">
                {reason.length}/{RETURN_REASON_MAX}
              </span>
            </div>
            <Textarea
              id={`${id}-reason`}
              name="reason"
              rows={4}
              required
              value={reason}
              maxLength={RETURN_REASON_MAX}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={problem.reason ? true : undefined}
              aria-describedby={problem.reason ? `${id}-reason-error` : undefined}
            />
            {problem.reason ? (
              <p id={`${id}-reason-error`} className="text-destructive text-sm">
                {problem.reason}
              </p>
            ) : null}
          </div>
        </fieldset>
        {problem.server ? (
          <p role="alert" className="text-destructive text-sm">
            {problem.server}
          </p>
        ) : null}
        <DialogFooter>
          <Button type="submit" disabled={busy}>
            {busy ? (
              <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <RotateCcw aria-hidden="true" />
            )}
            Request Return
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}

function InvoiceButton({ order }: { order: Order }) {
  const label = `Download Invoice: ${order.orderNumber}`;
  const classes = cn(buttonVariants({ variant: "outline", size: "sm" }), actionButton);
  if (order.canDownloadInvoice) {
    return (
      <a
        href={`/orders/${order.id}/invoice.pdf`}
        download={`invoice-${order.orderNumber}.pdf`}
        className={classes}
        aria-label={label}
      >
        <Download aria-hidden="true" />
        Download Invoice
      </a>
    );
  }
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className={actionButton}
      aria-label={label}
      onClick={() =>
        toast({
          title: "Invoice not ready",
          description: "The invoice is available once the order is paid.",
        })
      }
    >
      <Download aria-hidden="true" />
      Download Invoice
    </Button>
  );
}
