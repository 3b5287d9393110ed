import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import * as schema from "~/db/schema.ts";
import { countDatabaseQuery } from "~/lib/request-context.server.ts";
import type { Database, DatabaseHandle } from "./types.ts";

/**
 * Embedded PostgreSQL (WASM), persisted in a folder. One process may hold a folder at a time, and
 * statements run one at a time: inside a transaction use only the transaction handle.
 * `folder` undefined gives an in-memory database (tests).
 */
export async function openPglite(folder: string | undefined, migrationsFolder: string) {
  if (folder) mkdirSync(folder, { recursive: true });
  const client = await PGlite.create({
    ...(folder ? { dataDir: folder } : {}),
    extensions: { pg_trgm, fuzzystrmatch },
  });
  const db = drizzle({ client, schema, logger: { logQuery: countDatabaseQuery } });
  await migrate(db, { migrationsFolder });
  const handle: DatabaseHandle = {
    kind: "pglite",
    db: db as unknown as Database,
    async listen(channel, onNotification, onState) {
      // One process owns the embedded database, so its own notifications are all there are.
      const unlisten = await client.listen(channel, onNotification);
      onState(true);
      return async () => {
        onState(false);
        if (!client.closed) await unlisten();
      };
    },
    async ping() {
      await client.query("select 1");
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
  return handle;
}

export const pgliteFolder = (dataDir: string) => path.join(dataDir, "pglite");
