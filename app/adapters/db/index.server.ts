import path from "node:path";
import { openPglite, pgliteFolder } from "./pglite.server.ts";
import { openPostgres } from "./postgres.server.ts";
import type { DatabaseHandle } from "./types.ts";

export type { Database, DatabaseHandle, DatabaseKind, Tx } from "./types.ts";

export const migrationsFolder = () => path.resolve(process.cwd(), "drizzle");

export type OpenDatabaseOptions = {
  /** postgres:// URL; unset selects the embedded database. */
  databaseUrl?: string;
  /** Folder for the embedded database; undefined with no databaseUrl gives an in-memory one. */
  pgliteDir?: string;
  onPoolError?: (error: Error) => void;
};

/** Opens the configured database and brings its schema up to date. */
export function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, migrationsFolder(), options.onPoolError ?? (() => {}));
  }
  return openPglite(options.pgliteDir, migrationsFolder());
}

export { pgliteFolder };
