import { istToday } from "./india-time.ts";
import { addWorkingDays, shortDate } from "./working-days.ts";

/*
 * When a custom part is ready (issue 26, docs/decisions/0017-print-dates.md): the shop's printers
 * print `printerCount × printHoursPerDay` hours a working day. Standard waits behind the print
 * hours already queued (custom parts in paid orders not yet printed); Express jumps the queue, so
 * only its own hours count. Either way at least `minLeadDays` working days. Print times are the
 * quote engine's estimates corrected by a factor learned from the times staff record. Working
 * days skip Sundays and the shop's holidays (app/rules/working-days.ts). Pure: no clock, no I/O.
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
  printerCount: number;
  printHoursPerDay: number;
  minLeadDays: number;
  /** Estimated minutes of the parts already queued (before correction). */
  queuedMinutes: number;
  /** Actual ÷ estimated, learned from recorded print times (1: nothing recorded yet). */
  factor: number;
};

/** Whole minutes of printing for a part: its hours per piece × the pieces, rounded up. */
export function estimatedPrintMinutes(hoursPerPiece: number, quantity: number): number {
  if (!(hoursPerPiece > 0) || !(quantity > 0)) return 0;
  return Math.ceil(hoursPerPiece * 60 * quantity - 1e-9);
}

/** An estimate corrected by the learned factor, in whole minutes. */
export function correctedMinutes(estimated: number, factor: number): number {
  return Math.max(0, Math.ceil(estimated * factor - 1e-9));
}

/** The working days before parts of `ownMinutes` (estimated) are printed at this speed. */
export function printWorkingDays(
  schedule: Omit<PrintSchedule, "today" | "holidays">,
  ownMinutes: number,
  speed: PrintSpeed,
): number {
  const perDay = Math.max(1, schedule.printerCount * schedule.printHoursPerDay * 60);
  const ahead = speed === "express" ? 0 : correctedMinutes(schedule.queuedMinutes, schedule.factor);
  const own = correctedMinutes(ownMinutes, schedule.factor);
  return Math.max(schedule.minLeadDays, Math.ceil((ahead + own) / perDay));
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

const clamp = (x: number) => Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, x));

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
} as const;
