import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "~/adapters/db/index.server.ts";

export type TestDbKind = "pglite" | "postgres";

export const testDbKind = (): TestDbKind =>
  process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

export const adminDatabaseUrl = () =>
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = DatabaseHandle & {
  /** Connection string of the fresh PostgreSQL database; undefined on PGlite. */
  url: string | undefined;
  destroy(): Promise<void>;
};

/** A fresh PostgreSQL database URL (created now) plus a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lk_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminDatabaseUrl() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A migrated, empty database of the kind this test project runs on: an in-memory PGlite, or a new
 * database on the PostgreSQL server, dropped by destroy().
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDbKind() === "pglite") {
    const handle = await openDatabase({});
    return {
      ...handle,
      kind: handle.kind,
      db: handle.db,
      url: undefined,
      destroy: () => handle.close(),
    };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: created.url });
  return {
    kind: handle.kind,
    db: handle.db,
    ping: () => handle.ping(),
    listen: (channel, onNotification, onState) => handle.listen(channel, onNotification, onState),
    close: () => handle.close(),
    url: created.url,
    async destroy() {
      await handle.close();
      await created.drop();
    },
  };
}
