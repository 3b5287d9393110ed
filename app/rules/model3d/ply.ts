/**
 * PLY reader: ASCII, binary_little_endian and binary_big_endian. Reads the vertex element's x, y
 * and z (any numeric type) and the face element's `vertex_indices` (or `vertex_index`) list of any
 * count and index type; other properties and elements are skipped. Every count in the header is
 * checked against the bytes left before anything is allocated for it.
 */
import { invalidFile, reasons, sniffOtherFileType, tooManyTriangles } from "./messages.ts";
import { Scanner } from "./text.ts";
import type { Mesh } from "./types.ts";
import { TriangleList, weldIndexed } from "./weld.ts";

/** Value types, numbered to index SIZE. */
const Kind = {
  Int8: 0,
  Uint8: 1,
  Int16: 2,
  Uint16: 3,
  Int32: 4,
  Uint32: 5,
  Float32: 6,
  Float64: 7,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const TYPES: Record<string, Kind> = {
  char: Kind.Int8,
  int8: Kind.Int8,
  uchar: Kind.Uint8,
  uint8: Kind.Uint8,
  short: Kind.Int16,
  int16: Kind.Int16,
  ushort: Kind.Uint16,
  uint16: Kind.Uint16,
  int: Kind.Int32,
  int32: Kind.Int32,
  uint: Kind.Uint32,
  uint32: Kind.Uint32,
  float: Kind.Float32,
  float32: Kind.Float32,
  double: Kind.Float64,
  float64: Kind.Float64,
};

const SIZE = [1, 1, 2, 2, 4, 4, 4, 8];

interface Property {
  name: string;
  type: Kind;
  /** For a list: the type of its count; null for a single value. */
  countType: Kind | null;
}

interface Element {
  name: string;
  count: number;
  properties: Property[];
}

type Encoding = "ascii" | "le" | "be";

function readValue(view: DataView, offset: number, type: Kind, little: boolean): number {
  switch (type) {
    case Kind.Int8:
      return view.getInt8(offset);
    case Kind.Uint8:
      return view.getUint8(offset);
    case Kind.Int16:
      return view.getInt16(offset, little);
    case Kind.Uint16:
      return view.getUint16(offset, little);
    case Kind.Int32:
      return view.getInt32(offset, little);
    case Kind.Uint32:
      return view.getUint32(offset, little);
    case Kind.Float32:
      return view.getFloat32(offset, little);
    default:
      return view.getFloat64(offset, little);
  }
}

/** Reads the header; returns its elements, the encoding and where the data starts. */
function readHeader(bytes: Uint8Array): { elements: Element[]; encoding: Encoding; data: number } {
  const s = new Scanner(bytes, 0, Math.min(bytes.length, 1 << 20));
  if (!s.word("ply")) {
    throw invalidFile("ply", sniffOtherFileType(bytes) ?? reasons.plyNoHeader);
  }
  const bad = () => invalidFile("ply", reasons.plyBadHeader);
  let encoding: Encoding | null = null;
  const elements: Element[] = [];
  for (;;) {
    // One header line.
    s.skipSpace();
    if (s.atEnd()) throw bad();
    const keyword = s.token();
    if (keyword === "end_header") {
      // The data starts after this line's end (LF or CR LF).
      s.skipBlanks();
      if (bytes[s.pos] === 13) s.pos++;
      if (bytes[s.pos] === 10) s.pos++;
      else if (s.pos < bytes.length) throw bad();
      break;
    }
    if (keyword === "comment" || keyword === "obj_info") {
      s.skipLine();
      continue;
    }
    const line = lineTokens(s);
    if (keyword === "format") {
      const name = line[0];
      encoding =
        name === "ascii"
          ? "ascii"
          : name === "binary_little_endian"
            ? "le"
            : name === "binary_big_endian"
              ? "be"
              : null;
      if (!encoding) throw bad();
    } else if (keyword === "element") {
      const count = Number(line[1]);
      if (line.length !== 2 || !Number.isSafeInteger(count) || count < 0) throw bad();
      elements.push({ name: line[0], count, properties: [] });
    } else if (keyword === "property") {
      const element = elements.at(-1);
      if (!element) throw bad();
      if (line[0] === "list") {
        const countType = TYPES[line[1]];
        const type = TYPES[line[2]];
        if (line.length !== 4 || countType === undefined || type === undefined) throw bad();
        if (countType === Kind.Float32 || countType === Kind.Float64) throw bad();
        element.properties.push({ name: line[3], type, countType });
      } else {
        const type = TYPES[line[0]];
        if (line.length !== 2 || type === undefined) throw bad();
        element.properties.push({ name: line[1], type, countType: null });
      }
    } else {
      throw bad();
    }
  }
  if (!encoding) throw bad();
  return { elements, encoding, data: s.pos };
}

/** The rest of the current header line, split at blanks. */
function lineTokens(s: Scanner): string[] {
  const tokens: string[] = [];
  for (;;) {
    s.skipBlanks();
    const c = s.bytes[s.pos];
    if (s.atEnd() || c === 10 || c === 13) break;
    const token = s.token();
    // Another kind of whitespace (vertical tab, form feed) inside a header line.
    if (token === "") throw invalidFile("ply", reasons.plyBadHeader);
    tokens.push(token);
  }
  return tokens;
}

/** What the mesh needs from the elements: where x, y, z are, and the faces' vertex list. */
interface Layout {
  vertex: Element;
  xyz: [number, number, number];
  face: Element | null;
  list: number;
}

function layout(elements: Element[]): Layout | null {
  const vertex = elements.find((e) => e.name === "vertex");
  const face = elements.find((e) => e.name === "face") ?? null;
  if (!vertex) return null;
  const at = (name: string) =>
    vertex.properties.findIndex((p) => p.name === name && p.countType === null);
  const xyz: [number, number, number] = [at("x"), at("y"), at("z")];
  if (xyz.includes(-1)) {
    if (vertex.count > 0) throw invalidFile("ply", reasons.plyNoPositions);
  }
  let list = -1;
  if (face) {
    list = face.properties.findIndex(
      (p) => (p.name === "vertex_indices" || p.name === "vertex_index") && p.countType !== null,
    );
    if (list < 0 && face.count > 0) throw invalidFile("ply", reasons.plyNoFaceList);
  }
  return { vertex, xyz, face, list };
}

function truncated(element: Element) {
  return invalidFile(
    "ply",
    element.name === "vertex"
      ? reasons.plyVerticesTruncated
      : element.name === "face"
        ? reasons.plyFacesTruncated
        : reasons.plyTruncated,
  );
}

export function parsePly(bytes: Uint8Array, maxTriangles: number): Mesh {
  if (bytes.length === 0) throw invalidFile("ply", reasons.empty);
  const { elements, encoding, data } = readHeader(bytes);
  const shape = layout(elements);
  if (!shape?.face || shape.face.count === 0) {
    return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  }
  // More vertices than 3 per allowed triangle cannot all be used: refuse them like triangles.
  if (shape.vertex.count > maxTriangles * 3) throw tooManyTriangles();
  return encoding === "ascii"
    ? readAscii(bytes, data, elements, shape, maxTriangles)
    : readBinary(bytes, data, elements, shape, maxTriangles, encoding === "le");
}

function readBinary(
  bytes: Uint8Array,
  start: number,
  elements: Element[],
  shape: Layout,
  maxTriangles: number,
  little: boolean,
): Mesh {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length;
  let o = start;
  let positions: Float32Array | null = null;
  let triangles: TriangleList | null = null;
  const corners: number[] = [];
  for (const element of elements) {
    if (positions && triangles) break;
    const fixed = element.properties.every((p) => p.countType === null);
    const minSize = element.properties.reduce(
      (sum, p) => sum + SIZE[p.countType === null ? p.type : p.countType],
      0,
    );
    if (element.count * minSize > end - o) throw truncated(element);
    if (element === shape.vertex) {
      const count = element.count;
      const offsets = element.properties.map((_, i) =>
        element.properties.slice(0, i).reduce((sum, p) => sum + SIZE[p.type], 0),
      );
      const [ix, iy, iz] = shape.xyz;
      const [ox, oy, oz] = [offsets[ix], offsets[iy], offsets[iz]];
      const [tx, ty, tz] = [
        element.properties[ix].type,
        element.properties[iy].type,
        element.properties[iz].type,
      ];
      positions = new Float32Array(count * 3);
      if (fixed) {
        const stride = minSize;
        if (tx === Kind.Float32 && ty === Kind.Float32 && tz === Kind.Float32) {
          for (let v = 0; v < count; v++, o += stride) {
            positions[v * 3] = view.getFloat32(o + ox, little);
            positions[v * 3 + 1] = view.getFloat32(o + oy, little);
            positions[v * 3 + 2] = view.getFloat32(o + oz, little);
          }
        } else {
          for (let v = 0; v < count; v++, o += stride) {
            positions[v * 3] = readValue(view, o + ox, tx, little);
            positions[v * 3 + 1] = readValue(view, o + oy, ty, little);
            positions[v * 3 + 2] = readValue(view, o + oz, tz, little);
          }
        }
        continue;
      }
      // Vertices with list properties: walk each one.
      for (let v = 0; v < count; v++) {
        for (let p = 0; p < element.properties.length; p++) {
          const property = element.properties[p];
          if (property.countType === null) {
            if (o + SIZE[property.type] > end) throw truncated(element);
            if (p === ix || p === iy || p === iz) {
              positions[v * 3 + (p === ix ? 0 : p === iy ? 1 : 2)] = readValue(
                view,
                o,
                property.type,
                little,
              );
            }
            o += SIZE[property.type];
          } else {
            o = skipList(view, o, property, little, element);
          }
        }
      }
      continue;
    }
    if (element === shape.face) {
      triangles = new TriangleList(maxTriangles, element.count);
      const only = element.properties.length === 1 ? element.properties[0] : null;
      if (
        only?.countType === Kind.Uint8 &&
        (only.type === Kind.Int32 || only.type === Kind.Uint32)
      ) {
        // The usual layout, "property list uchar int vertex_indices", read directly.
        o = readTriangleFaces(view, o, element, triangles, little);
        continue;
      }
      for (let f = 0; f < element.count; f++) {
        for (let p = 0; p < element.properties.length; p++) {
          const property = element.properties[p];
          if (property.countType === null) {
            o += SIZE[property.type];
            if (o > end) throw truncated(element);
            continue;
          }
          if (p !== shape.list) {
            o = skipList(view, o, property, little, element);
            continue;
          }
          const countSize = SIZE[property.countType];
          if (o + countSize > end) throw truncated(element);
          const n = readValue(view, o, property.countType, little);
          o += countSize;
          const size = SIZE[property.type];
          if (n < 0 || o + n * size > end) throw truncated(element);
          corners.length = 0;
          for (let i = 0; i < n; i++, o += size) {
            const index = readValue(view, o, property.type, little);
            if (!Number.isInteger(index)) throw invalidFile("ply", reasons.badIndex);
            if (index < 0 || index > 0xfffffffe) throw invalidFile("ply", reasons.missingVertex);
            corners.push(index);
          }
          for (let i = 2; i < n; i++) triangles.push(corners[0], corners[i - 1], corners[i]);
        }
      }
      continue;
    }
    // Another element: skip it.
    if (fixed) {
      o += element.count * minSize;
    } else {
      for (let i = 0; i < element.count; i++) {
        for (const property of element.properties) {
          if (property.countType === null) {
            o += SIZE[property.type];
            if (o > end) throw truncated(element);
          } else {
            o = skipList(view, o, property, little, element);
          }
        }
      }
    }
  }
  return finish(positions, triangles, shape);
}

/** Faces stored as a uchar count and 32-bit indices only; returns the offset after them. */
function readTriangleFaces(
  view: DataView,
  start: number,
  element: Element,
  triangles: TriangleList,
  little: boolean,
): number {
  const end = view.byteLength;
  let o = start;
  for (let f = 0; f < element.count; f++) {
    if (o >= end) throw truncated(element);
    const n = view.getUint8(o);
    o++;
    if (o + n * 4 > end) throw truncated(element);
    if (n === 3) {
      const a = view.getInt32(o, little);
      const b = view.getInt32(o + 4, little);
      const c = view.getInt32(o + 8, little);
      // Negative as int32, or 2³¹ and more as uint32: no such vertex.
      if ((a | b | c) < 0) throw invalidFile("ply", reasons.missingVertex);
      triangles.push(a, b, c);
    } else if (n > 3) {
      const first = view.getUint32(o, little);
      let previous = view.getUint32(o + 4, little);
      if ((first | 0) < 0 || (previous | 0) < 0) throw invalidFile("ply", reasons.missingVertex);
      for (let i = 2; i < n; i++) {
        const next = view.getUint32(o + 4 * i, little);
        if ((next | 0) < 0) throw invalidFile("ply", reasons.missingVertex);
        triangles.push(first, previous, next);
        previous = next;
      }
    }
    o += n * 4;
  }
  return o;
}

function skipList(
  view: DataView,
  o: number,
  property: Property,
  little: boolean,
  element: Element,
): number {
  const countType = property.countType as Kind;
  if (o + SIZE[countType] > view.byteLength) throw truncated(element);
  const n = readValue(view, o, countType, little);
  const next = o + SIZE[countType] + n * SIZE[property.type];
  if (n < 0 || next > view.byteLength) throw truncated(element);
  return next;
}

function readAscii(
  bytes: Uint8Array,
  start: number,
  elements: Element[],
  shape: Layout,
  maxTriangles: number,
): Mesh {
  const s = new Scanner(bytes, start);
  let positions: Float32Array | null = null;
  let triangles: TriangleList | null = null;
  const corners: number[] = [];
  /** The next value; truncated or not-a-number errors name the element being read. */
  const value = (element: Element) => {
    s.skipSpace();
    if (s.atEnd()) throw truncated(element);
    const v = s.number();
    if (Number.isNaN(v) || !s.atBoundary()) throw invalidFile("ply", reasons.plyBadValue);
    return v;
  };
  const count = (element: Element) => {
    const n = value(element);
    if (!Number.isInteger(n) || n < 0) throw invalidFile("ply", reasons.plyBadValue);
    return n;
  };
  for (const element of elements) {
    if (positions && triangles) break;
    if (element.properties.length === 0) continue;
    // Each value takes at least one character and one separator.
    if (element.count * element.properties.length * 2 > bytes.length - s.pos + 1) {
      throw truncated(element);
    }
    const isVertex = element === shape.vertex;
    const isFace = element === shape.face;
    if (isVertex) positions = new Float32Array(element.count * 3);
    if (isFace) triangles = new TriangleList(maxTriangles, element.count);
    const [ix, iy, iz] = shape.xyz;
    for (let i = 0; i < element.count; i++) {
      for (let p = 0; p < element.properties.length; p++) {
        const property = element.properties[p];
        if (property.countType === null) {
          const v = value(element);
          if (isVertex && positions && (p === ix || p === iy || p === iz)) {
            positions[i * 3 + (p === ix ? 0 : p === iy ? 1 : 2)] = v;
          }
          continue;
        }
        const n = count(element);
        if (isFace && triangles && p === shape.list) {
          corners.length = 0;
          for (let k = 0; k < n; k++) {
            const index = value(element);
            if (!Number.isInteger(index)) throw invalidFile("ply", reasons.badIndex);
            if (index < 0 || index > 0xfffffffe) throw invalidFile("ply", reasons.missingVertex);
            corners.push(index);
          }
          for (let k = 2; k < n; k++) triangles.push(corners[0], corners[k - 1], corners[k]);
        } else {
          for (let k = 0; k < n; k++) {
            s.skipSpace();
            if (!s.skipToken()) throw truncated(element);
          }
        }
      }
    }
  }
  // Trailing data after the elements the mesh needs is ignored.
  return finish(positions, triangles, shape);
}

function finish(
  positions: Float32Array | null,
  triangles: TriangleList | null,
  shape: Layout,
): Mesh {
  if (!positions || !triangles) {
    return { positions: new Float32Array(0), indices: new Uint32Array(0) };
  }
  return weldIndexed("ply", positions, shape.vertex.count, triangles.finish());
}
