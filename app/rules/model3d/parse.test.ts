import fc from "fast-check";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  ACCEPTED_EXTENSIONS,
  analyseMesh,
  detectFormat,
  FILE_TOO_LARGE_MESSAGE,
  MAX_MODEL_BYTES,
  MAX_TRIANGLES,
  ModelError,
  NO_TRIANGLES_MESSAGE,
  type ParsedModel,
  parseModel,
  TOO_MANY_TRIANGLES_MESSAGE,
  UNSUPPORTED_FILE_MESSAGE,
} from "./index.ts";
import { invalidFileMessage, reasons } from "./messages.ts";
import { modelParts } from "./parts.ts";
import {
  box,
  CONTENT_TYPES_XML,
  cube,
  RELS_XML,
  soupToMesh,
  threeMfModelXml,
  to3mf,
  toAsciiPly,
  toAsciiStl,
  toBinaryPly,
  toBinaryStl,
  toObj,
} from "./testing/shapes.ts";

const text = (s: string) => new TextEncoder().encode(s);
const analyse = (model: ParsedModel) => analyseMesh(model, { unit: "mm", scale: 1, printers: [] });

/** Runs parseModel and returns the ModelError's message (fails when it does not throw one). */
function errorOf(bytes: Uint8Array, name: string): string {
  try {
    parseModel(bytes, name);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return (error as ModelError).message;
  }
  throw new Error(`${name} was read without an error`);
}

/** Deterministic pseudo-random bytes. */
function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let s = seed >>> 0;
  for (let i = 0; i < length; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    out[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return out;
}

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
  0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
  0x60, 0x82,
]);

describe("detectFormat", () => {
  it("goes by the extension, in any case", () => {
    expect(detectFormat("part.STL")).toBe("stl");
    expect(detectFormat("my.part.obj")).toBe("obj");
    expect(detectFormat("Plate 1.3MF")).toBe("3mf");
    expect(detectFormat("scan.ply")).toBe("ply");
    expect(detectFormat("model.step")).toBeNull();
    expect(detectFormat("stl")).toBeNull();
    expect(detectFormat("")).toBeNull();
    expect(ACCEPTED_EXTENSIONS).toEqual([".stl", ".obj", ".3mf", ".ply"]);
  });
});

describe("a 10 mm cube in every format", () => {
  const mesh = cube(10);
  const files: Array<[string, Uint8Array]> = [
    ["cube.stl (binary, header starting with solid)", toBinaryStl(mesh)],
    ["cube.stl (binary, plain header)", toBinaryStl(mesh, "exported by a CAD program")],
    ["cube.stl (ASCII)", toAsciiStl(mesh)],
    ["cube.obj", toObj(mesh)],
    ["cube.obj (v/vt/vn corners)", toObj(mesh, { faces: "slashes" })],
    ["cube.ply (ASCII)", toAsciiPly(mesh)],
    ["cube.ply (binary little-endian)", toBinaryPly(mesh)],
    ["cube.ply (binary big-endian)", toBinaryPly(mesh, { bigEndian: true })],
    ["cube.3mf", to3mf(mesh)],
  ];
  it.each(files)("%s", (label, bytes) => {
    const model = parseModel(bytes, label.split(" ")[0]);
    const a = analyse(model);
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(Math.abs(a.volume - 1000) / 1000).toBeLessThan(1e-6);
    expect(a.area).toBeCloseTo(600, 6);
    expect(a.watertight).toBe(true);
    expect(a.openEdges).toBe(0);
    expect(a.nonManifoldEdges).toBe(0);
    expect(a.invertedNormals).toBe(false);
    expect(a.triangles).toBe(12);
    expect(a.vertices).toBe(8);
    expect(a.size).toEqual({ x: 10, y: 10, z: 10 });
    expect(a.bboxMin).toEqual({ x: 0, y: 0, z: 0 });
  });

  it("reads bytes that sit at any offset in a larger buffer (a Node Buffer, say)", () => {
    for (const [name, bytes] of [
      ["a.stl", toBinaryStl(mesh)],
      ["b.ply", toBinaryPly(mesh)],
      ["c.3mf", to3mf(mesh)],
    ] as const) {
      const big = new Uint8Array(bytes.length + 7);
      big.set(bytes, 3);
      expect(analyse(parseModel(big.subarray(3, 3 + bytes.length), name)).volume).toBeCloseTo(
        1000,
        6,
      );
    }
  });

  it("reports the file's unit only for 3MF", () => {
    expect(parseModel(toBinaryStl(mesh), "a.stl").fileUnit).toBeNull();
    expect(parseModel(toObj(mesh), "a.obj").fileUnit).toBeNull();
    expect(parseModel(toAsciiPly(mesh), "a.ply").fileUnit).toBeNull();
    expect(parseModel(to3mf(mesh), "a.3mf").fileUnit).toBe("mm");
  });
});

