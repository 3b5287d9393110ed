import { describe, expect, it } from "vitest";
import {
  csvDateHeading,
  csvDateTime,
  exportTimeZone,
  formatAdminDate,
  isAdminTimezone,
} from "./admin-dates.ts";

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

describe("export dates", () => {
  // An order placed at 00:15 on 11 April, India time, is 18:45 UTC on 10 April: the export in
  // UTC put it on the wrong day while every admin screen showed 11 April.
  it("writes a spreadsheet date and time in the admin's zone", () => {
    expect(csvDateTime(new Date("2026-04-10T18:45:00Z"), "Asia/Kolkata")).toBe(
      "2026-04-11 00:15:00",
    );
    expect(csvDateTime("2026-04-10T18:45:00Z", "UTC")).toBe("2026-04-10 18:45:00");
    expect(csvDateTime("2026-04-10T18:45:00Z", "America/New_York")).toBe("2026-04-10 14:45:00");
    expect(csvDateTime("nonsense", "UTC")).toBe("");
  });
  it("uses the admin's choice, the browser's zone for 'This device', and says which", () => {
    expect(exportTimeZone("Asia/Kolkata", "Europe/London")).toBe("Asia/Kolkata");
    expect(exportTimeZone("UTC", null)).toBe("UTC");
    expect(exportTimeZone("local", "Europe/London")).toBe("Europe/London");
    expect(exportTimeZone("local", "Not/AZone")).toBe("Asia/Kolkata");
    expect(exportTimeZone("local", null)).toBe("Asia/Kolkata");
    expect(csvDateHeading("Asia/Kolkata")).toBe("Date (Asia/Kolkata)");
  });
});
