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
    listen(channel, onNotification, onState) {
      return listenOnPostgres(connectionString, channel, onNotification, onState);
    },
    async ping() {
      await pool.query("select 1");
    },
    async close() {
      await pool.end();
    },
  };
  return handle;
}

/** How often the listening connection is checked (a silently dropped one would miss changes). */
const LISTEN_CHECK_MS = 15_000;

/**
 * LISTEN on a connection of its own, outside the pool. A connection that can't be opened or is
 * lost reports `onState(false)` and is tried again after 1 s, then up to 30 s apart.
 */
async function listenOnPostgres(
  connectionString: string,
  channel: string,
  onNotification: () => void,
  onState: (listening: boolean) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 1_000;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let checkTimer: ReturnType<typeof setInterval> | undefined;
  const identifier = pg.escapeIdentifier(channel);

  const lost = (current: pg.Client) => {
    if (client !== current) return;
    client = null;
    clearInterval(checkTimer);
    onState(false);
    current.end().catch(() => {});
    if (stopped) return;
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  const connect = async (): Promise<void> => {
    const current = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: `layerkart listen ${channel}`,
    });
    current.on("error", () => lost(current));
    current.on("end", () => lost(current));
    current.on("notification", (message) => {
      if (message.channel === channel) onNotification();
    });
    client = current;
    try {
      await current.connect();
      await current.query(`LISTEN ${identifier}`);
    } catch {
      lost(current);
      return;
    }
    if (stopped || client !== current) return;
    retryMs = 1_000;
    checkTimer = setInterval(() => {
      // A connection cut without a reset never answers: no answer in 5 s counts as lost.
      const deadline = setTimeout(() => lost(current), 5_000);
      current
        .query("select 1")
        .then(() => clearTimeout(deadline))
        .catch(() => {
          clearTimeout(deadline);
          lost(current);
        });
    }, LISTEN_CHECK_MS);
    checkTimer.unref();
    onState(true);
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(checkTimer);
    const current = client;
    client = null;
    onState(false);
    await current?.end().catch(() => {});
  };
}
