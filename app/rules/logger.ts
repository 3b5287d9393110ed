/**
 * The browser's logger (SPEC.md §1): levels verbose, info, warning, error; timestamps in the
 * Asia/Kolkata time zone, en-IN format.
 */
export type ClientLogLevel = "verbose" | "info" | "warning" | "error";
const rank: Record<ClientLogLevel, number> = { verbose: 0, info: 1, warning: 2, error: 3 };

const stampFormat = new Intl.DateTimeFormat("en-IN", {
  timeZone: "Asia/Kolkata",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

export function logTimestamp(date: Date = new Date()): string {
  return stampFormat.format(date);
}

export function formatLogLine(level: ClientLogLevel, message: string, date = new Date()): string {
  return `[${logTimestamp(date)}] ${level.toUpperCase()}: ${message}`;
}

export function createLogger(
  minLevel: ClientLogLevel = "info",
  sink: Pick<Console, "debug" | "info" | "warn" | "error"> = console,
) {
  const emit = (level: ClientLogLevel, message: string, ...rest: unknown[]) => {
    if (rank[level] < rank[minLevel]) return;
    const line = formatLogLine(level, message);
    if (level === "error") sink.error(line, ...rest);
    else if (level === "warning") sink.warn(line, ...rest);
    else if (level === "info") sink.info(line, ...rest);
    else sink.debug(line, ...rest);
  };
  return {
    verbose: (m: string, ...r: unknown[]) => emit("verbose", m, ...r),
    info: (m: string, ...r: unknown[]) => emit("info", m, ...r),
    warning: (m: string, ...r: unknown[]) => emit("warning", m, ...r),
    error: (m: string, ...r: unknown[]) => emit("error", m, ...r),
  };
}

export const logger = createLogger(import.meta.env?.DEV ? "verbose" : "info");
