/**
 * Vertex welding shared by the parsers: corners with bit-identical float coordinates become one
 * vertex, so that triangles can be matched along their edges. Typed arrays only (no Map, no
 * per-vertex objects), laid out to avoid random memory accesses, which dominate the cost on large
 * models. -0 is read as +0; a NaN or infinite coordinate makes the file invalid.
 */
import { invalidFile, reasons, tooManyTriangles } from "./messages.ts";
import type { Mesh, ModelFormat } from "./types.ts";

const f32 = new Float32Array(1);
const i32 = new Int32Array(f32.buffer);

/** The bits of `value` rounded to a 32-bit float, as a signed 32-bit integer. */
export function floatBits(value: number): number {
  f32[0] = value;
  return i32[0];
}

/*
 * Scratch memory kept between calls: fresh memory costs a page fault per 4 KB on first touch,
 * which is a large share of the time on big models. Each slot holds one array at a time (the
 * largest asked for, up to 256 MB); callers must not keep or return a scratch array.
 */
const pool: Array<Int32Array | undefined> = [];
const POOL_MAX_INTS = 64 << 20;
export const SCRATCH = {
  bits: 0,
  hashes: 1,
  final: 2,
  start: 3,
  incidence: 4,
  mark: 5,
  selected: 6,
  records: 7,
  shellParent: 8,
  shellOf: 9,
  normals: 10,
  areas: 11,
  gridStart: 12,
  gridFaces: 13,
  bloom: 14,
  gridRanges: 15,
  buckets: 16,
} as const;

/** A scratch array of at least `length` ints (contents undefined; `zero` clears them). */
export function scratch(slot: number, length: number, zero = false): Int32Array {
  const kept = pool[slot];
  if (kept && kept.length >= length) {
    if (zero) kept.fill(0, 0, length);
    return kept;
  }
  const fresh = new Int32Array(Math.max(length, 1024));
  if (length <= POOL_MAX_INTS) pool[slot] = fresh;
  return fresh;
}

/** A scratch array of at least `length` 32-bit floats (contents undefined). */
export function scratchFloat32(slot: number, length: number): Float32Array {
  const ints = scratch(slot, length);
  return new Float32Array(ints.buffer, ints.byteOffset, length);
}

/** A scratch array of at least `length` 64-bit floats (contents undefined). */
export function scratchFloat64(slot: number, length: number): Float64Array {
  const ints = scratch(slot, length * 2);
  return new Float64Array(ints.buffer, ints.byteOffset, length);
}

/** A scratch array at least twice as long as `old`, holding its contents. */
function growScratch(slot: number, old: Int32Array, length: number): Int32Array {
  const grown = new Int32Array(Math.max(length, old.length * 2));
  grown.set(old);
  if (grown.length <= POOL_MAX_INTS) pool[slot] = grown;
  return grown;
}

/** Lets the scratch memory go (for example after a very large model in a long-lived worker). */
export function releaseScratch(): void {
  pool.length = 0;
}

/** Bytes of scratch memory kept for the next model. */
export function scratchBytes(): number {
  let bytes = 0;
  for (const kept of pool) bytes += kept?.byteLength ?? 0;
  return bytes;
}

/** Hash of a vertex's three coordinate bit patterns (all 32 bits mixed; use the high bits). */
export function hash3(x: number, y: number, z: number): number {
  const h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
}

/** Entries in the recent-vertex cache (256 KB: stays in the CPU's cache). */
export const RECENT_BITS = 14;
export const RECENT_MASK = (1 << RECENT_BITS) - 1;

/**
 * Welds a stream of corners without a random memory access per corner:
 *
 * 1. `add` looks the corner up in a small direct-mapped cache of recently seen vertices: files list
 *    triangles in a coherent order, so most corners hit it.
 * 2. A miss appends a provisional vertex and tests a Bloom filter (8 to 16 bits per vertex, two
 *    bits in one word: one memory access) of all provisional vertices: "maybe seen" makes it a
 *    candidate. When most are candidates (triangles in random order), the filter is dropped.
 * 3. `finish` finds the provisional vertices whose hash equals a candidate's, merges the equal
 *    ones among those few with a small hash table, numbers the vertices in order of first
 *    appearance and rewrites the corner indices (only when something was merged).
 */
