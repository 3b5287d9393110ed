/**
 * 3MF reader. A 3MF file is a ZIP package: only its `3D/….model` parts (and `_rels/.rels`, which
 * names the main one) are unpacked, within a size budget so that a "zip bomb" cannot exhaust
 * memory. The model XML is scanned as bytes (no DOM, no big string): `<vertex x y z>` and
 * `<triangle v1 v2 v3>` of each `<object><mesh>`, `<component>`s (also those in other model
 * parts, as slicers write them) and the `<build><item>`s, with their transforms. Positions are
 * converted from the model's `unit` to millimetres, so the file's unit is always "mm".
 */
import { type UnzipFileInfo, unzipSync } from "fflate";
import { invalidFile, reasons, tooManyTriangles } from "./messages.ts";
import { isSpace, Scanner } from "./text.ts";
import { type Mesh, ModelError } from "./types.ts";
import { FloatList, TriangleList, weldIndexed } from "./weld.ts";

/** Most bytes the model parts may unpack to, together. */
export const MAX_UNZIPPED_BYTES = 512 * 1024 * 1024;

/** Millimetres per 3MF unit. */
const UNIT_MM: Record<string, number> = {
  micron: 0.001,
  millimeter: 1,
  centimeter: 10,
  inch: 25.4,
  foot: 304.8,
  meter: 1000,
};

/** Most object placements one file may expand to (guards against nested components blowing up). */
const MAX_PLACEMENTS = 100_000;
/** Deepest nesting of components followed. */
const MAX_DEPTH = 64;

/** A 4×3 affine matrix in 3MF's order: m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32. */
type Matrix = Float64Array;

const IDENTITY: Matrix = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);

interface Reference {
  objectId: number;
  transform: Matrix | null;
  /** Another model part (production extension), or null for the same part. */
  path: string | null;
}

interface ModelObject {
  vertices: FloatList;
  triangles: TriangleList;
  components: Reference[];
}

interface ModelPart {
  unit: string;
  objects: Map<number, ModelObject>;
  items: Reference[];
}

const isModelPart = (name: string) => /^3D\/.+\.model$/i.test(name);

function unzipModelParts(bytes: Uint8Array): Record<string, Uint8Array> {
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw invalidFile("3mf", reasons.notZip);
  }
  // Each central directory entry takes at least 46 bytes: more calls mean a damaged directory.
  const maxEntries = Math.floor(bytes.length / 46) + 1;
  let entries = 0;
  // Real 3MF files unpack to about 10× their size: allow 64× (plus 16 MB), so a small "zip bomb"
  // can't take seconds of CPU and hundreds of megabytes.
  let budget = Math.min(MAX_UNZIPPED_BYTES, bytes.length * 64 + 16 * 1024 * 1024);
  const filter = (file: UnzipFileInfo) => {
    if (++entries > maxEntries) throw invalidFile("3mf", reasons.badZip);
    if (!isModelPart(file.name) && file.name !== "_rels/.rels") return false;
    if (file.compression !== 0 && file.compression !== 8) {
      throw invalidFile("3mf", reasons.compression);
    }
    // Deflate cannot shrink data more than about 1032 to 1: a larger claim is a damaged header.
    if (file.compression === 8 && file.originalSize > file.size * 1032 + 1024) {
      throw invalidFile("3mf", reasons.badZip);
    }
    // A stored entry is copied at its real size whatever its header claims; several entries may
    // point at the same data, and each is copied again.
    const cost = Math.max(file.originalSize, file.size);
    if (cost > budget) throw invalidFile("3mf", reasons.tooBig);
    budget -= cost;
    return true;
  };
  try {
    return unzipSync(bytes, { filter });
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw invalidFile("3mf", reasons.badZip);
  }
}

/** The main model part: the one _rels/.rels points to, else 3D/3dmodel.model, else the first. */
function rootPartName(files: Record<string, Uint8Array>): string | null {
  const rels = files["_rels/.rels"];
  if (rels) {
    const text = new TextDecoder().decode(rels);
    for (const tag of text.match(/<Relationship\b[^>]*>/g) ?? []) {
      const type = /\bType\s*=\s*["']([^"']*)["']/.exec(tag)?.[1] ?? "";
      const target = /\bTarget\s*=\s*["']([^"']*)["']/.exec(tag)?.[1];
      if (target && type.endsWith("/3dmodel")) {
        const name = findPart(files, target);
        if (name) return name;
      }
    }
  }
  return findPart(files, "3D/3dmodel.model") ?? Object.keys(files).find(isModelPart) ?? null;
}

