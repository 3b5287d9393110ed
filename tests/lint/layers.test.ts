import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/*
 * The layers of README.md's "Project layout", as biome.json's per-folder noRestrictedImports
 * enforce them: for each folder, a file that breaks its rule is written into it and Biome must
 * refuse each of its imports (type-only ones too); a file keeping the rules must pass.
 */

const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");
const run = promisify(execFile);

/**
 * Biome's noRestrictedImports findings (1-based line numbers) for a temporary file. Only that rule
 * runs: with every rule, noImportCycles scans the whole project on each call.
 */
async function refusedLines(folder: string, name: string, imports: string[]): Promise<number[]> {
  const file = path.join(root, folder, `${name}-${process.pid}.ts`);
  const source = `${imports.join("\n")}\n`;
  try {
    await writeFile(file, source);
    const output = await run(
      biome,
      ["lint", "--only=style/noRestrictedImports", "--max-diagnostics=none", file],
      { cwd: root },
    ).then(
      (r) => r.stdout + r.stderr,
      (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
    );
    const pattern = /:(\d+):\d+ lint\/style\/noRestrictedImports/g;
    return [...new Set([...output.matchAll(pattern)].map((m) => Number(m[1])))].sort(
      (a, b) => a - b,
    );
  } finally {
    await rm(file, { force: true });
  }
}

const lines = (imports: string[]) => imports.map((_, i) => i + 1);

const cases: Array<{ folder: string; forbidden: string[]; allowed: string[] }> = [
  {
    folder: "app/rules",
    forbidden: [
      'import type { Product } from "~/db/schema.ts";',
      'import { products } from "../db/schema.ts";',
      'import type { Cart } from "~/modules/cart/cart.server.ts";',
      'import type { Database } from "~/adapters/db/index.server.ts";',
      'import { cn } from "~/lib/cn.ts";',
      'import type { Route } from "~/routes/+types/home";',
      'import { Button } from "~/components/ui/button";',
      'import type { Runtime } from "~/runtime.server.ts";',
      'import { log } from "../lib/log.server.ts";',
    ],
    allowed: ['import { formatPaise } from "./money.ts";', 'import { z } from "zod";'],
  },
  {
    folder: "app/modules/catalog",
    forbidden: [
      'import type { Route } from "~/routes/+types/home";',
      'import { loader } from "../../routes/home.tsx";',
      'import { Button } from "~/components/ui/button";',
      'import { runtime } from "~/runtime.server.ts";',
      'import type { Runtime } from "../../runtime.server.ts";',
    ],
    allowed: [
      'import { products } from "~/db/schema.ts";',
      'import type { Database } from "~/adapters/db/index.server.ts";',
      'import { formatPaise } from "~/rules/money.ts";',
      'import { log } from "~/lib/log.server.ts";',
    ],
  },
  {
    folder: "app/components/product",
    forbidden: [
      'import type { Route } from "~/routes/+types/product";',
      'import type { Viewer } from "~/modules/accounts/viewer.server.ts";',
      'import type { Product } from "~/db/schema.ts";',
      'import type { ProductImage } from "../../db/schema.ts";',
    ],
    allowed: [
      'import { Button } from "~/components/ui/button";',
      'import type { ProductImage } from "~/rules/stored-shapes.ts";',
    ],
  },
  {
    folder: "app/adapters/mail",
    forbidden: [
      'import { sendOrderEmail } from "~/modules/orders/orders.server.ts";',
      'import type { Viewer } from "../../modules/accounts/viewer.server.ts";',
    ],
    allowed: ['import { log } from "~/lib/log.server.ts";'],
  },
  {
    folder: "app/lib",
    forbidden: [
      'import { jobCounts } from "~/modules/jobs/jobs.server.ts";',
      'import { runtime } from "~/runtime.server.ts";',
      'import type { Runtime } from "../runtime.server.ts";',
    ],
    allowed: ['import type { Database } from "~/adapters/db/index.server.ts";'],
  },
  {
    folder: "app/routes",
    forbidden: ['import { insertProduct } from "../../tests/support/factories.ts";'],
    allowed: [
      'import { runtime } from "~/runtime.server.ts";',
      'import { listProducts } from "~/modules/catalog/products.server.ts";',
    ],
  },
];

describe("the layers' import rules (biome.json)", () => {
  for (const { folder, forbidden, allowed } of cases) {
    it(`${folder}: refuses what the layer may not import, accepts what it may`, async () => {
      expect(await refusedLines(folder, "layers-refused", forbidden)).toEqual(lines(forbidden));
      expect(await refusedLines(folder, "layers-allowed", allowed)).toEqual([]);
    }, 30_000);
  }
});
