import { Download, Mail } from "lucide-react";
import { useNavigation } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { Pager, pageParam } from "~/components/admin/people-pager";
import { buttonVariants } from "~/components/ui/button";
import { listSubscribers } from "~/modules/subscribers/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/subscribers";

/** /admin/subscribers: the newsletter's subscribers with a count, newest first (SPEC.md §2). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  return listSubscribers(db, pageParam(new URL(request.url)));
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Subscribers",
    description: "Newsletter subscribers.",
    path: "/admin/subscribers",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function AdminSubscribers({ loaderData }: Route.ComponentProps) {
  const { subscribers, total, page, pageCount } = loaderData;
  const navigation = useNavigation();
  // Moving between pages of this list: say so while the next page loads.
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/admin/subscribers";
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Subscribers</h1>
          <p className="mt-1 text-muted-foreground" data-testid="subscriber-count">
            {total === 1 ? "1 subscriber" : `${total.toLocaleString("en-IN")} subscribers`}
          </p>
        </div>
        {/* A plain link: the browser downloads the file (Content-Disposition: attachment). */}
        <a
          href="/admin/subscribers.csv"
          download
          className={buttonVariants({ variant: "outline", className: "max-sm:w-full" })}
        >
          <Download aria-hidden="true" />
          Export CSV
        </a>
      </div>

      <p role="status" className={loading ? "mb-4 text-muted-foreground text-sm" : "sr-only"}>
        {loading ? "Loading…" : ""}
      </p>

      {subscribers.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center">
          <Mail aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="font-semibold text-lg">No subscribers yet.</p>
          <p className="max-w-sm text-muted-foreground text-sm">
            People who sign up for the newsletter on the home page appear here.
          </p>
        </section>
      ) : (
        <div className="overflow-hidden rounded-xl border bg-card shadow-xs">
          <table className="w-full text-sm" aria-busy={loading || undefined}>
            <caption className="sr-only">
              Newsletter subscribers, newest first (page {page} of {pageCount})
            </caption>
            <thead className="bg-muted/50 text-left max-sm:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Subscribed
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {subscribers.map((s) => (
                <tr key={s.id} className="max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:p-4">
                  <td className="break-all px-4 py-3 font-medium max-sm:p-0">{s.email}</td>
                  <td className="whitespace-nowrap px-4 py-3 text-muted-foreground max-sm:p-0">
                    <span className="sm:sr-only">Subscribed </span>
                    <AdminDate value={s.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} label="Subscriber pages" />
    </div>
  );
}
