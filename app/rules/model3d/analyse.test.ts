import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyseMesh,
  type BuildVolume,
  edgeCounts,
  fitsBuildVolume,
  type Mesh,
  type ParsedModel,
  parseModel,
  problemEdges,
  releaseScratch,
  scratchBytes,
} from "./index.ts";
import {
  box,
  cube,
  flipped,
  manyTriangleStl,
  merged,
  openBox,
  soupToMesh,
  toBinaryStl,
} from "./testing/shapes.ts";

const stl = (mesh: Mesh): ParsedModel => parseModel(toBinaryStl(mesh), "part.stl");
const options = { unit: "mm" as const, scale: 1, printers: [] as BuildVolume[] };

describe("analyseMesh", () => {
  it("open box: not watertight, 4 open edges, drawn by problemEdges", () => {
    const model = stl(openBox(10));
    const a = analyseMesh(model, options);
    expect(a.watertight).toBe(false);
    expect(a.openEdges).toBe(4);
    expect(a.nonManifoldEdges).toBe(0);
    expect(a.triangles).toBe(10);
    const lines = problemEdges(model.mesh);
    expect(lines.length).toBe(4 * 6);
    // All four are the rim at the top (z = 10), and together they go round the square.
    const ends: string[] = [];
    for (let i = 0; i < lines.length; i += 3) {
      expect(lines[i + 2]).toBe(10);
      ends.push(`${lines[i]},${lines[i + 1]}`);
    }
    expect(new Set(ends)).toEqual(new Set(["0,0", "10,0", "10,10", "0,10"]));
    expect(problemEdges(stl(cube(10)).mesh).length).toBe(0);
  });

  it("inverted cube: normals flagged, volume still positive", () => {
    const a = analyseMesh(stl(flipped(cube(10))), options);
    expect(a.invertedNormals).toBe(true);
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(a.watertight).toBe(true);
  });

  it("one flipped triangle: its three edges are used twice in the same direction", () => {
    const mesh = cube(10);
    const i = mesh.indices;
    [i[1], i[2]] = [i[2], i[1]];
    const a = analyseMesh(stl(mesh), options);
    expect(a.watertight).toBe(false);
    expect(a.inconsistentEdges).toBe(3);
    expect(a.nonManifoldEdges).toBe(3);
    expect(a.openEdges).toBe(0);
    expect(problemEdges(stl(mesh).mesh).length).toBe(3 * 6);
  });

  it("two cubes sharing an edge: that edge is non-manifold", () => {
    const a = box(10, 10, 10);
    const b = box(10, 10, 10, { offset: [10, 10, 0] });
    const soup = new Float32Array((a.indices.length + b.indices.length) * 3);
    let o = 0;
    for (const m of [a, b]) {
      for (const v of m.indices) soup.set(m.positions.subarray(v * 3, v * 3 + 3), o++ * 3);
    }
    const result = analyseMesh(stl(soupToMesh(soup)), options);
    expect(result.nonManifoldEdges).toBe(1);
    expect(result.inconsistentEdges).toBe(0);
    expect(result.openEdges).toBe(0);
    expect(result.watertight).toBe(false);
    expect(result.volume).toBeCloseTo(2000, 6);
  });

  it("leaves triangles with a repeated corner out of the edge check", () => {
    const mesh = cube(10);
    const indices = new Uint32Array(mesh.indices.length + 3);
    indices.set(mesh.indices);
    indices.set([0, 0, 1], mesh.indices.length);
    const counts = edgeCounts({ positions: mesh.positions, indices });
    expect(counts).toEqual({
      openEdges: 0,
      nonManifoldEdges: 0,
      inconsistentEdges: 0,
      degenerateTriangles: 1,
    });
  });

  it("applies the customer's unit when the file has none", () => {
    const model = stl(cube(1));
    expect(analyseMesh(model, { ...options, unit: "cm" }).volume).toBeCloseTo(1000, 9);
    const inch = analyseMesh(model, { ...options, unit: "inch" });
    expect(inch.volume).toBeCloseTo(16387.064, 9);
    expect(inch.area).toBeCloseTo(6 * 645.16, 9);
    expect(inch.size).toEqual({ x: 25.4, y: 25.4, z: 25.4 });
    expect(inch.unit).toBe("inch");
    const scaled = analyseMesh(stl(cube(10)), { ...options, scale: 2 });
    expect(scaled.volume).toBeCloseTo(8000, 6);
    expect(scaled.scale).toBe(2);
    expect(() => analyseMesh(model, { ...options, scale: 0 })).toThrow(RangeError);
  });

  it("a large watertight grid (the benchmark's shape)", () => {
    const model = parseModel(manyTriangleStl(50_000), "grid.stl");
    const a = analyseMesh(model, options);
    expect(a.watertight).toBe(true);
    expect(a.triangles).toBeGreaterThan(45_000);
    expect(a.triangles).toBeLessThan(55_000);
    expect(a.volume).toBeCloseTo(1_000_000, 3);
    expect(a.area).toBeCloseTo(60_000, 4);
    expect(a.vertices).toBe(a.triangles / 2 + 2);
  });
});

