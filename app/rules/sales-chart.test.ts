import { describe, expect, it } from "vitest";
import { longDay, niceCeiling, shortDay } from "./sales-chart.ts";

describe("sales chart helpers", () => {
  it("names calendar days without any time zone", () => {
    expect(shortDay("2026-11-22")).toBe("22 Nov");
    expect(shortDay("2027-01-01")).toBe("1 Jan");
    expect(longDay("2026-11-22")).toBe("Sun, 22 Nov 2026");
  });

  it("rounds the axis up to four round steps", () => {
    expect(niceCeiling(0, false)).toBe(100);
    expect(niceCeiling(0, true)).toBe(4);
    expect(niceCeiling(349, false)).toBe(400);
    expect(niceCeiling(401, false)).toBe(800);
    expect(niceCeiling(950, false)).toBe(1000);
    expect(niceCeiling(3, true)).toBe(4);
    expect(niceCeiling(5, true)).toBe(8);
    expect(niceCeiling(37, true)).toBe(40);
    for (const max of [1, 7, 13, 99, 1234, 56789]) {
      const top = niceCeiling(max, true);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(Number.isInteger(top / 4)).toBe(true);
    }
    for (const max of [0.5, 12.3, 4567.89, 1e7]) {
      expect(niceCeiling(max, false)).toBeGreaterThanOrEqual(max);
      expect(niceCeiling(max, false)).toBeLessThanOrEqual(max * 4);
    }
  });
});