describe("STL", () => {
  it("reads ASCII with upper-case keywords, CR LF line ends, polygons and several solids", () => {
    const facet = (a: string, b: string, c: string, d?: string) =>
      `FACET NORMAL 0 0 0\r\n OUTER LOOP\r\n  VERTEX ${a}\r\n  VERTEX ${b}\r\n  VERTEX ${c}\r\n${d ? `  VERTEX ${d}\r\n` : ""} ENDLOOP\r\nENDFACET\r\n`;
    const file = [
      "SOLID one\r\n",
      facet("0 0 0", "1 0 0", "1 1 0", "0 1 0"),
      "ENDSOLID one\r\n",
      "solid two\n",
      // "nan" normals are written by some exporters for slivers.
      "facet normal nan nan nan\nouter loop\nvertex 0 0 1e0\nvertex 1.0E+0 0 1\nvertex 1 1 1\nendloop\nendfacet\n",
      "endsolid two\n",
    ].join("");
    const model = parseModel(text(file), "two.stl");
    expect(model.mesh.indices.length / 3).toBe(3);
    expect(model.mesh.positions.length / 3).toBe(7);
  });

  it("welds -0 with +0", () => {
    const soup = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, -0, 0, 0, 0, 1, 0, 0, 0, 1]);
    const mesh = { positions: soup, indices: new Uint32Array([0, 1, 2, 3, 4, 5]) };
    const model = parseModel(toBinaryStl(mesh), "zero.stl");
    expect(model.mesh.positions.length / 3).toBe(4);
  });

  it("welds a large coherent triangle soup exactly (far-apart repeats too)", () => {
    const mesh = box(30, 20, 10, { divisions: 40 });
    const model = parseModel(toBinaryStl(mesh), "grid.stl");
    expect(model.mesh.positions.length).toBe(mesh.positions.length);
    const a = analyse(model);
    expect(a.watertight).toBe(true);
    expect(a.volume).toBeCloseTo(6000, 6);
    // The same triangles in shuffled order: nothing is coherent any more.
    const t = mesh.indices.length / 3;
    const order = Array.from({ length: t }, (_, i) => i);
    let seed = 7;
    for (let i = t - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const j = seed % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const shuffled = new Uint32Array(mesh.indices.length);
    for (const [to, from] of order.entries()) {
      shuffled.set(mesh.indices.subarray(from * 3, from * 3 + 3), to * 3);
    }
    const again = parseModel(
      toBinaryStl({ positions: mesh.positions, indices: shuffled }),
      "s.stl",
    );
    expect(again.mesh.positions.length).toBe(mesh.positions.length);
    expect(analyse(again).watertight).toBe(true);
  });

  it("rejects a NaN coordinate", () => {
    const mesh = cube(10);
    mesh.positions[4] = Number.NaN;
    expect(errorOf(toBinaryStl(mesh), "nan.stl")).toBe(
      invalidFileMessage("stl", reasons.notNumber),
    );
  });
});

