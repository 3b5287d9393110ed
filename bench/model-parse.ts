/**
 * Times the quote engine's model reader on a large binary STL made in memory (a closed, watertight
 * box whose faces are cut into a grid), against three.js's STLLoader on the same bytes:
 *
 *   node bench/model-parse.ts [--triangles 1000000] [--runs 11] [--warmup 3] [--no-shuffled]
 *                             [--formats]
 *
 * (a) parseModel + analyseMesh: welding, volume, area, bounds and the full edge check;
 * (b) measureBinaryStl: the geometry-only fast path (volume, area, bounds; no welding, no edges);
 * (c) STLLoader.parse: three.js's reader (positions and normals, no welding, no analysis);
 * (d) as (a), with the triangles in random order (the worst case for the welding's cache);
 * (e) a floor, not an analysis: one loop reading each record's nine corner floats and summing the
 *     signed volume, i.e. what merely reading the file costs on this machine.
 * With --formats it also times parseModel + analyseMesh on the same 480,000-triangle box written
 * in every supported encoding.
 * The variants run in turn within each round, so that a busy machine slows them all alike; each
 * figure is the median over the rounds after warming up.
 */
import os from "node:os";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { analyseMesh, measureBinaryStl, parseModel } from "../app/rules/model3d/index.ts";
import {
  box,
  manyTriangleStl,
  to3mf,
  toAsciiPly,
  toAsciiStl,
  toBinaryPly,
  toBinaryStl,
  toObj,
} from "../app/rules/model3d/testing/shapes.ts";
import { parseArgs } from "./lib.ts";

const args = parseArgs();
const wanted = Number(args.get("triangles") ?? 1_000_000);
const runs = Number(args.get("runs") ?? 11);
const warmup = Number(args.get("warmup") ?? 3);
const shuffledToo = !args.has("no-shuffled");
const formatsToo = args.has("formats");

const bytes = manyTriangleStl(wanted);
const triangles = (bytes.length - 84) / 50;
const printers = [{ name: "Bambu Lab X1C", x: 256, y: 256, z: 256 }];

