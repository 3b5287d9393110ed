import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
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

describe.skipIf(!installed)(
  `PrusaSlicer's command line${installed ? "" : " (skipped: prusa-slicer is not installed)"}`,
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
