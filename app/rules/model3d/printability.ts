/**
 * Printability checks on a welded mesh, in the file's own coordinates (pure; the browser's worker
 * and the server run the same code):
 *
 * - Orientation: the part is laid on its largest flat face. Candidates are the six axis
 *   directions and the most common face directions; for each, the faces lying in the part's
 *   outermost plane that way are summed, and the largest sum goes down.
 * - Overhangs: in that orientation a face pointing down more steeply than 45° from the vertical
 *   needs support, unless it rests on the bed. Support volume ≈ Σ area × |cos| × height above the
 *   bed (a column under each face, down to the bed).
 * - Wall thickness: from a sample of faces (every face up to 40,000, evenly spread beyond), a ray
 *   goes straight inwards to the first face it meets; that distance is the wall's thickness there.
 *   Rays use a uniform grid of the faces, are cast in the file's order (cache-friendly) and are
 *   counted against the work limit in a fixed scrambled order. Thicknesses are kept as clusters
 *   (thickness, area) so the price can compare them with any material's minimum at any unit and
 *   scale.
 */
import type { Mesh, Vec3 } from "./types.ts";
import { SCRATCH, scratch, scratchFloat32, scratchFloat64 } from "./weld.ts";

/** Faces steeper than this from the vertical, facing down, need support. */
export const OVERHANG_DEGREES = 45;
const OVERHANG_SIN = Math.sin((OVERHANG_DEGREES * Math.PI) / 180);
/** Faces whose thickness is measured, at most (evenly spread over the file). */
export const WALL_SAMPLES = 40_000;
/** Grid cells visited and faces tested for all the rays together, at most (about 0.5 s). */
const WALL_WORK = 30_000_000;
/** Wall clusters kept, thinnest first. */
const MAX_CLUSTERS = 24;

export interface Printability {
  /** Outward normal of the face laid on the bed, in file coordinates. */
  down: Vec3;
  /** Area of the bed face, file units². */
  bedArea: number;
  /** Faces that need support: their area (file units²) and the support under them (units³). */
  overhangArea: number;
  supportVolume: number;
  /** Wall thickness clusters, thinnest first: [thickness (file units), area (file units²)]. */
  walls: Array<[number, number]>;
  /** The surface area the walls' areas are a share of (file units²). */
  wallArea: number;
}

export interface PrintabilityDetail extends Printability {
  /** Per face: 1 when it needs support. */
  overhang: Uint8Array;
  /** Per face: measured thickness (file units), NaN where not sampled, Infinity with no hit. */
  thickness: Float32Array;
}

/**
 * Normals (unit) and areas of every face, in scratch memory (reused between calls: fresh memory
 * costs a page fault per 4 KB, a large share of the time on big models). Valid until the next call.
 */
function faceNormals(mesh: Mesh): { normals: Float32Array; areas: Float64Array } {
  const p = mesh.positions;
  const ix = mesh.indices;
  const n = Math.floor(ix.length / 3);
  const normals = scratchFloat32(SCRATCH.normals, n * 3);
  const areas = scratchFloat64(SCRATCH.areas, n);
  for (let t = 0; t < n; t++) {
    const a = ix[t * 3] * 3;
    const b = ix[t * 3 + 1] * 3;
    const c = ix[t * 3 + 2] * 3;
    const ux = p[b] - p[a];
    const uy = p[b + 1] - p[a + 1];
    const uz = p[b + 2] - p[a + 2];
    const wx = p[c] - p[a];
    const wy = p[c + 1] - p[a + 1];
    const wz = p[c + 2] - p[a + 2];
    const nx = uy * wz - uz * wy;
    const ny = uz * wx - ux * wz;
    const nz = ux * wy - uy * wx;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    areas[t] = length / 2;
    if (length > 0) {
      normals[t * 3] = nx / length;
      normals[t * 3 + 1] = ny / length;
      normals[t * 3 + 2] = nz / length;
    } else {
      normals[t * 3] = 0;
      normals[t * 3 + 1] = 0;
      normals[t * 3 + 2] = 0;
    }
  }
  return { normals, areas };
}

interface Extent {
  min: Vec3;
  max: Vec3;
  diagonal: number;
  /** No vertices. */
  empty: boolean;
}

