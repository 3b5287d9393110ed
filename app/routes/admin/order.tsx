import {
  ArrowLeft,
  Ban,
  Banknote,
  Check,
  CircleDollarSign,
  ExternalLink,
  LoaderCircle,
  PackageCheck,
  Truck,
  X,
} from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import {
  OrderStatusBadge,
  PaymentStatusBadge,
  ReturnBadge,
} from "~/components/orders/status-badges";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
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
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  applyOrderAction,
  getAdminOrder,
  OrderNotFoundError,
  OrderStateError,
} from "~/modules/orders/admin-orders.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { isOrderAction, type OrderAction, shipSchema } from "~/rules/admin-orders.ts";
import { isUuid } from "~/rules/ids.ts";
import { formatPaise } from "~/rules/money.ts";
import { statusLabel } from "~/rules/orders.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/order";

/*
 * /admin/orders/:id (issue 7): one order in full, and the staff actions DESIGN.md decision 5
 * allows for its current state: ship (carrier and tracking), deliver, cancel (stock goes back),
 * record a cash-on-delivery payment, approve or reject a return, record a refund. The server
 * decides what is allowed; an action the state doesn't allow gets a 409.
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  if (!isUuid(params.id)) throw data("Order not found", { status: 404 });
  const { db } = await runtime();
  try {
    return { order: await getAdminOrder(db, params.id) };
  } catch (error) {
    if (error instanceof OrderNotFoundError) throw data("Order not found", { status: 404 });
    log.error("admin order failed to load", { error, orderId: params.id, adminId: viewer.id });
    throw data("Failed to load", { status: 500, statusText: "Failed to load" });
  }
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return pageMeta({
    title: loaderData ? `${loaderData.order.orderNumber} · Orders · Admin` : "Order · Admin",
    description: "An order's details and its next steps.",
    path: "/admin/orders",
    origin: originFrom(matches),
    noindex: true,
  });
}

/** What the action answers. */
export type OrderActionResult =
  | { ok: true; action: OrderAction }
  | { ok: false; error: string; fieldErrors?: Partial<Record<string, string>> };

const failed = (
  error: string,
  status: number,
  extra: { fieldErrors?: Partial<Record<string, string>> } = {},
) => data<OrderActionResult>({ ok: false, error, ...extra }, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const fields = formFields(await readForm(request));
  if (!isUuid(params.id)) return failed("Order not found", 404);
  const intent = fields.intent;
  if (!isOrderAction(intent)) return failed("Unknown action", 400);
  let ship: ReturnType<typeof shipSchema.parse> | undefined;
  if (intent === "ship") {
    const parsed = shipSchema.safeParse(fields);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return failed(Object.values(errors)[0] ?? "Please check the form.", 400, {
        fieldErrors: errors,
      });
    }
    ship = parsed.data;
  }
  const { db, jobRunner } = await runtime();
  try {
    await applyOrderAction({ db, jobs: jobRunner }, viewer, params.id, intent, ship);
    return data<OrderActionResult>({ ok: true, action: intent });
  } catch (error) {
    if (error instanceof OrderNotFoundError) return failed("Order not found", 404);
    if (error instanceof OrderStateError) return failed(error.message, 409);
    log.error("admin order action failed", {
      error,
      orderId: params.id,
      intent,
      adminId: viewer.id,
    });
    return failed("Please try again.", 500);
  }
}

type Order = Route.ComponentProps["loaderData"]["order"];

