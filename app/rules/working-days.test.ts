import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { istToday } from "./india-time.ts";
import {
  addWorkingDays,
  isIsoDay,
  isWorkingDay,
  nextDay,
  shortDate,
  weekday,
} from "./working-days.ts";

const none = new Set<string>();

/** Days from 2000 to 2099, as yyyy-mm-dd. */
const anyDay = fc
  .integer({ min: Date.UTC(2000, 0, 1) / 86_400_000, max: Date.UTC(2099, 11, 31) / 86_400_000 })
  .map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10));

describe("working days in India", () => {
  it("reads only real calendar days", () => {
    for (const day of ["2026-12-04", "2028-02-29", "2026-01-31"])
      expect(isIsoDay(day), day).toBe(true);
    for (const day of ["2026-02-29", "2026-13-01", "2026-11-31", "26-12-04", "2026-1-4", ""]) {
      expect(isIsoDay(day), day).toBe(false);
    }
  });

  it("crosses month and year ends", () => {
    expect(nextDay("2026-11-30")).toBe("2026-12-01");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
    expect(nextDay("2027-02-28")).toBe("2027-03-01");
  });

  it("skips Sundays and holidays", () => {
    // Wed 25 Nov 2026 + 3 working days: Thu, Fri, Sat.
    expect(addWorkingDays("2026-11-25", 3, none)).toBe("2026-11-28");
    // + 4: Sunday 29 Nov is skipped.
    expect(addWorkingDays("2026-11-25", 4, none)).toBe("2026-11-30");
    // A holiday on Monday 30 Nov pushes it to Tuesday, 1 Dec (a month end crossed).
    expect(addWorkingDays("2026-11-25", 4, new Set(["2026-11-30"]))).toBe("2026-12-01");
    // Over the year end: Thu 31 Dec 2026 + 2 = Sat 2 Jan 2027; with 1 Jan a holiday, Mon 4 Jan.
    expect(addWorkingDays("2026-12-31", 2, none)).toBe("2027-01-02");
    expect(addWorkingDays("2026-12-31", 2, new Set(["2027-01-01"]))).toBe("2027-01-04");
  });

  it("zero days: today when it is a working day, else the next one", () => {
    expect(addWorkingDays("2026-11-25", 0, none)).toBe("2026-11-25");
    expect(addWorkingDays("2026-11-29", 0, none)).toBe("2026-11-30");
    expect(addWorkingDays("2026-11-29", 0, new Set(["2026-11-30"]))).toBe("2026-12-01");
    expect(() => addWorkingDays("2026-11-25", -1, none)).toThrow(RangeError);
  });

  it("today is India's calendar day: 11 pm in London on 25 Nov is already the 26th in Kolkata", () => {
    expect(istToday(new Date("2026-11-25T18:29:59Z"))).toBe("2026-11-25");
    expect(istToday(new Date("2026-11-25T18:30:00Z"))).toBe("2026-11-26");
    // The last evening of a month (UTC) is the first of the next in India.
    expect(istToday(new Date("2026-11-30T20:00:00Z"))).toBe("2026-12-01");
  });

  it("formats the date as the box says it", () => {
    expect(shortDate("2026-12-04")).toBe("Fri 4 Dec");
    expect(shortDate("2027-01-01")).toBe("Fri 1 Jan");
    expect(weekday("2026-11-29")).toBe(0);
  });

  it("property: the result is a working day, after the start, with exactly n working days in between", () => {
    fc.assert(
      fc.property(
        anyDay,
        fc.integer({ min: 1, max: 40 }),
        fc.uniqueArray(anyDay, { maxLength: 30 }),
        (start, n, holidayList) => {
          const holidays = new Set(holidayList);
          const end = addWorkingDays(start, n, holidays);
          expect(end > start).toBe(true);
          expect(isWorkingDay(end, holidays)).toBe(true);
          expect(weekday(end)).not.toBe(0);
          let counted = 0;
          for (let d = nextDay(start); d <= end; d = nextDay(d)) {
            if (isWorkingDay(d, holidays)) counted += 1;
          }
          expect(counted).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: adding in two steps is adding once, and a holiday never brings the date earlier", () => {
    fc.assert(
      fc.property(
        anyDay,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        anyDay,
        (start, a, b, holiday) => {
          const first = addWorkingDays(start, a, none);
          if (a > 0) {
            expect(addWorkingDays(first, b, none)).toBe(addWorkingDays(start, a + b, none));
          }
          expect(
            addWorkingDays(start, b, new Set([holiday])) >= addWorkingDays(start, b, none),
          ).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