describe("printer fit (any axis-aligned orientation)", () => {
  const bambu: BuildVolume = { name: "Bambu Lab X1C", x: 256, y: 256, z: 256 };
  const big: BuildVolume = { name: "Big", x: 350, y: 350, z: 320 };
  const size = (x: number, y: number, z: number) => ({ x, y, z });

  it("compares sorted sizes with sorted build volumes", () => {
    expect(fitsBuildVolume(size(300, 10, 10), bambu)).toBe(false);
    expect(fitsBuildVolume(size(10, 300, 10), bambu)).toBe(false);
    expect(fitsBuildVolume(size(200, 20, 300), big)).toBe(true);
    expect(fitsBuildVolume(size(330, 330, 330), big)).toBe(false);
    expect(fitsBuildVolume(size(256, 256, 256), bambu)).toBe(true);
    expect(fitsBuildVolume(size(256.01, 1, 1), bambu)).toBe(false);
    const tall: BuildVolume = { name: "Tall", x: 100, y: 100, z: 400 };
    expect(fitsBuildVolume(size(390, 90, 90), tall)).toBe(true);
    expect(fitsBuildVolume(size(390, 110, 90), tall)).toBe(false);
  });

  it("lists the printers a part fits", () => {
    const model = stl(box(300, 20, 200));
    const a = analyseMesh(model, { ...options, printers: [bambu, big] });
    expect(a.fitsPrinters).toEqual(["Big"]);
    const small = analyseMesh(stl(cube(10)), { ...options, printers: [bambu, big] });
    expect(small.fitsPrinters).toEqual(["Bambu Lab X1C", "Big"]);
    // 13 inches = 330.2 mm: over the Big printer's 320 mm.
    const inches = analyseMesh(stl(cube(13)), { unit: "inch", scale: 1, printers: [bambu, big] });
    expect(inches.fitsPrinters).toEqual([]);
  });
});

