import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { migrationsFolder } from "./index.server.ts";
import { pgliteFolder } from "./pglite.server.ts";

/*
 * Backups of the shop's database. PostgreSQL: pg_dump's custom format (one MVCC snapshot, safe
 * while the shop runs), restored with pg_restore. PGlite: a gzip tarball of the data folder made
 * by PGlite itself (dumpDataDir), which needs the folder to itself: only one process may open it.
 * Both restore only into an empty database, so a restore never merges into a live shop.
 */

/** A failure whose message is meant for the operator as is (the scripts print it, exit 1). */
export class BackupError extends Error {
  override name = "BackupError";
}

export type BackupKind = "postgres" | "pglite";

export type BackupTarget = { databaseUrl: string | undefined; dataDir: string };

const kindOf = (target: BackupTarget): BackupKind => (target.databaseUrl ? "postgres" : "pglite");

/** `$DATA_DIR/backups/layerkart-<kind>-<UTC timestamp>.<ext>` */
export function defaultBackupFile(target: BackupTarget, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:]/g, "");
  const kind = kindOf(target);
  const ext = kind === "postgres" ? "dump" : "tar.gz";
  return path.join(target.dataDir, "backups", `layerkart-${kind}-${stamp}.${ext}`);
}

/** The migrations this build knows (drizzle/meta/_journal.json). */
export function knownMigrationCount(): number {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
  ) as { entries: unknown[] };
  return journal.entries.length;
}

// ---------------------------------------------------------------------------------------------
// The PGlite folder lock

/*
 * PGlite writes postmaster.pid into its folder while open and removes it on close, but it also
 * opens a folder that still has one (a crashed process), so the file alone can't tell "open now"
 * from "not closed cleanly". The lock file beside the folder names the process holding it, which
 * can be checked.
 */
const lockFile = (dataDir: string) => path.join(dataDir, "pglite.lock");

type LockInfo = { pid: number; host: string; purpose: string; since: string };

function readLock(dataDir: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(lockFile(dataDir), "utf8")) as LockInfo;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder refreshes its lock file this often; one not refreshed for 3 beats is stale. */
const HEARTBEAT_MS = 10_000;
const heartbeats = new Map<string, NodeJS.Timeout>();

function refreshedRecently(dataDir: string): boolean {
  try {
    return Date.now() - statSync(lockFile(dataDir)).mtimeMs < 3 * HEARTBEAT_MS;
  } catch {
    return false;
  }
}

/** The lock's holder when another live process holds it. */
function liveHolder(dataDir: string): LockInfo | undefined {
  const lock = readLock(dataDir);
  if (!lock) return undefined;
  // Another host's process can't be looked up: it is alive while it keeps its lock fresh (a
  // container recreated under a new host name must not be locked out by its old self).
  if (lock.host !== hostname()) return refreshedRecently(dataDir) ? lock : undefined;
  // Our own pid in the file: a previous life of this process (a restarted container's pid 1).
  if (lock.pid === process.pid) return undefined;
  return processAlive(lock.pid) ? lock : undefined;
}

const describeHolder = (lock: LockInfo) =>
  `${lock.purpose} (process ${lock.pid} on ${lock.host}, since ${lock.since})`;

/**
 * Marks the embedded database in `dataDir` as open by this process; throws a BackupError when
 * another live process holds it. Call before opening the folder; releasePgliteLock after closing.
 */
export function holdPgliteLock(dataDir: string, purpose = "the shop"): void {
  const holder = liveHolder(dataDir);
  if (holder) {
    throw new BackupError(
      `The embedded database in ${pgliteFolder(dataDir)} is in use by ${describeHolder(holder)}. ` +
        `Only one process may open it: stop that process first. If it is certainly not running, ` +
        `delete ${lockFile(dataDir)}.`,
    );
  }
  const lock: LockInfo = {
    pid: process.pid,
    host: hostname(),
    purpose,
    since: new Date().toISOString(),
  };
  mkdirSync(dataDir, { recursive: true });
  const content = `${JSON.stringify(lock)}\n`;
  try {
    writeFileSync(lockFile(dataDir), content, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // A stale lock (its process is gone): replace it, unless another process just took it.
    try {
      unlinkSync(lockFile(dataDir));
    } catch {}
    try {
      writeFileSync(lockFile(dataDir), content, { flag: "wx" });
    } catch {
      throw new BackupError(
        `Another process took the lock on ${pgliteFolder(dataDir)} at the same moment: retry.`,
      );
    }
  }
  clearInterval(heartbeats.get(dataDir));
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(lockFile(dataDir), now, now);
    } catch {}
  }, HEARTBEAT_MS);
  beat.unref();
  heartbeats.set(dataDir, beat);
}

