/**
 * Separate bodies (shells) of a mesh: the connected groups of triangles, found by union-find over
 * the welded vertices, with each one's signed volume, area, bounds and triangle count. A file
 * holding several bodies is priced per body (each is a part to print and handle), never by the
 * bounding box of all; a shell facing the other way from its neighbours (a cavity, or a part turned
 * inside out) shows in the signs.
 */
import type { Mesh, Vec3 } from "./types.ts";
import { SCRATCH, scratch } from "./weld.ts";

export interface Shell {
  /** Signed: negative when the shell's faces point inwards. In the mesh's own units. */
  signedVolume: number;
  area: number;
  min: Vec3;
  max: Vec3;
  triangles: number;
}

export interface Shells {
  count: number;
  positive: number;
  negative: number;
  /**
   * Each shell's measurements, largest volume first, when there are between 2 and `detailLimit`
   * of them; empty for a single shell (the whole mesh's figures are its own) or too many.
   */
  list: Shell[];
}

/** Roots of the union-find, each vertex pointing at the smallest vertex of its shell. */
export function shellRoots(mesh: Mesh): Int32Array {
  return roots(mesh, new Int32Array(Math.floor(mesh.positions.length / 3)));
}

/** shellRoots into `parent` (at least one number per vertex). */
function roots(mesh: Mesh, parent: Int32Array): Int32Array {
  const idx = mesh.indices;
  const n = Math.floor(mesh.positions.length / 3);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (a: number) => {
    // Path halving: every other node on the way up points to its grandparent.
    let r = a;
    while (parent[r] !== r) {
      parent[r] = parent[parent[r]];
      r = parent[r];
    }
    return r;
  };
  const triangles = Math.floor(idx.length / 3);
  for (let t = 0; t < triangles; t++) {
    const a = find(idx[t * 3]);
    const b = find(idx[t * 3 + 1]);
    const c = find(idx[t * 3 + 2]);
    // Link to the smallest root: vertices are numbered in first-use order, so roots stay early.
    const m = a < b ? (a < c ? a : c) : b < c ? b : c;
    parent[a] = m;
    parent[b] = m;
    parent[c] = m;
  }
  // Flatten once, in order: parents always have smaller numbers, so one pass finishes each root.
  for (let i = 0; i < n; i++) parent[i] = parent[parent[i]];
  return parent;
}

/**
 * The mesh's shells. `wholeSignedVolume` (from the analysis' own pass) gives a single shell's
 * sign without another pass over the triangles, which keeps the common one-body file fast.
 */
export function measureShells(mesh: Mesh, wholeSignedVolume?: number, detailLimit = 100): Shells {
  const p = mesh.positions;
  const idx = mesh.indices;
  const n = Math.floor(p.length / 3);
  // Scratch memory (fresh memory costs a page fault per 4 KB): used only within this call.
  const root = roots(mesh, scratch(SCRATCH.shellParent, n));
  // Dense shell numbers for the roots (a vertex is a root when it is its own parent).
  const shellOf = scratch(SCRATCH.shellOf, n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (root[i] === i) shellOf[i] = count++;
  }
  if (count <= 1 && wholeSignedVolume !== undefined) {
    const positive = wholeSignedVolume > 0 ? count : 0;
    const negative = wholeSignedVolume < 0 ? count : 0;
    return { count, positive, negative, list: [] };
  }
  const triangles = Math.floor(idx.length / 3);
  // Relative to the first vertex: any fixed point gives a closed shell's volume.
  const ox = p[0] ?? 0;
  const oy = p[1] ?? 0;
  const oz = p[2] ?? 0;
  const volume = new Float64Array(count);
  const area = new Float64Array(count);
  const tris = new Int32Array(count);
  for (let t = 0; t < triangles; t++) {
    const a = idx[t * 3] * 3;
    const b = idx[t * 3 + 1] * 3;
    const c = idx[t * 3 + 2] * 3;
    const ax = p[a] - ox;
    const ay = p[a + 1] - oy;
    const az = p[a + 2] - oz;
    const bx = p[b] - ox;
    const by = p[b + 1] - oy;
    const bz = p[b + 2] - oz;
    const cx = p[c] - ox;
    const cy = p[c + 1] - oy;
    const cz = p[c + 2] - oz;
    const s = shellOf[root[idx[t * 3]]];
    volume[s] += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    const ux = bx - ax;
    const uy = by - ay;
    const uz = bz - az;
    const wx = cx - ax;
    const wy = cy - ay;
    const wz = cz - az;
    const nx = uy * wz - uz * wy;
    const ny = uz * wx - ux * wz;
    const nz = ux * wy - uy * wx;
    area[s] += Math.sqrt(nx * nx + ny * ny + nz * nz);
    tris[s]++;
  }
  let positive = 0;
  let negative = 0;
  for (let s = 0; s < count; s++) {
    if (volume[s] > 0) positive++;
    else if (volume[s] < 0) negative++;
  }
  if (count < 2 || count > detailLimit) return { count, positive, negative, list: [] };
  const min = new Float64Array(count * 3).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(count * 3).fill(Number.NEGATIVE_INFINITY);
  for (let v = 0; v < n; v++) {
    const s = shellOf[root[v]] * 3;
    for (let k = 0; k < 3; k++) {
      const x = p[v * 3 + k];
      if (x < min[s + k]) min[s + k] = x;
      if (x > max[s + k]) max[s + k] = x;
    }
  }
  const list: Shell[] = [];
  for (let s = 0; s < count; s++) {
    list.push({
      signedVolume: volume[s] / 6,
      area: area[s] / 2,
      min: { x: min[s * 3], y: min[s * 3 + 1], z: min[s * 3 + 2] },
      max: { x: max[s * 3], y: max[s * 3 + 1], z: max[s * 3 + 2] },
      triangles: tris[s],
    });
  }
  list.sort((a, b) => Math.abs(b.signedVolume) - Math.abs(a.signedVolume));
  return { count, positive, negative, list };
}
