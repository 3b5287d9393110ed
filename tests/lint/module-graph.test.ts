import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Decision 0011: the domain modules depend on each other one way. Biome's noImportCycles sees
 * cycles between files; this sees them between modules (app/modules/<name>), where a cycle is
 * two folders that each import the other through different files. Only value imports count:
 * `import type` is erased and cuts no cycle at run time.
 */

const root = path.resolve(import.meta.dirname, "../..");
const modulesDir = path.join(root, "app/modules");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** The module names a file imports values from. */
function valueImports(file: string, source: string): string[] {
  const out: string[] = [];
  const statement = /^(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["']/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue; // import type / export type
    // `a`, `{ a, type B }`, `a, { b }`, `* as a`: every name, braces or not.
    const specifiers = m[3].replace(/[{}]/g, ",").split(",");
    const valued = specifiers.map((s) => s.trim()).filter((s) => s && !s.startsWith("type "));
    if (valued.length === 0) continue;
    const target = m[4].startsWith("~/")
      ? path.join(root, "app", m[4].slice(2))
      : m[4].startsWith(".")
        ? path.resolve(path.dirname(file), m[4])
        : null;
    if (!target) continue;
    const rel = path.relative(modulesDir, target);
    if (rel.startsWith("..")) continue;
    out.push(rel.split(path.sep)[0]);
  }
  return out;
}

function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(modulesDir)) {
    const from = path.relative(modulesDir, file).split(path.sep)[0];
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const to of valueImports(file, readFileSync(file, "utf8"))) if (to !== from) edges.add(to);
  }
  return graph;
}

/** Every cycle, each as the path of module names that closes it. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (m: string) => {
    state.set(m, "visiting");
    stack.push(m);
    for (const n of graph.get(m) ?? []) {
      if (state.get(n) === "visiting") found.push([...stack.slice(stack.indexOf(n)), n]);
      else if (!state.has(n)) visit(n);
    }
    stack.pop();
    state.set(m, "done");
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

describe("the modules' import graph", () => {
  it("has no cycle between modules (value imports)", () => {
    expect(cycles(moduleGraph()).map((c) => c.join(" → "))).toEqual([]);
  });

  it("orders and inventory import neither checkout nor payments", () => {
    const graph = moduleGraph();
    for (const m of ["orders", "inventory", "cart"]) {
      expect([...(graph.get(m) ?? [])]).not.toContain("checkout");
      expect([...(graph.get(m) ?? [])]).not.toContain("payments");
    }
  });

  it("finds a cycle when there is one, and ignores type-only imports", () => {
    const g = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
    ]);
    expect(cycles(g)).toEqual([["a", "b", "c", "a"]]);
    const file = path.join(modulesDir, "x/x.server.ts");
    expect(
      valueImports(
        file,
        [
          'import type { A } from "~/modules/a/a.server.ts";',
          'import { type B } from "~/modules/b/b.server.ts";',
          'import { c, type C } from "~/modules/c/c.server.ts";',
          'import { type F, f } from "~/modules/f/f.server.ts";',
          'import d from "../d/d.server.ts";',
          'export { e } from "~/modules/e/e.server.ts";',
          'import { z } from "zod";',
        ].join("\n"),
      ),
    ).toEqual(["c", "f", "d", "e"]);
  });
});
