import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Decision 0011: only app/modules/orders writes the orders table (an order's status and payment
 * status among its columns), and only app/modules/inventory changes a product's stock count or
 * in-stock flag. A new product's first count is part of creating it (an insert), which this test
 * doesn't count as a change.
 */

const root = path.resolve(import.meta.dirname, "../..");

function appFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return appFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const sources = appFiles(path.join(root, "app")).map((file) => ({
  file: path.relative(root, file),
  text: readFileSync(file, "utf8"),
}));

/** The `.set(…)` arguments of every `.update(<table>)` call in a source. */
function updateSets(text: string, table: string): string[] {
  const out: string[] = [];
  const call = new RegExp(`\\.update\\(${table}\\)\\s*\\.set\\(`, "g");
  for (const m of text.matchAll(call)) {
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    const start = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === "(") depth += 1;
      else if (text[i] === ")") depth -= 1;
    }
    out.push(text.slice(start, i - 1));
  }
  return out;
}

describe("who writes what (decision 0011)", () => {
  it("only app/modules/orders writes the orders table", () => {
    const writers = sources
      .filter((s) => /\.(update|insert|delete)\(orders\)/.test(s.text))
      .map((s) => s.file);
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((f) => !f.startsWith("app/modules/orders/"))).toEqual([]);
  });

  it("only app/modules/inventory changes stock counts", () => {
    const changers = sources
      .filter((s) => updateSets(s.text, "products").some((set) => /stockCount|inStock/.test(set)))
      .map((s) => s.file);
    expect(changers).toContain("app/modules/inventory/inventory.server.ts");
    expect(changers.filter((f) => !f.startsWith("app/modules/inventory/"))).toEqual([]);
  });

  it("only app/modules/inventory changes a variant's stock (decision 0015)", () => {
    const changers = sources
      .filter((s) =>
        updateSets(s.text, "(?:productVariants|variantsTable)").some((set) =>
          /stockCount|inStock/.test(set),
        ),
      )
      .map((s) => s.file);
    expect(changers).toEqual(["app/modules/inventory/inventory.server.ts"]);
  });

  it("reads a .set(…) argument whole, nested calls included", () => {
    const text = "tx.update(products).set({ stockCount: sql(a, f(b)), x: 1 }).where(y)";
    expect(updateSets(text, "products")).toEqual(["{ stockCount: sql(a, f(b)), x: 1 }"]);
  });
});