export class Welder {
  /** x, y, z bits of each provisional vertex (a Float32Array's bytes seen as integers). */
  bits: Int32Array;
  /** hash3 of each provisional vertex. */
  hashes: Int32Array;
  count = 0;
  /** The recent-vertex cache: x, y, z, 1 + provisional number. */
  readonly recent = new Int32Array(4 << RECENT_BITS);
  private bloom: Int32Array;
  private bloomShift: number;
  /** Provisional vertices the Bloom filter may have seen before. */
  private candidates = new Int32Array(1024);
  private candidateCount = 0;
  /** Set when the filter finds too many candidates to be worth it. */
  private mergeAll = false;
  readonly format: ModelFormat;

  constructor(format: ModelFormat, expectedVertices: number) {
    this.format = format;
    const expected = Math.max(1024, Math.min(expectedVertices, 1 << 26));
    this.bits = scratch(SCRATCH.bits, expected * 3);
    this.hashes = scratch(SCRATCH.hashes, expected);
    let bloomBits = 1 << 16;
    while (bloomBits < expected * 12) bloomBits *= 2;
    // Scratch memory, cleared: fresh pages cost more than clearing them.
    this.bloom = scratch(SCRATCH.bloom, bloomBits >>> 5, true).subarray(0, bloomBits >>> 5);
    this.bloomShift = 32 - Math.log2(bloomBits >>> 5);
  }

  /** Provisional number of the vertex at (x, y, z), given as float bits. */
  add(x: number, y: number, z: number): number {
    // -0 and +0 are the same point.
    if (x === -2147483648) x = 0;
    if (y === -2147483648) y = 0;
    if (z === -2147483648) z = 0;
    const h = hash3(x, y, z);
    const recent = this.recent;
    const r = (h & RECENT_MASK) << 2;
    if (recent[r] === x && recent[r + 1] === y && recent[r + 2] === z && recent[r + 3] !== 0) {
      return recent[r + 3] - 1;
    }
    return this.addNew(x, y, z, h);
  }

  /** A corner the recent-vertex cache does not hold (x, y, z with -0 already read as +0). */
  addNew(x: number, y: number, z: number, h: number): number {
    // Check that it is a finite number (exponent bits not all set).
    if (
      (x & 0x7f800000) === 0x7f800000 ||
      (y & 0x7f800000) === 0x7f800000 ||
      (z & 0x7f800000) === 0x7f800000
    ) {
      throw invalidFile(this.format, reasons.notNumber);
    }
    const id = this.count;
    if (id >= this.hashes.length) {
      this.hashes = growScratch(SCRATCH.hashes, this.hashes, id + 1);
      this.bits = growScratch(SCRATCH.bits, this.bits, (id + 1) * 3);
    }
    const bits = this.bits;
    bits[id * 3] = x;
    bits[id * 3 + 1] = y;
    bits[id * 3 + 2] = z;
    this.hashes[id] = h;
    this.count = id + 1;
    const r = (h & RECENT_MASK) << 2;
    const recent = this.recent;
    recent[r] = x;
    recent[r + 1] = y;
    recent[r + 2] = z;
    recent[r + 3] = id + 1;
    if (this.mergeAll) return id;
    // Bloom filter: two bits in one 32-bit word (one memory access), the word chosen by the
    // hash's high bits and the bits by a second mix of it.
    const bloom = this.bloom;
    const word = h >>> this.bloomShift;
    const g = Math.imul(h, 0x5bd1e995);
    const m = (1 << (g & 31)) | (1 << ((g >>> 5) & 31));
    if ((bloom[word] & m) === m) {
      if (this.candidateCount === this.candidates.length) {
        const grown = new Int32Array(this.candidates.length * 2);
        grown.set(this.candidates);
        this.candidates = grown;
      }
      this.candidates[this.candidateCount++] = id;
    } else {
      bloom[word] |= m;
    }
    if (id + 1 > bloom.length * 4) {
      // Mostly candidates (triangles in random order): the filter does not help; merge all.
      if (this.candidateCount * 4 > id) this.mergeAll = true;
      else this.growBloom();
    }
    return id;
  }

