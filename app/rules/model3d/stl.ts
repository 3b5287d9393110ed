/**
 * STL reader, binary and ASCII. A file is binary when its size is exactly 84 + 50 × the triangle
 * count in its header (binary headers may start with "solid" too); otherwise it is read as ASCII
 * when it starts with "solid" and looks like text. Binary records are read with a DataView (as
 * fast as typed-array views here, and records are 50 bytes, so every other one is 2 bytes off a
 * 4-byte boundary) and welded as they are read; the ASCII form is scanned as bytes.
 */
import { invalidFile, reasons, sniffOtherFileType, tooManyTriangles } from "./messages.ts";
import { looksLikeText, Scanner } from "./text.ts";
import type { Mesh } from "./types.ts";
import { floatBits, hash3, RECENT_MASK, TriangleList, Welder } from "./weld.ts";

/** Triangle count of a binary STL when the size matches its header exactly; otherwise -1. */
export function binaryStlTriangles(bytes: Uint8Array): number {
  if (bytes.length < 84) return -1;
  const n = (bytes[80] | (bytes[81] << 8) | (bytes[82] << 16) | (bytes[83] << 24)) >>> 0;
  return 84 + 50 * n === bytes.length ? n : -1;
}

function startsWithSolid(bytes: Uint8Array): boolean {
  const s = new Scanner(bytes, 0, Math.min(bytes.length, 1024));
  s.skipSpace();
  return s.word("solid");
}

export function parseStl(bytes: Uint8Array, maxTriangles: number): Mesh {
  if (bytes.length === 0) throw invalidFile("stl", reasons.empty);
  const n = binaryStlTriangles(bytes);
  if (n >= 0) {
    if (n > maxTriangles) throw tooManyTriangles();
    return parseBinaryStl(bytes, n);
  }
  if (startsWithSolid(bytes) && looksLikeText(bytes)) return parseAsciiStl(bytes, maxTriangles);
  const other = sniffOtherFileType(bytes);
  if (other) throw invalidFile("stl", other);
  if (bytes.length < 84) throw invalidFile("stl", reasons.stlTruncated);
  const claimed = (bytes[80] | (bytes[81] << 8) | (bytes[82] << 16) | (bytes[83] << 24)) >>> 0;
  throw invalidFile(
    "stl",
    84 + 50 * claimed > bytes.length ? reasons.stlTruncated : reasons.stlSizeMismatch,
  );
}

function parseBinaryStl(bytes: Uint8Array, n: number): Mesh {
  const indices = new Uint32Array(n * 3);
  // A closed mesh has about half as many vertices as triangles.
  const welder = new Welder("stl", (n >>> 1) + 16);
  const recent = welder.recent;
  // Welder.add's cache check is written out here: this loop runs once per corner.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let t = 0, o = 96, c = 0; t < n; t++, o += 50) {
    for (let k = 0, q = o; k < 3; k++, q += 12, c++) {
      let x = view.getInt32(q, true);
      let y = view.getInt32(q + 4, true);
      let z = view.getInt32(q + 8, true);
      if (x === -2147483648) x = 0;
      if (y === -2147483648) y = 0;
      if (z === -2147483648) z = 0;
      const h = hash3(x, y, z);
      const r = (h & RECENT_MASK) << 2;
      if (recent[r] === x && recent[r + 1] === y && recent[r + 2] === z && recent[r + 3] !== 0) {
        indices[c] = recent[r + 3] - 1;
      } else {
        indices[c] = welder.addNew(x, y, z, h);
      }
    }
  }
  return { positions: welder.finish(indices), indices };
}