export default function AdminOrder({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  const money = (paise: number) => formatPaise(paise, order.currency);
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:py-10">
      <Link
        to="/admin/orders"
        className="mb-4 inline-flex items-center gap-1 text-muted-foreground text-sm underline-offset-4 hover:text-foreground hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All orders
      </Link>

      <header className="mb-6 flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-all font-bold font-mono text-2xl tracking-tight sm:text-3xl">
            {order.orderNumber}
          </h1>
          <span data-testid="order-status">
            <OrderStatusBadge status={order.status} />
          </span>
          <PaymentStatusBadge status={order.paymentStatus} label="Payment" />
          {order.returnRequest ? <ReturnBadge status={order.returnRequest.status} /> : null}
        </div>
        <p className="text-muted-foreground text-sm">
          Placed <AdminDate value={order.createdAt} /> by {order.customer.name} ·{" "}
          {money(order.totalPaise)}
        </p>
        {order.status === "cancelled" && order.paymentStatus === "paid" ? (
          <p
            className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
            role="status"
            data-testid="admin-refund-due"
          >
            Refund due: {money(order.totalPaise)}. The order was cancelled after the customer paid;
            record the refund once the money has gone back.
          </p>
        ) : null}
      </header>

      <Actions order={order} />

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 content-start gap-6 lg:col-span-2">
          {order.returnRequest ? <ReturnCard order={order} /> : null}
          <Card title="Items">
            <ul className="grid gap-3">
              {order.items.map((item) => (
                <li key={item.id} className="flex justify-between gap-4 text-sm">
                  <div className="min-w-0">
                    {item.quoteId ? (
                      <Link
                        to={`/admin/quotes/${item.quoteId}`}
                        className="break-words font-medium underline-offset-4 hover:underline"
                      >
                        {item.name}
                      </Link>
                    ) : item.productId ? (
                      <Link
                        to={`/product/${item.productId}`}
                        className="break-words font-medium underline-offset-4 hover:underline"
                      >
                        {item.name}
                      </Link>
                    ) : (
                      <span className="break-words font-medium">{item.name}</span>
                    )}
                    {item.options ? <p data-testid="item-options">{item.options}</p> : null}
                    <p className="text-muted-foreground">
                      {item.quantity} × {money(item.unitPricePaise)} · HSN {item.hsnCode}
                    </p>
                  </div>
                  <span className="shrink-0 text-right tabular-nums">
                    {money(item.unitPricePaise * item.quantity)}
                    {item.discountPaise > 0 ? (
                      <span
                        className="block text-muted-foreground text-xs"
                        data-testid="admin-item-discount"
                      >
                        −{money(item.discountPaise)} discount
                      </span>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
            <dl className="mt-4 grid gap-1 border-t pt-4 text-sm">
              <Row label="Subtotal" value={money(order.subtotalPaise)} />
              <DiscountRows order={order} on="items" />
              <Row
                label={`Shipping (${order.shippingMethod.label})`}
                value={order.shippingPaise === 0 ? "Free" : money(order.shippingPaise)}
              />
              <DiscountRows order={order} on="shipping" />
              <Row
                label={`Tax (${(order.taxRateBasisPoints / 100).toFixed(2).replace(/\.00$/, "")}%)`}
                value={money(order.taxPaise)}
              />
              <Row label="Total" value={money(order.totalPaise)} strong />
            </dl>
          </Card>
          <History order={order} />
        </div>

        <div className="grid min-w-0 content-start gap-6">
          <Card title="Customer">
            <dl className="grid gap-1 text-sm">
              <Row label="Name" value={order.customer.name} />
              <Row
                label="E-mail"
                value={
                  <a
                    href={`mailto:${order.customer.email}`}
                    className="break-all underline-offset-4 hover:underline"
                  >
                    {order.customer.email}
                  </a>
                }
              />
              {order.customer.phone ? <Row label="Phone" value={order.customer.phone} /> : null}
            </dl>
          </Card>
          <Card title="Payment">
            <dl className="grid gap-1 text-sm">
              <Row label="Method" value={order.paymentLabel} />
              <Row label="Status" value={statusLabel(order.paymentStatus)} />
              <Row label="Provider" value={order.paymentProvider} />
              <Row
                label="Transaction id"
                value={
                  <span className="break-all font-mono text-xs">
                    {order.paymentTransactionId ?? "—"}
                  </span>
                }
              />
              {order.paymentReference ? (
                <Row
                  label="Gateway reference"
                  value={
                    <span className="break-all font-mono text-xs">{order.paymentReference}</span>
                  }
                />
              ) : null}
              {order.invoiceNumber ? <Row label="Invoice" value={order.invoiceNumber} /> : null}
            </dl>
          </Card>
          <Card title="Shipping and tracking">
            <dl className="grid gap-1 text-sm">
              <Row label="Method" value={order.shippingMethod.label} />
              {order.tracking ? (
                <>
                  <Row label="Carrier" value={order.tracking.carrier} />
                  <Row
                    label="Tracking number"
                    value={
                      <span className="break-all font-mono" data-testid="tracking-number">
                        {order.tracking.trackingNumber}
                      </span>
                    }
                  />
                  {order.tracking.trackingUrl &&
                  /^https?:\/\//i.test(order.tracking.trackingUrl) ? (
                    <Row
                      label="Tracking link"
                      value={
                        <a
                          href={order.tracking.trackingUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="inline-flex items-center gap-1 underline-offset-4 hover:underline"
                        >
                          Open
                          <ExternalLink aria-hidden="true" className="size-3" />
                          <span className="sr-only"> (opens in a new tab)</span>
                        </a>
                      }
                    />
                  ) : null}
                </>
              ) : (
                <Row label="Tracking" value="Not shipped yet" />
              )}
            </dl>
          </Card>
          <Card title="Shipping address">
            <Address a={order.shippingAddress} />
          </Card>
          <Card title="Billing address">
            <Address a={order.billingAddress} />
          </Card>
          <Card title="Timeline">
            <dl className="grid gap-1 text-sm">
              <Row label="Placed" value={<AdminDate value={order.createdAt} />} />
              {order.paidAt ? (
                <Row label="Paid" value={<AdminDate value={order.paidAt} />} />
              ) : null}
              {order.shippedAt ? (
                <Row label="Shipped" value={<AdminDate value={order.shippedAt} />} />
              ) : null}
              {order.deliveredAt ? (
                <Row label="Delivered" value={<AdminDate value={order.deliveredAt} />} />
              ) : null}
              {order.cancelledAt ? (
                <Row label="Cancelled" value={<AdminDate value={order.cancelledAt} />} />
              ) : null}
              <Row label="Last updated" value={<AdminDate value={order.updatedAt} />} />
            </dl>
            {order.notes ? (
              <div className="mt-3 border-t pt-3 text-sm">
                <h3 className="font-medium">Notes</h3>
                <p className="mt-1 whitespace-pre-line break-words" data-testid="order-notes">
                  {order.notes}
                </p>
              </div>
            ) : null}
          </Card>
        </div>
      </div>
    </div>
  );
}

function Card({
  title,
  children,
  className,
}: {
  title: string;
  children: React.ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={cn(
        "rounded-xl border bg-card p-4 text-card-foreground shadow-xs sm:p-5",
        className,
      )}
    >
      <h2 id={id} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Row({
  label,
  value,
  strong = false,
  testId,
  wrapLabel = false,
}: {
  label: React.ReactNode;
  value: React.ReactNode;
  strong?: boolean;
  testId?: string;
  /** A long label (a discount's) wraps and the amount keeps its width. */
  wrapLabel?: boolean;
}) {
  return (
    <div
      className={cn("flex justify-between gap-4", strong && "mt-1 border-t pt-2 font-semibold")}
      data-testid={testId}
    >
      <dt
        className={cn(
          wrapLabel ? "min-w-0 break-words" : "shrink-0",
          !strong && "text-muted-foreground",
        )}
      >
        {label}
      </dt>
      <dd className={cn("text-right", wrapLabel ? "shrink-0" : "min-w-0")}>{value}</dd>
    </div>
  );
}

/** The order's codes and offers, each linked to its discount's page. */
function DiscountRows({ order, on }: { order: Order; on: "items" | "shipping" }) {
  return order.discounts
    .filter((d) => d.on === on)
    .map((d, i) => (
      <Row
        key={`${d.discountId ?? "stored"}-${on}-${i}`}
        testId="admin-order-discount"
        wrapLabel
        label={
          <>
            {d.discountId ? (
              <Link
                to={`/admin/discounts/${d.discountId}`}
                className="underline-offset-4 hover:text-foreground hover:underline"
              >
                {d.label}
              </Link>
            ) : (
              d.label
            )}
            {d.code && d.name ? <span className="block text-xs">{d.name}</span> : null}
          </>
        }
        value={`−${formatPaise(d.amountPaise, order.currency)}`}
      />
    ));
}

function Address({ a }: { a: Order["shippingAddress"] }) {
  return (
    <address className="grid gap-0.5 text-sm not-italic">
      <span className="font-medium">{a.name}</span>
      <span>{a.line1}</span>
      {a.line2 ? <span>{a.line2}</span> : null}
      <span>
        {a.city}, {a.state} {a.postalCode}
      </span>
      <span>{a.country}</span>
      {a.phone ? <span className="text-muted-foreground">Phone: {a.phone}</span> : null}
    </address>
  );
}

function ReturnCard({ order }: { order: Order }) {
  const ret = order.returnRequest;
  if (!ret) return null;
  return (
    <Card
      title="Return request"
      className={
        ret.status === "requested" ? "border-yellow-400 dark:border-yellow-700" : undefined
      }
    >
      <div className="grid gap-3 text-sm" data-testid="return-request">
        <div className="flex flex-wrap items-center gap-2">
          <ReturnBadge status={ret.status} />
          <span className="text-muted-foreground">
            Requested <AdminDate value={ret.createdAt} />
          </span>
        </div>
        <div>
          <h3 className="font-medium">Items</h3>
          <ul className="mt-1 list-disc pl-5">
            {ret.items.map((i) => (
              <li key={i.orderItemId}>
                {i.name} × {i.quantity}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="font-medium">Reason</h3>
          <p className="mt-1 whitespace-pre-line break-words">{ret.reason}</p>
        </div>
      </div>
    </Card>
  );
}

function History({ order }: { order: Order }) {
  return (
    <Card title="History">
      {order.history.length === 0 ? (
        <p className="text-muted-foreground text-sm">No admin changes yet.</p>
      ) : (
        <ol className="grid gap-3 text-sm">
          {order.history.map((h) => (
            <li key={h.id} className="grid gap-0.5">
              <span className="break-words">{h.summary}</span>
              <span className="text-muted-foreground text-xs">
                <AdminDate value={h.at} /> · <span className="break-all">{h.actorEmail}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

// ---- actions -----------------------------------------------------------------------------------

/** Submits one action and reports its outcome as a toast ('Order updated' / 'Failed to update'). */
function useOrderAction(order: Order, onDone?: (result: OrderActionResult) => void) {
  const fetcher = useFetcher<OrderActionResult>();
  useOutcomeToast(
    fetcher,
    (result) =>
      result.ok
        ? { title: "Order updated", description: `${order.orderNumber} was updated.` }
        : { title: "Failed to update", description: result.error, variant: "destructive" },
    onDone,
  );
  const submit = (intent: OrderAction, fields: Record<string, string> = {}) =>
    fetcher.submit({ intent, ...fields }, { method: "post", action: `/admin/orders/${order.id}` });
  return { fetcher, busy: fetcher.state !== "idle", submit };
}

type Confirmable = Exclude<OrderAction, "ship">;

function confirmation(order: Order, action: Confirmable) {
  const total = formatPaise(order.totalPaise, order.currency);
  const codUnpaid = order.paymentMethod === "cod" && order.paymentStatus === "unpaid";
  switch (action) {
    case "deliver":
      return {
        label: "Mark as delivered",
        icon: PackageCheck,
        title: "Mark this order as delivered?",
        description: `The customer gets a delivery e-mail and can then ask for a return.${
          codUnpaid ? ` The cash on delivery (${total}) is recorded as paid.` : ""
        }`,
        destructive: false,
      };
    case "cancel":
      return {
        label: "Cancel order",
        icon: Ban,
        title: `Cancel ${order.orderNumber}?`,
        description: `Its items go back into stock and the customer is told by e-mail. This can't be undone.${
          order.paymentStatus === "paid"
            ? " The payment stays paid: record the refund once the money has gone back."
            : ""
        }`,
        destructive: true,
        keep: "Keep order",
      };
    case "cod-paid":
      return {
        label: "Mark COD paid",
        icon: Banknote,
        title: "Record the cash payment?",
        description: `Mark ${total} as received for this cash-on-delivery order.`,
        destructive: false,
      };
    case "approve-return":
      return {
        label: "Approve return",
        icon: Check,
        title: "Approve this return?",
        description:
          "The customer's return is accepted. Record the refund once the money has gone back.",
        destructive: false,
      };
    case "reject-return":
      return {
        label: "Reject return",
        icon: X,
        title: "Reject this return?",
        description: "The customer's return request is declined. This can't be undone.",
        destructive: true,
      };
    case "refund":
      return {
        label: "Record refund",
        icon: CircleDollarSign,
        title: `Record a refund of ${total}?`,
        description: `Record it once the money has gone back to the customer. The payment becomes refunded${
          order.status === "delivered" ? " and so does the order." : "."
        }`,
        destructive: false,
      };
  }
}

type OrderActionHandle = ReturnType<typeof useOrderAction>;

/*
 * One fetcher for the whole page: an action's own button disappears once the order moves on,
 * so the outcome is reported from here, which stays mounted.
 */
function Actions({ order }: { order: Order }) {
  const [shipOpen, setShipOpen] = useState(false);
  const act = useOrderAction(order, (result) => {
    if (result.ok) setShipOpen(false);
  });
  return (
    <section
      aria-labelledby="order-actions"
      aria-busy={act.busy}
      className="rounded-xl border bg-card p-4 text-card-foreground shadow-xs sm:p-5"
    >
      <h2 id="order-actions" className="mb-3 font-semibold">
        Actions
      </h2>
      {order.actions.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="no-actions">
          Nothing to do for a {order.status} order
          {order.returnRequest ? ` with a ${order.returnRequest.status} return` : ""}.
        </p>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {order.actions.map((a) =>
            a === "ship" ? (
              <ShipDialog
                key={a}
                order={order}
                act={act}
                open={shipOpen}
                onOpenChange={setShipOpen}
              />
            ) : (
              <ConfirmAction key={a} order={order} action={a} act={act} />
            ),
          )}
        </div>
      )}
    </section>
  );
}

function ConfirmAction({
  order,
  action,
  act,
}: {
  order: Order;
  action: Confirmable;
  act: OrderActionHandle;
}) {
  const c = confirmation(order, action);
  const Icon = c.icon;
  const mine = act.busy && act.fetcher.formData?.get("intent") === action;
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          variant={c.destructive ? "outline" : "default"}
          disabled={act.busy}
          className={cn(
            "max-sm:w-full",
            c.destructive && "text-destructive hover:text-destructive",
          )}
        >
          {mine ? (
            <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <Icon aria-hidden="true" />
          )}
          {c.label}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{c.title}</AlertDialogTitle>
          <AlertDialogDescription>{c.description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{"keep" in c ? c.keep : "Cancel"}</AlertDialogCancel>
          <AlertDialogAction
            className={c.destructive ? buttonVariants({ variant: "destructive" }) : undefined}
            onClick={() => act.submit(action)}
          >
            {c.label}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

type ShipErrors = Partial<Record<"carrier" | "trackingNumber" | "trackingUrl", string>>;

function ShipDialog({
  order,
  act,
  open,
  onOpenChange,
}: {
  order: Order;
  act: OrderActionHandle;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [session, setSession] = useState(0);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setSession((n) => n + 1);
        onOpenChange(next);
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" disabled={act.busy} className="max-sm:w-full">
          <Truck aria-hidden="true" />
          Mark as shipped
        </Button>
      </DialogTrigger>
      {open ? <ShipForm key={session} order={order} act={act} /> : null}
    </Dialog>
  );
}

function ShipForm({ order, act }: { order: Order; act: OrderActionHandle }) {
  const id = useId();
  const [errors, setErrors] = useState<ShipErrors>({});
  const { busy, fetcher } = act;
  const sent = useRef(false);

  // The server's field messages, for the submission this form made.
  useEffect(() => {
    const result = fetcher.data;
    if (!sent.current || fetcher.state !== "idle" || !result || result.ok) return;
    setErrors((result.fieldErrors as ShipErrors | undefined) ?? {});
  }, [fetcher.state, fetcher.data]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const fields = {
      carrier: String(form.get("carrier") ?? ""),
      trackingNumber: String(form.get("trackingNumber") ?? ""),
      trackingUrl: String(form.get("trackingUrl") ?? ""),
    };
    const parsed = shipSchema.safeParse(fields);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error) as ShipErrors);
      return;
    }
    setErrors({});
    sent.current = true;
    act.submit("ship", fields);
  };

  const field = (name: keyof ShipErrors, label: string, props: React.ComponentProps<"input">) => (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <Input
        id={`${id}-${name}`}
        name={name}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        // A field's message goes once it is edited.
        onChange={() => {
          if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
        }}
        {...props}
      />
      {errors[name] ? (
        <p id={`${id}-${name}-error`} className="text-destructive text-sm">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <DialogContent aria-busy={busy}>
      <DialogHeader>
        <DialogTitle>Mark as shipped</DialogTitle>
        <DialogDescription>
          The customer gets an e-mail with these tracking details for {order.orderNumber}.
        </DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <fieldset disabled={busy} className="grid gap-4">
          {field("carrier", "Carrier", {
            required: true,
            maxLength: 100,
            autoComplete: "off",
            placeholder: "e.g. Delhivery",
          })}
          {field("trackingNumber", "Tracking number", {
            required: true,
            maxLength: 100,
            autoComplete: "off",
          })}
          {field("trackingUrl", "Tracking URL (optional)", {
            type: "url",
            inputMode: "url",
            maxLength: 500,
            autoComplete: "off",
            placeholder: "https://",
          })}
        </fieldset>
        <DialogFooter>
          <Button type="submit" disabled={busy}>
            {busy ? (
              <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <Truck aria-hidden="true" />
            )}
            Mark as shipped
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
