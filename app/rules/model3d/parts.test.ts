import { describe, expect, it } from "vitest";
import { analyseMesh, parseModel } from "./index.ts";
import { cutMesh, MAX_PARTS_PER_FILE, modelParts, partFileName } from "./parts.ts";
import { box, cube, merged, to3mf, to3mfObjects, toBinaryStl } from "./testing/shapes.ts";

/*
 * Several parts from one file: a 3MF's objects become parts on their own; separate bodies become
 * parts when the customer asks. Each part is measured alone, never by the bounding box of all.
 */

const measure = (model: ReturnType<typeof parseModel>) =>
  analyseMesh(model, { unit: "mm", scale: 1, printers: [] });

describe("a 3MF's objects as parts", () => {
  it("cuts a 3MF with two objects into two parts, each with its own size and volume", () => {
    const file = to3mfObjects([
      { mesh: cube(10) },
      { mesh: box(20, 30, 40), transform: "1 0 0 0 1 0 0 0 1 100 0 0" },
    ]);
    const model = parseModel(file, "plate.3mf");
    expect(model.objectStarts).toEqual([0, 12]);
    const parts = modelParts(model);
    expect(parts.map((p) => p.origin)).toEqual([
      { kind: "object", index: 0, of: 2 },
      { kind: "object", index: 1, of: 2 },
    ]);
    const [a, b] = parts.map((p) => measure(p.model));
    expect(a.size).toEqual({ x: 10, y: 10, z: 10 });
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(a.watertight).toBe(true);
    expect(b.size).toEqual({ x: 20, y: 30, z: 40 });
    expect(b.volume).toBeCloseTo(24000, 6);
    expect(b.bodyCount).toBe(1);
    expect(parts[1].model.fileUnit).toBe("mm");
  });

  it("keeps a 3MF with one object (or an STL) as one part", () => {
    const one = parseModel(to3mf(cube(10)), "one.3mf");
    expect(one.objectStarts).toBeUndefined();
    expect(modelParts(one)).toEqual([{ model: one, origin: null }]);
    const stl = parseModel(
      toBinaryStl(merged(cube(10), box(5, 5, 5, { offset: [20, 0, 0] }))),
      "two.stl",
    );
    expect(modelParts(stl)).toHaveLength(1);
  });
});

describe("separate bodies as parts", () => {
  it("cuts two cubes in one STL into two parts, priced per body", () => {
    const model = parseModel(
      toBinaryStl(merged(cube(10), box(20, 20, 20, { offset: [50, 0, 0] }))),
      "two.stl",
    );
    expect(measure(model).bodyCount).toBe(2);
    const parts = modelParts(model, "body");
    expect(parts).toHaveLength(2);
    const [a, b] = parts.map((p) => measure(p.model));
    expect([a.volume, b.volume].map(Math.round)).toEqual([1000, 8000]);
    expect(a.size).toEqual({ x: 10, y: 10, z: 10 });
    expect(b.size).toEqual({ x: 20, y: 20, z: 20 });
    expect(a.watertight && b.watertight).toBe(true);
    expect(a.bodyCount + b.bodyCount).toBe(2);
  });

  it("leaves a one-body model whole even when asked to split", () => {
    const model = parseModel(toBinaryStl(cube(10)), "cube.stl");
    expect(modelParts(model, "body")).toEqual([{ model, origin: null }]);
  });

  it("leaves a model with more bodies than a file's parts whole", () => {
    let mesh = cube(1);
    for (let i = 1; i <= MAX_PARTS_PER_FILE; i++) {
      mesh = merged(mesh, box(1, 1, 1, { offset: [i * 3, 0, 0] }));
    }
    const model = parseModel(toBinaryStl(mesh), "many.stl");
    expect(modelParts(model, "body")).toHaveLength(1);
  });
});

describe("cutting a mesh", () => {
  it("gives each group its own vertices, numbered from 0, even when groups interleave", () => {
    const mesh = merged(cube(1), box(1, 1, 1, { offset: [5, 0, 0] }));
    const groupOf = new Uint32Array(24);
    for (let t = 0; t < 24; t++) groupOf[t] = t < 12 ? 0 : 1;
    // Interleave: swap a triangle of each group's place in the list.
    const swapped = { positions: mesh.positions, indices: mesh.indices.slice() };
    swapped.indices.copyWithin(0, 36, 39);
    swapped.indices.set(mesh.indices.subarray(0, 3), 36);
    groupOf[0] = 1;
    groupOf[12] = 0;
    const [a, b] = cutMesh(swapped, groupOf, 3);
    expect(a.indices.length).toBe(36);
    expect(a.positions.length).toBe(24);
    expect(b.positions.length).toBe(24);
    expect(Math.max(...a.indices)).toBe(7);
    expect(Math.min(...b.positions.filter((_, i) => i % 3 === 0))).toBe(5);
  });

  it("names a part after its file", () => {
    expect(partFileName("bracket.3mf", { kind: "object", index: 1, of: 3 })).toBe(
      "bracket (part 2 of 3).3mf",
    );
    expect(partFileName("cube.stl", null)).toBe("cube.stl");
  });
});
