import { Table2 } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { formatPaise } from "~/rules/money.ts";
import { longDay, niceCeiling, shortDay } from "~/rules/sales-chart.ts";

/*
 * Paid orders and revenue per India day as a bar chart drawn in SVG (no chart library). The
 * figures are also a table: hidden visually but read by screen readers, and shown on request.
 */

export type SalesDay = { day: string; orders: number; revenuePaise: number };
type Metric = "revenue" | "orders";

const compactRupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  notation: "compact",
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

const metricLabel: Record<Metric, string> = { revenue: "Revenue", orders: "Paid orders" };

export function SalesChart({ days }: { days: SalesDay[] }) {
  const [metric, setMetric] = useState<Metric>("revenue");
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  const tableId = `${id}-table`;

  const value = (d: SalesDay) => (metric === "revenue" ? d.revenuePaise / 100 : d.orders);
  const format = (v: number) =>
    metric === "revenue" ? compactRupees.format(v) : v.toLocaleString("en-IN");
  const values = days.map(value);
  const max = niceCeiling(Math.max(0, ...values), metric === "orders");
  const ticks = [max, (max * 3) / 4, max / 2, max / 4, 0];

  const totalOrders = days.reduce((s, d) => s + d.orders, 0);
  const totalRevenue = days.reduce((s, d) => s + d.revenuePaise, 0);
  const best = days.reduce<SalesDay | null>(
    (top, d) => (value(d) > 0 && (!top || value(d) > value(top)) ? d : top),
    null,
  );
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  const summary =
    days.length === 0
      ? "No data."
      : `${metricLabel[metric]} per day from ${shortDay(first!)} to ${shortDay(last!)}: ` +
        (best
          ? `highest ${metric === "revenue" ? formatPaise(best.revenuePaise) : `${best.orders} orders`} on ${shortDay(best.day)}.`
          : "no paid orders in this period.");

  const W = days.length * 10;
  const H = 100;

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-xl border bg-card p-5 shadow-xs sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={`${id}-title`} className="font-semibold text-xl">
            Sales, last {days.length} days
          </h2>
          <p className="text-muted-foreground text-sm" data-testid="sales-totals">
            {totalOrders} paid {totalOrders === 1 ? "order" : "orders"} ·{" "}
            {formatPaise(totalRevenue)} · days in India time (IST)
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <fieldset className="flex rounded-md border p-0.5">
            <legend className="sr-only">Chart shows</legend>
            {(["revenue", "orders"] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={metric === m}
                onClick={() => setMetric(m)}
                className={cn(
                  "h-8 rounded px-3 font-medium text-sm transition-colors focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring",
                  metric === m
                    ? "bg-primary text-primary-foreground"
                    : "text-muted-foreground hover:text-foreground",
                )}
              >
                {metricLabel[m]}
              </button>
            ))}
          </fieldset>
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((v) => !v)}
          >
            <Table2 aria-hidden="true" />
            {showTable ? "Hide table" : "Show table"}
          </Button>
        </div>
      </div>

      <figure className="m-0">
        <div className="flex gap-2">
          {/* Y axis: HTML labels beside the drawing, so they keep their size at any width. */}
          <div
            aria-hidden="true"
            className="relative h-48 w-12 shrink-0 text-right text-muted-foreground text-xs tabular-nums"
          >
            {ticks.map((t, i) => (
              <span
                key={t}
                className="absolute right-0 -translate-y-1/2"
                style={{ top: `${(i / (ticks.length - 1)) * 100}%` }}
              >
                {format(t)}
              </span>
            ))}
          </div>
          <div className="min-w-0 flex-1">
            <svg
              viewBox={`0 0 ${W} ${H}`}
              preserveAspectRatio="none"
              role="img"
              aria-label={summary}
              data-testid="sales-chart"
              className="block h-48 w-full overflow-visible"
            >
              {ticks.map((t) => (
                <line
                  key={t}
                  x1={0}
                  x2={W}
                  y1={H - (t / max) * H}
                  y2={H - (t / max) * H}
                  vectorEffect="non-scaling-stroke"
                  className={t === 0 ? "stroke-foreground/40" : "stroke-border"}
                  strokeWidth={1}
                />
              ))}
              {days.map((d, i) => {
                const v = value(d);
                const h = (v / max) * H;
                return (
                  <rect
                    key={d.day}
                    data-day={d.day}
                    data-value={v}
                    x={i * 10 + 1.5}
                    y={H - h}
                    width={7}
                    height={h}
                    className={i === days.length - 1 ? "fill-primary" : "fill-primary/65"}
                  >
                    <title>
                      {`${longDay(d.day)}: ${d.orders} paid ${d.orders === 1 ? "order" : "orders"}, ${formatPaise(d.revenuePaise)}`}
                    </title>
                  </rect>
                );
              })}
            </svg>
            <div
              aria-hidden="true"
              className="mt-2 flex justify-between text-muted-foreground text-xs"
            >
              <span>{first ? shortDay(first) : ""}</span>
              <span className="max-sm:hidden">
                {days.length > 2 ? shortDay(days[Math.floor(days.length / 2)].day) : ""}
              </span>
              <span>{last ? `${shortDay(last)} (today)` : ""}</span>
            </div>
          </div>
        </div>
        <figcaption className="sr-only">
          {metricLabel[metric]} per day. The table that follows lists every day's paid orders and
          revenue.
        </figcaption>
      </figure>

      <section
        id={tableId}
        aria-label="Sales per day"
        className={showTable ? "mt-6 max-h-96 overflow-auto rounded-md border" : "sr-only"}
        // Only scrollable (and so only focusable) while shown.
        tabIndex={showTable ? 0 : undefined}
      >
        <table className="w-full text-sm" data-testid="sales-table">
          <caption className="sr-only">Paid orders and revenue per day (India time)</caption>
          <thead className="sticky top-0 bg-muted text-left">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Day
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Paid orders
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {[...days].reverse().map((d) => (
              <tr key={d.day}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {longDay(d.day)}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{d.orders}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {formatPaise(d.revenuePaise)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
