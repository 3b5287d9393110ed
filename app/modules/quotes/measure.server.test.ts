import { afterAll, describe, expect, it } from "vitest";
import {
  box,
  cube,
  manyTriangleStl,
  merged,
  openBox,
  toBinaryStl,
} from "~/rules/model3d/testing/shapes.ts";
import { ModelError } from "~/rules/model3d/types.ts";
import {
  closeModelWorkers,
  MAX_WORKERS,
  measureModel,
  modelWorkers,
  TOO_SLOW_MESSAGE,
} from "./measure.server.ts";

/*
 * The server measures uploads in a worker thread: the same numbers as the shared module, the
 * customer's message for a broken file, and the file's bytes moved there and back (not copied).
 */
const printers = [{ name: "Test printer", x: 250, y: 250, z: 250 }];

describe("measuring an upload off the event loop", () => {
  it("measures a 10 mm cube in a worker thread and hands the bytes back", async () => {
    const stl = toBinaryStl(cube(10));
    const size = stl.byteLength;
    const measured = await measureModel(stl, "cube.stl", printers);
    expect(measured.where).toBe("worker");
    expect(measured.geometries).toHaveLength(1);
    const [geometry] = measured.geometries;
    expect(geometry).toMatchObject({ format: "stl", triangles: 12, watertight: true });
    expect(geometry.part).toBeUndefined();
    expect(geometry.volume).toBeCloseTo(1000, 6);
    expect(geometry.area).toBeCloseTo(600, 6);
    expect(measured.bytes.byteLength).toBe(size);
    // Moved to the worker, not copied.
    expect(stl.byteLength).toBe(0);
  });

  it("reports an open box as not watertight", async () => {
    const measured = await measureModel(toBinaryStl(openBox(10)), "box.stl", printers);
    expect(measured.geometries[0].watertight).toBe(false);
    expect(measured.geometries[0].openEdges).toBeGreaterThan(0);
  });

  it("cuts two cubes into two parts when asked to split by body, each measured alone", async () => {
    const two = merged(cube(10), box(20, 20, 20, { offset: [50, 0, 0] }));
    const whole = await measureModel(toBinaryStl(two), "two.stl", printers);
    expect(whole.geometries).toHaveLength(1);
    expect(whole.geometries[0].bodyCount).toBe(2);
    const split = await measureModel(toBinaryStl(two), "two.stl", printers, "body");
    expect(split.geometries.map((g) => [g.part, g.bodyCount, Math.round(g.volume)])).toEqual([
      [{ kind: "body", index: 0, of: 2 }, 1, 1000],
      [{ kind: "body", index: 1, of: 2 }, 1, 8000],
    ]);
  });

  it("gives the customer's message for a broken file", async () => {
    const truncated = toBinaryStl(cube(10)).slice(0, 150);
    const error = await measureModel(truncated, "cube.stl", printers).catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toMatch(/^This file is not a valid STL file: /);
  });

  it("keeps its worker threads between uploads: one per core at most, reused after a broken file", async () => {
    await closeModelWorkers();
    const before = modelWorkers().started;
    const first = await measureModel(toBinaryStl(cube(10)), "cube.stl", printers);
    expect(first.where).toBe("worker");
    const error = await measureModel(toBinaryStl(cube(10)).slice(0, 150), "cube.stl", printers)
      .then(() => null)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    const again = await measureModel(toBinaryStl(cube(20)), "cube.stl", printers);
    expect(again.geometries[0].volume).toBeCloseTo(8000, 6);
    // The three files one after another: one thread, still alive and idle.
    expect(modelWorkers().started - before).toBe(1);
    expect(modelWorkers()).toMatchObject({ live: 1, idle: 1 });

    // Five at once: each gets its own answer, from no more than MAX_WORKERS threads.
    const sizes = [5, 10, 15, 20, 25];
    const answers = await Promise.all(
      sizes.map((s) => measureModel(toBinaryStl(cube(s)), "cube.stl", printers)),
    );
    expect(answers.map((a) => Math.round(a.geometries[0].volume))).toEqual(
      sizes.map((s) => s ** 3),
    );
    expect(modelWorkers().live).toBeLessThanOrEqual(MAX_WORKERS);
    expect(modelWorkers().started - before).toBeLessThanOrEqual(MAX_WORKERS);
    await closeModelWorkers();
    expect(modelWorkers().idle).toBe(0);
  });

  it("ends a worker that overruns the time limit, with the customer's message; the next file gets a new one", async () => {
    await closeModelWorkers();
    await measureModel(toBinaryStl(cube(10)), "cube.stl", printers);
    const before = modelWorkers();
    expect(before).toMatchObject({ live: 1, idle: 1 });
    // 200,000 triangles can't be read in 5 ms.
    const error = await measureModel(manyTriangleStl(200_000), "big.stl", printers, null, 5)
      .then(() => null)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toBe(TOO_SLOW_MESSAGE);
    const after = await measureModel(toBinaryStl(cube(10)), "cube.stl", printers);
    expect(after.geometries[0].volume).toBeCloseTo(1000, 6);
    // The worker that overran was ended, never reused: the cube was read by a new one.
    expect(modelWorkers().started - before.started).toBe(1);
    expect(modelWorkers()).toMatchObject({ live: 1, idle: 1 });
  });
});

afterAll(closeModelWorkers);
