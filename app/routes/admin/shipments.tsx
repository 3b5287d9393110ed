import { Download } from "lucide-react";
import { Link } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { listShipments } from "~/modules/shipping/shipments.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { expectedDateText, stageLabels } from "~/rules/courier.ts";
import { istToday } from "~/rules/india-time.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/shipments";

/*
 * /admin/shipments (issue 24): today's pickups first, then every shipment newest first, and the
 * day's labels in one PDF.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db, shipping } = await runtime();
  const today = istToday();
  return {
    today,
    carrier: shipping.name,
    pickups: await listShipments(db, { pickupDay: today }),
    shipments: await listShipments(db, { limit: 100 }),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Shipments · Admin",
    description: "Courier shipments and today's pickups.",
    path: "/admin/shipments",
    origin: originFrom(matches),
    noindex: true,
  });
}

type Row = Route.ComponentProps["loaderData"]["shipments"][number];

function ShipmentTable({ rows, testId }: { rows: Row[]; testId: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="bg-muted/50 text-left">
          <tr>
            <th className="p-3 font-medium">Order</th>
            <th className="p-3 font-medium">Customer</th>
            <th className="p-3 font-medium">Courier · AWB</th>
            <th className="p-3 font-medium">Stage</th>
            <th className="p-3 font-medium">Booked</th>
            <th className="p-3 font-medium">Label</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id} className="border-t">
              <td className="p-3">
                <Link
                  to={`/admin/orders/${s.orderId}/shipment`}
                  className="font-mono underline-offset-4 hover:underline"
                >
                  {s.orderNumber}
                </Link>
              </td>
              <td className="p-3">{s.customerName}</td>
              <td className="p-3">
                {s.courierName} · <span className="break-all font-mono">{s.awb}</span>
              </td>
              <td className="p-3">
                {stageLabels[s.stage]}
                {s.expectedDate && s.stage !== "delivered" && s.stage !== "cancelled"
                  ? ` · by ${expectedDateText(s.expectedDate)}`
                  : ""}
              </td>
              <td className="p-3 whitespace-nowrap">
                <AdminDate value={s.createdAt} />
              </td>
              <td className="p-3">
                {s.stage === "cancelled" ? (
                  "—"
                ) : (
                  <a
                    href={`/admin/shipments/${s.id}/label.pdf`}
                    className="underline-offset-4 hover:underline"
                  >
                    PDF
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function AdminShipments({ loaderData }: Route.ComponentProps) {
  const { today, pickups, shipments, carrier } = loaderData;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="mb-1 font-bold text-2xl tracking-tight sm:text-3xl">Shipments</h1>
      <p className="mb-6 text-muted-foreground text-sm">
        Courier: {carrier === "manual" ? "booked by hand (manual)" : carrier}
      </p>
      <section className="mb-8 grid gap-3" aria-labelledby="pickups-today">
        <h2 id="pickups-today" className="font-semibold text-lg">
          Today's pickups
        </h2>
        {pickups.length === 0 ? (
          <p className="text-muted-foreground text-sm">No pickups are scheduled for today.</p>
        ) : (
          <ShipmentTable rows={pickups} testId="pickups-today" />
        )}
      </section>
      <form
        method="get"
        action="/admin/shipments/labels.pdf"
        className="mb-8 flex flex-wrap items-end gap-3"
      >
        <div className="grid gap-1">
          <Label htmlFor="labels-day">Labels for the shipments booked on</Label>
          <Input id="labels-day" type="date" name="day" defaultValue={today} className="w-auto" />
        </div>
        <button type="submit" className={buttonVariants({ variant: "outline" })}>
          <Download aria-hidden="true" />
          Download labels (PDF)
        </button>
      </form>
      <section className="grid gap-3" aria-labelledby="all-shipments">
        <h2 id="all-shipments" className="font-semibold text-lg">
          All shipments
        </h2>
        {shipments.length === 0 ? (
          <p className="text-muted-foreground text-sm">No shipments booked yet.</p>
        ) : (
          <ShipmentTable rows={shipments} testId="shipments" />
        )}
      </section>
    </div>
  );
}
