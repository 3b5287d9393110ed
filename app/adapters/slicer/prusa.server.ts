import { spawn } from "node:child_process";
import { createReadStream, rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { GcodeSummaryReader, unreliableOutput } from "./gcode-summary.ts";
import type { SliceRequest, Slicer } from "./types.ts";

/*
 * PrusaSlicer's command line, run headless as a separate process (it is AGPL: never linked).
 * Facts and pitfalls: docs/decisions/0020. Each run gets its own temporary folder (removed
 * afterwards), a memory limit (ulimit -v in the shell that starts it) and a time limit, after which
 * its whole process group is killed.
 */

/** The committed material profiles (app/adapters/slicer/profiles), beside the build. */
const PROFILES_DIR = path.resolve(process.cwd(), "app/adapters/slicer/profiles");
const PROFILES = new Set(["pla", "silk-pla", "petg", "tpu"]);
/** Console output kept for the failure message and the warning check. */
const OUTPUT_LIMIT = 64 * 1024;

export function profileFile(materialId: string): string {
  return path.join(PROFILES_DIR, `${PROFILES.has(materialId) ? materialId : "generic"}.ini`);
}

export type PrusaSlicerOptions = {
  /** The executable (a path, or a name found on PATH). */
  command: string;
  timeLimitMs: number;
  memoryBytes: number;
};

/** The command line for one part (exported for the tests). */
export function prusaArguments(request: SliceRequest, input: string, output: string): string[] {
  const bx = Math.ceil(request.bed.x);
  const by = Math.ceil(request.bed.y);
  return [
    "--export-gcode",
    "--load",
    profileFile(request.materialId),
    "--layer-height",
    String(request.layerHeightMm),
    "--first-layer-height",
    String(request.layerHeightMm),
    "--fill-density",
    `${request.infillPercent}%`,
    "--filament-density",
    String(request.density),
    "--bed-shape",
    `0x0,${bx}x0,${bx}x${by},0x${by}`,
    ...(request.supports ? ["--support-material"] : []),
    "--output",
    output,
    input,
  ];
}

/**
 * Every slicer process group running in this process. Whatever way the process ends (a shutdown's
 * process.exit, its forced exit after 4.5 s, a crash), they are killed with it: a slicer started
 * in a group of its own would otherwise outlive the shop.
 */
const everyRun = new Set<number>();
/** Every run's temporary folder not removed yet: an exit mid-slice removes them too. */
const everyFolder = new Set<string>();
let exitHooked = false;

function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const group of everyRun) killGroup(group);
    for (const folder of everyFolder) {
      try {
        rmSync(folder, { recursive: true, force: true });
      } catch {
        // Leaving anyway.
      }
    }
  });
}

function tracked(runs: Set<number>, pid: number) {
  runs.add(pid);
  everyRun.add(pid);
  hookExit();
}

function untracked(runs: Set<number>, pid: number) {
  runs.delete(pid);
  everyRun.delete(pid);
}

const stoppedResult = {
  ok: false,
  reason: "stopped",
  message: "the shop stopped while slicing",
} as const;

export function createPrusaSlicer(options: PrusaSlicerOptions): Slicer {
  const runs = new Set<number>();
  let stopped = false;
  return {
    name: "prusa-slicer",
    stop() {
      stopped = true;
      for (const pid of runs) killGroup(pid);
    },
    async slice(request) {
      if (stopped) return stoppedResult;
      const dir = await mkdtemp(path.join(tmpdir(), "layerkart-slice-"));
      everyFolder.add(dir);
      hookExit();
      try {
        const input = path.join(dir, "part.stl");
        const output = path.join(dir, "part.gcode");
        await writeFile(input, request.stl);
        if (stopped) return stoppedResult;
        const run = await runLimited(options, prusaArguments(request, input, output), runs);
        if (stopped) return stoppedResult;
        if (run.timedOut) {
          return {
            ok: false,
            reason: "timeout",
            message: `slicing took longer than ${Math.round(options.timeLimitMs / 1000)} s`,
          };
        }
        if (run.code !== 0) {
          // The temporary folder means nothing to staff reading the reason.
          const why = lastLines(run.output.split(`${dir}${path.sep}`).join(""));
          return {
            ok: false,
            reason: "failed",
            message: `prusa-slicer stopped (${run.signal ?? `exit code ${run.code}`})${why ? `: ${why}` : ""}`,
          };
        }
        const warning = unreliableOutput(run.output);
        if (warning) return { ok: false, reason: "unreliable", message: warning };
        const summary = await readSummary(output);
        if (!summary) {
          return { ok: false, reason: "failed", message: "the G-code carries no estimates" };
        }
        return { ok: true, ...summary };
      } catch (error) {
        return {
          ok: false,
          reason: "failed",
          message: error instanceof Error ? error.message : String(error),
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
        everyFolder.delete(dir);
      }
    },
  };
}

type Run = { code: number | null; signal: string | null; timedOut: boolean; output: string };

function runLimited(options: PrusaSlicerOptions, args: string[], runs: Set<number>): Promise<Run> {
  const kilobytes = Math.floor(options.memoryBytes / 1024);
  return new Promise((resolve, reject) => {
    // The shell sets the memory limit and then becomes the slicer (exec), in a process group of
    // its own so a time-out kills everything it started.
    const child = spawn(
      "sh",
      ["-c", `ulimit -v ${kilobytes} && exec "$0" "$@"`, options.command, ...args],
      {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, LC_ALL: "C" },
      },
    );
    const pid = child.pid;
    if (pid) tracked(runs, pid);
    let output = "";
    const keep = (chunk: Buffer) => {
      if (output.length < OUTPUT_LIMIT) output += chunk.toString("utf8").slice(0, OUTPUT_LIMIT);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeLimitMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      if (pid) untracked(runs, pid);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      // Anything it left running in its group goes too.
      killGroup(pid);
      if (pid) untracked(runs, pid);
      resolve({ code, signal, timedOut, output });
    });
  });
}

function killGroup(pid: number | undefined) {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function lastLines(output: string): string {
  return output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.includes("[trace]") && !/^\d+ => /.test(l))
    .slice(-3)
    .join(" / ")
    .slice(0, 500);
}

async function readSummary(file: string) {
  const reader = new GcodeSummaryReader();
  const lines = createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) reader.line(line);
  return reader.result();
}