  /** More than one provisional vertex per byte of filter: double it, to keep it selective. */
  private growBloom(): void {
    const words = this.bloom.length * 2;
    this.bloom = scratch(SCRATCH.bloom, words, true).subarray(0, words);
    this.bloomShift = 32 - Math.log2(words);
    for (let i = 0; i < this.count; i++) {
      const h = this.hashes[i];
      const g = Math.imul(h, 0x5bd1e995);
      this.bloom[h >>> this.bloomShift] |= (1 << (g & 31)) | (1 << ((g >>> 5) & 31));
    }
  }

  /**
   * Merges repeated vertices, rewrites `indices` (provisional numbers) to the final numbers and
   * returns the welded positions.
   */
  finish(indices: Uint32Array): Float32Array {
    const count = this.count;
    const bits = this.bits;
    const hashes = this.hashes;
    const candidates = this.mergeAll ? null : this.candidates.subarray(0, this.candidateCount);
    // final[i] = 1 + the first equal vertex, for merged vertices; 0 for the others.
    const final = scratch(SCRATCH.final, count, true);
    const merged =
      candidates === null || candidates.length > 0
        ? mergeCandidates(bits, hashes, count, candidates, final)
        : 0;
    const unique = count - merged;
    const positions = new Float32Array(unique * 3);
    if (merged === 0) {
      positions.set(new Float32Array(bits.buffer, bits.byteOffset, unique * 3));
      return positions;
    }
    const out = new Int32Array(positions.buffer);
    for (let i = 0, u = 0; i < count; i++) {
      const first = final[i];
      if (first === 0) {
        out[u * 3] = bits[i * 3];
        out[u * 3 + 1] = bits[i * 3 + 1];
        out[u * 3 + 2] = bits[i * 3 + 2];
        final[i] = ++u;
      } else {
        final[i] = final[first - 1];
      }
    }
    // final[i] is now 1 + the welded number.
    for (let i = 0; i < indices.length; i++) indices[i] = final[indices[i]] - 1;
    return positions;
  }
}

/**
 * Sets final[i] = 1 + j for each provisional vertex i that repeats an earlier one j (the first),
 * and returns how many there are. Only vertices whose hash equals a candidate's can repeat one: a
 * bitmap of the candidates' hashes (in the CPU cache) picks them out in one pass. When candidates
 * are many, or `candidates` is null, all vertices are taken. The picked vertices are copied side
 * by side, split by hash into groups of about 16,000 (a stable counting sort), and merged group by
 * group with a hash table that stays in the CPU cache.
 */
function mergeCandidates(
  bits: Int32Array,
  hashes: Int32Array,
  count: number,
  candidates: Int32Array | null,
  final: Int32Array,
): number {
  let selected: Int32Array | null = null;
  let n = count;
  if (candidates && candidates.length * 4 < count) {
    let mapBits = 1 << 16;
    while (mapBits < candidates.length * 16 && mapBits < 1 << 30) mapBits *= 2;
    const mapShift = 32 - Math.log2(mapBits);
    const map = new Int32Array(mapBits >>> 5);
    for (let c = 0; c < candidates.length; c++) {
      const b = hashes[candidates[c]] >>> mapShift;
      map[b >>> 5] |= 1 << (b & 31);
    }
    selected = scratch(SCRATCH.selected, count);
    n = 0;
    for (let i = 0; i < count; i++) {
      const b = hashes[i] >>> mapShift;
      if ((map[b >>> 5] & (1 << (b & 31))) !== 0) selected[n++] = i;
    }
  }
  // Records of 5 numbers (vertex, hash, x, y, z), grouped by the hash's top bits.
  let groupBits = 0;
  while (groupBits < 16 && n >>> groupBits > 16384) groupBits++;
  const groups = 1 << groupBits;
  const groupShift = 32 - groupBits;
  const start = new Int32Array(groups + 1);
  if (groupBits > 0) {
    for (let k = 0; k < n; k++) {
      start[(hashes[selected ? selected[k] : k] >>> groupShift) + 1]++;
    }
    for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  } else {
    start[1] = n;
  }
  const fill = start.slice(0, groups);
  const records = scratch(SCRATCH.records, n * 5);
  for (let k = 0; k < n; k++) {
    const i = selected ? selected[k] : k;
    const h = hashes[i];
    const to = (groupBits > 0 ? fill[h >>> groupShift]++ : k) * 5;
    records[to] = i;
    records[to + 1] = h;
    records[to + 2] = bits[i * 3];
    records[to + 3] = bits[i * 3 + 1];
    records[to + 4] = bits[i * 3 + 2];
  }
  let largest = 0;
  for (let g = 0; g < groups; g++) largest = Math.max(largest, start[g + 1] - start[g]);
  let size = 16;
  while (size < largest * 2) size *= 2;
  const table = new Int32Array(size);
  let merged = 0;
  for (let g = 0; g < groups; g++) {
    const g0 = start[g];
    const g1 = start[g + 1];
    let tableSize = 16;
    while (tableSize < (g1 - g0) * 2) tableSize *= 2;
    const shift = 32 - Math.log2(tableSize);
    table.fill(0, 0, tableSize);
    for (let k = g0; k < g1; k++) {
      const r = k * 5;
      const h = records[r + 1];
      const x = records[r + 2];
      const y = records[r + 3];
      const z = records[r + 4];
      // A second mix: the top bits already chose the group.
      let slot = Math.imul(h, 0x9e3779b1) >>> shift;
      for (;;) {
        const e = table[slot];
        if (e === 0) {
          table[slot] = k + 1;
          break;
        }
        const m = (e - 1) * 5;
        if (
          records[m + 1] === h &&
          records[m + 2] === x &&
          records[m + 3] === y &&
          records[m + 4] === z
        ) {
          final[records[r]] = records[m] + 1;
          merged++;
          break;
        }
        slot = (slot + 1) & (tableSize - 1);
      }
    }
  }
  return merged;
}

