/*
 * Working days in India's calendar, days written yyyy-mm-dd (issue 24): Sundays and the shop's
 * holidays don't count. Pure day arithmetic in UTC fields, so no time zone or daylight saving
 * can move a day; which day "today" is in India comes from app/rules/india-time.ts.
 */

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written yyyy-mm-dd. */
export function isIsoDay(value: string): boolean {
  const m = ISO_DAY.exec(value);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === value;
}

const toUtc = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y, m - 1, d);
};
const fromUtc = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The day after `day`. */
export const nextDay = (day: string) => fromUtc(toUtc(day) + DAY_MS);

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (day: string) => new Date(toUtc(day)).getUTCDay();

export function isWorkingDay(day: string, holidays: ReadonlySet<string>): boolean {
  return weekday(day) !== 0 && !holidays.has(day);
}

/**
 * The day `n` working days after `start` (start itself not counted). With n = 0: `start` when it
 * is a working day, else the next working day. Holidays are yyyy-mm-dd days.
 */
export function addWorkingDays(start: string, n: number, holidays: ReadonlySet<string>): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`working days must be ≥ 0: ${n}`);
  let day = start;
  if (n === 0) {
    while (!isWorkingDay(day, holidays)) day = nextDay(day);
    return day;
  }
  let left = n;
  // Bounded: at most 6 of every 7 days are Sundays-or-not, holidays are a finite list.
  while (left > 0) {
    day = nextDay(day);
    if (isWorkingDay(day, holidays)) left -= 1;
  }
  return day;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-12-04" → "Fri 4 Dec". */
export function shortDate(day: string): string {
  const [, m, d] = day.split("-").map(Number);
  return `${WEEKDAYS[weekday(day)]} ${d} ${MONTHS[m - 1]}`;
}