/** The unpacked part at `path` (leading "/" optional, case-insensitive as a fallback). */
function findPart(files: Record<string, Uint8Array>, path: string): string | null {
  const name = path.replace(/^\/+/, "");
  if (files[name]) return name;
  const lower = name.toLowerCase();
  return Object.keys(files).find((key) => key.toLowerCase() === lower) ?? null;
}

/**
 * Reads a 3MF into one welded mesh (in millimetres). `objectStarts`, when given, receives the
 * triangle number where each build item's triangles start (item order), so the file's objects can
 * become parts of their own.
 */
export function parse3mf(bytes: Uint8Array, maxTriangles: number, objectStarts?: number[]): Mesh {
  if (bytes.length === 0) throw invalidFile("3mf", reasons.empty);
  const files = unzipModelParts(bytes);
  const rootName = rootPartName(files);
  if (!rootName) throw invalidFile("3mf", reasons.noModel);
  const parts = new Map<string, ModelPart>();
  const part = (name: string | null): ModelPart => {
    const key = name === null ? rootName : findPart(files, name);
    if (!key) throw invalidFile("3mf", reasons.missingObject);
    let parsed = parts.get(key);
    if (!parsed) {
      parsed = parseModelPart(files[key], maxTriangles);
      parts.set(key, parsed);
    }
    return parsed;
  };
  const root = part(null);
  const mm = UNIT_MM[root.unit];
  if (mm === undefined) throw invalidFile("3mf", reasons.badUnit);

  const positions = new FloatList(1024);
  const triangles = new TriangleList(maxTriangles, 1024);
  const maxVertices = maxTriangles * 3;
  const path: string[] = [];
  let placements = 0;

  const place = (partName: string | null, objectId: number, matrix: Matrix) => {
    if (++placements > MAX_PLACEMENTS) throw invalidFile("3mf", reasons.tooManyParts);
    const key = `${partName ?? ""}#${objectId}`;
    if (path.includes(key)) throw invalidFile("3mf", reasons.componentLoop);
    if (path.length >= MAX_DEPTH) throw invalidFile("3mf", reasons.tooManyParts);
    const object = part(partName).objects.get(objectId);
    if (!object) throw invalidFile("3mf", reasons.missingObject);
    path.push(key);
    const vertexCount = object.vertices.length / 3;
    if (object.triangles.length > 0) {
      if (positions.length / 3 + vertexCount > maxVertices) throw tooManyTriangles();
      if (triangles.triangles + object.triangles.length / 3 > maxTriangles) {
        throw tooManyTriangles();
      }
      const base = positions.length / 3;
      const v = object.vertices.data;
      const m = matrix;
      for (let i = 0; i < vertexCount * 3; i += 3) {
        const x = v[i];
        const y = v[i + 1];
        const z = v[i + 2];
        positions.push3(
          (x * m[0] + y * m[3] + z * m[6] + m[9]) * mm,
          (x * m[1] + y * m[4] + z * m[7] + m[10]) * mm,
          (x * m[2] + y * m[5] + z * m[8] + m[11]) * mm,
        );
      }
      // A mirroring transform turns the triangles inside out: swap two corners back.
      const mirrored = determinant(m) < 0;
      const t = object.triangles.data;
      for (let i = 0; i < object.triangles.length; i += 3) {
        if (t[i] >= vertexCount || t[i + 1] >= vertexCount || t[i + 2] >= vertexCount) {
          throw invalidFile("3mf", reasons.missingVertex);
        }
        if (mirrored) triangles.push(base + t[i], base + t[i + 2], base + t[i + 1]);
        else triangles.push(base + t[i], base + t[i + 1], base + t[i + 2]);
      }
    }
    for (const component of object.components) {
      const inner = component.transform ? multiply(component.transform, matrix) : matrix;
      place(component.path ?? partName, component.objectId, inner);
    }
    path.pop();
  };

  let items = root.items;
  if (items.length === 0) {
    // No build section: place every object that is not a part of another one.
    const used = new Set<number>();
    for (const object of root.objects.values()) {
      for (const c of object.components) if (c.path === null) used.add(c.objectId);
    }
    items = [...root.objects.keys()]
      .filter((id) => !used.has(id))
      .map((objectId) => ({ objectId, transform: null, path: null }));
  }
  for (const item of items) {
    objectStarts?.push(triangles.triangles);
    place(item.path, item.objectId, item.transform ?? IDENTITY);
  }

  const indices = triangles.finish();
  return weldIndexed("3mf", positions.data, positions.length / 3, indices);
}

