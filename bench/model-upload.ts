/**
 * The server's measurement of an uploaded model (app/modules/quotes/measure.server.ts: parse,
 * analysis and the printability checks in a worker thread), as an upload gets it:
 *
 *   node bench/model-upload.ts [--triangles 1000000] [--runs 7] [--warmup 1]
 *
 * (a) measureModel: the kept worker threads of docs/decisions/0028;
 * (b) a fresh worker thread per file, as before that decision: the same worker file, started,
 *     sent the bytes, answered and ended per upload (thread start, module load, cold code and
 *     fresh scratch memory every time);
 * (c) the same measurement on this thread, for reference (measureBytes, warm).
 * Rounds alternate the variants, so a busy machine slows them alike; figures are medians, and
 * each round's (b) ÷ (a). Every answer is checked (watertight, 1,000,000 mm³).
 * Run from the repository root (the worker file is found from the current folder).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { closeModelWorkers, measureModel } from "../app/modules/quotes/measure.server.ts";
import { measureBytes } from "../app/rules/model3d/geometry.ts";
import { manyTriangleStl } from "../app/rules/model3d/testing/shapes.ts";
import { parseArgs, root } from "./lib.ts";

const args = parseArgs();
const wanted = Number(args.get("triangles") ?? 1_000_000);
const runs = Number(args.get("runs") ?? 7);
const warmup = Number(args.get("warmup") ?? 1);

const dir = path.join(root, ".tmp/bench/admesh");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `box-${wanted}.stl`);
if (!existsSync(file)) writeFileSync(file, manyTriangleStl(wanted));
const printers = [{ name: "bench", x: 250, y: 250, z: 250 }];
const workerFile = path.join(root, "app/modules/quotes/measure.worker.ts");

type Geometry = { watertight: boolean; volume: number };
const check = (g: Geometry[]) => {
  if (g.length !== 1 || !g[0].watertight || Math.abs(g[0].volume - 1e6) > 1e-3) {
    throw new Error(`unexpected measurement: ${JSON.stringify(g[0])}`);
  }
};

const kept = async () => {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  const m = await measureModel(bytes, "bench.stl", printers);
  const ms = performance.now() - t0;
  check(m.geometries);
  return ms;
};

const fresh = async () => {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  const worker = new Worker(workerFile, { resourceLimits: { maxOldGenerationSizeMb: 1536 } });
  try {
    const reply = await new Promise<{ ok: boolean; geometries: Geometry[] }>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.postMessage({ bytes, name: "bench.stl", printers, split: null }, [
        bytes.buffer as ArrayBuffer,
      ]);
    });
    if (!reply.ok) throw new Error("the worker could not read the file");
    check(reply.geometries);
  } finally {
    await worker.terminate();
  }
  return performance.now() - t0;
};

const here = () => {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  check(measureBytes(bytes, "bench.stl", printers) as Geometry[]);
  return performance.now() - t0;
};

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const loadBefore = load();
const times = {
  kept: [] as number[],
  fresh: [] as number[],
  here: [] as number[],
  ratio: [] as number[],
};
for (let round = 0; round < warmup + runs; round++) {
  const k = await kept();
  const f = await fresh();
  const h = here();
  if (round < warmup) continue;
  times.kept.push(k);
  times.fresh.push(f);
  times.here.push(h);
  times.ratio.push(f / k);
}
await closeModelWorkers();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const triangles = (readFileSync(file).length - 84) / 50;
console.log(`${triangles.toLocaleString("en-IN")} triangles, ${runs} runs after ${warmup} warm-up`);
console.log(`load average before and after: ${loadBefore} → ${load()}`);
console.log(`(a) measureModel, kept worker:       ${ms(median(times.kept))}`);
console.log(`(b) a fresh worker per file:         ${ms(median(times.fresh))}`);
console.log(`(c) on this thread (measureBytes):   ${ms(median(times.here))}`);
console.log(
  `    (b) ÷ (a) round by round: ${median(times.ratio).toFixed(2)}× (rounds ${Math.min(...times.ratio).toFixed(2)}–${Math.max(...times.ratio).toFixed(2)})`,
);