/** Removes this process's lock (never another process's). */
export function releasePgliteLock(dataDir: string): void {
  clearInterval(heartbeats.get(dataDir));
  heartbeats.delete(dataDir);
  const lock = readLock(dataDir);
  if (lock && lock.pid === process.pid && lock.host === hostname()) {
    try {
      unlinkSync(lockFile(dataDir));
    } catch {}
  }
}

/**
 * Refuses when the folder may be open in another process: a live lock holder, or a
 * postmaster.pid without a lock that explains it (a shop that doesn't take the lock, or
 * db:migrate / create-admin running, or a process that didn't shut down cleanly).
 */
export function assertPgliteIdle(dataDir: string): void {
  const holder = liveHolder(dataDir);
  const folder = pgliteFolder(dataDir);
  if (holder) {
    throw new BackupError(
      `The embedded database in ${folder} is in use by ${describeHolder(holder)}. ` +
        `Stop the shop first (PGlite allows one process per folder), then run this again.`,
    );
  }
  if (existsSync(path.join(folder, "postmaster.pid")) && !readLock(dataDir)) {
    throw new BackupError(
      `The embedded database in ${folder} is open in another process (it has a postmaster.pid): ` +
        `the shop, or npm run db:migrate / create-admin. Stop the shop first (PGlite allows one ` +
        `process per folder), then run this again. If nothing is running, the last process did ` +
        `not shut down cleanly: start the shop and stop it once, then retry.`,
    );
  }
}

async function withPgliteLock<T>(dataDir: string, purpose: string, run: () => Promise<T>) {
  await mkdir(dataDir, { recursive: true });
  assertPgliteIdle(dataDir);
  holdPgliteLock(dataDir, purpose);
  try {
    return await run();
  } finally {
    releasePgliteLock(dataDir);
  }
}

const pgliteExtensions = { pg_trgm, fuzzystrmatch };

// ---------------------------------------------------------------------------------------------
// Backup

export type BackupResult = { kind: BackupKind; file: string; bytes: number };