function parseAsciiStl(bytes: Uint8Array, maxTriangles: number): Mesh {
  const s = new Scanner(bytes);
  // An ASCII facet takes about 250 bytes.
  const estimate = Math.ceil(bytes.length / 250) + 16;
  const triangles = new TriangleList(maxTriangles, estimate);
  const welder = new Welder("stl", estimate >>> 1);
  const corners: number[] = [];

  /** The reason for a facet that does not read: cut off by the end of the file, or broken. */
  const broken = () => {
    s.skipSpace();
    const start = s.pos;
    s.skipToken();
    return invalidFile(
      "stl",
      s.pos >= s.end || start >= s.end ? reasons.stlMidFacet : reasons.stlBrokenFacet,
    );
  };
  const expect = (word: string) => {
    s.skipSpace();
    if (!s.word(word)) throw broken();
  };
  const coordinate = () => {
    s.skipSpace();
    const v = s.number();
    if (Number.isNaN(v) || !s.atBoundary()) {
      if (s.pos >= s.end) throw invalidFile("stl", reasons.stlMidFacet);
      throw invalidFile("stl", reasons.notNumber);
    }
    return floatBits(v);
  };

  s.skipSpace();
  s.word("solid");
  s.skipLine();
  for (;;) {
    s.skipSpace();
    if (s.atEnd()) break;
    if (s.word("facet")) {
      expect("normal");
      for (let i = 0; i < 3; i++) {
        s.skipSpace();
        if (!s.skipToken()) throw invalidFile("stl", reasons.stlMidFacet);
      }
      expect("outer");
      expect("loop");
      corners.length = 0;
      for (;;) {
        s.skipSpace();
        if (s.word("vertex")) {
          const x = coordinate();
          const y = coordinate();
          const z = coordinate();
          corners.push(welder.add(x, y, z));
        } else if (s.word("endloop")) {
          break;
        } else {
          throw broken();
        }
      }
      expect("endfacet");
      if (corners.length < 3) throw invalidFile("stl", reasons.stlFewCorners);
      for (let i = 2; i < corners.length; i++)
        triangles.push(corners[0], corners[i - 1], corners[i]);
    } else if (s.word("endsolid") || s.word("solid")) {
      s.skipLine();
    } else {
      throw invalidFile("stl", reasons.stlBrokenFacet);
    }
  }
  const indices = triangles.finish();
  return { positions: welder.finish(indices), indices };
}

/** Volume, area and bounds of a triangle soup, in file units. */
export interface MeshMeasure {
  triangles: number;
  /** Sum of signed tetrahedra (negative when the winding points inwards). */
  signedVolume: number;
  area: number;
  min: [number, number, number];
  max: [number, number, number];
}

/**
 * Geometry-only fast path for binary STL: volume, area and bounds straight from the bytes in one
 * pass, with no welding and no edge check. Returns null when the bytes are not a well-sized binary
 * STL. A NaN coordinate makes the results NaN.
 */
export function measureBinaryStl(bytes: Uint8Array): MeshMeasure | null {
  const n = binaryStlTriangles(bytes);
  if (n < 0) return null;
  if (n === 0) return { triangles: 0, signedVolume: 0, area: 0, min: [0, 0, 0], max: [0, 0, 0] };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Corners relative to the first corner keep the sums precise far from the origin.
  const ox = view.getFloat32(96, true);
  const oy = view.getFloat32(100, true);
  const oz = view.getFloat32(104, true);
  let volume = 0;
  let area = 0;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let minZ = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let maxZ = Number.NEGATIVE_INFINITY;
  for (let t = 0, o = 96; t < n; t++, o += 50) {
    const ax = view.getFloat32(o, true) - ox;
    const ay = view.getFloat32(o + 4, true) - oy;
    const az = view.getFloat32(o + 8, true) - oz;
    const bx = view.getFloat32(o + 12, true) - ox;
    const by = view.getFloat32(o + 16, true) - oy;
    const bz = view.getFloat32(o + 20, true) - oz;
    const cx = view.getFloat32(o + 24, true) - ox;
    const cy = view.getFloat32(o + 28, true) - oy;
    const cz = view.getFloat32(o + 32, true) - oz;
    const ux = bx - ax;
    const uy = by - ay;
    const uz = bz - az;
    const wx = cx - ax;
    const wy = cy - ay;
    const wz = cz - az;
    const nx = uy * wz - uz * wy;
    const ny = uz * wx - ux * wz;
    const nz = ux * wy - uy * wx;
    // a · ((b − a) × (c − a)) = a · (b × c): six times the signed tetrahedron.
    volume += ax * nx + ay * ny + az * nz;
    area += Math.sqrt(nx * nx + ny * ny + nz * nz);
    minX = Math.min(minX, ax, bx, cx);
    maxX = Math.max(maxX, ax, bx, cx);
    minY = Math.min(minY, ay, by, cy);
    maxY = Math.max(maxY, ay, by, cy);
    minZ = Math.min(minZ, az, bz, cz);
    maxZ = Math.max(maxZ, az, bz, cz);
  }
  return {
    triangles: n,
    signedVolume: volume / 6,
    area: area / 2,
    min: [minX + ox, minY + oy, minZ + oz],
    max: [maxX + ox, maxY + oy, maxZ + oz],
  };
}
