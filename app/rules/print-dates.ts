import { istToday } from "./india-time.ts";
import { addWorkingDays, shortDate } from "./working-days.ts";

/*
 * When a custom part is ready (issue 26, docs/decisions/0017-print-dates.md and 0024): each of
 * the shop's printers prints `printHoursPerDay` hours a working day. Standard waits behind the
 * print hours already queued (custom parts in paid orders not yet printed); Express jumps the
 * queue, so only its own hours count. Either way at least `minLeadDays` working days. Print times
 * are the quote engine's estimates corrected per printer by a factor learned from the times staff
 * record on it (the shop's factor while a printer has too few), so a slow printer adds less to a
 * day's work than a fast one. Working days skip Sundays and the shop's holidays
 * (app/rules/working-days.ts). Pure: no clock, no I/O.
 */

export const PRINT_SPEEDS = ["standard", "express"] as const;
export type PrintSpeed = (typeof PRINT_SPEEDS)[number];

export const speedLabel: Record<PrintSpeed, string> = {
  standard: "Standard",
  express: "Express",
};

/** What the date of a part depends on besides its own print time. */
export type PrintSchedule = {
  /** India's calendar day the count starts from (yyyy-mm-dd). */
  today: string;
  holidays: readonly string[];
  /** The shop's printers: how many of each, and its learned factor (actual ÷ estimated). */
  printers: ReadonlyArray<PrinterCapacity>;
  printHoursPerDay: number;
  minLeadDays: number;
  /** Estimated minutes of the parts already queued (before correction). */
  queuedMinutes: number;
  /** The shop's actual ÷ estimated over every printer (1: nothing recorded yet). */
  factor: number;
};

/** One of the shop's printers (or several alike) as the queue sees it. */
export type PrinterCapacity = { name: string; count: number; factor: number };

/** Whole minutes of printing for a part: its hours per piece × the pieces, rounded up. */
export function estimatedPrintMinutes(hoursPerPiece: number, quantity: number): number {
  if (!(hoursPerPiece > 0) || !(quantity > 0)) return 0;
  return Math.ceil(hoursPerPiece * 60 * quantity - 1e-9);
}

/** An estimate corrected by the learned factor, in whole minutes. */
export function correctedMinutes(estimated: number, factor: number): number {
  return Math.max(0, Math.ceil(estimated * factor - 1e-9));
}

/**
 * Estimated minutes the printers get through in a working day: each prints `hours × 60` real
 * minutes, which is `hours × 60 ÷ factor` of estimate (a printer at ×2 does half the work).
 */
export function estimatedMinutesPerDay(
  printers: ReadonlyArray<PrinterCapacity>,
  printHoursPerDay: number,
): number {
  const perDay = printers.reduce(
    (sum, p) => sum + (Math.max(0, p.count) * printHoursPerDay * 60) / clamp(p.factor),
    0,
  );
  return Math.max(1, perDay);
}

/** The working days before parts of `ownMinutes` (estimated) are printed at this speed. */
export function printWorkingDays(
  schedule: Omit<PrintSchedule, "today" | "holidays">,
  ownMinutes: number,
  speed: PrintSpeed,
): number {
  const perDay = estimatedMinutesPerDay(schedule.printers, schedule.printHoursPerDay);
  const ahead = speed === "express" ? 0 : Math.max(0, schedule.queuedMinutes);
  const own = Math.max(0, ownMinutes);
  return Math.max(schedule.minLeadDays, Math.ceil((ahead + own) / perDay - 1e-9));
}

/** The day the parts are ready to hand to the courier (yyyy-mm-dd, India). */
export function printReadyBy(
  schedule: PrintSchedule,
  ownMinutes: number,
  speed: PrintSpeed,
): string {
  return addWorkingDays(
    schedule.today,
    printWorkingDays(schedule, ownMinutes, speed),
    new Set(schedule.holidays),
  );
}

/** The factor is never taken beyond these bounds (a mistyped time can't move every date). */
export const FACTOR_MIN = 0.25;
export const FACTOR_MAX = 4;
/** Recorded prints the running average looks at (the latest first). */
export const FACTOR_SAMPLES = 20;

/**
 * Actual ÷ estimated print time, averaged over the latest recorded prints (newest first, at most
 * FACTOR_SAMPLES of them), each ratio and the result kept within FACTOR_MIN…FACTOR_MAX; 1 when
 * nothing usable was recorded.
 */
export function printTimeFactor(
  samples: ReadonlyArray<{ estimatedMinutes: number; actualMinutes: number }>,
): number {
  const ratios = samples
    .filter((s) => s.estimatedMinutes > 0 && s.actualMinutes > 0)
    .slice(0, FACTOR_SAMPLES)
    .map((s) => clamp(s.actualMinutes / s.estimatedMinutes));
  if (ratios.length === 0) return 1;
  return clamp(ratios.reduce((a, b) => a + b, 0) / ratios.length);
}

const clamp = (x: number) =>
  Number.isFinite(x) ? Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, x)) : 1;

/** A printer needs this many recorded prints before its own factor replaces the shop's. */
export const PRINTER_MIN_SAMPLES = 5;

/**
 * Each printer's factor: the same rule as the shop's over its own latest recorded prints (newest
 * first), or the shop's factor while it has fewer than PRINTER_MIN_SAMPLES usable ones.
 */
export function printerFactors(
  printers: ReadonlyArray<{ name: string; count: number }>,
  samplesByPrinter: ReadonlyMap<
    string,
    ReadonlyArray<{ estimatedMinutes: number; actualMinutes: number }>
  >,
  shopFactor: number,
): PrinterCapacity[] {
  return printers.map((p) => {
    const usable = (samplesByPrinter.get(p.name) ?? []).filter(
      (s) => s.estimatedMinutes > 0 && s.actualMinutes > 0,
    );
    return {
      name: p.name,
      count: p.count,
      factor: usable.length >= PRINTER_MIN_SAMPLES ? printTimeFactor(usable) : shopFactor,
    };
  });
}

/** "Ready by Fri 4 Dec". */
export function readyByText(day: string): string {
  return `Ready by ${shortDate(day)}`;
}

/** "Express · ready by Fri 4 Dec" under a cart line or an order's item. */
export function partDateText(speed: PrintSpeed, readyBy: string | null): string {
  return readyBy
    ? `${speedLabel[speed]} · ready by ${shortDate(readyBy)}`
    : `${speedLabel[speed]} printing`;
}

/** What the cart shows under a custom part's line. */
export type CartPartDetails = {
  speed: PrintSpeed;
  readyBy: string | null;
  /** Staff's note when they re-priced it (the customer sees it before paying). */
  priceNote: string | null;
  /** Who changed the price: staff, or the slicer's figures (decision 0020); absent: staff. */
  priceNoteBy?: "staff" | "slicer";
};

/** "2 h 5 min" / "45 min". */
export function minutesText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  const h = Math.floor(m / 60);
  return h > 0 ? `${h} h ${m % 60} min` : `${m} min`;
}

/** India's today for a schedule built on the server now (kept here so both sides agree). */
export const scheduleToday = (now: Date = new Date()) => istToday(now);

export const printDatesText = {
  repriced: "Our team updated this part's price",
  alreadyPaid: "This part has been paid for: its price can't change now.",
  notOrdered: "A print time can be recorded once the part is ordered and paid.",
  unknownPrinter: "Choose the printer it was printed on.",
} as const;
