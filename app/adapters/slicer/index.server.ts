import { accessSync, constants } from "node:fs";
import path from "node:path";
import { createPrusaSlicer } from "./prusa.server.ts";
import type { Slicer } from "./types.ts";

export type { SlicedFigures, SliceRequest, SliceResult, Slicer } from "./types.ts";

/** No slicer: the quote engine's instant estimate stands. */
export const noSlicer: Slicer = {
  name: "none",
  slice: async () => ({ ok: false, reason: "failed", message: "no slicer is installed" }),
  stop: () => {},
};

/** The executable `command` names (a path, or a name on PATH), or null when there is none. */
export function findExecutable(
  command: string,
  searchPath = process.env.PATH ?? "",
): string | null {
  const candidates = command.includes("/")
    ? [command]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

/** PrusaSlicer when it is installed (and not turned off with SLICER_PATH=none), else none. */
export function createSlicer(config: {
  path: string;
  timeLimitMs: number;
  memoryBytes: number;
}): Slicer {
  if (config.path === "none") return noSlicer;
  const command = findExecutable(config.path);
  if (!command) return noSlicer;
  return createPrusaSlicer({
    command,
    timeLimitMs: config.timeLimitMs,
    memoryBytes: config.memoryBytes,
  });
}
