import { BackupError, holdPgliteLock, releasePgliteLock } from "~/adapters/db/backup.server.ts";

/**
 * For a script that opens the configured database: on the embedded database, takes the data
 * folder's lock or exits with a message naming the holder (the shop, a backup …). Returns the
 * release to call when done. Import it dynamically, after ./use-app-alias.ts.
 */
export function lockEmbeddedOrExit(
  config: { databaseUrl: string | undefined; dataDir: string },
  purpose: string,
): () => void {
  if (config.databaseUrl) return () => {};
  try {
    holdPgliteLock(config.dataDir, purpose);
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  return () => releasePgliteLock(config.dataDir);
}
