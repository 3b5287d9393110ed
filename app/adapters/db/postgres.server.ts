import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "~/db/schema.ts";
import { countDatabaseQuery } from "~/lib/request-context.server.ts";
import type { Database, DatabaseHandle } from "./types.ts";

// Any fixed number works: every process that migrates takes this lock first.
const MIGRATION_LOCK_KEY = 7_302_611;

/**
 * A PostgreSQL server through a connection pool. Migrations run under an advisory lock, so two
 * processes starting at once against one database apply them once, one after the other.
 */
export async function openPostgres(
  connectionString: string,
  migrationsFolder: string,
  onPoolError: (error: Error) => void,
) {
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (e.g. a database restart) must not end the process.
  pool.on("error", onPoolError);

  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }

  const db = drizzle({ client: pool, schema, logger: { logQuery: countDatabaseQuery } });
  const handle: DatabaseHandle = {
    kind: "postgres",
    db: db as unknown as Database,
    async ping() {
      await pool.query("select 1");
    },
    async close() {
      await pool.end();
    },
  };
  return handle;
}
