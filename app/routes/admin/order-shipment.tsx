import { ArrowLeft, Download, Truck, X } from "lucide-react";
import { useId } from "react";
import { data, Link, useFetcher } from "react-router";
import { CarrierError } from "~/adapters/shipping/index.server.ts";
import { AdminDate } from "~/components/admin/admin-date";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import { OrderNotFoundError } from "~/modules/orders/lifecycle.server.ts";
import {
  type BookingQuote,
  bookingQuote,
  bookShipment,
  cancelShipment,
  liveShipment,
  orderForShipment,
  requestPickup,
  ShipmentError,
  shipmentsForOrders,
} from "~/modules/shipping/shipments.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import {
  bookShipmentSchema,
  cancellableStage,
  expectedDateText,
  stageLabels,
} from "~/rules/courier.ts";
import { isUuid } from "~/rules/ids.ts";
import { formatPaise } from "~/rules/money.ts";
import { statusLabel } from "~/rules/orders.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/order-shipment";

/*
 * /admin/orders/:id/shipment (issue 24, decision 0016): book an order's parcel with the courier
 * (couriers with price and days from the carrier, the parcel prefilled from the products), then
 * its label PDF, a pickup request or cancelling the booking, and the courier's updates. The
 * server checks every step against the order's and the shipment's state (409 with the reason).
 */

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  if (!isUuid(params.id)) throw data("Order not found", { status: 404 });
  const rt = await runtime();
  const order = await orderForShipment(rt.db, params.id);
  if (!order) throw data("Order not found", { status: 404 });
  const shipment = (await shipmentsForOrders(rt.db, [order.id])).get(order.id) ?? null;
  let quote: BookingQuote | null = null;
  let quoteError: string | null = null;
  if (order.status === "processing" && !(await liveShipment(rt.db, order.id))) {
    try {
      quote = await bookingQuote({ db: rt.db, carrier: rt.shipping }, order.id);
    } catch (error) {
      if (!(error instanceof CarrierError)) throw error;
      log.warning("courier rates failed", { error, orderId: order.id });
      quoteError = "The courier didn't answer with rates. Please try again in a minute.";
    }
  }
  return {
    order: {
      id: order.id,
      orderNumber: order.orderNumber,
      status: order.status,
      pin: order.shippingAddress.postalCode,
      city: order.shippingAddress.city,
    },
    carrier: rt.shipping.name,
    shipment,
    quote,
    quoteError,
  };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return pageMeta({
    title: loaderData ? `Shipment · ${loaderData.order.orderNumber} · Admin` : "Shipment · Admin",
    description: "Book an order's parcel with the courier.",
    path: "/admin/orders",
    origin: originFrom(matches),
    noindex: true,
  });
}

export type ShipmentActionResult =
  | { ok: true; intent: "book" | "pickup" | "cancel" }
  | { ok: false; error: string; fieldErrors?: Partial<Record<string, string>> };

const failed = (
  error: string,
  status: number,
  extra: { fieldErrors?: Partial<Record<string, string>> } = {},
) => data<ShipmentActionResult>({ ok: false, error, ...extra }, { status });

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const fields = formFields(await readForm(request));
  if (!isUuid(params.id)) return failed("Order not found", 404);
  const intent = fields.intent;
  if (intent !== "book" && intent !== "pickup" && intent !== "cancel") {
    return failed("Unknown action", 400);
  }
  const rt = await runtime();
  const deps = { db: rt.db, carrier: rt.shipping, jobs: rt.jobRunner };
  try {
    if (intent === "book") {
      const parsed = bookShipmentSchema.safeParse(fields);
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return failed(Object.values(errors)[0] ?? "Please check the form.", 400, {
          fieldErrors: errors,
        });
      }
      if (rt.shipping.name === "manual" && (!parsed.data.courierName || !parsed.data.awb)) {
        return failed("Please enter the courier and its AWB (tracking number).", 400, {
          fieldErrors: {
            ...(parsed.data.courierName ? {} : { courierName: "Please enter the courier." }),
            ...(parsed.data.awb ? {} : { awb: "Please enter the AWB." }),
          },
        });
      }
      await bookShipment(deps, params.id, parsed.data, viewer);
    } else {
      const live = await liveShipment(rt.db, params.id);
      if (!live) return failed("This order has no shipment booked.", 409);
      if (intent === "pickup") await requestPickup(deps, live.id, viewer);
      else await cancelShipment(deps, live.id, viewer);
    }
    return data<ShipmentActionResult>({ ok: true, intent });
  } catch (error) {
    if (error instanceof OrderNotFoundError) return failed("Order not found", 404);
    if (error instanceof ShipmentError) return failed(error.message, 409);
    if (error instanceof CarrierError) {
      log.warning("courier refused a staff action", { error, orderId: params.id, intent });
      return failed(`The courier refused: ${error.message}`, 502);
    }
    log.error("shipment action failed", { error, orderId: params.id, intent, adminId: viewer.id });
    return failed("Please try again.", 500);
  }
}

