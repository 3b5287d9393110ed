/*
 * Dates in the admin area (issue: "Dates"): dd/Month/yyyy hh:mm:ss, 24-hour, in the admin's
 * chosen zone: Asia/Kolkata (default), UTC, or local (the browser's own zone).
 */
import { z } from "zod";

export const ADMIN_TIMEZONES = ["Asia/Kolkata", "UTC", "local"] as const;
export type AdminTimezone = (typeof ADMIN_TIMEZONES)[number];
export const DEFAULT_ADMIN_TIMEZONE: AdminTimezone = "Asia/Kolkata";

export const adminTimezoneLabel: Record<AdminTimezone, string> = {
  "Asia/Kolkata": "India (IST)",
  UTC: "UTC",
  local: "This device",
};

export function isAdminTimezone(value: unknown): value is AdminTimezone {
  return typeof value === "string" && (ADMIN_TIMEZONES as readonly string[]).includes(value);
}

/** The admin's time zone form (/admin/preferences). */
export const adminTimezoneForm = z.object({ timezone: z.enum(ADMIN_TIMEZONES) });

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "22/November/2026 14:05:09". `local` uses the runtime's zone (call it in the browser only);
 * an invalid date gives "—".
 */
export function formatAdminDate(value: Date | string | number, zone: AdminTimezone): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "—";
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone === "local" ? undefined : zone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  return `${pad(get("day"))}/${MONTHS[get("month") - 1]}/${get("year")} ${pad(get("hour"))}:${pad(get("minute"))}:${pad(get("second"))}`;
}