function extent(p: Float32Array): Extent {
  let minX = Number.POSITIVE_INFINITY;
  let minY = minX;
  let minZ = minX;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = maxX;
  let maxZ = maxX;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i];
    const y = p[i + 1];
    const z = p[i + 2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (!(maxX >= minX)) {
    return { min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 }, diagonal: 0, empty: true };
  }
  return {
    min: { x: minX, y: minY, z: minZ },
    max: { x: maxX, y: maxY, z: maxZ },
    diagonal: Math.hypot(maxX - minX, maxY - minY, maxZ - minZ),
    empty: false,
  };
}

/** Steps per axis of the face-direction histogram: −Q … Q. */
const Q = 8;
const SIDE = 2 * Q + 1;

/** The histogram bucket of a unit direction (or of a zero one: the middle bucket). */
function bucketOf(x: number, y: number, z: number): number {
  return (
    (Math.round(x * Q) + Q) * SIDE * SIDE + (Math.round(y * Q) + Q) * SIDE + Math.round(z * Q) + Q
  );
}

/**
 * The outward normal of the largest flat face on the part's outside, that face's area, and the
 * part's outermost extent that way.
 */
function largestFlatFace(
  mesh: Mesh,
  normals: Float32Array,
  areas: Float64Array,
  box: Extent,
): { down: Vec3; area: number; far: number } {
  const p = mesh.positions;
  const ix = mesh.indices;
  const n = areas.length;
  // Coarse histogram of face directions (17 steps per axis): the most common ones are candidates.
  const bucketArea = new Float64Array(SIDE * SIDE * SIDE);
  const bucketSum = new Float64Array(SIDE * SIDE * SIDE * 3);
  // Each face's bucket, kept for the search below (scratch memory).
  const buckets = scratch(SCRATCH.buckets, n);
  for (let t = 0; t < n; t++) {
    const nx = normals[t * 3];
    const ny = normals[t * 3 + 1];
    const nz = normals[t * 3 + 2];
    const k = bucketOf(nx, ny, nz);
    buckets[t] = k;
    const a = areas[t];
    bucketArea[k] += a;
    bucketSum[k * 3] += nx * a;
    bucketSum[k * 3 + 1] += ny * a;
    bucketSum[k * 3 + 2] += nz * a;
  }
  // The six axis directions first (−z, +z, −x, +x, −y, +y), then the histogram's largest buckets.
  const candidates: number[] = [0, 0, -1, 0, 0, 1, -1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 0];
  const order = [...bucketArea.keys()]
    .filter((k) => bucketArea[k] > 0)
    .sort((a, b) => bucketArea[b] - bucketArea[a])
    .slice(0, 8);
  for (const k of order) {
    const x = bucketSum[k * 3];
    const y = bucketSum[k * 3 + 1];
    const z = bucketSum[k * 3 + 2];
    const length = Math.hypot(x, y, z);
    if (!(length > 0)) continue;
    const cx = x / length;
    const cy = y / length;
    const cz = z / length;
    // A direction already listed (an axis, most often) would find the same face with the same
    // area, and a later equal one is never chosen over it: it is left out.
    let listed = false;
    for (let c = 0; c < candidates.length; c += 3) {
      if (candidates[c] === cx && candidates[c + 1] === cy && candidates[c + 2] === cz) {
        listed = true;
        break;
      }
    }
    if (!listed) candidates.push(cx, cy, cz);
  }
  const count = candidates.length / 3;
  // The part's outermost extent in each candidate direction: the bounds give the axis ones.
  const far = new Float64Array(count).fill(Number.NEGATIVE_INFINITY);
  if (!box.empty) {
    far[0] = -box.min.z;
    far[1] = box.max.z;
    far[2] = -box.min.x;
    far[3] = box.max.x;
    far[4] = -box.min.y;
    far[5] = box.max.y;
  }
  if (count > 6) {
    for (let v = 0; v < p.length; v += 3) {
      const x = p[v];
      const y = p[v + 1];
      const z = p[v + 2];
      for (let c = 6; c < count; c++) {
        const d = x * candidates[c * 3] + y * candidates[c * 3 + 1] + z * candidates[c * 3 + 2];
        if (d > far[c]) far[c] = d;
      }
    }
  }
  // A face within 0.26° of a candidate (cos ≥ 0.99999) lies within one histogram step of the
  // candidate's bucket on every axis: each bucket lists the candidates near it (a bit each), so
  // most faces are passed over after one lookup.
  const near = new Uint16Array(SIDE * SIDE * SIDE);
  for (let c = 0; c < count; c++) {
    const bx = Math.round(candidates[c * 3] * Q) + Q;
    const by = Math.round(candidates[c * 3 + 1] * Q) + Q;
    const bz = Math.round(candidates[c * 3 + 2] * Q) + Q;
    for (let x = Math.max(0, bx - 1); x <= Math.min(SIDE - 1, bx + 1); x++) {
      for (let y = Math.max(0, by - 1); y <= Math.min(SIDE - 1, by + 1); y++) {
        for (let z = Math.max(0, bz - 1); z <= Math.min(SIDE - 1, bz + 1); z++) {
          near[(x * SIDE + y) * SIDE + z] |= 1 << c;
        }
      }
    }
  }
  const flat = new Float64Array(count);
  const tolerance = box.diagonal * 1e-5;
  for (let t = 0; t < n; t++) {
    const nx = normals[t * 3];
    const ny = normals[t * 3 + 1];
    const nz = normals[t * 3 + 2];
    let mask = near[buckets[t]];
    while (mask !== 0) {
      const c = 31 - Math.clz32(mask & -mask);
      mask &= mask - 1;
      const cx = candidates[c * 3];
      const cy = candidates[c * 3 + 1];
      const cz = candidates[c * 3 + 2];
      if (nx * cx + ny * cy + nz * cz < 0.99999) continue;
      const a = ix[t * 3] * 3;
      if (Math.abs(p[a] * cx + p[a + 1] * cy + p[a + 2] * cz - far[c]) <= tolerance) {
        flat[c] += areas[t];
      }
    }
  }
  // As drawn (−z first) unless another face is clearly larger.
  let best = 0;
  for (let c = 1; c < count; c++) if (flat[c] > flat[best] * 1.001) best = c;
  return {
    down: { x: candidates[best * 3], y: candidates[best * 3 + 1], z: candidates[best * 3 + 2] },
    area: flat[best],
    far: far[best],
  };
}