export default function AdminOrderShipment({ loaderData }: Route.ComponentProps) {
  const { order, shipment, quote, quoteError, carrier } = loaderData;
  const live = shipment && shipment.stage !== "cancelled" ? shipment : null;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:py-10">
      <Link
        to={`/admin/orders/${order.id}`}
        className="mb-4 inline-flex items-center gap-1 text-muted-foreground text-sm underline-offset-4 hover:text-foreground hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to {order.orderNumber}
      </Link>
      <h1 className="mb-1 font-bold text-2xl tracking-tight sm:text-3xl">Shipment</h1>
      <p className="mb-6 text-muted-foreground text-sm">
        {order.orderNumber} · {statusLabel(order.status)} · to {order.city} {order.pin}
      </p>
      {live ? (
        <ShipmentCard shipment={live} />
      ) : order.status !== "processing" ? (
        <p className="rounded-md border p-4 text-sm" role="status">
          Only a processing order (paid, or placed for cash on delivery) is booked with a courier.
        </p>
      ) : quoteError ? (
        <p className="rounded-md border border-destructive/50 p-4 text-sm" role="alert">
          {quoteError}
        </p>
      ) : quote ? (
        <BookForm orderId={order.id} quote={quote} manual={carrier === "manual"} />
      ) : null}
    </div>
  );
}

type Shipment = NonNullable<Route.ComponentProps["loaderData"]["shipment"]>;
type Quote = NonNullable<Route.ComponentProps["loaderData"]["quote"]>;

function ActionError({ result }: { result: ShipmentActionResult | undefined }) {
  if (!result || result.ok) return null;
  return (
    <p className="text-destructive text-sm" role="alert" data-testid="shipment-error">
      {result.error}
    </p>
  );
}

