/*
 * The quote engine's measurements against the tools slicers use (issue 26, DESIGN.md decision 11):
 * ADMesh (`admesh -e -d`: exact edge matching, and the normal-direction pass that counts parts) and
 * PrusaSlicer's `--info`, on the same generated binary STL files. Both tools sum the volume in
 * single precision (../shared/reference/slicer.md: +0.33 % on a 1M-triangle box), so volumes and
 * bounds agree within 0.5 %; watertightness, open edges and the body count must be identical.
 * Neither tool reports the surface area: ours is checked against exact values in
 * app/rules/model3d/analyse.test.ts. The box is 100,000 triangles, not 1,000,000: `--info` takes
 * about 5 s and 470 MB for a million, too much for every test run.
 *
 * Each tool's tests run when it is installed (CI's .ci/run installs both from Debian) and are
 * skipped, saying so, when it is not.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseMesh, type ModelAnalysis, parseModel } from "~/rules/model3d/index.ts";
import {
  box,
  cube,
  manyTriangleStl,
  merged,
  openBox,
  sphere,
  toBinaryStl,
} from "~/rules/model3d/testing/shapes.ts";
import { findExecutable } from "./index.server.ts";

const run = promisify(execFile);
const admesh = findExecutable("admesh");
const prusaSlicer = findExecutable("prusa-slicer");

/** Relative difference within 0.5 %: both tools sum in single precision. */
const TOLERANCE = 0.005;

interface Model {
  name: string;
  bytes: Uint8Array;
  /** Whether the volume means anything (not for an open mesh). */
  closed: boolean;
}

const models: Model[] = [
  { name: "a 20 mm cube", bytes: toBinaryStl(cube(20)), closed: true },
  { name: "a 50 mm sphere of 16,128 triangles", bytes: toBinaryStl(sphere(25)), closed: true },
  {
    name: "two 20 mm cubes in one file",
    bytes: toBinaryStl(merged(cube(20), box(20, 20, 20, { offset: [40, 0, 0] }))),
    closed: true,
  },
  { name: "a cube missing its top face", bytes: toBinaryStl(openBox(20)), closed: false },
  { name: "a 100 mm box of 100,000 triangles", bytes: manyTriangleStl(100_000), closed: true },
];

let dir = "";
const files = new Map<string, string>();
const ours = new Map<string, ModelAnalysis>();

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "layerkart-reference-"));
  models.forEach((model, i) => {
    const file = path.join(dir, `model-${i}.stl`);
    writeFileSync(file, model.bytes);
    files.set(model.name, file);
    ours.set(
      model.name,
      analyseMesh(parseModel(model.bytes, "model.stl"), { unit: "mm", scale: 1, printers: [] }),
    );
  });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function expectClose(actual: number, expected: number, scale: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(TOLERANCE * scale);
}

function expectSameBounds(a: ModelAnalysis, min: number[], max: number[]) {
  const largest = Math.max(a.size.x, a.size.y, a.size.z);
  const ourMin = [a.bboxMin.x, a.bboxMin.y, a.bboxMin.z];
  const ourMax = [a.bboxMax.x, a.bboxMax.y, a.bboxMax.z];
  for (let k = 0; k < 3; k++) {
    expectClose(ourMin[k], min[k], largest);
    expectClose(ourMax[k], max[k], largest);
  }
}

/** The figures `admesh -e -d` prints (the first column of its facet table: before any repair). */
async function admeshFacts(file: string) {
  const { stdout } = await run(admesh as string, ["-e", "-d", file], { encoding: "utf8" });
  const number = (pattern: RegExp) => {
    const match = pattern.exec(stdout);
    if (!match) throw new Error(`admesh printed no ${pattern}:\n${stdout}`);
    return Number(match[1]);
  };
  const axis = (name: string) => {
    const match = new RegExp(
      `Min ${name}\\s*=\\s*(-?[\\d.]+),\\s*Max ${name}\\s*=\\s*(-?[\\d.]+)`,
    ).exec(stdout);
    if (!match) throw new Error(`admesh printed no ${name} bounds:\n${stdout}`);
    return [Number(match[1]), Number(match[2])];
  };
  const [x, y, z] = [axis("X"), axis("Y"), axis("Z")];
  return {
    min: [x[0], y[0], z[0]],
    max: [x[1], y[1], z[1]],
    facets: number(/Number of facets\s*:\s*(\d+)/),
    disconnectedFacets: number(/Total disconnected facets\s*:\s*(\d+)/),
    parts: number(/Number of parts\s*:\s*(\d+)/),
    volume: number(/Volume\s*:\s*(-?[\d.]+)/),
    reversed: number(/Facets reversed\s*:\s*(\d+)/),
  };
}

/** The `key = value` lines of `prusa-slicer --info` (its [trace] line skipped). */
async function prusaFacts(file: string) {
  const { stdout } = await run(prusaSlicer as string, ["--info", file], { encoding: "utf8" });
  const facts = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const match = /^\s*([a-z_]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (match) facts.set(match[1], match[2]);
  }
  const number = (key: string) => {
    const value = facts.get(key);
    if (value === undefined) throw new Error(`prusa-slicer --info printed no ${key}:\n${stdout}`);
    return Number(value);
  };
  return {
    min: [number("min_x"), number("min_y"), number("min_z")],
    max: [number("max_x"), number("max_y"), number("max_z")],
    facets: number("number_of_facets"),
    manifold: facts.get("manifold"),
    openEdges: facts.has("open_edges") ? number("open_edges") : 0,
    parts: number("number_of_parts"),
    volume: number("volume"),
  };
}

describe.skipIf(!admesh)(
  `our measurements against ADMesh${admesh ? "" : " (skipped: admesh is not installed; apt-get install -y admesh)"}`,
  () => {
    for (const model of models) {
      it(`${model.name}: same watertightness, parts and bounds${model.closed ? ", volume within 0.5 %" : ""}`, async () => {
        const a = ours.get(model.name) as ModelAnalysis;
        const tool = await admeshFacts(files.get(model.name) as string);
        expect(a.triangles).toBe(tool.facets);
        expect(a.watertight).toBe(tool.disconnectedFacets === 0);
        expect(a.bodyCount).toBe(tool.parts);
        // Consistently wound: ADMesh turned no facet round.
        expect(tool.reversed).toBe(0);
        expect(a.invertedNormals).toBe(false);
        expectSameBounds(a, tool.min, tool.max);
        if (model.closed) expectClose(a.volume, tool.volume, a.volume);
      }, 60_000);
    }
  },
);

describe.skipIf(!prusaSlicer)(
  `our measurements against PrusaSlicer --info${prusaSlicer ? "" : " (skipped: prusa-slicer is not installed; apt-get install -y prusa-slicer)"}`,
  () => {
    for (const model of models) {
      it(`${model.name}: same manifold, open edges, parts and bounds${model.closed ? ", volume within 0.5 %" : ""}`, async () => {
        const a = ours.get(model.name) as ModelAnalysis;
        const tool = await prusaFacts(files.get(model.name) as string);
        expect(a.triangles).toBe(tool.facets);
        expect(a.watertight ? "yes" : "no").toBe(tool.manifold);
        expect(a.openEdges).toBe(tool.openEdges);
        expect(a.bodyCount).toBe(tool.parts);
        expectSameBounds(a, tool.min, tool.max);
        if (model.closed) expectClose(a.volume, tool.volume, a.volume);
      }, 60_000);
    }
  },
);