/** a then b: the matrix of applying a, then b (row vectors, as 3MF writes them). */
function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Float64Array(12);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 3; c++) {
      out[r * 3 + c] =
        a[r * 3] * b[c] +
        a[r * 3 + 1] * b[3 + c] +
        a[r * 3 + 2] * b[6 + c] +
        (r === 3 ? b[9 + c] : 0);
    }
  }
  return out;
}

function determinant(m: Matrix): number {
  return (
    m[0] * (m[4] * m[8] - m[5] * m[7]) -
    m[1] * (m[3] * m[8] - m[5] * m[6]) +
    m[2] * (m[3] * m[7] - m[4] * m[6])
  );
}

const decoder = new TextDecoder();

/** True when bytes[start, end) spell `name` (ASCII). */
function spells(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name.charCodeAt(i)) return false;
  return true;
}

/** Where the local part of a possibly prefixed name (`p:path`) starts. */
function localStart(bytes: Uint8Array, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) if (bytes[i] === 58) return i + 1;
  return start;
}

/** Index of the first occurrence of `text` (ASCII) at or after `from`, or -1. */
function find(bytes: Uint8Array, text: string, from: number): number {
  const first = text.charCodeAt(0);
  for (let i = bytes.indexOf(first, from); i >= 0; i = bytes.indexOf(first, i + 1)) {
    let match = true;
    for (let k = 1; k < text.length; k++) {
      if (bytes[i + k] !== text.charCodeAt(k)) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}

/** Which tags the reader acts on. */
const Tag = { Other: 0, Model: 1, Object: 2, Vertex: 3, Triangle: 4, Component: 5, Item: 6 };

function tagOf(bytes: Uint8Array, start: number, end: number): number {
  switch (end - start) {
    case 4:
      return spells(bytes, start, end, "item") ? Tag.Item : Tag.Other;
    case 5:
      return spells(bytes, start, end, "model") ? Tag.Model : Tag.Other;
    case 6:
      if (spells(bytes, start, end, "vertex")) return Tag.Vertex;
      return spells(bytes, start, end, "object") ? Tag.Object : Tag.Other;
    case 8:
      return spells(bytes, start, end, "triangle") ? Tag.Triangle : Tag.Other;
    case 9:
      return spells(bytes, start, end, "component") ? Tag.Component : Tag.Other;
    default:
      return Tag.Other;
  }
}

function parseModelPart(bytes: Uint8Array, maxTriangles: number): ModelPart {
  const part: ModelPart = { unit: "millimeter", objects: new Map(), items: [] };
  const bad = () => invalidFile("3mf", reasons.badXml);
  const numbers = new Scanner(bytes);
  const end = bytes.length;
  const maxVertices = maxTriangles * 3;
  let vertexTotal = 0;
  let triangleTotal = 0;
  let current: ModelObject | null = null;
  // Attribute values of the tag being read.
  let x = Number.NaN;
  let y = Number.NaN;
  let z = Number.NaN;
  let v1 = -1;
  let v2 = -1;
  let v3 = -1;
  let id = -1;
  let transform: Matrix | null = null;
  let path: string | null = null;

  /** The number in bytes[start, end), whitespace around it allowed; NaN when it is not one. */
  const number = (start: number, stop: number) => {
    numbers.pos = start;
    numbers.end = stop;
    numbers.skipSpace();
    const value = numbers.number();
    numbers.skipSpace();
    return numbers.pos === stop ? value : Number.NaN;
  };
  const index = (start: number, stop: number) => {
    const value = number(start, stop);
    return Number.isInteger(value) && value >= 0 && value <= 0xfffffffe ? value : -1;
  };
  const matrix = (start: number, stop: number): Matrix => {
    const m = new Float64Array(12);
    numbers.pos = start;
    numbers.end = stop;
    for (let i = 0; i < 12; i++) {
      numbers.skipSpace();
      m[i] = numbers.number();
      if (!Number.isFinite(m[i]) || !numbers.atBoundary()) {
        throw invalidFile("3mf", reasons.badTransform);
      }
    }
    numbers.skipSpace();
    if (numbers.pos !== stop) throw invalidFile("3mf", reasons.badTransform);
    return m;
  };

  let pos = 0;
  for (;;) {
    const lt = bytes.indexOf(60, pos);
    if (lt < 0) break;
    let p = lt + 1;
    const c = bytes[p];
    if (c === 63) {
      // <? … ?>
      const close = find(bytes, "?>", p);
      if (close < 0) throw bad();
      pos = close + 2;
      continue;
    }
    if (c === 33) {
      // <!-- … -->, <![CDATA[ … ]]> or <!DOCTYPE …>
      const closer = bytes[p + 1] === 45 ? "-->" : bytes[p + 1] === 91 ? "]]>" : ">";
      const close = find(bytes, closer, p);
      if (close < 0) throw bad();
      pos = close + closer.length;
      continue;
    }
    const closing = c === 47;
    if (closing) p++;
    const nameStart = p;
    while (p < end && !isSpace(bytes[p]) && bytes[p] !== 62 && bytes[p] !== 47) p++;
    if (p >= end || p === nameStart) throw bad();
    const tag = tagOf(bytes, localStart(bytes, nameStart, p), p);
    if (closing) {
      if (tag === Tag.Object) current = null;
      const close = bytes.indexOf(62, p);
      if (close < 0) throw bad();
      pos = close + 1;
      continue;
    }
    x = Number.NaN;
    y = Number.NaN;
    z = Number.NaN;
    v1 = -1;
    v2 = -1;
    v3 = -1;
    id = -1;
    transform = null;
    path = null;
    // Attributes, up to > or />.
    for (;;) {
      while (p < end && isSpace(bytes[p])) p++;
      if (p >= end) throw bad();
      if (bytes[p] === 62) {
        p++;
        break;
      }
      if (bytes[p] === 47) {
        if (bytes[p + 1] !== 62) throw bad();
        p += 2;
        break;
      }
      const attrStart = p;
      while (p < end && bytes[p] !== 61 && !isSpace(bytes[p]) && bytes[p] !== 62) p++;
      const attrEnd = p;
      while (p < end && isSpace(bytes[p])) p++;
      if (bytes[p] !== 61 || attrEnd === attrStart) throw bad();
      p++;
      while (p < end && isSpace(bytes[p])) p++;
      const quote = bytes[p];
      if (quote !== 34 && quote !== 39) throw bad();
      const valueStart = p + 1;
      const valueEnd = bytes.indexOf(quote, valueStart);
      if (valueEnd < 0) throw bad();
      p = valueEnd + 1;
      if (tag === Tag.Other) continue;
      const a = localStart(bytes, attrStart, attrEnd);
      const length = attrEnd - a;
      if (tag === Tag.Vertex) {
        if (length !== 1) continue;
        const name = bytes[a];
        if (name === 120) x = number(valueStart, valueEnd);
        else if (name === 121) y = number(valueStart, valueEnd);
        else if (name === 122) z = number(valueStart, valueEnd);
      } else if (tag === Tag.Triangle) {
        if (length !== 2 || bytes[a] !== 118) continue;
        const k = bytes[a + 1];
        if (k === 49) v1 = index(valueStart, valueEnd);
        else if (k === 50) v2 = index(valueStart, valueEnd);
        else if (k === 51) v3 = index(valueStart, valueEnd);
      } else if (tag === Tag.Model) {
        if (spells(bytes, a, attrEnd, "unit")) {
          part.unit = decoder.decode(bytes.subarray(valueStart, valueEnd)).trim();
        }
      } else if (tag === Tag.Object) {
        if (spells(bytes, a, attrEnd, "id")) id = index(valueStart, valueEnd);
      } else if (spells(bytes, a, attrEnd, "objectid")) {
        id = index(valueStart, valueEnd);
      } else if (spells(bytes, a, attrEnd, "transform")) {
        transform = matrix(valueStart, valueEnd);
      } else if (spells(bytes, a, attrEnd, "path")) {
        path = decoder.decode(bytes.subarray(valueStart, valueEnd));
      }
    }
    pos = p;
    switch (tag) {
      case Tag.Vertex:
        if (!current) break;
        if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
          throw invalidFile("3mf", reasons.notNumber);
        }
        if (++vertexTotal > maxVertices) throw tooManyTriangles();
        current.vertices.push3(x, y, z);
        break;
      case Tag.Triangle:
        if (!current) break;
        if (v1 < 0 || v2 < 0 || v3 < 0) throw invalidFile("3mf", reasons.badIndex);
        if (++triangleTotal > maxTriangles) throw tooManyTriangles();
        current.triangles.push(v1, v2, v3);
        break;
      case Tag.Object:
        if (id < 0) throw bad();
        current = {
          vertices: new FloatList(64),
          triangles: new TriangleList(maxTriangles, 64),
          components: [],
        };
        part.objects.set(id, current);
        // <object … /> has no content.
        if (bytes[p - 2] === 47) current = null;
        break;
      case Tag.Component:
        if (!current) break;
        if (id < 0) throw bad();
        current.components.push({ objectId: id, transform, path });
        break;
      case Tag.Item:
        if (id < 0) throw bad();
        part.items.push({ objectId: id, transform, path });
        break;
    }
  }
  return part;
}
