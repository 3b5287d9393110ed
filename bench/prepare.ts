/**
 * Prepares a bench data set: a fresh data folder (and, for PostgreSQL, a fresh database
 * `layerkart_bench_<random>`), demo-seeded by the real built server (so products have real stored
 * images), then filled up to N products by bench/seed-catalog.ts.
 *
 *   node bench/prepare.ts --db pglite   --data-dir .tmp/bench/pglite   [--count 10000]
 *   node bench/prepare.ts --db postgres --data-dir .tmp/bench/postgres [--count 10000]
 *
 * Prints the DATA_DIR (and DATABASE_URL) to use. The PostgreSQL database stays until you drop it
 * (`node bench/prepare.ts --drop postgres://…/layerkart_bench_xxx`); bench/http.ts --fresh does
 * all of this itself and drops the database afterwards.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { createDatabase, dropDatabase, parseArgs, root, runScript, startServer } from "./lib.ts";

export type Prepared = { dataDir: string; databaseUrl?: string };

export async function prepare(options: {
  db: "pglite" | "postgres";
  dataDir: string;
  count: number;
  buildDir?: string;
}): Promise<Prepared> {
  const dataDir = path.resolve(root, options.dataDir);
  if (!dataDir.startsWith(path.join(root, ".tmp") + path.sep)) {
    throw new Error(`--data-dir must be under .tmp/ (it is emptied first): ${dataDir}`);
  }
  rmSync(dataDir, { recursive: true, force: true });
  const databaseUrl = options.db === "postgres" ? await createDatabase() : undefined;
  try {
    const t0 = Date.now();
    // First start: migrate and demo-seed (images drawn and stored under dataDir/uploads).
    const server = await startServer({
      dataDir,
      databaseUrl,
      buildDir: options.buildDir,
      seedDemo: "auto",
    });
    await server.stop();
    console.log(`demo seed: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await runScript("seed-catalog.ts", [
      "--count",
      String(options.count),
      ...(databaseUrl ? ["--database-url", databaseUrl] : ["--data-dir", dataDir]),
    ]);
    return { dataDir, databaseUrl };
  } catch (error) {
    if (databaseUrl) await dropDatabase(databaseUrl);
    throw error;
  }
}

if (import.meta.main) {
  const args = parseArgs();
  if (args.has("drop")) {
    await dropDatabase(args.get("drop")!);
    console.log("dropped");
  } else {
    const db = args.get("db") ?? "pglite";
    if (db !== "pglite" && db !== "postgres") throw new Error("--db pglite|postgres");
    const result = await prepare({
      db,
      dataDir: args.get("data-dir") ?? `.tmp/bench/${db}`,
      count: Number(args.get("count") ?? 10_000),
      buildDir: args.get("build-dir"),
    });
    console.log(`DATA_DIR=${path.relative(root, result.dataDir)}`);
    if (result.databaseUrl) console.log(`DATABASE_URL=${result.databaseUrl}`);
  }
}
