import { describe, expect, it } from "vitest";
import {
  correctedMinutes,
  estimatedMinutesPerDay,
  estimatedPrintMinutes,
  FACTOR_MAX,
  FACTOR_MIN,
  minutesText,
  PRINTER_MIN_SAMPLES,
  type PrintSchedule,
  partDateText,
  printerFactors,
  printReadyBy,
  printTimeFactor,
  printWorkingDays,
  scheduleToday,
} from "./print-dates.ts";

// Two printers, 10 hours a working day: 1,200 minutes of printing a day.
const schedule = (over: Partial<PrintSchedule> = {}): PrintSchedule => ({
  today: "2026-11-25", // a Wednesday
  holidays: [],
  printers: [{ name: "A", count: 2, factor: over.factor ?? 1 }],
  printHoursPerDay: 10,
  minLeadDays: 1,
  queuedMinutes: 0,
  factor: 1,
  ...over,
});

describe("print dates", () => {
  it("a small part with nothing queued is ready after the minimum lead", () => {
    expect(printWorkingDays(schedule(), 60, "standard")).toBe(1);
    expect(printReadyBy(schedule(), 60, "standard")).toBe("2026-11-26");
    expect(printReadyBy(schedule({ minLeadDays: 3 }), 60, "standard")).toBe("2026-11-28");
  });

  it("Standard waits behind the queue; Express counts only its own hours", () => {
    // 3,000 queued + 600 own = 3,600 minutes = 3 days of 1,200.
    const busy = schedule({ queuedMinutes: 3000 });
    expect(printWorkingDays(busy, 600, "standard")).toBe(3);
    expect(printWorkingDays(busy, 600, "express")).toBe(1);
    // Thu, Fri, Sat (Wed 25 + 3); Express the next day.
    expect(printReadyBy(busy, 600, "standard")).toBe("2026-11-28");
    expect(printReadyBy(busy, 600, "express")).toBe("2026-11-26");
    // A long Express job still takes its own days: 2,500 minutes = 3 days.
    expect(printWorkingDays(busy, 2500, "express")).toBe(3);
  });

  it("skips Sundays and the shop's holidays, across a month end", () => {
    // Sat 28 Nov + 1 working day: Sunday skipped, Mon 30 Nov.
    expect(printReadyBy(schedule({ today: "2026-11-28" }), 60, "express")).toBe("2026-11-30");
    // Monday a holiday: Tue 1 Dec, the month crossed.
    expect(
      printReadyBy(schedule({ today: "2026-11-28", holidays: ["2026-11-30"] }), 60, "express"),
    ).toBe("2026-12-01");
    // 4 days of queue from Sat 26 Dec 2026, 1 Jan a holiday: Mon 28, Tue 29, Wed 30, Thu 31.
    expect(
      printReadyBy(
        schedule({ today: "2026-12-26", holidays: ["2027-01-01"], queuedMinutes: 4200 }),
        600,
        "standard",
      ),
    ).toBe("2026-12-31");
    // 5 days: 1 Jan skipped, Sat 2 Jan 2027.
    expect(
      printReadyBy(
        schedule({ today: "2026-12-26", holidays: ["2027-01-01"], queuedMinutes: 5400 }),
        600,
        "standard",
      ),
    ).toBe("2027-01-02");
  });

  it("counts from India's day: 11 pm in London on 30 Nov is 1 Dec in Kolkata", () => {
    const today = scheduleToday(new Date("2026-11-30T20:00:00Z"));
    expect(today).toBe("2026-12-01");
    expect(printReadyBy(schedule({ today }), 60, "express")).toBe("2026-12-02");
    // Late on Saturday in India (UTC still Saturday): Monday.
    const saturday = scheduleToday(new Date("2026-11-28T17:00:00Z"));
    expect(printReadyBy(schedule({ today: saturday }), 60, "express")).toBe("2026-11-30");
  });

  it("the learned factor stretches the queue and the part's own time", () => {
    // 700 queued + 300 own = 1,000 minutes: 1 day; × 1.5 = 1,500 minutes: 2 days.
    expect(printWorkingDays(schedule({ queuedMinutes: 700 }), 300, "standard")).toBe(1);
    expect(printWorkingDays(schedule({ queuedMinutes: 700, factor: 1.5 }), 300, "standard")).toBe(
      2,
    );
    expect(correctedMinutes(100, 1.25)).toBe(125);
    expect(correctedMinutes(-5, 2)).toBe(0);
  });

  it("estimated minutes: hours per piece × pieces, rounded up", () => {
    expect(estimatedPrintMinutes(1.5, 2)).toBe(180);
    expect(estimatedPrintMinutes(0.01, 1)).toBe(1);
    expect(estimatedPrintMinutes(0, 3)).toBe(0);
    expect(estimatedPrintMinutes(Number.NaN, 3)).toBe(0);
  });
});

