import { Archive, Pause, Pencil, Play, Plus, RotateCcw, TicketPercent } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { DiscountStatusBadge } from "~/components/admin/discount-status-badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import type { ToastOptions } from "~/components/ui/use-toast";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  type AdminDiscount,
  DiscountNotFoundError,
  DiscountStateError,
  listDiscountsForAdmin,
  moveDiscount,
} from "~/modules/discounts/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import {
  appliesToSummary,
  conditionsSummary,
  discountKindSummary,
  usesText,
} from "~/rules/discount-display.ts";
import { isUuid } from "~/rules/ids.ts";
import { formatPaise } from "~/rules/money.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/discounts";

/*
 * /admin/discounts (issue #23): every discount code and automatic offer with its status, uses and
 * the rupees given away; pause, resume, archive and restore from the list.
 */

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  return { discounts: await listDiscountsForAdmin(db) };
}

const MOVES = ["pause", "resume", "archive", "restore"] as const;
type Move = (typeof MOVES)[number];

type ActionResult =
  | { ok: true; message: string }
  | { ok: false; title: string; description: string };

const done: Record<Move, string> = {
  pause: "Discount paused",
  resume: "Discount resumed",
  archive: "Discount archived",
  restore: "Discount restored (paused)",
};

const failed = (status: number, description: string) =>
  data<ActionResult>({ ok: false, title: "Failed to update", description }, { status });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  if (!(MOVES as readonly string[]).includes(intent)) return failed(400, "Unknown request.");
  if (!isUuid(id)) return failed(404, "This discount no longer exists.");
  const { db } = await runtime();
  try {
    await moveDiscount(db, viewer, id, intent as Move);
    return data<ActionResult>({ ok: true, message: done[intent as Move] });
  } catch (error) {
    if (error instanceof DiscountNotFoundError) {
      return failed(404, "This discount no longer exists.");
    }
    if (error instanceof DiscountStateError) {
      return failed(409, "Someone else changed this discount meanwhile. Reload to see it.");
    }
    log.error("discount state change failed", { error, userId: viewer.id, intent });
    return failed(500, "Please try again.");
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Discounts · Admin",
    description: "Discount codes and automatic offers the checkout applies.",
    path: "/admin/discounts",
    origin: originFrom(matches),
    noindex: true,
  });
}

const toastOf = (result: ActionResult): ToastOptions =>
  result.ok
    ? { title: result.message }
    : { title: result.title, description: result.description, variant: "destructive" };

export default function AdminDiscounts({ loaderData }: Route.ComponentProps) {
  const { discounts } = loaderData;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-3">
          <TicketPercent aria-hidden="true" className="size-8 shrink-0 text-primary" />
          <div>
            <h1 className="font-bold text-3xl tracking-tight">Discounts</h1>
            <p className="text-muted-foreground">
              Codes customers type at checkout, and offers that apply by themselves.
            </p>
          </div>
        </div>
        <Link to="/admin/discounts/new" className={buttonVariants({ className: "max-sm:w-full" })}>
          <Plus aria-hidden="true" />
          New discount
        </Link>
      </div>

      {discounts.length === 0 ? (
        <p className="rounded-xl border border-dashed p-10 text-center text-muted-foreground">
          No discounts yet. Create a code such as DIWALI20, or an offer that applies by itself.
        </p>
      ) : (
        <section
          aria-label="Discounts table"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          className="relative overflow-x-auto rounded-xl border bg-card shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
        >
          <table className="w-full min-w-[60rem] text-sm">
            <caption className="sr-only">
              Discounts, with status, uses and the amount given away
            </caption>
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Discount
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Takes off
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Applies to
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Dates
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Uses
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Given away
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {discounts.map((d) => (
                <DiscountRow key={d.id} discount={d} />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

function DiscountRow({ discount: d }: { discount: AdminDiscount }) {
  const fetcher = useFetcher<ActionResult>();
  useOutcomeToast(fetcher, toastOf);
  const busy = fetcher.state !== "idle";
  const move = (intent: Move, label: string, Icon: typeof Pause) => (
    <fetcher.Form method="post">
      <input type="hidden" name="id" value={d.id} />
      <Button
        type="submit"
        name="intent"
        value={intent}
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={`${label} ${d.name}`}
      >
        <Icon aria-hidden="true" />
        {label}
      </Button>
    </fetcher.Form>
  );
  return (
    <tr data-testid="discount-row" className="align-top">
      <td className="px-3 py-2">
        <Link
          to={`/admin/discounts/${d.id}`}
          className="font-medium underline-offset-4 hover:underline"
        >
          {d.name}
        </Link>
        <div className="text-muted-foreground text-xs">
          {d.code ? (
            <span className="font-mono text-foreground" data-testid="discount-code">
              {d.code}
            </span>
          ) : (
            "Automatic"
          )}
        </div>
      </td>
      <td className="px-3 py-2">
        <DiscountStatusBadge status={d.status} />
      </td>
      <td className="px-3 py-2">{discountKindSummary(d)}</td>
      <td className="max-w-48 px-3 py-2">
        <span className="line-clamp-2">{appliesToSummary(d)}</span>
        {conditionsSummary(d) ? (
          <span className="block text-muted-foreground text-xs">{conditionsSummary(d)}</span>
        ) : null}
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-xs">
        {d.startsAt ? (
          <div>
            From <AdminDate value={d.startsAt} />
          </div>
        ) : null}
        {d.endsAt ? (
          <div>
            Until <AdminDate value={d.endsAt} />
          </div>
        ) : null}
        {!d.startsAt && !d.endsAt ? <span className="text-muted-foreground">No end</span> : null}
      </td>
      <td
        className="whitespace-nowrap px-3 py-2 text-right tabular-nums"
        data-testid="discount-uses"
      >
        {usesText(d.usesCount, d.usageLimit)}
      </td>
      <td
        className="whitespace-nowrap px-3 py-2 text-right tabular-nums"
        data-testid="discount-given"
      >
        {formatPaise(d.givenAwayPaise)}
      </td>
      <td className="px-3 py-2">
        <div className="flex flex-wrap justify-end gap-2">
          <Link
            to={`/admin/discounts/${d.id}`}
            className={buttonVariants({ size: "sm", variant: "outline" })}
            aria-label={`Edit ${d.name}`}
          >
            <Pencil aria-hidden="true" />
            Edit
          </Link>
          {d.state === "active" ? move("pause", "Pause", Pause) : null}
          {d.state === "paused" ? move("resume", "Resume", Play) : null}
          {d.state !== "archived" ? move("archive", "Archive", Archive) : null}
          {d.state === "archived" ? move("restore", "Restore", RotateCcw) : null}
        </div>
      </td>
    </tr>
  );
}
