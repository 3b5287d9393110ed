import { Filter, History } from "lucide-react";
import { Form, Link, useSearchParams } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { Pager, pageParam } from "~/components/admin/people-pager";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { queryParam } from "~/lib/forms.server.ts";
import { auditActionFamilies, countAudit, listAudit } from "~/modules/audit/audit.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/audit";

/** /admin/audit: who changed what in the admin area, and when (newest first). */

const PAGE_SIZE = 50;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const url = new URL(request.url);
  const filter = {
    actionPrefix: (queryParam(url, "action") ?? "").slice(0, 100),
    actor: (queryParam(url, "actor") ?? "").slice(0, 200),
  };
  const [total, families] = await Promise.all([countAudit(db, filter), auditActionFamilies(db)]);
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(pageParam(url), pageCount);
  const entries = await listAudit(db, {
    ...filter,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  return {
    entries: entries.map((e) => ({
      id: e.id,
      createdAt: e.createdAt.toISOString(),
      actorEmail: e.actorEmail,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId,
      summary: e.summary,
      details: Object.keys(e.details).length > 0 ? JSON.stringify(e.details, null, 2) : null,
    })),
    families,
    filter,
    total,
    page,
    pageCount,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Audit log",
    description: "Who changed what in the admin area, and when.",
    path: "/admin/audit",
    origin: originFrom(matches),
    noindex: true,
  });
}

/** Where an entry's target can be seen, when the admin area has a page for it. */
function targetHref(type: string, id: string | null): string | null {
  if (!id) return type === "settings" ? "/admin/settings" : null;
  if (type === "product") return `/admin/items/${encodeURIComponent(id)}`;
  if (type === "order") return `/admin/orders/${encodeURIComponent(id)}`;
  if (type === "settings") return "/admin/settings";
  return null;
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { entries, families, filter, total, page, pageCount } = loaderData;
  const [searchParams] = useSearchParams();
  const filtered = Boolean(filter.actionPrefix || filter.actor);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10">
      <div className="mb-6">
        <h1 className="font-bold text-3xl tracking-tight">Audit log</h1>
        <p className="mt-1 text-muted-foreground">
          Every change made in the admin area: who, what and when. {total}{" "}
          {total === 1 ? "entry" : "entries"}
          {filtered ? " match the filter" : ""}.
        </p>
      </div>

      <Form
        method="get"
        role="search"
        aria-label="Filter the audit log"
        className="mb-6 grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      >
        <div className="grid gap-2">
          <Label htmlFor="audit-action">Action</Label>
          <select
            id="audit-action"
            name="action"
            defaultValue={searchParams.get("action") ?? ""}
            className="h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs md:text-sm"
          >
            <option value="">All actions</option>
            {families.map((f) => (
              <option key={f} value={`${f}.`}>
                {f}.*
              </option>
            ))}
            {filter.actionPrefix && !families.some((f) => `${f}.` === filter.actionPrefix) ? (
              <option value={filter.actionPrefix}>{filter.actionPrefix}*</option>
            ) : null}
          </select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="audit-actor">Admin (email)</Label>
          <Input
            id="audit-actor"
            name="actor"
            type="search"
            defaultValue={searchParams.get("actor") ?? ""}
            placeholder="e.g. admin@example.com"
          />
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="outline" className="max-sm:flex-1">
            <Filter aria-hidden="true" />
            Filter
          </Button>
          {filtered ? (
            <Link
              to="/admin/audit"
              className={buttonVariants({ variant: "ghost", className: "max-sm:flex-1" })}
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      {entries.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center">
          <History aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="font-semibold text-lg">
            {filtered ? "No entries match the filter." : "No admin changes yet."}
          </p>
        </section>
      ) : (
        <div className="overflow-hidden rounded-xl border bg-card shadow-xs">
          <table className="w-full text-sm">
            <caption className="sr-only">Audit log entries, newest first</caption>
            <thead className="bg-muted/50 text-left max-lg:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  When
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Who
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Action
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Target
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Summary
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {entries.map((e) => {
                const href = targetHref(e.targetType, e.targetId);
                const target = e.targetId ? `${e.targetType} ${e.targetId}` : e.targetType;
                return (
                  <tr
                    key={e.id}
                    data-testid="audit-entry"
                    className="align-top max-lg:grid max-lg:gap-1.5 max-lg:p-4"
                  >
                    <td className="whitespace-nowrap px-4 py-3 text-muted-foreground max-lg:p-0">
                      <AdminDate value={e.createdAt} />
                    </td>
                    <td className="break-all px-4 py-3 max-lg:p-0">
                      <span className="lg:sr-only">By </span>
                      {e.actorEmail}
                    </td>
                    <td className="px-4 py-3 max-lg:p-0">
                      <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                        {e.action}
                      </code>
                    </td>
                    <td className="max-w-48 break-all px-4 py-3 text-muted-foreground max-lg:max-w-none max-lg:p-0">
                      <span className="lg:sr-only">Target: </span>
                      {href ? (
                        <Link to={href} className="text-foreground underline underline-offset-4">
                          {target}
                        </Link>
                      ) : (
                        target
                      )}
                    </td>
                    <td className="px-4 py-3 max-lg:p-0">
                      <p className="break-words">{e.summary || "—"}</p>
                      {e.details ? (
                        <details className="mt-2">
                          <summary className="cursor-pointer text-muted-foreground text-xs hover:text-foreground">
                            Details
                          </summary>
                          <pre
                            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
                            tabIndex={0}
                            className="mt-2 max-h-80 max-w-[calc(100vw-4rem)] overflow-auto rounded-md bg-muted p-3 font-mono text-xs lg:max-w-xl"
                          >
                            {e.details}
                          </pre>
                        </details>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} label="Audit log pages" />
    </div>
  );
}
