import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "~/db/schema.ts";

/** The Drizzle database the modules use; the same type on PGlite and on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction handed to `db.transaction(async (tx) => …)`: modules pass it to keep one change in one transaction. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  readonly kind: DatabaseKind;
  readonly db: Database;
  /**
   * Hears the notifications sent on a channel (NOTIFY, delivered after the sending transaction
   * commits). `onState(true)` once listening, `onState(false)` whenever notifications may be
   * missed (a lost connection, which is retried). Resolves to a function that stops listening.
   */
  listen(
    channel: string,
    onNotification: () => void,
    onState: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
