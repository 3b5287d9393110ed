import { Settings2 } from "lucide-react";
import { Link } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { QuoteStatusBadge } from "~/components/quote/quote-status";
import { SliceFigures } from "~/components/quote/slice-figures";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { listQuotesForAdmin } from "~/modules/quotes/quotes.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { unitForStaff } from "~/rules/model3d/units.ts";
import { formatPaise } from "~/rules/money.ts";
import { partDateText } from "~/rules/print-dates.ts";
import { adminQuoteFilters, quoteStatusLabel } from "~/rules/quote-pricing.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/quotes";

/**
 * /admin/quotes: customers' custom-print quotes. "Waiting" (the default) shows the requests for a
 * review that staff still have to answer; the other tabs show every quote by status.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const asked = new URL(request.url).searchParams.get("status") ?? "open";
  const filter = (adminQuoteFilters as readonly string[]).includes(asked) ? asked : "open";
  const { db } = await runtime();
  return { filter, quotes: await listQuotesForAdmin(db, filter) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Quotes",
    description: "Custom print quotes and review requests.",
    path: "/admin/quotes",
    origin: originFrom(matches),
    noindex: true,
  });
}

const tabLabel = (f: string) =>
  f === "open" ? "Waiting" : f === "all" ? "All" : (quoteStatusLabel[f] ?? f);

export default function AdminQuotes({ loaderData }: Route.ComponentProps) {
  const { filter, quotes } = loaderData;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Quotes</h1>
          <p className="mt-1 text-muted-foreground">
            Custom prints: answer review requests by e-mail, or make a payable offer.
          </p>
        </div>
        <Link to="/admin/quote-settings" className={buttonVariants({ variant: "outline" })}>
          <Settings2 aria-hidden="true" />
          Rates and materials
        </Link>
      </div>
      <nav aria-label="Quote status" className="mb-4 flex flex-wrap gap-2">
        {adminQuoteFilters.map((f) => (
          <Link
            key={f}
            to={f === "open" ? "/admin/quotes" : `/admin/quotes?status=${f}`}
            aria-current={f === filter ? "page" : undefined}
            className={cn(
              buttonVariants({ variant: f === filter ? "default" : "outline", size: "sm" }),
            )}
          >
            {tabLabel(f)}
          </Link>
        ))}
      </nav>
      {quotes.length === 0 ? (
        <p className="rounded-xl border border-dashed px-6 py-16 text-center text-muted-foreground">
          {filter === "open" ? "No quote requests are waiting." : "No quotes here yet."}
        </p>
      ) : (
        <ul className="divide-y rounded-xl border bg-card" aria-label="Quotes">
          {quotes.map((q) => (
            <li key={q.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 p-4">
              <div className="min-w-0 flex-1">
                <Link
                  to={`/admin/quotes/${q.id}`}
                  className="font-medium underline-offset-4 hover:underline"
                >
                  {q.fileName}
                </Link>
                <p className="truncate text-muted-foreground text-sm">
                  {q.customerName} · {q.customerEmail}
                </p>
                <p className="text-muted-foreground text-sm">
                  <span data-testid="quote-unit">
                    Read in {unitForStaff(q.geometry.fileUnit, q.options?.unit)}
                  </span>
                  {(q.geometry.bodyCount ?? 1) > 1 ? ` · ${q.geometry.bodyCount} bodies` : ""}
                  {q.readyBy && q.status !== "draft" ? (
                    <span data-testid="quote-part-date">
                      {" · "}
                      {partDateText(
                        q.options?.speed === "express" ? "express" : "standard",
                        q.readyBy,
                      )}
                    </span>
                  ) : null}
                </p>
                {q.findings.length > 0 ? (
                  <p className="text-muted-foreground text-sm" data-testid="quote-findings">
                    {q.findings.join(" · ")}
                  </p>
                ) : null}
                <SliceFigures slice={q.slice} compact />
              </div>
              <QuoteStatusBadge status={q.status} />
              <span className="w-28 text-right text-sm tabular-nums">
                {q.unitPricePaise !== null && q.quantity
                  ? formatPaise(q.unitPricePaise * q.quantity)
                  : "—"}
              </span>
              <AdminDate value={q.createdAt} className="w-40 text-muted-foreground text-sm" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