function BookForm({ orderId, quote, manual }: { orderId: string; quote: Quote; manual: boolean }) {
  const fetcher = useFetcher<ShipmentActionResult>();
  const busy = fetcher.state !== "idle";
  const id = useId();
  const errors = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors ?? {}) : {};
  if (!quote.options.serviceable) {
    return (
      <p className="rounded-md border p-4 text-sm" role="status" data-testid="not-serviceable">
        {quote.options.reason}.
      </p>
    );
  }
  const { options, recommendedId } = quote.options;
  // The courier the customer's shipping was charged for, else the carrier's recommendation.
  const first =
    options.find((o) => o.courierId === quote.checkoutCourierId) ??
    options.find((o) => o.courierId === recommendedId) ??
    options[0];
  return (
    <fetcher.Form
      method="post"
      action={`/admin/orders/${orderId}/shipment`}
      className="grid gap-5 rounded-xl border bg-card p-4 sm:p-5"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="font-semibold">
        Book shipment
      </h2>
      <input type="hidden" name="intent" value="book" />
      <fieldset className="grid gap-2">
        <legend className="mb-2 font-medium text-sm">Courier</legend>
        {options.map((o) => (
          <label
            key={o.courierId}
            className="flex cursor-pointer items-center justify-between gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary"
            data-testid="courier-option"
          >
            <span className="flex items-center gap-2">
              <input
                type="radio"
                name="courierId"
                value={o.courierId}
                defaultChecked={o.courierId === first?.courierId}
              />
              <span className="font-medium">{o.courierName}</span>
            </span>
            <span className="text-right text-muted-foreground tabular-nums">
              {formatPaise(o.paise)}
              {o.days !== null ? ` · ${o.days} day${o.days === 1 ? "" : "s"}` : ""}
              {o.etd ? ` · by ${expectedDateText(o.etd)}` : ""}
            </span>
          </label>
        ))}
      </fieldset>
      {quote.cod ? (
        <p className="text-muted-foreground text-sm">
          Cash on delivery: only couriers that collect cash are listed.
        </p>
      ) : null}
      {manual ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Courier name" name="courierName" error={errors.courierName} />
          <Field label="AWB (tracking number)" name="awb" error={errors.awb} />
        </div>
      ) : null}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Field label="Weight (g)" name="grams" defaultValue={quote.grams} error={errors.grams} />
        <Field
          label="Length (cm)"
          name="lengthCm"
          defaultValue={quote.box.lengthCm}
          error={errors.lengthCm}
        />
        <Field
          label="Width (cm)"
          name="widthCm"
          defaultValue={quote.box.widthCm}
          error={errors.widthCm}
        />
        <Field
          label="Height (cm)"
          name="heightCm"
          defaultValue={quote.box.heightCm}
          error={errors.heightCm}
        />
      </div>
      <ActionError result={fetcher.data} />
      <div>
        <Button type="submit" disabled={busy} data-testid="book-shipment">
          <Truck aria-hidden="true" />
          {busy ? "Booking…" : "Book shipment"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function Field({
  label,
  name,
  defaultValue,
  error,
}: {
  label: string;
  name: string;
  defaultValue?: string | number;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        defaultValue={defaultValue}
        inputMode={typeof defaultValue === "number" ? "numeric" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ShipmentCard({ shipment }: { shipment: Shipment }) {
  const fetcher = useFetcher<ShipmentActionResult>();
  const busy = fetcher.state !== "idle";
  const canChange = cancellableStage(shipment.stage);
  const action = `/admin/orders/${shipment.orderId}/shipment`;
  return (
    <section className="grid gap-4 rounded-xl border bg-card p-4 sm:p-5" data-testid="shipment">
      <dl className="grid gap-1 text-sm">
        <Row label="Courier" value={shipment.courierName} />
        <Row
          label="AWB"
          value={
            <span className="break-all font-mono" data-testid="shipment-awb">
              {shipment.awb}
            </span>
          }
        />
        <Row
          label="Stage"
          value={<span data-testid="shipment-stage">{stageLabels[shipment.stage]}</span>}
        />
        {shipment.ratePaise !== null ? (
          <Row label="Courier's price" value={formatPaise(shipment.ratePaise)} />
        ) : null}
        {shipment.expectedDate ? (
          <Row label="Expected" value={expectedDateText(shipment.expectedDate)} />
        ) : null}
        <Row
          label="Parcel"
          value={`${shipment.grams} g · ${shipment.boxLengthCm}×${shipment.boxWidthCm}×${shipment.boxHeightCm} cm`}
        />
        {shipment.pickupRequestedAt ? (
          <Row
            label="Pickup"
            value={
              <span data-testid="shipment-pickup">
                {shipment.pickupDate ? expectedDateText(shipment.pickupDate) : "Requested"}
                {shipment.pickupToken ? ` · ${shipment.pickupToken}` : ""}
              </span>
            }
          />
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        <a
          href={`/admin/shipments/${shipment.id}/label.pdf`}
          className={buttonVariants({ variant: "outline" })}
          data-testid="shipment-label"
          download
        >
          <Download aria-hidden="true" />
          Download label (PDF)
        </a>
        {canChange ? (
          <>
            {shipment.pickupRequestedAt ? null : (
              <fetcher.Form method="post" action={action}>
                <input type="hidden" name="intent" value="pickup" />
                <Button type="submit" disabled={busy} data-testid="request-pickup">
                  <Truck aria-hidden="true" />
                  Request pickup
                </Button>
              </fetcher.Form>
            )}
            <fetcher.Form method="post" action={action}>
              <input type="hidden" name="intent" value="cancel" />
              <Button type="submit" variant="outline" disabled={busy}>
                <X aria-hidden="true" />
                Cancel booking
              </Button>
            </fetcher.Form>
          </>
        ) : null}
      </div>
      <ActionError result={fetcher.data} />
      {shipment.events.length > 0 ? (
        <div>
          <h2 className="mb-2 font-semibold">Courier updates</h2>
          <ol className="grid gap-2 text-sm" data-testid="shipment-events">
            {shipment.events.map((e) => (
              <li key={e.id} className="flex flex-wrap justify-between gap-2">
                <span>
                  {stageLabels[e.stage]}
                  {e.location ? ` · ${e.location}` : ""}
                </span>
                <span className="text-muted-foreground">
                  <AdminDate value={e.occurredAt} />
                </span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className={cn("flex justify-between gap-4")}>
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right">{value}</dd>
    </div>
  );
}