/**
 * Welds an indexed mesh: `positions` holds `vertexCount` raw vertices, `indices` three raw vertex
 * numbers per triangle (checked here). Only vertices that a triangle uses are kept, numbered in the
 * order the triangles first use them. `indices` is rewritten in place and returned in the mesh.
 */
export function weldIndexed(
  format: ModelFormat,
  positions: Float32Array,
  vertexCount: number,
  indices: Uint32Array,
): Mesh {
  const raw = new Int32Array(positions.buffer, positions.byteOffset, vertexCount * 3);
  // Raw vertex → 1 + its provisional number, in order of first use.
  const remap = new Int32Array(vertexCount);
  const welder = new Welder(format, Math.min(vertexCount, indices.length));
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    if (v >= vertexCount) throw invalidFile(format, reasons.missingVertex);
    let id = remap[v];
    if (id === 0) {
      id = welder.add(raw[v * 3], raw[v * 3 + 1], raw[v * 3 + 2]) + 1;
      remap[v] = id;
    }
    indices[i] = id - 1;
  }
  return { positions: welder.finish(indices), indices };
}

/** A growable list of 32-bit floats. */
export class FloatList {
  data: Float32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float32Array(Math.max(16, capacity));
  }
  push3(x: number, y: number, z: number): void {
    let d = this.data;
    if (this.length + 3 > d.length) {
      d = new Float32Array(d.length * 2);
      d.set(this.data);
      this.data = d;
    }
    d[this.length] = x;
    d[this.length + 1] = y;
    d[this.length + 2] = z;
    this.length += 3;
  }
  /** The numbers pushed so far (a view while the list is not pushed to again). */
  view(): Float32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * A growable list of triangles (three vertex numbers each) that stops at `maxTriangles` with the
 * customer's "too many triangles" message.
 */
export class TriangleList {
  data: Uint32Array;
  length = 0;
  readonly maxTriangles: number;
  constructor(maxTriangles: number, capacity = 1024) {
    this.maxTriangles = maxTriangles;
    this.data = new Uint32Array(Math.max(16, Math.min(capacity, maxTriangles) * 3));
  }
  get triangles(): number {
    return this.length / 3;
  }
  push(a: number, b: number, c: number): void {
    let d = this.data;
    if (this.length + 3 > d.length) {
      if (this.length / 3 >= this.maxTriangles) throw tooManyTriangles();
      d = new Uint32Array(Math.min(d.length * 2, this.maxTriangles * 3 + 3));
      d.set(this.data);
      this.data = d;
    }
    d[this.length] = a;
    d[this.length + 1] = b;
    d[this.length + 2] = c;
    this.length += 3;
  }
  /** The pushed vertex numbers, as a copy of exactly 3 × triangles numbers. */
  finish(): Uint32Array {
    if (this.length / 3 > this.maxTriangles) throw tooManyTriangles();
    return this.data.slice(0, this.length);
  }
}
