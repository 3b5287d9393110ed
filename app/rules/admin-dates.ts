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

/**
 * The zone an export is written in: the admin's choice, as on every admin screen. "This device"
 * is the zone the admin's browser named (`?tz=` on the export link), when it is a real one; else
 * India. (Exports were once in UTC while the screens showed India time: an order placed in the
 * evening, India time, landed on the wrong day of a day-end export.)
 */
export function exportTimeZone(choice: AdminTimezone, browserZone: string | null): string {
  if (choice !== "local") return choice;
  if (browserZone) {
    try {
      return new Intl.DateTimeFormat("en-GB", { timeZone: browserZone }).resolvedOptions().timeZone;
    } catch {
      // Not a zone this runtime knows: India, like the rest of the admin area before hydration.
    }
  }
  return DEFAULT_ADMIN_TIMEZONE;
}

/** "2026-11-25 21:30:05" in `zone`: what a spreadsheet reads as a date and time. */
export function csvDateTime(value: Date | string, zone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
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
  return `${get("year")}-${pad(get("month"))}-${pad(get("day"))} ${pad(get("hour"))}:${pad(get("minute"))}:${pad(get("second"))}`;
}

/** A date column's heading that says which zone its times are in: "Date (Asia/Kolkata)". */
export const csvDateHeading = (zone: string) => `Date (${zone})`;
