import { useRouteLoaderData } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import {
  type AdminTimezone,
  DEFAULT_ADMIN_TIMEZONE,
  formatAdminDate,
} from "~/rules/admin-dates.ts";

/** The admin layout's loader id (app/routes.ts): its data carries the admin's time zone choice. */
export const ADMIN_LAYOUT_ID = "routes/admin/layout";

export function useAdminTimezone(): AdminTimezone {
  const data = useRouteLoaderData(ADMIN_LAYOUT_ID) as { timezone?: AdminTimezone } | undefined;
  return data?.timezone ?? DEFAULT_ADMIN_TIMEZONE;
}

/**
 * A date in the admin's zone, dd/Month/yyyy hh:mm:ss. "This device" can only be known in the
 * browser, so until hydration it shows India time (no hydration mismatch).
 */
export function AdminDate({ value, className }: { value: Date | string; className?: string }) {
  const zone = useAdminTimezone();
  const hydrated = useHydrated();
  const shown = zone === "local" && !hydrated ? "Asia/Kolkata" : zone;
  const iso = value instanceof Date ? value.toISOString() : value;
  return (
    <time dateTime={iso} className={className} suppressHydrationWarning>
      {formatAdminDate(value, shown)}
    </time>
  );
}
