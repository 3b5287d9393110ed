import {
  ChevronLeft,
  ChevronRight,
  ClipboardList,
  Download,
  RotateCcw,
  Search,
} from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useNavigation } from "react-router";
import { AdminDate, useAdminTimezone } from "~/components/admin/admin-date";
import {
  OrderStatusBadge,
  PaymentStatusBadge,
  ReturnBadge,
} from "~/components/orders/status-badges";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/use-toast";
import { cn } from "~/lib/cn";
import { log } from "~/lib/log.server.ts";
import { useHydrated } from "~/lib/use-hydrated";
import {
  type AdminOrderPage,
  countReturnRequests,
  listAdminOrders,
} from "~/modules/orders/admin-orders.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  ADMIN_ORDERS_PAGE_SIZE,
  hasFilters,
  ORDER_SEARCH_MAX,
  ORDER_STATUSES,
  type OrderFilters,
  orderFiltersQuery,
  parseOrderFilters,
} from "~/rules/admin-orders.ts";
import { formatPaise } from "~/rules/money.ts";
import { statusLabel } from "~/rules/orders.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/orders";

/*
 * /admin/orders (issue 7): every order, newest first, filtered by status, date (days in India)
 * and text, with a view of return requests awaiting a decision. The filters live in the URL, so
 * they survive reloads and travel with the CSV export link.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const { db } = await runtime();
  try {
    const [page, returnRequests] = await Promise.all([
      listAdminOrders(db, filters),
      countReturnRequests(db),
    ]);
    return { filters, ...page, returnRequests, failed: false };
  } catch (error) {
    log.error("admin order list failed", { error, adminId: viewer.id });
    const empty: AdminOrderPage = {
      orders: [],
      total: 0,
      page: 1,
      pageCount: 1,
      pageSize: ADMIN_ORDERS_PAGE_SIZE,
    };
    return { filters, ...empty, returnRequests: 0, failed: true };
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Orders · Admin",
    description: "Every LayerKart order, its payment and delivery.",
    path: "/admin/orders",
    origin: originFrom(matches),
    noindex: true,
  });
}

const link = (filters: Partial<OrderFilters>) => {
  const q = orderFiltersQuery(filters);
  return q ? `/admin/orders?${q}` : "/admin/orders";
};

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { filters, orders, total, page, pageCount, returnRequests, failed } = loaderData;
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/admin/orders";
  const returnsView = filters.view === "returns";
  const exportQuery = orderFiltersQuery(filters, { page: false });
  // "This device": the export is written in this browser's zone, which only the browser knows.
  const zone = useAdminTimezone();
  const hydrated = useHydrated();
  const deviceZone =
    zone === "local" && hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const exportParams = [exportQuery, deviceZone ? `tz=${encodeURIComponent(deviceZone)}` : ""]
    .filter(Boolean)
    .join("&");
  const exportHref = exportParams ? `/admin/orders.csv?${exportParams}` : "/admin/orders.csv";

  useEffect(() => {
    if (failed) {
      toast({
        title: "Failed to load",
        description: "The orders couldn't be loaded. Please try again.",
        variant: "destructive",
      });
    }
  }, [failed]);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-3">
          <ClipboardList aria-hidden="true" className="size-8 text-primary" />
          <div>
            <h1 className="font-bold text-3xl tracking-tight">Orders</h1>
            <p className="text-muted-foreground">Follow orders from payment to delivery.</p>
          </div>
        </div>
        <a
          href={exportHref}
          download
          className={buttonVariants({ variant: "outline", className: "max-sm:w-full" })}
        >
          <Download aria-hidden="true" />
          Export CSV
        </a>
      </div>

      <nav aria-label="Order views" className="mb-4 flex flex-wrap gap-2">
        <Link
          to={link({ ...filters, view: "all", page: 1 })}
          aria-current={returnsView ? undefined : "page"}
          className={buttonVariants({
            variant: returnsView ? "ghost" : "secondary",
            size: "sm",
          })}
        >
          All orders
        </Link>
        <Link
          to={link({ ...filters, view: "returns", page: 1 })}
          aria-current={returnsView ? "page" : undefined}
          className={buttonVariants({
            variant: returnsView ? "secondary" : "ghost",
            size: "sm",
          })}
        >
          <RotateCcw aria-hidden="true" />
          Return requests
          <span
            className="rounded-full bg-background px-1.5 font-semibold text-foreground text-xs tabular-nums"
            data-testid="return-request-count"
          >
            {returnRequests}
          </span>
        </Link>
      </nav>

      <FilterForm filters={filters} />

      <div className="mt-6 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold text-lg">
          {returnsView ? "Return requests awaiting a decision" : "All orders"}
        </h2>
        <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="order-count">
          {total === 1 ? "1 order" : `${total.toLocaleString("en-IN")} orders`}
          {pageCount > 1 ? ` · page ${page} of ${pageCount}` : ""}
        </p>
      </div>

      {failed ? (
        <div
          role="alert"
          className="mt-4 rounded-xl border border-destructive/50 px-6 py-10 text-center"
        >
          <p className="font-semibold">Failed to load</p>
          <p className="mt-1 text-muted-foreground text-sm">
            The orders couldn't be loaded.{" "}
            <Link to={link(filters)} reloadDocument className="underline underline-offset-4">
              Try again
            </Link>
          </p>
        </div>
      ) : orders.length === 0 ? (
        <div className="mt-4 rounded-xl border border-dashed px-6 py-12 text-center">
          <p className="font-semibold">
            {returnsView ? "No return requests are waiting." : "No orders found."}
          </p>
          {hasFilters(filters) && !returnsView ? (
            <p className="mt-1 text-muted-foreground text-sm">
              Try other filters, or{" "}
              <Link to="/admin/orders" className="underline underline-offset-4">
                clear them
              </Link>
              .
            </p>
          ) : null}
        </div>
      ) : (
        <OrderTable orders={orders} busy={loading} />
      )}

      {pageCount > 1 ? <Pagination filters={filters} page={page} pageCount={pageCount} /> : null}
    </div>
  );
}

function FilterForm({ filters }: { filters: OrderFilters }) {
  // The key resets the uncontrolled fields when the URL changes (back/forward, Clear).
  const key = orderFiltersQuery(filters, { page: false });
  return (
    <Form
      method="get"
      key={key}
      role="search"
      aria-label="Filter orders"
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
    >
      {filters.view === "returns" ? <input type="hidden" name="view" value="returns" /> : null}
      <div className="grid gap-1.5">
        <Label htmlFor="order-q">Search orders</Label>
        <Input
          id="order-q"
          name="q"
          type="search"
          defaultValue={filters.q}
          maxLength={ORDER_SEARCH_MAX}
          placeholder="Order number, name or e-mail"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-status">Status</Label>
        <select
          id="order-status"
          name="status"
          defaultValue={filters.status ?? ""}
          className="h-10 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-from">From (India date)</Label>
        <Input id="order-from" name="from" type="date" defaultValue={filters.from ?? ""} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="order-to">To (India date)</Label>
        <Input id="order-to" name="to" type="date" defaultValue={filters.to ?? ""} />
      </div>
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
        <Button type="submit" className="flex-1 lg:flex-none">
          <Search aria-hidden="true" />
          Apply
        </Button>
        {hasFilters({ ...filters, view: "all" }) ? (
          <Link
            to={link({ view: filters.view })}
            className={buttonVariants({ variant: "outline", className: "flex-1 lg:flex-none" })}
          >
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

type Row = Route.ComponentProps["loaderData"]["orders"][number];

function OrderTable({ orders, busy }: { orders: Row[]; busy: boolean }) {
  return (
    <section
      aria-label="Orders"
      aria-busy={busy}
      className={cn(
        "mt-3 overflow-x-auto rounded-xl border bg-card shadow-xs transition-opacity",
        busy && "opacity-60",
      )}
    >
      <table className="w-full min-w-[760px] text-left text-sm">
        <thead className="border-b bg-muted/50 text-muted-foreground">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Order
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Customer
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Placed
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Payment
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} className="border-b align-top last:border-b-0" data-testid="order-row">
              <th scope="row" className="px-4 py-3 font-medium">
                <Link
                  to={`/admin/orders/${o.id}`}
                  className="font-mono text-primary underline-offset-4 hover:underline focus-visible:underline"
                >
                  {o.orderNumber}
                </Link>
              </th>
              <td className="px-4 py-3">
                <span className="block max-w-56 break-words">{o.customerName}</span>
                <span className="block max-w-56 break-all text-muted-foreground text-xs">
                  {o.customerEmail}
                </span>
              </td>
              <td className="whitespace-nowrap px-4 py-3">
                <AdminDate value={o.createdAt} />
              </td>
              <td className="px-4 py-3">
                <div className="flex flex-col items-start gap-1">
                  <OrderStatusBadge status={o.status} />
                  {o.returnStatus ? <ReturnBadge status={o.returnStatus} /> : null}
                </div>
              </td>
              <td className="px-4 py-3">
                <div className="flex flex-col items-start gap-1">
                  <PaymentStatusBadge status={o.paymentStatus} />
                  <span className="text-muted-foreground text-xs">{o.paymentLabel}</span>
                </div>
              </td>
              <td className="whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums">
                {formatPaise(o.totalPaise, o.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Pagination({
  filters,
  page,
  pageCount,
}: {
  filters: OrderFilters;
  page: number;
  pageCount: number;
}) {
  const prev = page > 1 ? link({ ...filters, page: page - 1 }) : null;
  const next = page < pageCount ? link({ ...filters, page: page + 1 }) : null;
  const classes = buttonVariants({ variant: "outline", size: "sm" });
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-2">
      {prev ? (
        <Link to={prev} className={classes} rel="prev">
          <ChevronLeft aria-hidden="true" />
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-muted-foreground text-sm">
        Page {page} of {pageCount}
      </span>
      {next ? (
        <Link to={next} className={classes} rel="next">
          Next
          <ChevronRight aria-hidden="true" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
