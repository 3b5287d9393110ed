/**
 * A change to the quote engine against an earlier commit's: the same results, bit for bit, and
 * the CPU time each takes (user time of this process, which a busy machine disturbs less than
 * the wall clock), in alternating calls on the 1,000,000-triangle box of bench/model-vs-admesh.ts:
 *
 *   node bench/model-checks-same.ts --baseline REV [--runs 6]
 *
 * Compares checkPrintabilityDetail and checkPrintability (chosen side and a given one) on ten
 * models (cubes, a thin plate, a T, spheres of 16,128 and 1,000,000 triangles, the 1M box and the
 * same triangles shuffled, a stray point 100 m away that the work limit cuts short, large faces
 * beside tiny ones, voxels), and parseModel + analyseMesh on each as a binary STL; then times
 * the checks and parse + analyse on the 1M box. Exits non-zero when any result differs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import type * as Index from "../app/rules/model3d/index.ts";
import type * as Printability from "../app/rules/model3d/printability.ts";
import {
  box,
  cube,
  manyTriangleStl,
  merged,
  sphere,
  toBinaryStl,
  voxels,
} from "../app/rules/model3d/testing/shapes.ts";
import type { Mesh } from "../app/rules/model3d/types.ts";
import { parseArgs, root } from "./lib.ts";

const args = parseArgs();
const runs = Number(args.get("runs") ?? 6);
const baselineRev = args.get("baseline");
if (!baselineRev) throw new Error("--baseline REV (a commit to compare with)");
const rev = execFileSync("git", ["rev-parse", "--short", baselineRev], { encoding: "utf8" }).trim();
const baseDir = path.join(root, `.tmp/bench/baseline-${rev}`);
if (!existsSync(baseDir)) {
  mkdirSync(baseDir, { recursive: true });
  const tar = execFileSync("git", ["archive", rev, "app/rules/model3d"], { cwd: root });
  execFileSync("tar", ["-x", "-C", baseDir], { input: tar });
}
type Engine = typeof Index & typeof Printability;
const load = async (dir: string): Promise<Engine> => ({
  ...(await import(path.join(dir, "app/rules/model3d/index.ts"))),
  ...(await import(path.join(dir, "app/rules/model3d/printability.ts"))),
});
const now = await load(root);
const before = await load(baseDir);

const dir = path.join(root, ".tmp/bench/admesh");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, "box-1000000.stl");
if (!existsSync(file)) writeFileSync(file, manyTriangleStl(1_000_000));
const big = now.parseModel(readFileSync(file), "box.stl").mesh;
const shuffled = (m: Mesh): Mesh => {
  const ix = m.indices.slice();
  let s = 12345;
  for (let i = ix.length / 3 - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    for (let k = 0; k < 3; k++) [ix[i * 3 + k], ix[j * 3 + k]] = [ix[j * 3 + k], ix[i * 3 + k]];
  }
  return { positions: m.positions, indices: ix };
};
const models: Record<string, Mesh> = {
  cube: cube(20),
  plate: box(20, 0.4, 10),
  t: merged(box(10, 10, 40), box(30, 10, 10, { offset: [-10, 0, 40] })),
  sphere: sphere(50),
  stray: merged(
    box(40, 40, 40, { divisions: 30 }),
    box(0.001, 0.001, 0.001, { offset: [100_000, 100_000, 100_000] }),
  ),
  fine: merged(box(100, 100, 100), box(1, 1, 1, { divisions: 40 })),
  voxels: voxels([
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [3, 3, 3],
  ]),
  big,
  bigSphere: sphere(50, 1000, 500),
  shuffled: shuffled(big),
};

/** JSON with typed arrays as their bytes: equal strings mean equal bits. */
const bits = (x: unknown) =>
  JSON.stringify(x, (_k, v) =>
    ArrayBuffer.isView(v)
      ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64")
      : v,
  );
const options = { unit: "mm" as const, scale: 1, printers: [] };
let differ = 0;
for (const [name, mesh] of Object.entries(models)) {
  const side = { down: { x: 1, y: 0, z: 0 } };
  const stl = toBinaryStl(mesh);
  const pa = now.parseModel(stl.slice(), "part.stl");
  const pb = before.parseModel(stl.slice(), "part.stl");
  const checks =
    bits(now.checkPrintabilityDetail(mesh)) === bits(before.checkPrintabilityDetail(mesh)) &&
    bits(now.checkPrintability(mesh)) === bits(before.checkPrintability(mesh)) &&
    bits(now.checkPrintability(mesh, side)) === bits(before.checkPrintability(mesh, side));
  const analysis =
    bits(pa) === bits(pb) &&
    bits(now.analyseMesh(pa, options)) === bits(before.analyseMesh(pb, options));
  if (!checks || !analysis) differ++;
  console.log(
    `${name}: checks ${checks ? "same" : "DIFFER"}, analysis ${analysis ? "same" : "DIFFER"}`,
  );
}

const cpu = () => process.cpuUsage().user / 1000;
const times = { checks: [[], []], analysis: [[], []] } as Record<string, number[][]>;
for (let round = 0; round <= runs; round++) {
  // Alternate which goes first; round 0 warms up.
  const order = round % 2 ? [now, before] : [before, now];
  for (const engine of order) {
    const which = engine === now ? 0 : 1;
    let t0 = cpu();
    engine.checkPrintability(big);
    if (round > 0) times.checks[which].push(cpu() - t0);
    const bytes = readFileSync(file);
    t0 = cpu();
    engine.analyseMesh(engine.parseModel(bytes, "box.stl"), options);
    if (round > 0) times.analysis[which].push(cpu() - t0);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const what of ["checks", "analysis"]) {
  const [a, b] = times[what];
  console.log(
    `${what} (1M box), CPU ms, median of ${runs}: now ${median(a).toFixed(0)}, ${rev} ${median(b).toFixed(0)} (${(median(b) / median(a)).toFixed(2)}×)`,
  );
}
if (differ > 0) {
  console.log(`${differ} models differ`);
  process.exitCode = 1;
}
