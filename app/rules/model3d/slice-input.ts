/**
 * The part a slicer is given (docs/decisions/0020): the quote's own part of the stored file (a
 * 3MF object or a split body, cut the same way as at upload), in millimetres at the priced unit
 * and scale, turned so the face the quote engine laid on the bed faces down, as a binary STL.
 */
import type { StoredGeometry } from "../stored-shapes.ts";
import { parseModel } from "./index.ts";
import { modelParts } from "./parts.ts";
import type { Mesh } from "./types.ts";

type Vec3 = { x: number; y: number; z: number };

/** The rotation (row-major 3×3) that turns the unit vector `from` onto (0, 0, −1). */
export function rotationToDown(from: Vec3): number[] {
  const length = Math.hypot(from.x, from.y, from.z);
  if (!(length > 0)) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const a = [from.x / length, from.y / length, from.z / length];
  const b = [0, 0, -1];
  // Axis a × b, cosine a · b (Rodrigues' formula).
  const v = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  if (c < -1 + 1e-9) return [1, 0, 0, 0, -1, 0, 0, 0, -1]; // pointing up: half a turn about x
  const k = 1 / (1 + c);
  return [
    1 - k * (v[1] * v[1] + v[2] * v[2]),
    k * v[0] * v[1] - v[2],
    k * v[0] * v[2] + v[1],
    k * v[0] * v[1] + v[2],
    1 - k * (v[0] * v[0] + v[2] * v[2]),
    k * v[1] * v[2] - v[0],
    k * v[0] * v[2] - v[1],
    k * v[1] * v[2] + v[0],
    1 - k * (v[0] * v[0] + v[1] * v[1]),
  ];
}

/**
 * The mesh as a binary STL, each vertex multiplied by `scale` and turned by `rotation`, then moved
 * so that every coordinate is negative (slicers drop the part on their bed and centre it anyway).
 * Why negative: ADMesh's reader, which PrusaSlicer uses, takes a file for ASCII unless one of the
 * 128 bytes after the header is above 127, and a small part with zero normals whose coordinates
 * are all small positive floats (0 and 10 mm, say) has none: it was refused as a broken text file.
 * A negative float's last byte carries the sign bit, so the first vertex settles it.
 */
export function transformedBinaryStl(mesh: Mesh, scale: number, rotation: number[]): Uint8Array {
  const n = Math.floor(mesh.indices.length / 3);
  const p = mesh.positions;
  const r = rotation;
  const vertices = Math.floor(p.length / 3);
  const moved = new Float64Array(vertices * 3);
  const max = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (let v = 0; v < vertices; v++) {
    const x = p[v * 3] * scale;
    const y = p[v * 3 + 1] * scale;
    const z = p[v * 3 + 2] * scale;
    moved[v * 3] = r[0] * x + r[1] * y + r[2] * z;
    moved[v * 3 + 1] = r[3] * x + r[4] * y + r[5] * z;
    moved[v * 3 + 2] = r[6] * x + r[7] * y + r[8] * z;
    for (let k = 0; k < 3; k++) max[k] = Math.max(max[k], moved[v * 3 + k]);
  }
  const shift = max.map((m) => (Number.isFinite(m) ? -m - 1 : 0));
  const out = new Uint8Array(84 + 50 * n);
  const view = new DataView(out.buffer);
  view.setUint32(80, n, true);
  for (let t = 0; t < n; t++) {
    // The normal is left zero: slicers recompute it from the winding.
    const o = 84 + 50 * t + 12;
    for (let c = 0; c < 3; c++) {
      const v = mesh.indices[t * 3 + c] * 3;
      for (let k = 0; k < 3; k++) {
        view.setFloat32(o + (c * 3 + k) * 4, moved[v + k] + shift[k], true);
      }
    }
  }
  return out;
}

/**
 * The quote's part of the stored file, ready to slice. `fileName` only names the format (the
 * stored file's extension); `mmPerUnit` is the priced unit × scale. Throws ModelError for a file
 * that can't be read, and an Error when the file no longer has the quote's part.
 */
export function partForSlicing(
  bytes: Uint8Array,
  fileName: string,
  geometry: Pick<StoredGeometry, "part" | "printability" | "triangles">,
  mmPerUnit: number,
): Uint8Array {
  const model = parseModel(bytes, fileName);
  const split = geometry.part?.kind === "body" ? "body" : null;
  const parts = modelParts(model, split);
  const index = geometry.part?.index ?? 0;
  const part = parts[index];
  if (!part || (geometry.part && parts.length !== geometry.part.of)) {
    throw new Error("the stored file no longer holds this quote's part");
  }
  const down = geometry.printability?.down ?? { x: 0, y: 0, z: -1 };
  return transformedBinaryStl(part.model.mesh, mmPerUnit, rotationToDown(down));
}
