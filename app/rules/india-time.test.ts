import { describe, expect, it } from "vitest";
import { inIndia, istDay, istDayEnd, istDayStart, istToday } from "./india-time.ts";

describe("India time (UTC+05:30)", () => {
  it("reads India's calendar and clock from the UTC fields", () => {
    const t = inIndia(new Date("2026-11-21T18:45:00Z"));
    expect([t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes()]).toEqual([22, 0, 15]);
  });

  it("names the day in India", () => {
    expect(istDay(new Date("2026-11-21T18:29:59Z"))).toBe("2026-11-21");
    expect(istDay(new Date("2026-11-21T18:30:00Z"))).toBe("2026-11-22");
    expect(istToday(new Date("2026-12-31T19:00:00Z"))).toBe("2027-01-01");
    expect(() => istDay(new Date("nope"))).toThrow(RangeError);
  });

  it("bounds a day in India", () => {
    expect(istDayStart("2026-11-22").toISOString()).toBe("2026-11-21T18:30:00.000Z");
    expect(istDayEnd("2026-11-22").toISOString()).toBe("2026-11-22T18:30:00.000Z");
  });
});