/** Cells per side of a block: the grid keeps one "anything here?" byte per block. */
const BLOCK_SHIFT = 2;

/**
 * A uniform grid of the faces (by their bounding boxes), for rays: the faces of cell k are
 * faces[start[k] … start[k + 1]), in face order. `blocks` marks the blocks of 4 × 4 × 4 cells that
 * hold any face, so a ray crosses empty space (most of a solid's inside) without reading `start`.
 * `start` and `faces` are scratch memory.
 */
interface Grid {
  min: Vec3;
  cell: number;
  nx: number;
  ny: number;
  nz: number;
  start: Int32Array;
  faces: Int32Array;
  blocks: Uint8Array;
  bnx: number;
  bny: number;
}

function buildGrid(mesh: Mesh, box: Extent): Grid {
  const p = mesh.positions;
  const ix = mesh.indices;
  const n = Math.floor(ix.length / 3);
  const pad = box.diagonal * 1e-6 + 1e-9;
  const min = { x: box.min.x - pad, y: box.min.y - pad, z: box.min.z - pad };
  const sx = box.max.x - box.min.x + 2 * pad;
  const sy = box.max.y - box.min.y + 2 * pad;
  const sz = box.max.z - box.min.z + 2 * pad;
  // Cells about twice a typical face's size (a face then touches few cells, and a cell holds
  // few faces even where the model is finely detailed), at most 4 million cells and 1,024 along
  // any side.
  const sizes: number[] = [];
  const every = Math.max(1, Math.floor(n / 10_000));
  for (let t = 0; t < n; t += every) {
    const a = ix[t * 3] * 3;
    const b = ix[t * 3 + 1] * 3;
    const c = ix[t * 3 + 2] * 3;
    sizes.push(
      Math.max(
        Math.max(p[a], p[b], p[c]) - Math.min(p[a], p[b], p[c]),
        Math.max(p[a + 1], p[b + 1], p[c + 1]) - Math.min(p[a + 1], p[b + 1], p[c + 1]),
        Math.max(p[a + 2], p[b + 2], p[c + 2]) - Math.min(p[a + 2], p[b + 2], p[c + 2]),
      ),
    );
  }
  sizes.sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? box.diagonal;
  let cell = Math.max(
    2 * typical,
    Math.cbrt((sx * sy * sz) / 4_000_000),
    Math.max(sx, sy, sz) / 1024,
    box.diagonal * 1e-5,
  );
  // Faces are filed in every cell their box touches: large faces on a fine grid could make that
  // list huge, so the cells grow until it stays within bounds.
  const maxEntries = Math.max(16_000_000, n * 8);
  let nx = 1;
  let ny = 1;
  let nz = 1;
  let inv = 1;
  let total = 0;
  let start: Int32Array;
  // Each face's cell range, from the first pass to the second (scratch memory).
  const ranges = scratch(SCRATCH.gridRanges, n * 3);
  // Counting sort, first pass: start[k] counts cell k's faces (and the cells grow while there are
  // too many entries).
  for (;;) {
    nx = Math.max(1, Math.ceil(sx / cell));
    ny = Math.max(1, Math.ceil(sy / cell));
    nz = Math.max(1, Math.ceil(sz / cell));
    inv = 1 / cell;
    start = scratch(SCRATCH.gridStart, nx * ny * nz + 1, true);
    total = 0;
    for (let t = 0; t < n && total <= maxEntries; t++) {
      const a = ix[t * 3] * 3;
      const b = ix[t * 3 + 1] * 3;
      const c = ix[t * 3 + 2] * 3;
      const x0 = cellIndex(Math.min(p[a], p[b], p[c]), min.x, inv, nx);
      const x1 = cellIndex(Math.max(p[a], p[b], p[c]), min.x, inv, nx);
      const y0 = cellIndex(Math.min(p[a + 1], p[b + 1], p[c + 1]), min.y, inv, ny);
      const y1 = cellIndex(Math.max(p[a + 1], p[b + 1], p[c + 1]), min.y, inv, ny);
      const z0 = cellIndex(Math.min(p[a + 2], p[b + 2], p[c + 2]), min.z, inv, nz);
      const z1 = cellIndex(Math.max(p[a + 2], p[b + 2], p[c + 2]), min.z, inv, nz);
      total += (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1);
      if (total > maxEntries) break;
      // Kept for the second pass (at most 1,025 cells a side: 16 bits each).
      ranges[t * 3] = x0 | (x1 << 16);
      ranges[t * 3 + 1] = y0 | (y1 << 16);
      ranges[t * 3 + 2] = z0 | (z1 << 16);
      for (let z = z0; z <= z1; z++) {
        for (let y = y0; y <= y1; y++) {
          const row = (z * ny + y) * nx;
          for (let x = x0; x <= x1; x++) start[row + x]++;
        }
      }
    }
    if (total <= maxEntries || nx * ny * nz === 1) break;
    cell *= 1.5;
  }
  const cells = nx * ny * nz;
  // Second pass: start[k] becomes the end of cell k's list, and filling the lists from the last
  // face down leaves it at the list's beginning (faces in order within a cell).
  for (let k = 1; k < cells; k++) start[k] += start[k - 1];
  const faces = scratch(SCRATCH.gridFaces, total);
  const bnx = ((nx - 1) >> BLOCK_SHIFT) + 1;
  const bny = ((ny - 1) >> BLOCK_SHIFT) + 1;
  const bnz = ((nz - 1) >> BLOCK_SHIFT) + 1;
  const blocks = new Uint8Array(bnx * bny * bnz);
  for (let t = n - 1; t >= 0; t--) {
    const rx = ranges[t * 3];
    const ry = ranges[t * 3 + 1];
    const rz = ranges[t * 3 + 2];
    const x0 = rx & 0xffff;
    const x1 = rx >>> 16;
    const y0 = ry & 0xffff;
    const y1 = ry >>> 16;
    const z0 = rz & 0xffff;
    const z1 = rz >>> 16;
    for (let z = z0; z <= z1; z++) {
      for (let y = y0; y <= y1; y++) {
        const row = (z * ny + y) * nx;
        for (let x = x0; x <= x1; x++) faces[--start[row + x]] = t;
      }
    }
    // The blocks holding any of the face's cells.
    for (let z = z0 >> BLOCK_SHIFT; z <= z1 >> BLOCK_SHIFT; z++) {
      for (let y = y0 >> BLOCK_SHIFT; y <= y1 >> BLOCK_SHIFT; y++) {
        const row = (z * bny + y) * bnx;
        for (let x = x0 >> BLOCK_SHIFT; x <= x1 >> BLOCK_SHIFT; x++) blocks[row + x] = 1;
      }
    }
  }
  start[cells] = total;
  return { min, cell, nx, ny, nz, start, faces, blocks, bnx, bny };
}