/** Writes a backup of the configured database to `file` (atomically: a failed one leaves none). */
export async function backupDatabase(target: BackupTarget, file: string): Promise<BackupResult> {
  const kind = kindOf(target);
  const dest = path.resolve(file);
  await mkdir(path.dirname(dest), { recursive: true });
  const partial = `${dest}.partial`;
  try {
    if (target.databaseUrl) await pgDump(target.databaseUrl, partial);
    else await pgliteDump(target.dataDir, partial);
    await rename(partial, dest);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { kind, file: dest, bytes: (await stat(dest)).size };
}

async function pgDump(databaseUrl: string, out: string) {
  await runTool("pg_dump", databaseUrl, [
    "--format=custom",
    "--no-owner",
    "--no-privileges",
    `--file=${out}`,
  ]);
  // The whole database is dumped (public, the drizzle migrations schema, the extensions); a
  // dump without the migration bookkeeping would make the shop re-run every migration.
  const list = await runTool("pg_restore", undefined, ["--list", out]);
  if (!/TABLE DATA drizzle __drizzle_migrations/.test(list)) {
    throw new BackupError(
      "The dump has no drizzle.__drizzle_migrations table: is DATABASE_URL the shop's database " +
        "(has the shop started on it once)?",
    );
  }
}

async function pgliteDump(dataDir: string, out: string) {
  const folder = pgliteFolder(dataDir);
  if (!existsSync(path.join(folder, "PG_VERSION"))) {
    throw new BackupError(
      `There is no embedded database in ${folder} (DATA_DIR=${dataDir}, DATABASE_URL unset).`,
    );
  }
  await withPgliteLock(dataDir, "npm run db:backup", async () => {
    const client = await PGlite.create({ dataDir: folder, extensions: pgliteExtensions });
    try {
      // Writes every changed page into the data files, so the copy needs no WAL replay.
      await client.query("checkpoint");
      const tarball = await client.dumpDataDir("gzip");
      await writeFile(out, new Uint8Array(await tarball.arrayBuffer()));
    } finally {
      await client.close();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Restore

export type RestoreResult = {
  kind: BackupKind;
  /** Migrations recorded in the restored database, and how many this build has. */
  migrationsApplied: number;
  migrationsKnown: number;
};

async function sniff(file: string): Promise<BackupKind | undefined> {
  const handle = await open(file, "r").catch(() => {
    throw new BackupError(`Cannot read the backup file ${file}.`);
  });
  try {
    const head = Buffer.alloc(262);
    await handle.read(head, 0, head.length, 0);
    if (head.subarray(0, 5).toString("latin1") === "PGDMP") return "postgres";
    if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
    if (head.subarray(257, 262).toString("latin1") === "ustar") return "pglite";
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Restores `file` into the configured database, which must be empty. */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<RestoreResult> {
  const kind = kindOf(target);
  const source = path.resolve(file);
  const format = await sniff(source);
  if (!format) {
    throw new BackupError(
      `${file} is not a LayerKart backup (neither a pg_dump nor a PGlite one).`,
    );
  }
  if (format !== kind) {
    throw new BackupError(
      format === "postgres"
        ? `${file} is a PostgreSQL (pg_dump) backup: set DATABASE_URL to the empty PostgreSQL database to restore it into.`
        : `${file} is a backup of the embedded database (PGlite): unset DATABASE_URL and set DATA_DIR to restore it.`,
    );
  }
  const migrationsApplied = target.databaseUrl
    ? await pgRestore(target.databaseUrl, source)
    : await pgliteRestore(target.dataDir, source);
  return { kind, migrationsApplied, migrationsKnown: knownMigrationCount() };
}

async function pgRestore(databaseUrl: string, file: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ tables: number; drizzle: boolean }>(
      `select (select count(*)::int from pg_tables where schemaname = 'public') as tables,
              exists (select 1 from pg_namespace where nspname = 'drizzle') as drizzle`,
    );
    if (rows[0].tables > 0 || rows[0].drizzle) {
      throw new BackupError(
        `The database ${describeUrl(databaseUrl)} is not empty (${rows[0].tables} tables in public` +
          `${rows[0].drizzle ? ", a drizzle migrations schema" : ""}). A restore never merges ` +
          `into an existing shop: create a new empty database (createdb NAME), point ` +
          `DATABASE_URL at it and run this again.`,
      );
    }
  } finally {
    await client.end();
  }
  await runTool("pg_restore", databaseUrl, [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    file,
  ]);
  const after = new pg.Client({ connectionString: databaseUrl });
  await after.connect();
  try {
    const { rows } = await after.query<{ n: number }>(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
    );
    return rows[0].n;
  } finally {
    await after.end();
  }
}

async function pgliteRestore(dataDir: string, file: string): Promise<number> {
  const folder = pgliteFolder(dataDir);
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new BackupError(
      `The embedded database folder ${folder} is not empty. A restore never merges into an ` +
        `existing shop: stop the shop, move that folder aside (or use a new DATA_DIR) and run ` +
        `this again.`,
    );
  }
  return withPgliteLock(dataDir, "npm run db:restore", async () => {
    const tarball = new Blob([new Uint8Array(await readFile(file))]);
    try {
      const client = await PGlite.create({
        dataDir: folder,
        loadDataDir: tarball,
        extensions: pgliteExtensions,
      });
      try {
        const { rows } = await client.query<{ n: number }>(
          "select count(*)::int as n from drizzle.__drizzle_migrations",
        );
        return rows[0].n;
      } finally {
        await client.close();
      }
    } catch (error) {
      // Leave no half-restored folder behind: the shop would start on it.
      rmSync(folder, { recursive: true, force: true });
      if (error instanceof BackupError) throw error;
      throw new BackupError(`Restoring ${file} failed: ${(error as Error).message}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// pg_dump / pg_restore

/** The URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return "(DATABASE_URL)";
  }
}

/**
 * Runs a PostgreSQL client tool against `databaseUrl`, returning its stdout. The password goes in
 * PGPASSWORD, not the command line, where other users of the machine could read it.
 */
function runTool(
  tool: "pg_dump" | "pg_restore",
  databaseUrl: string | undefined,
  args: string[],
): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const fullArgs = [...args];
  if (databaseUrl) {
    const u = new URL(databaseUrl);
    if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = "";
    fullArgs.unshift(`--dbname=${u.toString()}`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(tool, fullArgs, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${tool} was not found on PATH. Install the PostgreSQL client tools, at the same or a ` +
                `newer major version than the server (Debian/Ubuntu: apt install postgresql-client; ` +
                `Alpine: apk add postgresql-client; macOS: brew install libpq).`,
            )
          : error,
      );
    });
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else {
        reject(
          new BackupError(
            `${tool} failed (exit code ${code}) on ${databaseUrl ? describeUrl(databaseUrl) : "the backup file"}:\n${stderr.trim()}`,
          ),
        );
      }
    });
  });
}