describe("welding", () => {
  /**
   * Triangle soups drawn from a pool of points (so corners repeat, near each other in the file or
   * far apart), checked against a plain Map: same vertices, same corner-to-vertex mapping.
   */
  it("matches a simple reference on random soups", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12_000 }),
        fc.integer({ min: 3, max: 30_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer(),
        (triangles, poolSize, locality, seed) => {
          let s = seed >>> 0;
          const random = () => {
            s = (s + 0x6d2b79f5) >>> 0;
            let t = Math.imul(s ^ (s >>> 15), 1 | s);
            t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
            return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
          };
          const pool = new Float32Array(poolSize * 3);
          for (let i = 0; i < pool.length; i++) {
            const r = random();
            pool[i] = r < 0.05 ? -0 : r < 0.1 ? 0 : Math.round((r - 0.5) * 2000) / 8;
          }
          // Corners pick pool points near the last pick (locality) or anywhere.
          const indices = new Uint32Array(triangles * 3);
          let last = 0;
          for (let c = 0; c < indices.length; c++) {
            last =
              random() < locality
                ? (last + Math.floor(random() * 9)) % poolSize
                : Math.floor(random() * poolSize);
            indices[c] = last;
          }
          const model = parseModel(toBinaryStl({ positions: pool, indices }), "soup.stl");
          const key = (x: number, y: number, z: number) => `${x + 0},${y + 0},${z + 0}`;
          const reference = new Map<string, number>();
          const ids = model.mesh.indices;
          const p = model.mesh.positions;
          let wrong = 0;
          for (let c = 0; c < indices.length; c++) {
            const v = indices[c] * 3;
            const k = key(pool[v], pool[v + 1], pool[v + 2]);
            const id = ids[c];
            if (key(p[id * 3], p[id * 3 + 1], p[id * 3 + 2]) !== k) wrong++;
            const seen = reference.get(k);
            if (seen === undefined) reference.set(k, id);
            else if (id !== seen) wrong++;
          }
          expect(wrong).toBe(0);
          expect(p.length / 3).toBe(reference.size);
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);
});

describe("OBJ", () => {
  it("reads quads, negative numbers, v/vt/vn corners and skips other lines", () => {
    const file = [
      "# a cube drawn with quads",
      "mtllib cube.mtl",
      "o cube",
      "v 0 0 0",
      "v 10 0 0",
      "v 10 10 0",
      "v 0 10 0",
      "v 0 0 10 1.0",
      "v 10 0 10 0.5 0.5 0.5",
      "v 10 10 10",
      "v 0 10 10",
      "vt 0 0",
      "vn 0 0 1",
      "g sides",
      "usemtl grey",
      "s off",
      "f 1/1/1 4/1/1 3/1/1 2/1/1",
      "f 5//1 6//1 7//1 8//1",
      "f -8 -7 -3 -4",
      "f 2 3 7 6 # a comment",
      "\tf  3 4 8 7",
      "f 4/1 1/1 5/1 8/1",
      "l 1 2",
      "",
    ].join("\r\n");
    const a = analyse(parseModel(text(file), "quads.obj"));
    expect(a.triangles).toBe(12);
    expect(a.vertices).toBe(8);
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(a.watertight).toBe(true);
  });

  it("welds repeated vertices", () => {
    // 36 separate vertices, one per corner.
    const mesh = cube(10);
    const lines: string[] = [];
    for (const v of mesh.indices) {
      lines.push(
        `v ${mesh.positions[v * 3]} ${mesh.positions[v * 3 + 1]} ${mesh.positions[v * 3 + 2]}`,
      );
    }
    for (let t = 0; t < 12; t++) lines.push(`f ${t * 3 + 1} ${t * 3 + 2} ${t * 3 + 3}`);
    const a = analyse(parseModel(text(lines.join("\n")), "soup.obj"));
    expect(a.vertices).toBe(8);
    expect(a.watertight).toBe(true);
  });

  it("does not count vertices no face uses", () => {
    const file = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 100 100 100\nf 1 2 3\n";
    const a = analyse(parseModel(text(file), "tri.obj"));
    expect(a.vertices).toBe(3);
    expect(a.size).toEqual({ x: 1, y: 1, z: 0 });
  });
});

describe("PLY", () => {
  it("reads other types, extra properties and elements, and vertex_index", () => {
    const mesh = cube(10);
    const header = [
      "ply",
      "format binary_big_endian 1.0",
      "obj_info made by hand",
      `element vertex ${mesh.positions.length / 3}`,
      "property double x",
      "property uchar red",
      "property double y",
      "property list uchar int extra",
      "property double z",
      "element edge 1",
      "property int vertex1",
      "property int vertex2",
      `element face ${mesh.indices.length / 3}`,
      "property uchar flags",
      "property list ushort uint vertex_index",
      "end_header",
      "",
    ].join("\r\n");
    const head = text(header);
    const vertices = mesh.positions.length / 3;
    const faces = mesh.indices.length / 3;
    const out = new Uint8Array(head.length + vertices * (8 * 3 + 1 + 1 + 4) + 8 + faces * 15);
    out.set(head);
    const view = new DataView(out.buffer);
    let o = head.length;
    for (let v = 0; v < vertices; v++) {
      view.setFloat64(o, mesh.positions[v * 3]);
      view.setUint8(o + 8, 255);
      view.setFloat64(o + 9, mesh.positions[v * 3 + 1]);
      view.setUint8(o + 17, 1);
      view.setInt32(o + 18, 42);
      view.setFloat64(o + 22, mesh.positions[v * 3 + 2]);
      o += 30;
    }
    view.setInt32(o, 0);
    view.setInt32(o + 4, 1);
    o += 8;
    for (let t = 0; t < faces; t++) {
      view.setUint8(o, 0);
      view.setUint16(o + 1, 3);
      for (let c = 0; c < 3; c++) view.setUint32(o + 3 + 4 * c, mesh.indices[t * 3 + c]);
      o += 15;
    }
    const a = analyse(parseModel(out, "typed.ply"));
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(a.watertight).toBe(true);
  });

  it("reads ASCII quads and ignores what follows the faces", () => {
    const file = [
      "ply",
      "format ascii 1.0",
      "element vertex 4",
      "property float x",
      "property float y",
      "property float z",
      "property float nx",
      "element face 1",
      "property list uchar int vertex_indices",
      "end_header",
      "0 0 0 1",
      "1 0 0 1",
      "1 1 0 1",
      "0 1 0 1",
      "4 0 1 2 3",
      "trailing junk",
    ].join("\n");
    const a = analyse(parseModel(text(file), "quad.ply"));
    expect(a.triangles).toBe(2);
    expect(a.area).toBeCloseTo(1, 9);
  });

  it("reads binary quads and skips faces of fewer than three corners", () => {
    const head = text(
      "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n",
    );
    const out = new Uint8Array(head.length + 4 * 12 + 17 + 9);
    out.set(head);
    const view = new DataView(out.buffer);
    const corners = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0];
    for (const [i, v] of corners.entries()) view.setFloat32(head.length + 4 * i, v, true);
    let o = head.length + 48;
    view.setUint8(o, 4);
    for (const i of [0, 1, 2, 3]) view.setInt32(o + 1 + 4 * i, i, true);
    o += 17;
    view.setUint8(o, 2);
    for (const i of [0, 1]) view.setInt32(o + 1 + 4 * i, i, true);
    const a = analyse(parseModel(out, "quad.ply"));
    expect(a.triangles).toBe(2);
    expect(a.area).toBeCloseTo(1, 9);
    view.setInt32(head.length + 48 + 1 + 8, -5, true);
    expect(errorOf(out, "bad.ply")).toBe(invalidFileMessage("ply", reasons.missingVertex));
    view.setInt32(head.length + 48 + 1 + 8, 4, true);
    expect(errorOf(out, "bad.ply")).toBe(invalidFileMessage("ply", reasons.missingVertex));
  });

  it("treats a point cloud as a model without triangles", () => {
    const file =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n";
    expect(errorOf(text(file), "points.ply")).toBe(NO_TRIANGLES_MESSAGE);
  });
});

