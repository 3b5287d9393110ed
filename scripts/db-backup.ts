/**
 * npm run db:backup -- [file]
 *
 * Backs up the configured database: with DATABASE_URL, a pg_dump custom-format file (a consistent
 * snapshot, safe while the shop runs); without it, a tarball of the embedded database in
 * $DATA_DIR, which needs the shop stopped (one process per data folder). Without a file name it
 * writes $DATA_DIR/backups/layerkart-<kind>-<UTC time>.<dump|tar.gz>.
 */
import { parseArgs } from "node:util";
import "./lib/use-app-alias.ts";

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
if (positionals.length > 1) {
  console.error("Usage: npm run db:backup -- [file]");
  process.exit(2);
}

const { env } = await import("~/config/env.server.ts");
const { BackupError, backupDatabase, defaultBackupFile } = await import(
  "~/adapters/db/backup.server.ts"
);

const config = env();
const target = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
const started = Date.now();
try {
  const result = await backupDatabase(target, positionals[0] ?? defaultBackupFile(target));
  const mb = (result.bytes / 1024 / 1024).toFixed(2);
  console.log(
    `Backup (${result.kind}) written to ${result.file} (${result.bytes} bytes, ${mb} MB) in ${Date.now() - started} ms.`,
  );
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exit(1);
}
