/**
 * npm run db:migrate: applies the migrations in drizzle/ to the configured database (DATABASE_URL,
 * or the embedded database in $DATA_DIR) and exits. The shop also migrates at start-up; this is
 * for deploys that migrate before starting new instances. On the embedded database it refuses
 * while the shop (or a backup) holds the folder.
 */
import "./lib/use-app-alias.ts";

const { env } = await import("~/config/env.server.ts");
const { openDatabase, pgliteFolder } = await import("~/adapters/db/index.server.ts");

const config = env();
const started = Date.now();
const { lockEmbeddedOrExit } = await import("./lib/embedded-lock.ts");
const release = lockEmbeddedOrExit(config, "db:migrate");
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: pgliteFolder(config.dataDir),
});
await database.close();
release();
console.log(`Migrations applied (${database.kind}) in ${Date.now() - started} ms.`);
