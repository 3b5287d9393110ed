/**
 * npm run db:migrate: applies the migrations in drizzle/ to the configured database (DATABASE_URL,
 * or the embedded database in $DATA_DIR) and exits. The shop also migrates at start-up; this is
 * for deploys that migrate before starting new instances. Never run it on a PGlite folder that a
 * running shop holds.
 */
import "./lib/use-app-alias.ts";

const { env } = await import("~/config/env.server.ts");
const { openDatabase, pgliteFolder } = await import("~/adapters/db/index.server.ts");

const config = env();
const started = Date.now();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: pgliteFolder(config.dataDir),
});
await database.close();
console.log(`Migrations applied (${database.kind}) in ${Date.now() - started} ms.`);
