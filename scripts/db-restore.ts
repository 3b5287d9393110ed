/**
 * npm run db:restore -- <file>
 *
 * Restores a backup made by npm run db:backup into the configured database (DATABASE_URL, or the
 * embedded database in $DATA_DIR), which must be empty: it refuses to merge into an existing shop.
 * Migrations newer than the backup are applied when the shop next starts (or by db:migrate).
 */
import { parseArgs } from "node:util";
import "./lib/use-app-alias.ts";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
if (positionals.length !== 1) {
  console.error("Usage: npm run db:restore -- <file>");
  process.exit(2);
}

const { env } = await import("~/config/env.server.ts");
const { BackupError, restoreDatabase } = await import("~/adapters/db/backup.server.ts");

const config = env();
const started = Date.now();
try {
  const result = await restoreDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir },
    positionals[0],
  );
  console.log(`Restored ${positionals[0]} (${result.kind}) in ${Date.now() - started} ms.`);
  const pending = result.migrationsKnown - result.migrationsApplied;
  if (pending > 0) {
    console.log(
      `The backup has ${result.migrationsApplied} of ${result.migrationsKnown} migrations: the shop applies the other ${pending} when it starts (or run npm run db:migrate).`,
    );
  } else if (pending < 0) {
    console.log(
      `The backup has ${result.migrationsApplied} migrations, more than this version of LayerKart knows (${result.migrationsKnown}): run it with the version that made the backup, or newer.`,
    );
  } else {
    console.log(`Its schema is up to date (${result.migrationsApplied} migrations).`);
  }
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Restore failed: ${error.message}`);
  process.exit(1);
}
