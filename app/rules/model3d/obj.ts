/**
 * Wavefront OBJ reader: `v x y z` vertices and `f` faces (`f 1 2 3`, `f 1/1 2/2 3/3`,
 * `f 1//1 …`, `f -3 -2 -1`), polygons split into triangles as a fan from their first corner.
 * Every other line (normals, texture coordinates, groups, materials, comments) is skipped.
 */
import { invalidFile, reasons, sniffOtherFileType, tooManyTriangles } from "./messages.ts";
import { isSpace, looksLikeText, Scanner } from "./text.ts";
import type { Mesh } from "./types.ts";
import { FloatList, TriangleList, weldIndexed } from "./weld.ts";

/** True for a byte that ends a face's list of corners: line end, comment or end of file. */
function endsLine(c: number | undefined): boolean {
  return c === undefined || c === 10 || c === 13 || c === 35;
}

export function parseObj(bytes: Uint8Array, maxTriangles: number): Mesh {
  if (bytes.length === 0) throw invalidFile("obj", reasons.empty);
  if (!looksLikeText(bytes)) throw invalidFile("obj", sniffOtherFileType(bytes) ?? reasons.notText);
  const s = new Scanner(bytes);
  // A vertex line takes at least 8 bytes; a mesh needs at most 3 vertices per triangle.
  const maxVertices = maxTriangles * 3;
  const vertices = new FloatList(Math.min(bytes.length >>> 5, maxVertices * 3));
  const triangles = new TriangleList(maxTriangles, bytes.length >>> 6);
  const corners: number[] = [];

  const coordinate = () => {
    s.skipBlanks();
    const v = s.number();
    if (Number.isNaN(v) || !s.atBoundary() || !Number.isFinite(v)) {
      throw invalidFile("obj", reasons.notNumber);
    }
    return v;
  };

  while (!s.atEnd()) {
    s.skipBlanks();
    const c = bytes[s.pos];
    const next = bytes[s.pos + 1];
    if (c === 118 && (next === 32 || next === 9)) {
      // v x y z [w | r g b]
      s.pos++;
      const x = coordinate();
      const y = coordinate();
      const z = coordinate();
      if (vertices.length >= maxVertices * 3) throw tooManyTriangles();
      vertices.push3(x, y, z);
    } else if (c === 102 && (next === 32 || next === 9)) {
      // f a b c …, each corner v, v/vt, v//vn or v/vt/vn
      s.pos++;
      corners.length = 0;
      const vertexCount = vertices.length / 3;
      for (;;) {
        s.skipBlanks();
        if (endsLine(bytes[s.pos]) || s.atEnd()) break;
        const index = s.integer();
        if (Number.isNaN(index)) throw invalidFile("obj", reasons.badIndex);
        const after = bytes[s.pos];
        if (after === 47) {
          // Skip the texture and normal numbers.
          while (!s.atEnd() && !isSpace(bytes[s.pos])) s.pos++;
        } else if (!s.atBoundary()) {
          throw invalidFile("obj", reasons.badIndex);
        }
        // 1-based; negative numbers count back from the latest vertex.
        const vertex = index > 0 ? index - 1 : vertexCount + index;
        if (index === 0 || vertex < 0 || vertex > 0xfffffffe) {
          throw invalidFile("obj", reasons.missingVertex);
        }
        corners.push(vertex);
        if (corners.length > maxTriangles + 2) throw tooManyTriangles();
      }
      for (let i = 2; i < corners.length; i++)
        triangles.push(corners[0], corners[i - 1], corners[i]);
    }
    s.skipLine();
  }
  const indices = triangles.finish();
  return weldIndexed("obj", vertices.data, vertices.length / 3, indices);
}
