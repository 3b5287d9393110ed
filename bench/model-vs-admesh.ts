/**
 * The quote engine's full analysis against ADMesh's exact check (DESIGN.md decision 11), on the
 * same 1,000,000-triangle binary STL in the same run, and the printability checks (thin walls and
 * overhangs) on the same model:
 *
 *   node bench/model-vs-admesh.ts [--triangles 1000000] [--runs 7] [--warmup 2] [--baseline REV]
 *
 * (a) ours: read the file from disk, parseModel + analyseMesh (welding, open/non-manifold edges,
 *     bodies, volume, area, bounds), in this process after warming up;
 * (b) `admesh -e file` (reads the file, matches edges exactly, counts open edges and parts,
 *     computes the volume), a process per run, timed from spawn to exit;
 * (c) ours again, as a fresh Node process per run (start-up and cold code included), the fair
 *     counterpart of (b)'s process per run;
 * (d) the printability checks (thin walls and overhangs, app/rules/model3d/printability.ts) on the
 *     parsed mesh, when that module is present.
 * (e) with `--baseline REV` (a commit, e.g. HEAD~3): (a) and (d) with that commit's
 *     app/rules/model3d (unpacked with `git archive` into .tmp/bench/), in the same rounds, so a
 *     change is compared with the code before it under the same load.
 * Rounds alternate the variants, so a busy machine slows them alike; figures are medians.
 * The file is read as the shop gets an upload: the bytes as read, not copied again (a copy of
 * 50 MB into fresh memory cost as much as the analysis on the loaded machine).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import type * as current from "../app/rules/model3d/index.ts";
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

const loadBefore = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
const haveAdmesh = spawnSync("admesh", ["--version"]).status === 0;
if (!haveAdmesh) console.log("admesh is not installed (apt-get install -y admesh): (b) skipped");

type Engine = Pick<typeof current, "analyseMesh" | "parseModel">;
type Checks = (mesh: ReturnType<typeof current.parseModel>["mesh"]) => unknown;

/** The analysis and the checks of app/rules/model3d under `dir`. */
async function load(dir: string): Promise<{ engine: Engine; checks: Checks | null }> {
  const engine = (await import(path.join(dir, "app/rules/model3d/index.ts"))) as Engine;
  const printabilityFile = path.join(dir, "app/rules/model3d/printability.ts");
  let checks: Checks | null = null;
  if (existsSync(printabilityFile)) {
    const m = (await import(printabilityFile)) as { checkPrintability?: Checks };
    checks = m.checkPrintability ?? null;
  }
  return { engine, checks };
}

const now = await load(root);
const baselineRev = args.get("baseline");
let before: Awaited<ReturnType<typeof load>> | null = null;
if (baselineRev) {
  const rev = execFileSync("git", ["rev-parse", "--short", baselineRev], {
    encoding: "utf8",
  }).trim();
  const baseDir = path.join(root, `.tmp/bench/baseline-${rev}`);
  if (!existsSync(baseDir)) {
    mkdirSync(baseDir, { recursive: true });
    const tar = execFileSync("git", ["archive", rev, "app/rules/model3d"], { cwd: root });
    execFileSync("tar", ["-x", "-C", baseDir], { input: tar });
  }
  before = await load(baseDir);
  console.log(`baseline: app/rules/model3d at ${rev}`);
}

const ours = (engine: Engine = now.engine) => {
  const t0 = performance.now();
  // A Buffer is a Uint8Array: no copy.
  const bytes = readFileSync(file);
  const model = engine.parseModel(bytes, "bench.stl");
  const a = engine.analyseMesh(model, { unit: "mm", scale: 1, printers: [] });
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
const model = parseModel(readFileSync(process.argv[2]), "bench.stl");
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

const printability = now.checks;
const timed = (f: () => unknown) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

const times: Record<string, number[]> = {
  ours: [],
  admesh: [],
  fresh: [],
  checks: [],
  baseOurs: [],
  baseChecks: [],
  /** Per round, baseline ÷ ours: steadier than a ratio of medians when the load swings. */
  ratioOurs: [],
  ratioChecks: [],
};
let admeshVolume = Number.NaN;
for (let round = 0; round < warmup + runs; round++) {
  const o = ours();
  const b = haveAdmesh ? admesh() : null;
  const f = fresh();
  const c = printability ? timed(() => printability(o.model.mesh)) : Number.NaN;
  const base = before ? ours(before.engine) : null;
  const baseChecks = before?.checks;
  const bc = base && baseChecks ? timed(() => baseChecks(base.model.mesh)) : Number.NaN;
  if (round < warmup) continue;
  if (base) {
    times.baseOurs.push(base.ms);
    times.ratioOurs.push(base.ms / o.ms);
  }
  if (!Number.isNaN(bc)) {
    times.baseChecks.push(bc);
    times.ratioChecks.push(bc / c);
  }
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
console.log(
  `load average before and after: ${loadBefore} → ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
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
if (before) {
  console.log(
    `(e) baseline, in process: ${ms(median(times.baseOurs))} (admesh ÷ baseline ${(median(times.admesh) / median(times.baseOurs)).toFixed(2)}×); checks ${ms(median(times.baseChecks))}`,
  );
  const span = (xs: number[]) =>
    `${median(xs).toFixed(2)}× (rounds ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  console.log(
    `    baseline ÷ ours, round by round: analysis ${span(times.ratioOurs)}, checks ${span(times.ratioChecks)}`,
  );
}
