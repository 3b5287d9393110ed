import { currentRequestId } from "./request-context.server.ts";

/** Server log: one JSON object per line on stdout/stderr, with the request id when there is one. */
export type LogLevel = "verbose" | "info" | "warning" | "error";
const order: Record<LogLevel, number> = { verbose: 0, info: 1, warning: 2, error: 3 };

let threshold: LogLevel =
  (process.env.LOG_LEVEL as LogLevel) in order ? (process.env.LOG_LEVEL as LogLevel) : "info";

export function setLogLevel(level: LogLevel) {
  threshold = level;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  return value;
}

function write(level: LogLevel, message: string, fields?: Record<string, unknown>) {
  if (order[level] < order[threshold]) return;
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message };
  const requestId = currentRequestId();
  if (requestId) entry.requestId = requestId;
  if (fields) for (const [k, v] of Object.entries(fields)) entry[k] = serialise(v);
  const line = `${JSON.stringify(entry)}\n`;
  if (order[level] >= order.warning) process.stderr.write(line);
  else process.stdout.write(line);
}

export const log = {
  /** Whether a message of this level would be written (to skip preparing one that wouldn't). */
  enabled: (level: LogLevel) => order[level] >= order[threshold],
  verbose: (message: string, fields?: Record<string, unknown>) => write("verbose", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warning: (message: string, fields?: Record<string, unknown>) => write("warning", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