/** The cell along one axis holding coordinate v (clamped to the grid). */
function cellIndex(v: number, min: number, inv: number, cells: number): number {
  return Math.min(cells - 1, Math.max(0, Math.floor((v - min) * inv)));
}

/**
 * Distance from (ox, oy, oz) along the unit direction (dx, dy, dz) to the first face other than
 * `self`, up to `limit`; Infinity when there is none. Amanatides–Woo walk through the grid,
 * Möller–Trumbore test per face.
 */
function firstHit(
  mesh: Mesh,
  grid: Grid,
  self: number,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  limit: number,
  work: { left: number },
): number {
  const p = mesh.positions;
  const ix = mesh.indices;
  const { nx, ny, nz, cell, start, faces, blocks, bnx, bny } = grid;
  const mx = grid.min.x;
  const my = grid.min.y;
  const mz = grid.min.z;
  let cx = Math.min(nx - 1, Math.max(0, Math.floor((ox - mx) / cell)));
  let cy = Math.min(ny - 1, Math.max(0, Math.floor((oy - my) / cell)));
  let cz = Math.min(nz - 1, Math.max(0, Math.floor((oz - mz) / cell)));
  const stepX = dx > 0 ? 1 : -1;
  const stepY = dy > 0 ? 1 : -1;
  const stepZ = dz > 0 ? 1 : -1;
  let tX = dx === 0 ? Number.POSITIVE_INFINITY : (mx + (dx > 0 ? cx + 1 : cx) * cell - ox) / dx;
  let tY = dy === 0 ? Number.POSITIVE_INFINITY : (my + (dy > 0 ? cy + 1 : cy) * cell - oy) / dy;
  let tZ = dz === 0 ? Number.POSITIVE_INFINITY : (mz + (dz > 0 ? cz + 1 : cz) * cell - oz) / dz;
  const dtX = dx === 0 ? Number.POSITIVE_INFINITY : cell / Math.abs(dx);
  const dtY = dy === 0 ? Number.POSITIVE_INFINITY : cell / Math.abs(dy);
  const dtZ = dz === 0 ? Number.POSITIVE_INFINITY : cell / Math.abs(dz);
  let best = Number.POSITIVE_INFINITY;
  let left = work.left;
  for (;;) {
    const bx = cx >> BLOCK_SHIFT;
    const by = cy >> BLOCK_SHIFT;
    const bz = cz >> BLOCK_SHIFT;
    if (blocks[(bz * bny + by) * bnx + bx] === 0) {
      // An empty block: its cells are walked without looking anything up, as the loop below would
      // (a unit of work each), until the ray leaves the block, the grid or its length.
      let out = false;
      for (;;) {
        left -= 1;
        const next = Math.min(tX, tY, tZ);
        if (best <= next || next > limit) {
          out = true;
          break;
        }
        if (tX === next) {
          cx += stepX;
          if (cx < 0 || cx >= nx) {
            out = true;
            break;
          }
          tX += dtX;
          if (cx >> BLOCK_SHIFT !== bx) break;
        } else if (tY === next) {
          cy += stepY;
          if (cy < 0 || cy >= ny) {
            out = true;
            break;
          }
          tY += dtY;
          if (cy >> BLOCK_SHIFT !== by) break;
        } else {
          cz += stepZ;
          if (cz < 0 || cz >= nz) {
            out = true;
            break;
          }
          tZ += dtZ;
          if (cz >> BLOCK_SHIFT !== bz) break;
        }
      }
      if (out) break;
      continue;
    }
    const k = (cz * ny + cy) * nx + cx;
    const s1 = start[k + 1];
    left -= s1 - start[k] + 1;
    for (let i = start[k]; i < s1; i++) {
      const t = faces[i];
      if (t === self) continue;
      const a = ix[t * 3] * 3;
      const b = ix[t * 3 + 1] * 3;
      const c = ix[t * 3 + 2] * 3;
      const e1x = p[b] - p[a];
      const e1y = p[b + 1] - p[a + 1];
      const e1z = p[b + 2] - p[a + 2];
      const e2x = p[c] - p[a];
      const e2y = p[c + 1] - p[a + 1];
      const e2z = p[c + 2] - p[a + 2];
      const hx = dy * e2z - dz * e2y;
      const hy = dz * e2x - dx * e2z;
      const hz = dx * e2y - dy * e2x;
      const det = e1x * hx + e1y * hy + e1z * hz;
      if (det > -1e-20 && det < 1e-20) continue;
      const f = 1 / det;
      const sx = ox - p[a];
      const sy = oy - p[a + 1];
      const sz = oz - p[a + 2];
      const u = f * (sx * hx + sy * hy + sz * hz);
      if (u < -1e-9 || u > 1 + 1e-9) continue;
      const qx = sy * e1z - sz * e1y;
      const qy = sz * e1x - sx * e1z;
      const qz = sx * e1y - sy * e1x;
      const v = f * (dx * qx + dy * qy + dz * qz);
      if (v < -1e-9 || u + v > 1 + 1e-9) continue;
      const d = f * (e2x * qx + e2y * qy + e2z * qz);
      if (d > 0 && d < best) best = d;
    }
    const next = Math.min(tX, tY, tZ);
    // A hit before the next cell boundary can't be beaten further on.
    if (best <= next || next > limit) break;
    if (tX === next) {
      cx += stepX;
      if (cx < 0 || cx >= nx) break;
      tX += dtX;
    } else if (tY === next) {
      cy += stepY;
      if (cy < 0 || cy >= ny) break;
      tY += dtY;
    } else {
      cz += stepZ;
      if (cz < 0 || cz >= nz) break;
      tZ += dtZ;
    }
  }
  work.left = left;
  return best <= limit ? best : Number.POSITIVE_INFINITY;
}

