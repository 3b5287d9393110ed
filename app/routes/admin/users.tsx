import { Info, Search, ShieldCheck, ShieldOff } from "lucide-react";
import { data, Form, redirect, useFetcher, useSearchParams } from "react-router";
import { AdminDate } from "~/components/admin/admin-date";
import { Pager, pageParam } from "~/components/admin/people-pager";
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
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { queryParam, readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  type AdminUserRow,
  LastAdminError,
  listUsers,
  setAdmin,
  UserNotFoundError,
} from "~/modules/accounts/users.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { formFields, userChangeSchema } from "~/rules/account-schemas.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/users";

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const { db, env } = await runtime();
  const url = new URL(request.url);
  const query = queryParam(url, "q") ?? "";
  const page = await listUsers(db, {
    query,
    page: pageParam(url),
    adminRule: { adminEmails: env.adminEmails, adminEmailDomain: env.adminEmailDomain },
  });
  return { ...page, query, viewerId: viewer.id };
}

export type UserChangeResult =
  | { kind: "changed"; email: string; isAdmin: boolean; changed: boolean }
  | { kind: "failed"; message: string };

const failed = (message: string, status: number) =>
  data<UserChangeResult>({ kind: "failed", message }, { status });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const parsed = userChangeSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) return failed(parsed.error.issues[0]?.message ?? "Unknown request.", 400);
  const { intent, userId } = parsed.data;
  const { db } = await runtime();
  try {
    const result = await setAdmin(db, viewer, userId, intent === "grant");
    // Revoked their own admin: the admin area is closed to them now.
    if (result.userId === viewer.id && !result.isAdmin) return redirect("/");
    return data<UserChangeResult>({
      kind: "changed",
      email: result.email,
      isAdmin: result.isAdmin,
      changed: result.changed,
    });
  } catch (error) {
    if (error instanceof LastAdminError) return failed(error.message, 409);
    if (error instanceof UserNotFoundError) return failed(error.message, 404);
    log.error("admin role change failed", { error, userId, intent, actorId: viewer.id });
    return failed("Please try again.", 500);
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Users",
    description: "Customer profiles and admin access.",
    path: "/admin/users",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { users, total, page, pageCount, query, admins, viewerId } = loaderData;
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Users</h1>
          <p className="mt-1 text-muted-foreground">
            {query ? `${total} matching “${query}”` : `${total} ${total === 1 ? "user" : "users"}`}
            {" · "}
            {admins} {admins === 1 ? "admin" : "admins"}
          </p>
        </div>
        <Form method="get" role="search" className="flex w-full gap-2 sm:w-auto">
          <label htmlFor="users-q" className="sr-only">
            Search by name or email
          </label>
          <Input
            id="users-q"
            type="search"
            name="q"
            defaultValue={searchParams.get("q") ?? ""}
            placeholder="Search by name or email"
            className="sm:w-72"
          />
          <Button type="submit" variant="outline">
            <Search aria-hidden="true" />
            Search
          </Button>
        </Form>
      </div>

      {users.length === 0 ? (
        <p className="rounded-xl border border-dashed px-6 py-12 text-center text-muted-foreground">
          {query ? "No users match your search." : "No users yet."}
        </p>
      ) : (
        <div className="overflow-hidden rounded-xl border bg-card shadow-xs">
          <table className="w-full text-sm">
            <caption className="sr-only">Users, newest first</caption>
            <thead className="bg-muted/50 text-left max-md:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Name
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Email
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Joined
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Role
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {users.map((u) => (
                <UserRow key={u.id} user={u} isViewer={u.id === viewerId} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} label="User pages" />
    </div>
  );
}

const cell = "px-4 py-3 align-top max-md:p-0";

function UserRow({ user, isViewer }: { user: AdminUserRow; isViewer: boolean }) {
  const fetcher = useFetcher<UserChangeResult>();
  const busy = fetcher.state !== "idle";
  const pending = fetcher.formData?.get("intent");
  const isAdmin = pending === "grant" ? true : pending === "revoke" ? false : user.isAdmin;

  useOutcomeToast(fetcher, (result) =>
    result.kind === "failed"
      ? { title: "Failed to update", description: result.message, variant: "destructive" }
      : {
          title: result.isAdmin ? "Admin granted" : "Admin revoked",
          description: result.isAdmin
            ? `${result.email} can now use the admin area.`
            : `${result.email} no longer has admin access.`,
        },
  );

  const change = (intent: "grant" | "revoke") =>
    fetcher.submit({ intent, userId: user.id }, { method: "post" });

  const hintId = `user-${user.id}-hint`;
  return (
    <tr
      data-testid="user-row"
      className="max-md:grid max-md:grid-cols-1 max-md:gap-2 max-md:p-4"
      aria-busy={busy || undefined}
    >
      <td className={`${cell} font-medium`}>
        {user.name}
        {/* A real space, not only a margin: it was read and copied as "Demo Admin(you)". */}
        {isViewer ? (
          <>
            {" "}
            <span className="font-normal text-muted-foreground">(you)</span>
          </>
        ) : null}
      </td>
      <td className={`${cell} break-all`}>
        <span>{user.email}</span>
        <span className="mt-1 block">
          {user.emailVerified ? (
            <Badge variant="outline">Verified</Badge>
          ) : (
            <Badge variant="secondary">Not verified</Badge>
          )}
        </span>
      </td>
      <td className={`${cell} whitespace-nowrap text-muted-foreground`}>
        <span className="md:sr-only">Joined </span>
        <AdminDate value={user.createdAt} />
      </td>
      <td className={cell}>
        <span className="md:sr-only">Role: </span>
        {isAdmin ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}
        {user.adminByConfiguration ? (
          <p id={hintId} className="mt-2 flex max-w-64 gap-1.5 text-muted-foreground text-xs">
            <Info aria-hidden="true" className="mt-px size-3.5 shrink-0" />
            Named by ADMIN_EMAILS / ADMIN_EMAIL_DOMAIN: admin again at their next sign-in, so
            revoking won't stick while the configuration lists them.
          </p>
        ) : null}
      </td>
      <td className={`${cell} md:text-right`}>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button
              type="button"
              size="sm"
              variant={isAdmin ? "outline" : "secondary"}
              disabled={busy}
              aria-describedby={user.adminByConfiguration && isAdmin ? hintId : undefined}
              className="max-md:w-full"
            >
              {isAdmin ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
              {isAdmin ? "Revoke admin" : "Make admin"}
              <span className="sr-only"> for {user.email}</span>
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>
                {isAdmin ? `Revoke admin from ${user.email}?` : `Make ${user.email} an admin?`}
              </AlertDialogTitle>
              <AlertDialogDescription>
                {isAdmin
                  ? isViewer
                    ? "You will lose access to the admin area straight away."
                    : "They will lose access to the admin area straight away."
                  : "They will be able to change products, orders, settings and other admins."}
                {isAdmin && user.adminByConfiguration
                  ? " The server configuration names this account, so it becomes admin again when they next sign in."
                  : ""}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className={isAdmin ? buttonVariants({ variant: "destructive" }) : undefined}
                onClick={() => change(isAdmin ? "revoke" : "grant")}
              >
                {isAdmin ? "Revoke admin" : "Make admin"}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </td>
    </tr>
  );
}
