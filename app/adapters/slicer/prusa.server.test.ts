import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transformedBinaryStl } from "~/rules/model3d/slice-input.ts";
import { cube } from "~/rules/model3d/testing/shapes.ts";
import { createSlicer, findExecutable, noSlicer } from "./index.server.ts";
import { prusaArguments } from "./prusa.server.ts";
import type { SliceRequest } from "./types.ts";

const installed = findExecutable("prusa-slicer");
const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

function request(overrides: Partial<SliceRequest> = {}): SliceRequest {
  return {
    stl: transformedBinaryStl(cube(20), 1, IDENTITY),
    materialId: "pla",
    density: 1.24,
    layerHeightMm: 0.2,
    infillPercent: 20,
    supports: false,
    bed: { x: 256, y: 256 },
    ...overrides,
  };
}

async function leftovers() {
  return (await readdir(tmpdir())).filter((f) => f.startsWith("layerkart-slice-"));
}

describe("the slicer adapter", () => {
  it("is none when SLICER_PATH=none or the command isn't installed", () => {
    const limits = { timeLimitMs: 1000, memoryBytes: 1024 ** 3 };
    expect(createSlicer({ path: "none", ...limits })).toBe(noSlicer);
    expect(createSlicer({ path: "no-such-slicer-here", ...limits })).toBe(noSlicer);
  });

  it("prints no skirt or brim for a part: the shop spends those once per plate", async () => {
    const dir = path.resolve(import.meta.dirname, "profiles");
    const profiles = (await readdir(dir)).filter((f) => f.endsWith(".ini"));
    expect(profiles.length).toBeGreaterThanOrEqual(5);
    for (const file of profiles) {
      const text = await readFile(path.join(dir, file), "utf8");
      expect(text, file).toMatch(/^skirts = 0$/m);
      expect(text, file).toMatch(/^brim_width = 0$/m);
    }
  });

  it("asks PrusaSlicer for the material's profile, the chosen settings, the bed and support", () => {
    const args = prusaArguments(
      request({ materialId: "something-new", supports: true, bed: { x: 300, y: 250.5 } }),
      "in.stl",
      "out.gcode",
    );
    expect(args[args.indexOf("--load") + 1]).toMatch(/profiles[/\\]generic\.ini$/);
    expect(args[args.indexOf("--fill-density") + 1]).toBe("20%");
    expect(args[args.indexOf("--bed-shape") + 1]).toBe("0x0,300x0,300x251,0x251");
    expect(args).toContain("--support-material");
    expect(prusaArguments(request(), "in.stl", "out.gcode")).not.toContain("--support-material");
  });
});

// The first slice after installing PrusaSlicer reads its libraries cold; beside the rest of the
// suite on a busy machine it took over 5 s (the default timeout) in a fresh clone's CI.
describe.skipIf(!installed)(
  `PrusaSlicer's command line${installed ? "" : " (skipped: prusa-slicer is not installed)"}`,
  { timeout: 60_000 },
  () => {
    it("slices a 20 mm cube: grams and time from the G-code, no support, nothing left behind", async () => {
      const before = await leftovers();
      const slicer = createSlicer({
        path: "prusa-slicer",
        timeLimitMs: 60_000,
        memoryBytes: 2 * 1024 ** 3,
      });
      const result = await slicer.slice(request());
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.grams).toBeGreaterThan(3.5);
      expect(result.grams).toBeLessThan(6);
      expect(result.printSeconds).toBeGreaterThan(10 * 60);
      expect(result.printSeconds).toBeLessThan(40 * 60);
      expect(result.supportGrams).toBe(0);
      expect(await leftovers()).toEqual(before);
    });

    it("slices a small part at small coordinates (once refused as a text file) and names no folder", async () => {
      const slicer = createSlicer({
        path: "prusa-slicer",
        timeLimitMs: 60_000,
        memoryBytes: 2 * 1024 ** 3,
      });
      const result = await slicer.slice(
        request({ stl: transformedBinaryStl(cube(10), 1, IDENTITY) }),
      );
      expect(result).toMatchObject({ ok: true });
      // A file it can't read: the reason says so, without the temporary folder's path.
      const broken = await slicer.slice(request({ stl: new Uint8Array(84) }));
      expect(broken).toMatchObject({ ok: false, reason: "failed" });
      if (!broken.ok) expect(broken.message).not.toContain(tmpdir());
    });

    it("kills it at the time limit and says so", async () => {
      const slicer = createSlicer({
        path: "prusa-slicer",
        timeLimitMs: 1,
        memoryBytes: 2 * 1024 ** 3,
      });
      const result = await slicer.slice(request());
      expect(result).toMatchObject({ ok: false, reason: "timeout" });
    });

    it("fails clearly when the memory limit is too small", async () => {
      const slicer = createSlicer({
        path: "prusa-slicer",
        timeLimitMs: 60_000,
        memoryBytes: 64 * 1024 ** 2,
      });
      const result = await slicer.slice(request());
      expect(result).toMatchObject({ ok: false, reason: "failed" });
    });
  },
);