describe("the print-time factor", () => {
  it("is 1 with nothing recorded", () => {
    expect(printTimeFactor([])).toBe(1);
    expect(printTimeFactor([{ estimatedMinutes: 0, actualMinutes: 30 }])).toBe(1);
  });

  it("averages actual ÷ estimated over the latest prints", () => {
    expect(
      printTimeFactor([
        { estimatedMinutes: 100, actualMinutes: 120 },
        { estimatedMinutes: 60, actualMinutes: 84 },
      ]),
    ).toBeCloseTo(1.3, 10);
    // Only the newest 20 count: 20 at 2× then 10 at 1×.
    const samples = [
      ...Array.from({ length: 20 }, () => ({ estimatedMinutes: 50, actualMinutes: 100 })),
      ...Array.from({ length: 10 }, () => ({ estimatedMinutes: 50, actualMinutes: 50 })),
    ];
    expect(printTimeFactor(samples)).toBe(2);
  });

  it("keeps a mistyped time from moving every date", () => {
    expect(printTimeFactor([{ estimatedMinutes: 10, actualMinutes: 10_000 }])).toBe(FACTOR_MAX);
    expect(printTimeFactor([{ estimatedMinutes: 10_000, actualMinutes: 1 }])).toBe(FACTOR_MIN);
  });
});

describe("per printer", () => {
  const prints = (n: number, ratio: number) =>
    Array.from({ length: n }, () => ({ estimatedMinutes: 100, actualMinutes: 100 * ratio }));

  it("a printer with enough recorded prints has its own factor; one with too few, the shop's", () => {
    const factors = printerFactors(
      [
        { name: "Fast", count: 1 },
        { name: "Slow", count: 2 },
        { name: "New", count: 1 },
      ],
      new Map([
        ["Fast", prints(PRINTER_MIN_SAMPLES, 0.8)],
        ["Slow", prints(6, 1.5)],
        ["New", prints(PRINTER_MIN_SAMPLES - 1, 3)],
      ]),
      1.2,
    );
    expect(factors).toEqual([
      { name: "Fast", count: 1, factor: 0.8 },
      { name: "Slow", count: 2, factor: 1.5 },
      { name: "New", count: 1, factor: 1.2 },
    ]);
    // Unusable records (no estimate) don't count towards the minimum.
    const [unusable] = printerFactors(
      [{ name: "Fast", count: 1 }],
      new Map([["Fast", [...prints(4, 2), { estimatedMinutes: 0, actualMinutes: 50 }]]]),
      1,
    );
    expect(unusable.factor).toBe(1);
    // The same robust rule: a mistyped time is kept within bounds.
    const [wild] = printerFactors(
      [{ name: "Fast", count: 1 }],
      new Map([["Fast", prints(PRINTER_MIN_SAMPLES, 1000)]]),
      1,
    );
    expect(wild.factor).toBe(FACTOR_MAX);
  });

  it("the queue runs across printers, each getting through its hours ÷ its factor of estimate", () => {
    // 10 h a day: a ×1 printer does 600 estimated minutes, a ×2 one 300, two ×0.5 ones 2,400.
    expect(
      estimatedMinutesPerDay(
        [
          { name: "A", count: 1, factor: 1 },
          { name: "B", count: 1, factor: 2 },
          { name: "C", count: 2, factor: 0.5 },
        ],
        10,
      ),
    ).toBe(3300);
    const twoPrinters = (slow: number) =>
      schedule({
        printers: [
          { name: "A", count: 1, factor: 1 },
          { name: "B", count: 1, factor: slow },
        ],
      });
    // 1,200 queued + 0 own: one day with both at ×1; at ×3 on B: 600 + 200 a day, 2 days.
    expect(printWorkingDays(twoPrinters(1), 0, "standard")).toBe(1);
    expect(printWorkingDays({ ...twoPrinters(1), queuedMinutes: 1200 }, 0, "standard")).toBe(1);
    expect(printWorkingDays({ ...twoPrinters(3), queuedMinutes: 1200 }, 0, "standard")).toBe(2);
    // Express counts only its own minutes, on the same printers.
    expect(printWorkingDays({ ...twoPrinters(3), queuedMinutes: 9999 }, 800, "express")).toBe(1);
    expect(printWorkingDays({ ...twoPrinters(3), queuedMinutes: 9999 }, 801, "express")).toBe(2);
    // Printers all at the shop's factor date exactly as one factor for the shop did.
    const shop = schedule({ queuedMinutes: 700, factor: 1.5 });
    expect(printWorkingDays(shop, 300, "standard")).toBe(2);
  });
});

describe("texts", () => {
  it("says the speed and the date", () => {
    expect(partDateText("express", "2026-12-04")).toBe("Express · ready by Fri 4 Dec");
    expect(partDateText("standard", null)).toBe("Standard printing");
    expect(minutesText(125)).toBe("2 h 5 min");
    expect(minutesText(45)).toBe("45 min");
  });
});
