/**
 * Model analysis for the quote: volume (signed tetrahedra), surface area, bounds, the edge check
 * (watertight, open, non-manifold and inconsistently wound edges) and which printers the part fits.
 *
 * Edge check: the welded mesh's half-edges (a→b for each triangle side, in winding order) are put
 * in a compact adjacency list per vertex, then each undirected edge is counted once. An edge is
 * fine when exactly one triangle uses it as a→b and exactly one as b→a. Otherwise it is open (one
 * triangle), non-manifold (three or more) or inconsistent (two triangles, same direction: one of
 * them is flipped). Inconsistent edges are counted in `nonManifoldEdges` too, and also on their
 * own in `inconsistentEdges`. Triangles with a repeated vertex (zero area) are left out of the
 * edge check.
 */

import { measureShells } from "./shells.ts";
import type { BuildVolume, LengthUnit, Mesh, ModelAnalysis, ParsedModel, Vec3 } from "./types.ts";
import { MM_PER_UNIT } from "./units.ts";
import { SCRATCH, scratch } from "./weld.ts";

export { MM_PER_UNIT };

/** Bodies listed one by one (for pricing per body); a file with more goes to staff. */
export const MAX_LISTED_BODIES = 100;

export interface AnalyseOptions {
  /** The unit the customer chose; used only when the file does not state its own. */
  unit: LengthUnit;
  /** Uniform scale on top of the unit (1 = as drawn). */
  scale: number;
  printers: BuildVolume[];
}

/** Volume, area and bounds in the mesh's own coordinates. */
export interface MeshGeometry {
  /** Sum of signed tetrahedra: negative when the winding points inwards. */
  signedVolume: number;
  area: number;
  min: Vec3;
  max: Vec3;
}

export interface EdgeCounts {
  openEdges: number;
  /** Edges used by three or more triangles, or by two in the same direction. */
  nonManifoldEdges: number;
  /** Of those, the edges used by exactly two triangles in the same direction. */
  inconsistentEdges: number;
  /** Triangles with a repeated vertex, left out of the edge check. */
  degenerateTriangles: number;
}

/** Bounds of the mesh's vertices (all of them are used by triangles once welded). */
function bounds(p: Float32Array): { min: Vec3; max: Vec3 } {
  const vertexCount = (p.length / 3) | 0;
  if (vertexCount === 0) return { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 } };
  let minX = p[0];
  let minY = p[1];
  let minZ = p[2];
  let maxX = minX;
  let maxY = minY;
  let maxZ = minZ;
  for (let i = 3; i < vertexCount * 3; i += 3) {
    const x = p[i];
    const y = p[i + 1];
    const z = p[i + 2];
    if (x < minX) minX = x;
    else if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    else if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    else if (z > maxZ) maxZ = z;
  }
  return { min: { x: minX, y: minY, z: minZ }, max: { x: maxX, y: maxY, z: maxZ } };
}

/** Volume (signed tetrahedra), area and bounds, without the edge check. */
export function meshGeometry(mesh: Mesh): MeshGeometry {
  return inspect(mesh, null, true, false).geometry as MeshGeometry;
}

const OPEN = 1;
const NON_MANIFOLD = 2;
const INCONSISTENT = 3;

type EdgeVisitor = (kind: number, u: number, w: number) => void;

/**
 * One pass over the triangles for the geometry (when `geometry`) and, when `edges`, the edge
 * check.
 *
 * Geometry: volume by signed tetrahedra and area by cross products, with the corners taken
 * relative to the middle of the bounds, which keeps the sums precise far from the origin.
 *
 * Edge check: every corner of a (non-degenerate) triangle is filed under its vertex u with the
 * next corner's vertex (half-edge u→next) and the previous one's (half-edge prev→u), by counting
 * sort. Then every edge at u can be judged from u's own list: u→w is used as often as w appears as
 * a "next", w→u as often as it appears as a "prev". A vertex whose "next" vertices are all
 * different and are exactly its "prev" vertices has only fine edges; that check is linear, with a
 * mark per neighbour. Other vertices get a detailed count of their edges to higher-numbered
 * neighbours (so that each edge is counted once).
 */