/*
 * A slicer's process must not outlive the shop (review): at the time limit and when the shop stops
 * (its own stop(), or the process ending on SIGTERM/SIGINT), its whole process group is killed.
 * The fake slicer (tests/support/fake-slicer.sh) sleeps in a child of its own, so a kill that
 * missed the group would leave that child running.
 */
// Starting a Node process and a shell on a busy machine takes seconds: generous timeouts.
describe("a slicer never outlives the shop (the fake slicer, sleeping)", {
  timeout: 60_000,
}, () => {
  const fake = path.resolve(import.meta.dirname, "../../../tests/support/fake-slicer.sh");
  let dir = "";
  let pidFile = "";
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "layerkart-fake-slicer-"));
    pidFile = path.join(dir, "sleep.pid");
    process.env.FAKE_SLICER_SECONDS = "60";
    process.env.FAKE_SLICER_PID_FILE = pidFile;
  });
  afterEach(async () => {
    delete process.env.FAKE_SLICER_SECONDS;
    delete process.env.FAKE_SLICER_PID_FILE;
    await rm(dir, { recursive: true, force: true });
  });

  /** The sleeping child's process id, once the fake slicer has started it. */
  async function sleeper(): Promise<number> {
    for (let i = 0; i < 1000; i++) {
      const text = existsSync(pidFile) ? await readFile(pidFile, "utf8") : "";
      if (/^\d+\s*$/.test(text)) return Number(text);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the fake slicer never started");
  }

  /** Whether the process is gone (a zombie waiting for its parent counts as gone). */
  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 250; i++) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (/^\d+ \(.*\) [ZX] /.test(stat)) return true;
      } catch {
        return true;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  }

  const limits = { timeLimitMs: 600_000, memoryBytes: 1024 ** 3 };

  it("at the time limit: the slice says timeout and the slicer's child is gone", async () => {
    const slicer = createSlicer({ path: fake, ...limits, timeLimitMs: 1500 });
    const result = slicer.slice(request());
    const pid = await sleeper();
    expect(await result).toMatchObject({ ok: false, reason: "timeout" });
    expect(await gone(pid)).toBe(true);
  });

  it("stop(): a slice in flight ends as stopped, its child is gone, and no new slice starts", async () => {
    const slicer = createSlicer({ path: fake, ...limits });
    const result = slicer.slice(request());
    const pid = await sleeper();
    slicer.stop();
    expect(await result).toMatchObject({ ok: false, reason: "stopped" });
    expect(await gone(pid)).toBe(true);
    expect(await slicer.slice(request())).toMatchObject({ ok: false, reason: "stopped" });
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`a process that ends on ${signal} (as the server does) takes its slicer and its folder with it`, async () => {
      const before = await leftovers();
      const child = spawn(
        process.execPath,
        [path.resolve(import.meta.dirname, "../../../tests/support/slicing-child.ts")],
        { stdio: ["ignore", "pipe", "inherit"], env: process.env },
      );
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      const pid = await sleeper();
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(await gone(pid)).toBe(true);
      expect(await leftovers()).toEqual(before);
    });
  }
});