describe("3MF", () => {
  it("converts centimetres (and inches) to millimetres", () => {
    const model = parseModel(to3mf(cube(1), { unit: "centimeter" }), "cm.3mf");
    expect(model.fileUnit).toBe("mm");
    const a = analyse(model);
    expect(a.volume).toBeCloseTo(1000, 6);
    expect(a.size).toEqual({ x: 10, y: 10, z: 10 });
    // The customer's unit choice does not apply to a 3MF.
    const b = analyseMesh(model, { unit: "inch", scale: 1, printers: [] });
    expect(b.unit).toBe("mm");
    expect(b.volume).toBeCloseTo(1000, 6);
    const inch = analyse(parseModel(to3mf(cube(1), { unit: "inch" }), "in.3mf"));
    // 25.4 mm is not exact in 32-bit floats: within a millionth.
    expect(Math.abs(inch.volume / 16387.064 - 1)).toBeLessThan(1e-6);
    const micron = analyse(parseModel(to3mf(cube(1000), { unit: "micron" }), "um.3mf"));
    expect(micron.volume).toBeCloseTo(1, 9);
  });

  it("applies the build item's transform", () => {
    // Scale x by 2 and move by (5, 6, 7).
    const transform = "2 0 0 0 1 0 0 0 1 5 6 7";
    const a = analyse(parseModel(to3mf(cube(10), { transform }), "moved.3mf"));
    expect(a.volume).toBeCloseTo(2000, 6);
    expect(a.bboxMin).toEqual({ x: 5, y: 6, z: 7 });
    expect(a.size).toEqual({ x: 20, y: 10, z: 10 });
  });

  it("keeps a mirrored part the right way out", () => {
    const a = analyse(
      parseModel(to3mf(cube(10), { transform: "-1 0 0 0 1 0 0 0 1 0 0 0" }), "m.3mf"),
    );
    expect(a.invertedNormals).toBe(false);
    expect(a.watertight).toBe(true);
    expect(a.bboxMin.x).toBe(-10);
  });

  it("follows components, also into other model parts (as slicers write them)", () => {
    const part = threeMfModelXml(cube(10)).replace(/<build>[\s\S]*<\/build>/, "<build/>");
    const root = `<?xml version="1.0" encoding="UTF-8"?>
<model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02" xmlns:p="http://schemas.microsoft.com/3dmanufacturing/production/2015/06">
  <!-- two instances of the cube, one of them via a local component -->
  <resources>
    <object id="5" type="model">
      <components>
        <component p:path="/3D/Objects/object_1.model" objectid="1" transform="1 0 0 0 1 0 0 0 1 0 0 0"/>
      </components>
    </object>
    <object id="6" type="model"><components><component objectid="5" transform="1 0 0 0 1 0 0 0 1 20 0 0"/></components></object>
  </resources>
  <build>
    <item objectid="5"/>
    <item objectid="6" transform="1 0 0 0 1 0 0 0 1 0 0 5"/>
  </build>
</model>`;
    const bytes = zipSync({
      "[Content_Types].xml": text(CONTENT_TYPES_XML),
      "_rels/.rels": text(RELS_XML),
      "3D/3dmodel.model": text(root),
      "3D/Objects/object_1.model": text(part),
      "Metadata/thumbnail.png": PNG,
    });
    const a = analyse(parseModel(bytes, "plate.3mf"));
    expect(a.triangles).toBe(24);
    expect(a.volume).toBeCloseTo(2000, 6);
    expect(a.bboxMin).toEqual({ x: 0, y: 0, z: 0 });
    expect(a.bboxMax).toEqual({ x: 30, y: 10, z: 15 });
    // Each build item is a part of its own, whatever components it is made of.
    const parts = modelParts(parseModel(bytes, "plate.3mf")).map((p) => analyse(p.model));
    expect(parts.map((p) => [p.triangles, p.bboxMin, p.size])).toEqual([
      [12, { x: 0, y: 0, z: 0 }, { x: 10, y: 10, z: 10 }],
      [12, { x: 20, y: 0, z: 5 }, { x: 10, y: 10, z: 10 }],
    ]);
  });

  it("finds the model without _rels/.rels, and places all objects when there is no build", () => {
    const xml = threeMfModelXml(cube(10)).replace(/<build>[\s\S]*<\/build>/, "");
    const bytes = zipSync({ "3D/model.model": text(xml) });
    expect(analyse(parseModel(bytes, "bare.3mf")).volume).toBeCloseTo(1000, 6);
  });

  it("rejects components that contain each other", () => {
    const xml = `<model unit="millimeter"><resources>
      <object id="1"><components><component objectid="2"/></components></object>
      <object id="2"><components><component objectid="1"/></components></object>
      </resources><build><item objectid="1"/></build></model>`;
    expect(errorOf(zipSync({ "3D/3dmodel.model": text(xml) }), "loop.3mf")).toBe(
      invalidFileMessage("3mf", reasons.componentLoop),
    );
  });

  it("refuses a part that claims to unpack to too much (zip bomb) before unpacking it", () => {
    const stored = zipSync({ "3D/3dmodel.model": text(threeMfModelXml(cube(10))) }, { level: 0 });
    // The central directory entry's "uncompressed size" field.
    const view = new DataView(stored.buffer);
    const central = stored.length - 22 - (46 + "3D/3dmodel.model".length);
    expect(view.getUint32(central, true)).toBe(0x02014b50);
    view.setUint32(central + 24, 600 * 1024 * 1024, true);
    expect(errorOf(stored, "bomb.3mf")).toBe(invalidFileMessage("3mf", reasons.tooBig));

    const deflated = zipSync({ "3D/3dmodel.model": text(threeMfModelXml(cube(10))) });
    const view2 = new DataView(deflated.buffer);
    const central2 = deflated.length - 22 - (46 + "3D/3dmodel.model".length);
    view2.setUint32(central2 + 24, 400 * 1024 * 1024, true);
    expect(errorOf(deflated, "liar.3mf")).toBe(invalidFileMessage("3mf", reasons.badZip));
  });
});

