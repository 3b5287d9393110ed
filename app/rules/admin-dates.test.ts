import { describe, expect, it } from "vitest";
import { formatAdminDate, isAdminTimezone } from "./admin-dates.ts";

describe("admin dates", () => {
  const at = new Date("2026-11-22T08:35:09Z");
  it("formats dd/Month/yyyy hh:mm:ss, 24-hour, in India time by default", () => {
    expect(formatAdminDate(at, "Asia/Kolkata")).toBe("22/November/2026 14:05:09");
  });
  it("formats in UTC", () => {
    expect(formatAdminDate(at, "UTC")).toBe("22/November/2026 08:35:09");
    expect(formatAdminDate("2026-01-05T00:00:00Z", "UTC")).toBe("05/January/2026 00:00:00");
  });
  it("crosses the date line with the zone", () => {
    expect(formatAdminDate("2026-03-31T20:00:00Z", "Asia/Kolkata")).toBe("01/April/2026 01:30:00");
  });
  it("shows a dash for an invalid date", () => {
    expect(formatAdminDate("not a date", "UTC")).toBe("—");
  });
  it("knows the three zones", () => {
    expect(["Asia/Kolkata", "UTC", "local"].every(isAdminTimezone)).toBe(true);
    expect(isAdminTimezone("Europe/London")).toBe(false);
  });
});