describe("properties", () => {
  const dimension = fc.double({ min: 0.5, max: 200, noNaN: true });
  const offset = fc.double({ min: -1000, max: 1000, noNaN: true });
  const factor = fc.double({ min: 0.1, max: 10, noNaN: true });
  const f = Math.fround;
  /** Widths of box(sx, sy, sz, { offset }) as its corners are stored: fround(fround(s) + d). */
  const storedWidths = (sx: number, sy: number, sz: number, dx: number, dy: number, dz: number) => [
    f(f(sx) + dx) - f(dx),
    f(f(sy) + dy) - f(dy),
    f(f(sz) + dz) - f(dz),
  ];

  it("scaling by k multiplies volume by k³, area by k² and the bounds by k", () => {
    fc.assert(
      fc.property(
        dimension,
        dimension,
        dimension,
        offset,
        offset,
        offset,
        factor,
        (sx, sy, sz, dx, dy, dz, k) => {
          const model = stl(box(sx, sy, sz, { offset: [dx, dy, dz] }));
          const one = analyseMesh(model, options);
          const scaled = analyseMesh(model, { ...options, scale: k });
          const close = (a: number, b: number, tolerance: number) =>
            Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));
          expect(close(scaled.volume, one.volume * k ** 3, 1e-9)).toBe(true);
          expect(close(scaled.area, one.area * k ** 2, 1e-9)).toBe(true);
          for (const axis of ["x", "y", "z"] as const) {
            expect(close(scaled.size[axis], one.size[axis] * k, 1e-9)).toBe(true);
            expect(close(scaled.bboxMin[axis], one.bboxMin[axis] * k, 1e-9)).toBe(true);
          }
          expect(one.watertight).toBe(true);
          // The box's own measures, from its corners as stored (32-bit floats).
          const [wx, wy, wz] = storedWidths(sx, sy, sz, dx, dy, dz);
          expect(close(one.volume, wx * wy * wz, 1e-9)).toBe(true);
          expect(close(one.area, 2 * (wx * wy + wy * wz + wz * wx), 1e-9)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("scaling the coordinates themselves by k does the same, within float rounding", () => {
    fc.assert(
      fc.property(
        dimension,
        dimension,
        dimension,
        fc.double({ min: -100, max: 100, noNaN: true }),
        factor,
        (sx, sy, sz, d, k) => {
          const a = analyseMesh(stl(box(sx, sy, sz, { offset: [d, -d, d / 2] })), options);
          const b = analyseMesh(
            stl(box(sx * k, sy * k, sz * k, { offset: [d * k, -d * k, (d / 2) * k] })),
            options,
          );
          expect(Math.abs(b.volume / (a.volume * k ** 3) - 1)).toBeLessThan(1e-3);
          expect(Math.abs(b.area / (a.area * k ** 2) - 1)).toBeLessThan(1e-3);
          expect(Math.abs(b.size.x / (a.size.x * k) - 1)).toBeLessThan(1e-3);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("problemEdges draws nothing exactly when the analysis says watertight (the browser skips it then)", () => {
    const whole = cube(10);
    // Each of the cube's 12 triangles kept, flipped or doubled, and a second cube or not.
    const use = fc.array(fc.constantFrom("keep", "drop", "flip", "twice"), {
      minLength: 12,
      maxLength: 12,
    });
    fc.assert(
      fc.property(use, fc.boolean(), (uses, second) => {
        const indices: number[] = [];
        uses.forEach((u, t) => {
          const [a, b, c] = whole.indices.subarray(t * 3, t * 3 + 3);
          if (u === "keep" || u === "twice") indices.push(a, b, c);
          if (u === "flip" || u === "twice") indices.push(a, c, b);
        });
        if (indices.length === 0) return;
        let mesh: Mesh = { positions: whole.positions, indices: new Uint32Array(indices) };
        if (second) mesh = merged(mesh, box(5, 5, 5, { offset: [20, 0, 0] }));
        const model = stl(mesh);
        const a = analyseMesh(model, options);
        expect(problemEdges(model.mesh).length === 0).toBe(a.watertight);
      }),
      {
        numRuns: 200,
        // Watertight ones: the whole cube, alone or beside a second one, either way round.
        examples: [
          [Array(12).fill("keep"), false],
          [Array(12).fill("flip"), true],
        ],
      },
    );
  });

  it("volume and area do not depend on where the part is", () => {
    fc.assert(
      fc.property(offset, offset, offset, (dx, dy, dz) => {
        const a = analyseMesh(stl(box(20, 30, 40, { offset: [dx, dy, dz] })), options);
        const [wx, wy, wz] = storedWidths(20, 30, 40, dx, dy, dz);
        expect(Math.abs(a.volume / (wx * wy * wz) - 1)).toBeLessThan(1e-12);
        expect(Math.abs(a.area / (2 * (wx * wy + wy * wz + wz * wx)) - 1)).toBeLessThan(1e-12);
      }),
      { numRuns: 50 },
    );
  });
});

describe("scratch memory kept between models", () => {
  it("is counted, and let go on request (a kept worker lets it go after a large model)", () => {
    const parsed = parseModel(manyTriangleStl(20_000), "many.stl");
    analyseMesh(parsed, options);
    expect(scratchBytes()).toBeGreaterThan(20_000 * 4);
    releaseScratch();
    expect(scratchBytes()).toBe(0);
  });
});
