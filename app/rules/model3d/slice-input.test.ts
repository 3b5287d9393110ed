import { describe, expect, it } from "vitest";
import { analyseMesh } from "./analyse.ts";
import { parseModel } from "./index.ts";
import { partForSlicing, rotationToDown, transformedBinaryStl } from "./slice-input.ts";
import { box, cube, soupToMesh, toBinaryStl } from "./testing/shapes.ts";

function apply(r: number[], v: [number, number, number]) {
  return [
    r[0] * v[0] + r[1] * v[1] + r[2] * v[2],
    r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
    r[6] * v[0] + r[7] * v[1] + r[8] * v[2],
  ];
}

function measure(stl: Uint8Array) {
  const model = parseModel(stl, "part.stl");
  return analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
}

describe("the part a slicer is given", () => {
  it("turns the face laid on the bed to face down, whichever way it pointed", () => {
    for (const down of [
      { x: 0, y: 0, z: -1 },
      { x: 0, y: 0, z: 1 },
      { x: 1, y: 0, z: 0 },
      { x: 0, y: -1, z: 0 },
      { x: 0.6, y: 0, z: 0.8 },
    ]) {
      const turned = apply(rotationToDown(down), [down.x, down.y, down.z]);
      expect(turned[0]).toBeCloseTo(0, 9);
      expect(turned[1]).toBeCloseTo(0, 9);
      expect(turned[2]).toBeCloseTo(-1, 9);
    }
  });

  it("scales to millimetres and keeps the volume when turned (a 1-inch cube)", () => {
    const stl = transformedBinaryStl(cube(1), 25.4, rotationToDown({ x: 1, y: 0, z: 0 }));
    const a = measure(stl);
    expect(a.volume).toBeCloseTo(25.4 ** 3, 0);
    expect(a.watertight).toBe(true);
    expect(a.size.z).toBeCloseTo(25.4, 3);
  });

  it("is read as binary by ADMesh-style readers, even a small part at small positive coordinates", () => {
    // A 10 mm cube at 0…10 mm: every byte of its floats is ≤ 127, which ADMesh takes for ASCII.
    const stl = transformedBinaryStl(cube(10), 1, rotationToDown({ x: 0, y: 0, z: -1 }));
    expect(stl.slice(80, 208).some((b) => b > 127)).toBe(true);
    const a = measure(stl);
    expect(a.volume).toBeCloseTo(1000, 3);
    expect(a.size).toEqual({ x: 10, y: 10, z: 10 });
  });

  it("lays a tall box on the side the quote engine chose", () => {
    // 10 × 10 × 40 mm, stood on its end; the engine lays it on a long side (−x down).
    const file = toBinaryStl(box(10, 10, 40));
    const stl = partForSlicing(
      file,
      "tall.stl",
      { triangles: 12, printability: { down: { x: -1, y: 0, z: 0 } } as never },
      1,
    );
    const a = measure(stl);
    expect(a.size.z).toBeCloseTo(10, 3);
    expect(Math.max(a.size.x, a.size.y)).toBeCloseTo(40, 3);
  });

  it("cuts out the quote's own body of a split file", () => {
    const two = new Float32Array([
      ...Array.from(toSoup(box(10, 10, 10))),
      ...Array.from(toSoup(box(20, 20, 20, { offset: [50, 0, 0] }))),
    ]);
    const file = toBinaryStl(soupToMesh(two));
    const second = partForSlicing(
      file,
      "two.stl",
      { triangles: 12, part: { kind: "body", index: 1, of: 2 } },
      1,
    );
    expect(measure(second).volume).toBeCloseTo(8000, 0);
    expect(() =>
      partForSlicing(
        file,
        "two.stl",
        { triangles: 12, part: { kind: "body", index: 0, of: 3 } },
        1,
      ),
    ).toThrow(/no longer holds/);
  });
});

function toSoup(mesh: { positions: Float32Array; indices: Uint32Array }): Float32Array {
  const out = new Float32Array(mesh.indices.length * 3);
  for (let i = 0; i < mesh.indices.length; i++) {
    const v = mesh.indices[i] * 3;
    out[i * 3] = mesh.positions[v];
    out[i * 3 + 1] = mesh.positions[v + 1];
    out[i * 3 + 2] = mesh.positions[v + 2];
  }
  return out;
}
