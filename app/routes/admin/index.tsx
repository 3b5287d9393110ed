import {
  Boxes,
  ClipboardList,
  FileText,
  History,
  type LucideIcon,
  Mail,
  Megaphone,
  Package,
  PackageCheck,
  RotateCcw,
  Settings,
  Star,
  Tags,
  TicketPercent,
  Users,
} from "lucide-react";
import { Link, useFetcher } from "react-router";
import { SalesChart } from "~/components/admin/sales-chart";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  allProductsPage,
  dailySales,
  discountsGiven,
  type ProductsPage,
  waitingWork,
} from "~/modules/admin/dashboard.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { formatPaise } from "~/rules/money.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/index";

/*
 * The admin dashboard: the sections, the last 30 days of sales, the work waiting, and on request
 * every product (?all=1&page=N: the 'Load all products' button loads it into the page).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const { db } = await runtime();
  const url = new URL(request.url);
  const wantsProducts = url.searchParams.get("all") === "1";
  const page = Number(url.searchParams.get("page")) || 1;
  const [sales, work, products, discounts] = await Promise.all([
    dailySales(db, { days: 30 }),
    waitingWork(db),
    wantsProducts ? allProductsPage(db, page) : null,
    discountsGiven(db, { days: 30 }),
  ]);
  return { name: viewer.name, sales, work, products, discounts };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Admin Dashboard",
    description: "Manage the LayerKart catalogue, orders, customers and promotions.",
    path: "/admin",
    origin: originFrom(matches),
    noindex: true,
  });
}

type Section = { to: string; title: string; description: string; icon: LucideIcon };

const sections: Section[] = [
  {
    to: "/admin/items",
    title: "Items",
    description: "Add products and edit their details, prices, stock and images.",
    icon: Package,
  },
  {
    to: "/admin/orders",
    title: "Orders",
    description: "Follow orders from payment to delivery and update their status.",
    icon: ClipboardList,
  },
  {
    to: "/admin/users",
    title: "Users",
    description: "See customer profiles and who has admin access.",
    icon: Users,
  },
  {
    to: "/admin/categories",
    title: "Categories",
    description: "Add and remove the categories products are filed under.",
    icon: Tags,
  },
  {
    to: "/admin/sponsored-products",
    title: "Sponsored Products",
    description: "Choose the products shown in the home page carousel.",
    icon: Star,
  },
  {
    to: "/admin/promotions",
    title: "Promotions",
    description: "Create and retire the offers in the Special Offers section.",
    icon: Megaphone,
  },
  {
    to: "/admin/discounts",
    title: "Discounts",
    description:
      "Codes and automatic offers the checkout applies, their uses and what they gave away.",
    icon: TicketPercent,
  },
  {
    to: "/admin/subscribers",
    title: "Subscribers",
    description: "See who signed up for the newsletter.",
    icon: Mail,
  },
  {
    to: "/admin/settings",
    title: "Settings",
    description: "Shipping fee, tax rate, cash on delivery and the shop's GST details.",
    icon: Settings,
  },
  {
    to: "/admin/audit",
    title: "Audit Log",
    description: "Who changed what in the admin area, and when.",
    icon: History,
  },
];

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { work } = loaderData;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10">
      <div className="mb-8 flex items-center gap-3">
        <Boxes aria-hidden="true" className="size-8 shrink-0 text-primary" />
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Admin Dashboard</h1>
          <p className="text-muted-foreground">Signed in as {loaderData.name}.</p>
        </div>
      </div>

      <section aria-labelledby="waiting-heading" className="mb-8">
        <h2 id="waiting-heading" className="sr-only">
          Waiting for you
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          <WorkCard
            to="/admin/orders?status=processing"
            label="Orders to ship"
            count={work.ordersToShip}
            // Processing counts cash on delivery orders too, unpaid until the courier collects.
            note="Processing: paid online or cash on delivery"
            icon={PackageCheck}
            testId="count-to-ship"
          />
          <WorkCard
            to="/admin/orders?returns=requested"
            label="Return requests waiting"
            count={work.returnsWaiting}
            note="To approve or reject"
            icon={RotateCcw}
            testId="count-returns"
          />
          <WorkCard
            to="/admin/quotes"
            label="Quote requests waiting"
            count={work.quotesWaiting}
            note="Custom prints to review and answer"
            icon={FileText}
            testId="count-quotes"
          />
        </ul>
      </section>

      <div className="mb-8 grid gap-4">
        <SalesChart days={loaderData.sales} />
        <Link
          to="/admin/discounts"
          className="flex flex-wrap items-center justify-between gap-2 rounded-xl border bg-card p-5 shadow-xs transition-colors hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex items-center gap-3">
            <TicketPercent aria-hidden="true" className="size-5 text-primary" />
            <span className="font-medium">
              Discounts given, last {loaderData.sales.length} days
            </span>
          </span>
          <span className="text-muted-foreground text-sm" data-testid="discounts-given">
            <span className="font-semibold text-foreground text-lg tabular-nums">
              {formatPaise(loaderData.discounts.amountPaise)}
            </span>{" "}
            on {loaderData.discounts.orders.toLocaleString("en-IN")} paid{" "}
            {loaderData.discounts.orders === 1 ? "order" : "orders"}
          </span>
        </Link>
      </div>

      <section aria-labelledby="sections-heading" className="mb-8">
        <h2 id="sections-heading" className="mb-4 font-semibold text-xl">
          Manage
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {sections.map(({ to, title, description, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex h-full gap-4 rounded-xl border bg-card p-5 shadow-xs transition-colors hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="grid gap-1">
                  <span className="font-semibold text-lg">{title}</span>
                  <span className="text-muted-foreground text-sm">{description}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <AllProducts initial={loaderData.products} />
    </div>
  );
}

function WorkCard({
  to,
  label,
  count,
  note,
  icon: Icon,
  testId,
}: {
  to?: string;
  label: string;
  count: number;
  note: string;
  icon: LucideIcon;
  testId: string;
}) {
  const body = (
    <>
      <span className="flex items-center justify-between gap-2">
        <span className="font-medium text-muted-foreground text-sm">{label}</span>
        <Icon aria-hidden="true" className="size-5 text-primary" />
      </span>
      <span className="font-bold text-3xl tabular-nums" data-testid={testId}>
        {count.toLocaleString("en-IN")}
      </span>
      <span className="text-muted-foreground text-xs">{note}</span>
    </>
  );
  const box = "flex h-full flex-col gap-1 rounded-xl border bg-card p-5 shadow-xs";
  return (
    <li>
      {to ? (
        <Link
          to={to}
          className={`${box} transition-colors hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring`}
        >
          {body}
        </Link>
      ) : (
        <div className={box}>{body}</div>
      )}
    </li>
  );
}

/** 'Load all products': a compact table, 100 products a page, loaded on demand. */
function AllProducts({ initial }: { initial: ProductsPage | null }) {
  const fetcher = useFetcher<typeof loader>();
  const loaded = fetcher.data?.products ?? initial;
  const loading = fetcher.state !== "idle";
  const pageButton = (page: number, label: string) => (
    // A GET form: with JavaScript it loads into the page, without it opens /admin?all=1&page=N.
    <fetcher.Form method="get" action="/admin">
      <input type="hidden" name="all" value="1" />
      <input type="hidden" name="page" value={page} />
      <Button type="submit" variant="outline" size="sm" disabled={loading}>
        {label}
      </Button>
    </fetcher.Form>
  );
  return (
    <section aria-labelledby="products-heading">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="products-heading" className="font-semibold text-xl">
          All products
        </h2>
        {loaded ? null : (
          <fetcher.Form method="get" action="/admin">
            <input type="hidden" name="all" value="1" />
            <Button type="submit" disabled={loading}>
              Load all products
            </Button>
          </fetcher.Form>
        )}
      </div>
      <p role="status" className={loading ? "mb-3 text-muted-foreground text-sm" : "sr-only"}>
        {loading ? "Loading…" : ""}
      </p>
      {loaded ? (
        <>
          <p className="mb-3 text-muted-foreground text-sm">
            {loaded.total === 0
              ? "No products yet."
              : `Products ${(loaded.page - 1) * loaded.pageSize + 1}–${
                  (loaded.page - 1) * loaded.pageSize + loaded.products.length
                } of ${loaded.total}, newest first.`}
          </p>
          {loaded.products.length > 0 ? (
            <section
              aria-label="All products table"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
              tabIndex={0}
              className="overflow-x-auto rounded-xl border bg-card shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
            >
              <table className="w-full min-w-[32rem] text-sm" aria-busy={loading || undefined}>
                <caption className="sr-only">
                  All products, page {loaded.page} of {loaded.pageCount}
                </caption>
                <thead className="bg-muted/50 text-left">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Name
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Price
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Stock
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Active
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y" data-testid="all-products">
                  {loaded.products.map((p) => (
                    <tr key={p.id}>
                      <td className="px-3 py-1.5">
                        <Link
                          to={`/admin/items/${p.id}`}
                          className="underline-offset-4 hover:underline"
                        >
                          {p.name}
                        </Link>
                      </td>
                      <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums">
                        {formatPaise(p.pricePaise)}
                      </td>
                      <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums">
                        {p.stockCount ?? (p.inStock ? "In stock" : "Out of stock")}
                      </td>
                      <td className="px-3 py-1.5">
                        {p.isActive ? (
                          <Badge variant="outline">Active</Badge>
                        ) : (
                          <Badge variant="secondary">Inactive</Badge>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}
          {loaded.pageCount > 1 ? (
            <nav
              aria-label="Product pages"
              className="mt-4 flex items-center justify-between gap-3"
            >
              {loaded.page > 1 ? pageButton(loaded.page - 1, "Previous 100") : <span />}
              <span className="text-muted-foreground text-sm">
                Page {loaded.page} of {loaded.pageCount}
              </span>
              {loaded.page < loaded.pageCount ? pageButton(loaded.page + 1, "Next 100") : <span />}
            </nav>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
