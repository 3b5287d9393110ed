import { NavLink, Outlet, useFetcher } from "react-router";
import { getAdminTimezone } from "~/modules/accounts/profile.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { ADMIN_TIMEZONES, adminTimezoneLabel, isAdminTimezone } from "~/rules/admin-dates.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/layout";

/*
 * The admin area's frame: the server guard (every child loader and action checks again, since
 * loaders run in parallel), the section navigation, and the admin's time zone choice.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const { db } = await runtime();
  return { timezone: await getAdminTimezone(db, viewer.id) };
}

const links = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/shipments", label: "Shipments" },
  { to: "/admin/items", label: "Items" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/sponsored-products", label: "Sponsored" },
  { to: "/admin/promotions", label: "Promotions" },
  { to: "/admin/discounts", label: "Discounts" },
  { to: "/admin/quotes", label: "Quotes" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/subscribers", label: "Subscribers" },
  { to: "/admin/settings", label: "Settings" },
  { to: "/admin/audit", label: "Audit log" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("timezone");
  const timezone = isAdminTimezone(pending) ? pending : loaderData.timezone;
  return (
    <div className="flex flex-col">
      <div className="border-b bg-muted/40">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-2 lg:flex-row lg:items-center lg:justify-between">
          <nav aria-label="Admin" className="-mx-1 overflow-x-auto">
            <ul className="flex gap-1 whitespace-nowrap">
              {links.map((l) => (
                <li key={l.to}>
                  <NavLink
                    to={l.to}
                    end={l.end}
                    className={({ isActive }) =>
                      `inline-flex h-9 items-center rounded-md px-3 font-medium text-sm ${
                        isActive
                          ? "bg-background text-foreground shadow-xs"
                          : "text-muted-foreground hover:text-foreground"
                      }`
                    }
                  >
                    {l.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <fetcher.Form
            method="post"
            action="/admin/preferences"
            className="flex items-center gap-2"
          >
            <label htmlFor="admin-timezone" className="text-muted-foreground text-sm">
              Times in
            </label>
            <select
              id="admin-timezone"
              name="timezone"
              value={timezone}
              onChange={(e) => fetcher.submit(e.currentTarget.form)}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm"
            >
              {ADMIN_TIMEZONES.map((z) => (
                <option key={z} value={z}>
                  {adminTimezoneLabel[z]}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="h-9 rounded-md border px-2 text-sm">
                Save
              </button>
            </noscript>
          </fetcher.Form>
        </div>
      </div>
      <Outlet />
    </div>
  );
}
