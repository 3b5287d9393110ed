import { describe, expect, it, vi } from "vitest";
import { createLogger, formatLogLine, logTimestamp } from "./logger.ts";

describe("client logger", () => {
  it("stamps lines in Asia/Kolkata time, en-IN format", () => {
    // 2026-01-31T20:00:00Z is 1 Feb 2026, 01:30:00 in India (UTC+5:30)
    expect(logTimestamp(new Date("2026-01-31T20:00:00Z"))).toBe("01/02/2026, 01:30:00");
    expect(formatLogLine("warning", "hi", new Date("2026-01-31T20:00:00Z"))).toBe(
      "[01/02/2026, 01:30:00] WARNING: hi",
    );
  });

  it("drops lines below its level and routes the rest by level", () => {
    const sink = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const log = createLogger("info", sink);
    log.verbose("hidden");
    log.info("i");
    log.warning("w");
    log.error("e");
    expect(sink.debug).not.toHaveBeenCalled();
    expect(sink.info).toHaveBeenCalledTimes(1);
    expect(sink.warn).toHaveBeenCalledTimes(1);
    expect(sink.error).toHaveBeenCalledTimes(1);
  });
});