describe("files that cannot be read", () => {
  const cubeMesh = cube(10);

  it("names the accepted formats for an unknown extension", () => {
    expect(errorOf(toBinaryStl(cubeMesh), "part.step")).toBe(UNSUPPORTED_FILE_MESSAGE);
    expect(UNSUPPORTED_FILE_MESSAGE).toBe("Please upload an STL, OBJ, 3MF or PLY file.");
  });

  it("refuses files over 100 MB", () => {
    const big = new Uint8Array(MAX_MODEL_BYTES + 1);
    expect(errorOf(big, "big.stl")).toBe(FILE_TOO_LARGE_MESSAGE);
    expect(FILE_TOO_LARGE_MESSAGE).toBe(
      "This file is larger than 100 MB. Please upload a smaller file.",
    );
  });

  it("refuses more than 2,000,000 triangles", () => {
    // A binary STL whose size matches 2,000,001 triangles: refused from its header alone.
    const n = MAX_TRIANGLES + 1;
    const bytes = new Uint8Array(84 + 50 * n);
    new DataView(bytes.buffer).setUint32(80, n, true);
    expect(errorOf(bytes, "huge.stl")).toBe(TOO_MANY_TRIANGLES_MESSAGE);
    expect(TOO_MANY_TRIANGLES_MESSAGE).toBe(
      "This model has more than 2,000,000 triangles. Please simplify it and upload it again.",
    );
  });

  it.each([
    ["a.stl", toBinaryStl(cube(10))],
    ["b.stl", toAsciiStl(cube(10))],
    ["c.obj", toObj(cube(10))],
    ["d.ply", toAsciiPly(cube(10))],
    ["e.ply", toBinaryPly(cube(10))],
    ["f.3mf", to3mf(cube(10))],
  ])("applies a lower triangle limit to %s", (name, bytes) => {
    expect(() => parseModel(bytes, name, { maxTriangles: 12 })).not.toThrow();
    try {
      parseModel(bytes, name, { maxTriangles: 11 });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(TOO_MANY_TRIANGLES_MESSAGE);
    }
  });

  it("says when there are no triangles", () => {
    expect(errorOf(text("# nothing\nv 1 2 3\n"), "empty.obj")).toBe(NO_TRIANGLES_MESSAGE);
    expect(errorOf(text("solid empty\nendsolid empty\n"), "empty.stl")).toBe(NO_TRIANGLES_MESSAGE);
    const zero = new Uint8Array(84);
    expect(errorOf(zero, "zero.stl")).toBe(NO_TRIANGLES_MESSAGE);
    expect(errorOf(to3mf(soupToMesh(new Float32Array(0))), "empty.3mf")).toBe(NO_TRIANGLES_MESSAGE);
    expect(NO_TRIANGLES_MESSAGE).toBe("This model has no triangles.");
  });

  it("truncated binary STL", () => {
    const bytes = toBinaryStl(cubeMesh);
    expect(errorOf(bytes.subarray(0, bytes.length - 10), "cut.stl")).toBe(
      "This file is not a valid STL file: it ends before its last triangle.",
    );
    expect(errorOf(bytes.subarray(0, 50), "short.stl")).toBe(
      invalidFileMessage("stl", reasons.stlTruncated),
    );
    const longer = new Uint8Array(bytes.length + 7);
    longer.set(bytes);
    expect(errorOf(longer, "long.stl")).toBe(invalidFileMessage("stl", reasons.stlSizeMismatch));
  });

  it("ASCII STL cut in the middle of a facet", () => {
    const ascii = new TextDecoder().decode(toAsciiStl(cubeMesh));
    const cut = ascii.indexOf("vertex", ascii.indexOf("facet", 200)) + 12;
    for (const end of [cut, cut + 3, ascii.indexOf("endloop") + 4]) {
      expect(errorOf(text(ascii.slice(0, end)), "cut.stl")).toBe(
        "This file is not a valid STL file: it ends in the middle of a facet.",
      );
    }
    expect(errorOf(text(ascii.replace("outer loop", "outer lop")), "bad.stl")).toBe(
      invalidFileMessage("stl", reasons.stlBrokenFacet),
    );
    expect(errorOf(text(ascii.replace(/vertex \S+/, "vertex abc")), "nan.stl")).toBe(
      invalidFileMessage("stl", reasons.notNumber),
    );
  });

  it("OBJ face that refers to a missing vertex", () => {
    for (const face of ["f 1 2 9", "f 0 1 2", "f -4 1 2", "f 1 2 x"]) {
      const message = errorOf(text(`v 0 0 0\nv 1 0 0\nv 0 1 0\n${face}\n`), "bad.obj");
      expect(message).toBe(
        invalidFileMessage("obj", face.endsWith("x") ? reasons.badIndex : reasons.missingVertex),
      );
    }
    expect(errorOf(text("v 0 0 zero\n"), "bad.obj")).toBe(
      invalidFileMessage("obj", reasons.notNumber),
    );
  });

  it("PLY whose header promises more than the file holds", () => {
    const ascii = new TextDecoder().decode(toAsciiPly(cubeMesh));
    expect(errorOf(text(ascii.replace("element vertex 8", "element vertex 80")), "a.ply")).toBe(
      "This file is not a valid PLY file: it ends before its last vertex.",
    );
    expect(errorOf(text(ascii.replace("element face 12", "element face 13")), "b.ply")).toBe(
      invalidFileMessage("ply", reasons.plyFacesTruncated),
    );
    const binary = toBinaryPly(cubeMesh);
    const head = new TextDecoder("latin1").decode(binary.subarray(0, 300));
    const headerLength = head.indexOf("end_header\n") + 11;
    const liarHeader = text(
      head.slice(0, headerLength).replace("element vertex 8", "element vertex 9000000"),
    );
    const liar = new Uint8Array(liarHeader.length + 10);
    liar.set(liarHeader);
    expect(errorOf(liar, "c.ply")).toBe(TOO_MANY_TRIANGLES_MESSAGE);
    const fewer = text(
      head.slice(0, headerLength).replace("element vertex 8", "element vertex 900"),
    );
    const cut = new Uint8Array(fewer.length + 100);
    cut.set(fewer);
    expect(errorOf(cut, "d.ply")).toBe(invalidFileMessage("ply", reasons.plyVerticesTruncated));
    expect(errorOf(binary.subarray(0, binary.length - 5), "e.ply")).toBe(
      invalidFileMessage("ply", reasons.plyFacesTruncated),
    );
  });

  it("PLY with a broken header", () => {
    const ascii = new TextDecoder().decode(toAsciiPly(cubeMesh));
    for (const broken of [
      ascii.replace("format ascii 1.0", "format binary_middle_endian 1.0"),
      ascii.replace("property float y", "property quad y"),
      ascii.replace("element face 12", "element face -1"),
      ascii.replace("end_header", "end_of_header"),
      ascii.replace("comment", "remark"),
      ascii.slice(0, 40),
    ]) {
      expect(errorOf(text(broken), "bad.ply")).toBe(
        "This file is not a valid PLY file: its header is broken.",
      );
    }
    expect(errorOf(text(ascii.replace("property float y", "property float v")), "xz.ply")).toBe(
      invalidFileMessage("ply", reasons.plyNoPositions),
    );
    expect(errorOf(text(ascii.replace("vertex_indices", "corners")), "nf.ply")).toBe(
      invalidFileMessage("ply", reasons.plyNoFaceList),
    );
    expect(errorOf(text(ascii.replace("ply", "plx")), "np.ply")).toBe(
      invalidFileMessage("ply", reasons.plyNoHeader),
    );
    expect(errorOf(text(ascii.replace("\n3 0 ", "\n3 0.5 ")), "fi.ply")).toBe(
      invalidFileMessage("ply", reasons.badIndex),
    );
    expect(errorOf(text(ascii.replace("\n3 0 ", "\n3 99 ")), "fm.ply")).toBe(
      invalidFileMessage("ply", reasons.missingVertex),
    );
  });

  it("3MF that is not a ZIP, or holds no model", () => {
    expect(errorOf(toAsciiStl(cubeMesh), "a.3mf")).toBe(
      "This file is not a valid 3MF file: it is not a ZIP archive.",
    );
    const noModel = zipSync({
      "[Content_Types].xml": text(CONTENT_TYPES_XML),
      "Metadata/thumbnail.png": PNG,
    });
    expect(errorOf(noModel, "b.3mf")).toBe(
      "This file is not a valid 3MF file: it has no 3D model inside.",
    );
    const zip = to3mf(cubeMesh);
    expect(errorOf(zip.subarray(0, zip.length - 30), "c.3mf")).toBe(
      invalidFileMessage("3mf", reasons.badZip),
    );
    const broken = zipSync({ "3D/3dmodel.model": text("<model><resources><object id=") });
    expect(errorOf(broken, "d.3mf")).toBe(invalidFileMessage("3mf", reasons.badXml));
    const missing = zipSync({
      "3D/3dmodel.model": text('<model><resources/><build><item objectid="3"/></build></model>'),
    });
    expect(errorOf(missing, "e.3mf")).toBe(invalidFileMessage("3mf", reasons.missingObject));
    const unit = zipSync({
      "3D/3dmodel.model": text(threeMfModelXml(cubeMesh, { unit: "league" })),
    });
    expect(errorOf(unit, "f.3mf")).toBe(invalidFileMessage("3mf", reasons.badUnit));
  });

  it("empty files", () => {
    for (const format of ["stl", "obj", "ply", "3mf"] as const) {
      expect(errorOf(new Uint8Array(0), `empty.${format}`)).toBe(
        `This file is not a valid ${format.toUpperCase()} file: the file is empty.`,
      );
    }
  });

  it("random bytes with each extension", () => {
    const bytes = randomBytes(5000, 42);
    expect(errorOf(bytes, "r.stl")).toBe(invalidFileMessage("stl", reasons.stlTruncated));
    expect(errorOf(bytes, "r.obj")).toBe(invalidFileMessage("obj", reasons.notText));
    expect(errorOf(bytes, "r.ply")).toBe(invalidFileMessage("ply", reasons.plyNoHeader));
    expect(errorOf(bytes, "r.3mf")).toBe(invalidFileMessage("3mf", reasons.notZip));
  });

  it("other kinds of file named .stl (PNG, ZIP, JSON)", () => {
    expect(errorOf(PNG, "photo.stl")).toBe("This file is not a valid STL file: it is a PNG image.");
    expect(errorOf(to3mf(cubeMesh), "plate.stl")).toBe(invalidFileMessage("stl", reasons.zip));
    expect(errorOf(PNG, "photo.obj")).toBe(invalidFileMessage("obj", reasons.png));
    const json = text(JSON.stringify({ vertices: [[0, 0, 0]], faces: [[0, 1, 2]] }).repeat(5));
    expect(errorOf(json, "model.stl")).toMatch(/^This file is not a valid STL file: /);
    expect(errorOf(json, "model.ply")).toBe(invalidFileMessage("ply", reasons.plyNoHeader));
    expect(errorOf(json, "model.obj")).toBe(NO_TRIANGLES_MESSAGE);
  });
});