/**
 * Thickness samples grouped: consecutive thicknesses within 10 % of a cluster's first join it.
 * `faces` and `thickness` list the `count` measured faces.
 */
function clusters(
  faces: Int32Array,
  thickness: Float32Array,
  count: number,
  areas: Float64Array,
  weight: number,
): Array<[number, number]> {
  const sampled: number[] = [];
  for (let i = 0; i < count; i++) {
    if (Number.isFinite(thickness[i]) && areas[faces[i]] > 0) sampled.push(i);
  }
  // Thinnest first; equal thicknesses in face order.
  sampled.sort((a, b) => thickness[a] - thickness[b] || faces[a] - faces[b]);
  const out: Array<[number, number]> = [];
  let first = 0;
  let area = 0;
  let weighted = 0;
  const flush = () => {
    if (area > 0) out.push([weighted / area, area * weight]);
  };
  for (const i of sampled) {
    const d = thickness[i];
    const faceArea = areas[faces[i]];
    if (area > 0 && d > first * 1.1) {
      flush();
      if (out.length >= MAX_CLUSTERS) return out;
      area = 0;
      weighted = 0;
    }
    if (area === 0) first = d;
    area += faceArea;
    weighted += faceArea * d;
  }
  if (out.length < MAX_CLUSTERS) flush();
  return out;
}