function inspect(
  mesh: Mesh,
  visit: EdgeVisitor | null,
  geometry: boolean,
  edges: boolean,
): { geometry: MeshGeometry | null; edges: EdgeCounts } {
  const p = mesh.positions;
  const ix = mesh.indices;
  const vertexCount = (p.length / 3) | 0;
  const n = ix.length - (ix.length % 3);
  const box = bounds(p);
  const ox = (box.min.x + box.max.x) / 2;
  const oy = (box.min.y + box.max.y) / 2;
  const oz = (box.min.z + box.max.z) / 2;
  let volume = 0;
  let area = 0;
  const start = edges ? scratch(SCRATCH.start, vertexCount + 1, true) : null;
  let degenerate = 0;
  for (let t = 0; t < n; t += 3) {
    const a = ix[t];
    const b = ix[t + 1];
    const c = ix[t + 2];
    if (geometry) {
      const ax = p[a * 3] - ox;
      const ay = p[a * 3 + 1] - oy;
      const az = p[a * 3 + 2] - oz;
      const ux = p[b * 3] - ox - ax;
      const uy = p[b * 3 + 1] - oy - ay;
      const uz = p[b * 3 + 2] - oz - az;
      const wx = p[c * 3] - ox - ax;
      const wy = p[c * 3 + 1] - oy - ay;
      const wz = p[c * 3 + 2] - oz - az;
      const nx = uy * wz - uz * wy;
      const ny = uz * wx - ux * wz;
      const nz = ux * wy - uy * wx;
      // a · ((b − a) × (c − a)) = a · (b × c): six times the signed tetrahedron.
      volume += ax * nx + ay * ny + az * nz;
      area += Math.sqrt(nx * nx + ny * ny + nz * nz);
    }
    if (start) {
      if (a === b || b === c || a === c) {
        degenerate++;
        continue;
      }
      start[a]++;
      start[b]++;
      start[c]++;
    }
  }
  const measured = geometry
    ? { signedVolume: volume / 6, area: area / 2, min: box.min, max: box.max }
    : null;
  const counts = { open: 0, nonManifold: 0, inconsistent: 0 };
  if (start) {
    let total = 0;
    for (let v = 0; v < vertexCount; v++) {
      total += start[v];
      start[v] = total;
    }
    start[vertexCount] = total;
    // Pairs (next, prev) per corner, grouped by vertex.
    const pairs = scratch(SCRATCH.incidence, total * 2);
    for (let t = 0; t < n; t += 3) {
      const a = ix[t];
      const b = ix[t + 1];
      const c = ix[t + 2];
      if (a === b || b === c || a === c) continue;
      let k: number = --start[a] * 2;
      pairs[k] = b;
      pairs[k + 1] = c;
      k = --start[b] * 2;
      pairs[k] = c;
      pairs[k + 1] = a;
      k = --start[c] * 2;
      pairs[k] = a;
      pairs[k + 1] = b;
    }
    const mark = scratch(SCRATCH.mark, vertexCount, true);
    for (let u = 0; u < vertexCount; u++) {
      const s0: number = start[u] * 2;
      const s1: number = start[u + 1] * 2;
      const tag = u + 1;
      let fine = true;
      for (let k = s0; k < s1; k += 2) {
        const w = pairs[k];
        if (mark[w] === tag) fine = false;
        mark[w] = tag;
      }
      for (let k = s0 + 1; k < s1; k += 2) {
        const w = pairs[k];
        if (mark[w] === tag) mark[w] = -tag;
        else fine = false;
      }
      if (!fine) classifyVertex(pairs, s0, s1, u, counts, visit);
    }
  }
  return {
    geometry: measured,
    edges: {
      openEdges: counts.open,
      nonManifoldEdges: counts.nonManifold + counts.inconsistent,
      inconsistentEdges: counts.inconsistent,
      degenerateTriangles: degenerate,
    },
  };
}

/** Counts the edges from u to higher-numbered neighbours that are not fine. */
function classifyVertex(
  pairs: Int32Array,
  s0: number,
  s1: number,
  u: number,
  counts: { open: number; nonManifold: number; inconsistent: number },
  visit: EdgeVisitor | null,
): void {
  for (let k = s0; k < s1; k++) {
    const w = pairs[k];
    if (w < u) continue;
    let seen = false;
    for (let j = s0; j < k; j++) {
      if (pairs[j] === w) {
        seen = true;
        break;
      }
    }
    if (seen) continue;
    let forward = 0;
    let backward = 0;
    for (let j = s0; j < s1; j += 2) {
      if (pairs[j] === w) forward++;
      if (pairs[j + 1] === w) backward++;
    }
    const totalUses = forward + backward;
    if (forward === 1 && backward === 1) continue;
    let kind: number;
    if (totalUses === 1) {
      kind = OPEN;
      counts.open++;
    } else if (totalUses === 2) {
      kind = INCONSISTENT;
      counts.inconsistent++;
    } else {
      kind = NON_MANIFOLD;
      counts.nonManifold++;
    }
    if (visit) visit(kind, u, w);
  }
}

