/*
 * Time in India (Asia/Kolkata is UTC+05:30 all year: no daylight saving). The one place that
 * knows the offset: order numbers, invoice dates and financial years, the admin's day filters and
 * dashboard, and dates shown to customers all read India's calendar through these helpers.
 */

export const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** `date` moved by India's offset: its UTC fields (getUTCDate()…) read India's calendar and clock. */
export function inIndia(date: Date): Date {
  return new Date(date.getTime() + IST_OFFSET_MS);
}

/** India's calendar day of an instant, yyyy-mm-dd (a RangeError for an invalid date). */
export function istDay(date: Date): string {
  return inIndia(date).toISOString().slice(0, 10);
}

/** Today's date in India, yyyy-mm-dd. */
export function istToday(now: Date = new Date()): string {
  return istDay(now);
}

/** The instant a day begins in India: 2026-11-22 → 2026-11-21T18:30:00Z. */
export function istDayStart(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d) - IST_OFFSET_MS);
}

/** The instant the next day begins in India (the exclusive end of `day`). */
export function istDayEnd(day: string): Date {
  return new Date(istDayStart(day).getTime() + DAY_MS);
}