/** The same triangles in a random (fixed) order: nothing coherent left for the caches. */
function shuffled(source: Uint8Array): Uint8Array {
  const out = new Uint8Array(source.length);
  out.set(source.subarray(0, 84));
  const n = (source.length - 84) / 50;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let seed = 12345;
  for (let i = n - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (let i = 0; i < n; i++) {
    const from = 84 + 50 * order[i];
    out.set(source.subarray(from, from + 50), 84 + 50 * i);
  }
  return out;
}
const mixed = shuffledToo ? shuffled(bytes) : null;

interface Variant {
  name: string;
  run: () => void;
  times: number[];
  /** The first (cold) run: fresh memory, code not yet optimised. */
  first?: number;
  /** Extra split timings, same rounds. */
  parts?: Record<string, number[]>;
}

const full = (input: Uint8Array, parts: Record<string, number[]>) => () => {
  const t0 = performance.now();
  const model = parseModel(input, "bench.stl");
  const t1 = performance.now();
  const analysis = analyseMesh(model, { unit: "mm", scale: 1, printers });
  const t2 = performance.now();
  parts.parse.push(t1 - t0);
  parts.analyse.push(t2 - t1);
  if (!analysis.watertight || Math.abs(analysis.volume - 1e6) > 1e-3) {
    throw new Error(`Unexpected analysis: ${JSON.stringify(analysis)}`);
  }
};

const loader = new STLLoader();
const variants: Variant[] = [];
const fullParts = { parse: [] as number[], analyse: [] as number[] };
variants.push({
  name: "(a) parseModel + analyseMesh",
  run: full(bytes, fullParts),
  times: [],
  parts: fullParts,
});
variants.push({
  name: "(b) measureBinaryStl (geometry only)",
  run: () => {
    const m = measureBinaryStl(bytes);
    if (!m || Math.abs(m.signedVolume - 1e6) > 1e-3) throw new Error("Unexpected measure");
  },
  times: [],
});
variants.push({
  name: "(c) three.js STLLoader.parse",
  run: () => {
    const geometry = loader.parse(bytes.buffer as ArrayBuffer);
    if (geometry.attributes.position.count !== triangles * 3)
      throw new Error("Unexpected geometry");
  },
  times: [],
});
if (mixed) {
  const parts = { parse: [] as number[], analyse: [] as number[] };
  variants.push({
    name: "(d) as (a), triangles shuffled",
    run: full(mixed, parts),
    times: [],
    parts,
  });
}

/** Reads the corners and sums the signed volume: the least any reader of the file must do. */
function bareRead(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const n = view.getUint32(80, true);
  let volume = 0;
  for (let t = 0, o = 96; t < n; t++, o += 50) {
    const ax = view.getFloat32(o, true);
    const ay = view.getFloat32(o + 4, true);
    const az = view.getFloat32(o + 8, true);
    const bx = view.getFloat32(o + 12, true);
    const by = view.getFloat32(o + 16, true);
    const bz = view.getFloat32(o + 20, true);
    const cx = view.getFloat32(o + 24, true);
    const cy = view.getFloat32(o + 28, true);
    const cz = view.getFloat32(o + 32, true);
    volume += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return volume / 6;
}
variants.push({
  name: "(e) floor (corners + volume only)",
  run: () => {
    if (Math.abs(bareRead(bytes) - 1e6) > 1) throw new Error("Unexpected floor volume");
  },
  times: [],
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

for (let round = 0; round < warmup + runs; round++) {
  for (const v of variants) {
    const t0 = performance.now();
    v.run();
    const dt = performance.now() - t0;
    if (round === 0) v.first = dt;
    if (round >= warmup) v.times.push(dt);
    else if (v.parts) for (const list of Object.values(v.parts)) list.pop();
  }
}

const cpus = os.cpus();
console.log(
  `Machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${os.platform()} ${os.release()}`,
);
console.log(`Node ${process.version}; three ${(await import("three")).REVISION}`);
console.log(
  `Binary STL: ${triangles.toLocaleString("en-US")} triangles, ${(bytes.length / 1e6).toFixed(1)} MB; ${runs} runs after ${warmup} warm-up, median`,
);
console.log(`1-minute load average during the run: ${os.loadavg()[0].toFixed(2)}`);
console.log("");
const rate = (ms: number) => `${(((triangles / ms) * 1e3) / 1e6).toFixed(1)} M triangles/s`;
const loaderMs = median(variants[2].times);
for (const v of variants) {
  const ms = median(v.times);
  const best = Math.min(...v.times);
  console.log(
    `${v.name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  ${rate(ms).padStart(20)}  ${(loaderMs / ms).toFixed(2)}× STLLoader  (best ${best.toFixed(1)} ms, first run ${v.first?.toFixed(1)} ms)`,
  );
  for (const [part, list] of Object.entries(v.parts ?? {})) {
    console.log(`    ${part.padEnd(36)} ${median(list).toFixed(1).padStart(7)} ms`);
  }
}
const fullMs = median(variants[0].times);
console.log("");
console.log(
  `Targets: ≥ 100 M triangles/s → (a) ${rate(fullMs)}, ${(triangles / fullMs) * 1e3 >= 1e8 ? "met" : "not met"}; ≥ 3× STLLoader → (a) ${(loaderMs / fullMs).toFixed(2)}×, (b) ${(loaderMs / median(variants[1].times)).toFixed(2)}×`,
);

if (formatsToo) {
  const mesh = box(100, 100, 100, { divisions: 200 });
  const count = mesh.indices.length / 3;
  console.log("");
  console.log(
    `Every format, ${count.toLocaleString("en-US")} triangles, parseModel + analyseMesh, median of 5:`,
  );
  const encodings: Array<[string, string, Uint8Array]> = [
    ["binary STL", "box.stl", toBinaryStl(mesh)],
    ["ASCII STL", "box.stl", toAsciiStl(mesh)],
    ["OBJ", "box.obj", toObj(mesh)],
    ["ASCII PLY", "box.ply", toAsciiPly(mesh)],
    ["binary PLY", "box.ply", toBinaryPly(mesh)],
    ["3MF", "box.3mf", to3mf(mesh)],
  ];
  for (const [label, name, data] of encodings) {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      analyseMesh(parseModel(data, name), { unit: "mm", scale: 1, printers });
      if (i > 0) times.push(performance.now() - t0);
    }
    const ms = median(times);
    console.log(
      `    ${label.padEnd(12)} ${(data.length / 1e6).toFixed(1).padStart(6)} MB ${ms.toFixed(0).padStart(6)} ms  ${(((count / ms) * 1e3) / 1e6).toFixed(1).padStart(5)} M triangles/s`,
    );
  }
}