export interface PrintabilityOptions {
  /** Lay the part on this side (outward normal, file coordinates) instead of choosing one. */
  down?: Vec3;
}

/** The checks with per-face results (for the preview's colours). */
export function checkPrintabilityDetail(
  mesh: Mesh,
  options: PrintabilityOptions = {},
): PrintabilityDetail {
  return check(mesh, options, true) as PrintabilityDetail;
}

/** The checks' summary, as a quote keeps it (no per-face arrays are made). */
export function checkPrintability(mesh: Mesh, options: PrintabilityOptions = {}): Printability {
  return check(mesh, options, false);
}

function check(
  mesh: Mesh,
  options: PrintabilityOptions,
  detail: boolean,
): Printability | PrintabilityDetail {
  const p = mesh.positions;
  const ix = mesh.indices;
  const n = Math.floor(ix.length / 3);
  const { normals, areas } = faceNormals(mesh);
  const box = extent(p);
  let down: Vec3;
  let bedArea: number;
  // Height above the bed is −down · v, the bed at −max(down · v).
  let far = Number.NEGATIVE_INFINITY;
  if (options.down) {
    down = options.down;
    bedArea = Number.NaN;
    for (let v = 0; v < p.length; v += 3) {
      const d = p[v] * down.x + p[v + 1] * down.y + p[v + 2] * down.z;
      if (d > far) far = d;
    }
  } else {
    const chosen = largestFlatFace(mesh, normals, areas, box);
    down = chosen.down;
    bedArea = chosen.area;
    far = chosen.far;
  }

  const onBed = box.diagonal * 1e-4;
  const overhang = detail ? new Uint8Array(n) : null;
  let overhangArea = 0;
  let supportVolume = 0;
  let totalArea = 0;
  for (let t = 0; t < n; t++) {
    totalArea += areas[t];
    // How much the face points down, in the chosen orientation.
    const facing =
      normals[t * 3] * down.x + normals[t * 3 + 1] * down.y + normals[t * 3 + 2] * down.z;
    if (facing <= OVERHANG_SIN) continue;
    const a = ix[t * 3] * 3;
    const b = ix[t * 3 + 1] * 3;
    const c = ix[t * 3 + 2] * 3;
    const da = far - (p[a] * down.x + p[a + 1] * down.y + p[a + 2] * down.z);
    const db = far - (p[b] * down.x + p[b + 1] * down.y + p[b + 2] * down.z);
    const dc = far - (p[c] * down.x + p[c + 1] * down.y + p[c + 2] * down.z);
    const height = (da + db + dc) / 3;
    if (height <= onBed) continue;
    if (overhang) overhang[t] = 1;
    overhangArea += areas[t];
    supportVolume += areas[t] * facing * height;
  }

  const thickness = detail ? new Float32Array(n).fill(Number.NaN) : null;
  let walls: Array<[number, number]> = [];
  if (n > 0 && box.diagonal > 0) {
    const grid = buildGrid(mesh, box);
    const stride = Math.max(1, Math.ceil(n / WALL_SAMPLES));
    const slots = Math.ceil(n / stride);
    const measuredFaces = new Int32Array(slots);
    const measured = new Float32Array(slots);
    let count = 0;
    // The sampled faces are taken in a fixed scrambled order, so that a measurement cut short by
    // the work limit (faces crowded into few cells, e.g. by a stray point far from the part) is
    // still spread over the whole part.
    const step = slots % 104_729 === 0 ? 1 : 104_729;
    const lift = box.diagonal * 1e-7;
    const work = { left: 0 };
    /** Each slot's distance and the work its ray took (-1: not cast yet). */
    const distance = new Float64Array(slots);
    const cost = new Int32Array(slots).fill(-1);
    const cast = (slot: number) => {
      const t = slot * stride;
      const a = ix[t * 3] * 3;
      const b = ix[t * 3 + 1] * 3;
      const c = ix[t * 3 + 2] * 3;
      const dx = -normals[t * 3];
      const dy = -normals[t * 3 + 1];
      const dz = -normals[t * 3 + 2];
      const ox = (p[a] + p[b] + p[c]) / 3 + dx * lift;
      const oy = (p[a + 1] + p[b + 1] + p[c + 1]) / 3 + dy * lift;
      const oz = (p[a + 2] + p[b + 2] + p[c + 2]) / 3 + dz * lift;
      work.left = 0;
      distance[slot] = firstHit(mesh, grid, t, ox, oy, oz, dx, dy, dz, box.diagonal, work) + lift;
      cost[slot] = -work.left;
    };
    // A ray's distance and work don't depend on the order rays are cast in, so they are cast in
    // the file's order first (neighbouring faces' rays cross the same cells and faces while these
    // are in the CPU's cache: 40 % less time than the scrambled order), as long as all of them
    // together stay within the work limit.
    let spent = 0;
    for (let slot = 0; slot < slots && spent <= WALL_WORK; slot++) {
      if (!(areas[slot * stride] > 0)) continue;
      cast(slot);
      spent += cost[slot];
    }
    // Then they are taken in the scrambled order, the limit counted as if cast in that order (a
    // ray not cast yet is cast now: only when the limit cuts the measurement short).
    let left = WALL_WORK;
    let measuredArea = 0;
    for (let k = 0; k < slots && left >= 0; k++) {
      const slot = (k * step) % slots;
      const t = slot * stride;
      if (!(areas[t] > 0)) continue;
      if (cost[slot] < 0) cast(slot);
      left -= cost[slot];
      // A ray cut short may have missed its nearest face.
      if (left < 0) break;
      const d = distance[slot];
      if (thickness) thickness[t] = d;
      measuredFaces[count] = t;
      measured[count++] = d;
      measuredArea += areas[t];
    }
    // Each measured face stands for its share of the whole surface.
    walls = clusters(
      measuredFaces,
      measured,
      count,
      areas,
      measuredArea > 0 ? totalArea / measuredArea : 0,
    );
  }
  const summary: Printability = {
    down,
    bedArea,
    overhangArea,
    supportVolume,
    walls,
    wallArea: totalArea,
  };
  if (overhang && thickness) return { ...summary, overhang, thickness };
  return summary;
}
