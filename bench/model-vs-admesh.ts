/**
 * The quote engine's full analysis against ADMesh's exact check (DESIGN.md decision 11), on the
 * same 1,000,000-triangle binary STL in the same run, and the printability checks (thin walls and
 * overhangs) on the same model:
 *
 *   node bench/model-vs-admesh.ts [--triangles 1000000] [--runs 7] [--warmup 2]
 *
 * (a) ours: read the file from disk, parseModel + analyseMesh (welding, open/non-manifold edges,
 *     bodies, volume, area, bounds), in this process after warming up;
 * (b) `admesh -e file` (reads the file, matches edges exactly, counts open edges and parts,
 *     computes the volume), a process per run, timed from spawn to exit;
 * (c) ours again, as a fresh Node process per run (start-up and cold code included), the fair
 *     counterpart of (b)'s process per run;
 * (d) the printability checks (thin walls and overhangs, app/rules/model3d/printability.ts) on the
 *     parsed mesh, when that module is present.
 * Rounds alternate the variants, so a busy machine slows them alike; figures are medians.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { analyseMesh, parseModel } from "../app/rules/model3d/index.ts";
import { manyTriangleStl } from "../app/rules/model3d/testing/shapes.ts";
import { parseArgs, root } from "./lib.ts";

const args = parseArgs();
const wanted = Number(args.get("triangles") ?? 1_000_000);
const runs = Number(args.get("runs") ?? 7);
const warmup = Number(args.get("warmup") ?? 2);

const dir = path.join(root, ".tmp/bench/admesh");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `box-${wanted}.stl`);
if (!existsSync(file)) writeFileSync(file, manyTriangleStl(wanted));
const triangles = (readFileSync(file).length - 84) / 50;

const haveAdmesh = spawnSync("admesh", ["--version"]).status === 0;
if (!haveAdmesh) console.log("admesh is not installed (apt-get install -y admesh): (b) skipped");

const ours = () => {
  const t0 = performance.now();
  const bytes = new Uint8Array(readFileSync(file));
  const model = parseModel(bytes, "bench.stl");
  const a = analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
  const ms = performance.now() - t0;
  if (!a.watertight || Math.abs(a.volume - 1e6) > 1e-3 || a.bodyCount !== 1) {
    throw new Error(`unexpected analysis: ${JSON.stringify(a)}`);
  }
  return { ms, model };
};

const admesh = () => {
  const t0 = performance.now();
  const out = execFileSync("admesh", ["-e", file], { encoding: "utf8" });
  const ms = performance.now() - t0;
  // With -e alone admesh leaves "Number of parts" at 0: check that no edge was left open.
  if (!/Total disconnected facets\s*:\s*0\s/.test(out)) {
    throw new Error(`unexpected admesh output:\n${out}`);
  }
  return { ms, volume: Number(/Volume\s*:\s*([\d.]+)/.exec(out)?.[1]) };
};

const childScript = `
import { readFileSync } from "node:fs";
import { analyseMesh, parseModel } from ${JSON.stringify(path.join(root, "app/rules/model3d/index.ts"))};
const t0 = performance.now();
const model = parseModel(new Uint8Array(readFileSync(process.argv[2])), "bench.stl");
const a = analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
if (!a.watertight) process.exit(1);
`;
const childFile = path.join(dir, "child.ts");
writeFileSync(childFile, childScript);
const fresh = () => {
  const t0 = performance.now();
  execFileSync(process.execPath, [childFile, file]);
  return performance.now() - t0;
};

type Checks = (mesh: ReturnType<typeof parseModel>["mesh"]) => unknown;
let printability: Checks | null = null;
const printabilityFile = path.join(root, "app/rules/model3d/printability.ts");
if (existsSync(printabilityFile)) {
  const m = (await import(printabilityFile)) as { checkPrintability?: Checks };
  printability = m.checkPrintability ?? null;
}

const times: Record<string, number[]> = { ours: [], admesh: [], fresh: [], checks: [] };
let admeshVolume = Number.NaN;
for (let round = 0; round < warmup + runs; round++) {
  const o = ours();
  const b = haveAdmesh ? admesh() : null;
  const f = fresh();
  const t0 = performance.now();
  printability?.(o.model.mesh);
  const c = performance.now() - t0;
  if (round < warmup) continue;
  times.ours.push(o.ms);
  times.fresh.push(f);
  if (b) {
    times.admesh.push(b.ms);
    admeshVolume = b.volume;
  }
  if (printability) times.checks.push(c);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : Number.NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`${triangles.toLocaleString("en-IN")} triangles, ${runs} runs after ${warmup} warm-up`);
console.log(`(a) ours, in process (read + parse + analyse): ${ms(median(times.ours))}`);
if (haveAdmesh) {
  console.log(`(b) admesh -e, a process per run:             ${ms(median(times.admesh))}`);
  console.log(`    admesh volume ${admeshVolume} mm³ (exact 1,000,000)`);
}
console.log(`(c) ours, a fresh Node process per run:       ${ms(median(times.fresh))}`);
if (haveAdmesh) {
  console.log(
    `    admesh ÷ ours: ${(median(times.admesh) / median(times.ours)).toFixed(2)}× in process, ${(median(times.admesh) / median(times.fresh)).toFixed(2)}× process for process`,
  );
}
if (printability)
  console.log(`(d) thin walls + overhangs:                  ${ms(median(times.checks))}`);