/** Counts the edges that are not shared by exactly two triangles with opposite directions. */
export function edgeCounts(mesh: Mesh): EdgeCounts {
  return inspect(mesh, null, false, true).edges;
}

/**
 * Line segments for the preview to draw in red: 6 numbers (two x, y, z ends, in the file's
 * coordinates) per open, non-manifold or inconsistent edge.
 */
export function problemEdges(mesh: Mesh): Float32Array {
  const ends: number[] = [];
  inspect(mesh, (_kind, u, w) => ends.push(u, w), false, true);
  const p = mesh.positions;
  const out = new Float32Array(ends.length * 3);
  for (let i = 0; i < ends.length; i++) {
    out[i * 3] = p[ends[i] * 3];
    out[i * 3 + 1] = p[ends[i] * 3 + 1];
    out[i * 3 + 2] = p[ends[i] * 3 + 2];
  }
  return out;
}

/** Whether a part of this size (mm) fits the printer in some axis-aligned orientation. */
export function fitsBuildVolume(size: Vec3, printer: BuildVolume): boolean {
  const part = [size.x, size.y, size.z].sort((a, b) => a - b);
  const box = [printer.x, printer.y, printer.z].sort((a, b) => a - b);
  // A hair of tolerance for float rounding (0.26 µm on a 256 mm printer).
  return part.every((d, i) => d <= box[i] * (1 + 1e-6));
}

/** How many shells the mesh has, and how many face outwards (positive) or inwards (negative). */
export function shellSigns(mesh: Mesh): { shells: number; positive: number; negative: number } {
  const s = measureShells(mesh, undefined, 0);
  return { shells: s.count, positive: s.positive, negative: s.negative };
}

export function analyseMesh(model: ParsedModel, options: AnalyseOptions): ModelAnalysis {
  const unit = model.fileUnit ?? options.unit;
  const scale = options.scale;
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`The scale must be a positive number, not ${scale}.`);
  }
  const f = MM_PER_UNIT[unit] * scale;
  const mesh = model.mesh;
  const result = inspect(mesh, null, true, true);
  const geometry = result.geometry as MeshGeometry;
  const edges = result.edges;
  const shells = measureShells(mesh, geometry.signedVolume, MAX_LISTED_BODIES);
  const mixed = shells.positive > 0 && shells.negative > 0;
  const bboxMin = { x: geometry.min.x * f, y: geometry.min.y * f, z: geometry.min.z * f };
  const bboxMax = { x: geometry.max.x * f, y: geometry.max.y * f, z: geometry.max.z * f };
  const size = { x: bboxMax.x - bboxMin.x, y: bboxMax.y - bboxMin.y, z: bboxMax.z - bboxMin.z };
  return {
    format: model.format,
    unit,
    scale,
    triangles: Math.floor(mesh.indices.length / 3),
    vertices: Math.floor(mesh.positions.length / 3),
    bboxMin,
    bboxMax,
    size,
    volume: Math.abs(geometry.signedVolume) * f * f * f,
    area: geometry.area * f * f,
    watertight: edges.openEdges === 0 && edges.nonManifoldEdges === 0,
    openEdges: edges.openEdges,
    nonManifoldEdges: edges.nonManifoldEdges,
    inconsistentEdges: edges.inconsistentEdges,
    invertedNormals: geometry.signedVolume < 0,
    mixedShells: mixed,
    // Shells facing both ways (a cavity inside a part): the inward ones are not bodies of their
    // own, and staff price such a model, so the bodies are counted but not listed.
    bodyCount: mixed ? shells.positive : shells.count,
    bodies: (mixed ? [] : shells.list).map((b) => ({
      volume: Math.abs(b.signedVolume) * f * f * f,
      area: b.area * f * f,
      size: {
        x: (b.max.x - b.min.x) * f,
        y: (b.max.y - b.min.y) * f,
        z: (b.max.z - b.min.z) * f,
      },
      triangles: b.triangles,
    })),
    fitsPrinters: options.printers.filter((p) => fitsBuildVolume(size, p)).map((p) => p.name),
  };
}
