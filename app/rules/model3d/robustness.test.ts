import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseMesh, ModelError, parseModel, problemEdges } from "./index.ts";
import {
  cube,
  openBox,
  to3mf,
  toAsciiPly,
  toAsciiStl,
  toBinaryPly,
  toBinaryStl,
  toObj,
} from "./testing/shapes.ts";

const NAMES = ["part.stl", "part.obj", "part.ply", "part.3mf"];

/**
 * Reads the bytes as a model (and analyses it when that works); fails the test on anything thrown
 * but a ModelError, or on a single call taking longer than a second.
 */
function readsOrRefuses(bytes: Uint8Array, name: string): void {
  const started = performance.now();
  try {
    const model = parseModel(bytes, name);
    const a = analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
    expect(a.triangles).toBeGreaterThan(0);
    problemEdges(model.mesh);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    expect(error.message.length).toBeGreaterThan(10);
  }
  expect(performance.now() - started).toBeLessThan(1000);
}

describe("any bytes give a model or a ModelError, quickly", () => {
  it("random bytes, with every extension", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.constantFrom(...NAMES), readsOrRefuses),
      { numRuns: 400 },
    );
  });

  it("random text, with every extension", () => {
    const words = fc.constantFrom(
      "solid",
      "facet",
      "normal",
      "outer",
      "loop",
      "vertex",
      "endloop",
      "endfacet",
      "endsolid",
      "v",
      "f",
      "vt",
      "-1",
      "1/2/3",
      "ply",
      "format",
      "ascii",
      "1.0",
      "element",
      "face",
      "property",
      "list",
      "uchar",
      "int",
      "float",
      "x",
      "y",
      "z",
      "vertex_indices",
      "end_header",
      "0",
      "1",
      "3",
      "1e9",
      "-0",
      "nan",
      "\n",
      "<",
      ">",
      "/>",
      '"',
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 200 }), fc.constantFrom(...NAMES), (tokens, name) =>
        readsOrRefuses(new TextEncoder().encode(tokens.join(" ")), name),
      ),
      { numRuns: 400 },
    );
  });

  const valid: Array<[string, Uint8Array]> = [
    ["part.stl", toBinaryStl(cube(10))],
    ["part.stl", toAsciiStl(openBox(10))],
    ["part.obj", toObj(cube(10), { faces: "slashes" })],
    ["part.ply", toAsciiPly(cube(10))],
    ["part.ply", toBinaryPly(cube(10))],
    ["part.ply", toBinaryPly(cube(10), { bigEndian: true })],
    ["part.3mf", to3mf(cube(10))],
    ["part.3mf", to3mf(cube(10), { level: 0 })],
  ];

  it("valid files with bytes changed, cut short or inserted", () => {
    const edit = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: fc.nat(255) }),
      fc.record({ kind: fc.constant("cut" as const), at: fc.nat(), value: fc.constant(0) }),
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), value: fc.nat(255) }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.array(edit, { minLength: 1, maxLength: 8 }),
        ([name, original], edits) => {
          let bytes = original.slice();
          for (const { kind, at, value } of edits) {
            const i = at % (bytes.length + 1);
            if (kind === "set" && i < bytes.length) bytes[i] = value;
            else if (kind === "cut") bytes = bytes.slice(0, i);
            else if (kind === "insert") {
              const grown = new Uint8Array(bytes.length + 1);
              grown.set(bytes.subarray(0, i));
              grown[i] = value;
              grown.set(bytes.subarray(i), i + 1);
              bytes = grown;
            }
          }
          readsOrRefuses(bytes, name);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("every truncation of each valid file", () => {
    for (const [name, bytes] of valid) {
      const step = Math.max(1, Math.floor(bytes.length / 300));
      for (let end = 0; end < bytes.length; end += step)
        readsOrRefuses(bytes.subarray(0, end), name);
    }
  });
});
