import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  holdPgliteLock,
  knownMigrationCount,
  releasePgliteLock,
} from "~/adapters/db/backup.server.ts";
import { type Database, openDatabase, pgliteFolder } from "~/adapters/db/index.server.ts";
import { orderItems, orders, paymentEvents, products, user } from "~/db/schema.ts";
import {
  freePort,
  projectRoot,
  type Started,
  startServer,
  stopServer,
  waitReady,
} from "../support/server-process.ts";
import { createPostgresDatabase } from "../support/test-database.ts";

/*
 * npm run db:backup / db:restore as an operator runs them: a backup of a running shop on
 * PostgreSQL, taken while orders keep arriving, restores into an empty database with every order
 * intact and the shop starts on it; the embedded database (PGlite) is backed up with the shop
 * stopped, and the backup refuses while the shop holds the folder.
 */

const secret = "backup-test-secret-backup-test-secret-0123";
const migrationsKnown = knownMigrationCount();
const dirs: string[] = [];
const servers: Started[] = [];
const drops: Array<() => Promise<void>> = [];

async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function startShop(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const s = startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_SECRET: secret,
    ALLOW_DEMO_SEED: "true",
    ALLOW_SANDBOX_PAYMENTS: "true",
    DEMO_ADMIN_PASSWORD: "backup-admin-password",
    LOG_LEVEL: "warning",
    ...env,
  });
  servers.push(s);
  await waitReady(s.port, s.child);
  return s;
}

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs scripts/<script> as `npm run` would, with the given variables instead of DATA_DIR/DATABASE_URL. */
function runScript(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join("scripts", script), ...args], {
      cwd: projectRoot,
      env: { ...base, NODE_ENV: "production", AUTH_SECRET: secret, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let orderSeq = 0;

/** An order with two items and a payment event, in one transaction (as checkout writes them). */
async function writeOrder(db: Database, userId: string, productIds: string[]) {
  const n = orderSeq++;
  const address = {
    addressId: null,
    label: "Home",
    name: "Asha Rao",
    line1: `${n} MG Road`,
    line2: null,
    city: "Bengaluru",
    state: "Karnataka",
    postalCode: "560001",
    country: "India",
    phone: "9876543210",
  };
  return db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        orderNumber: `ORD-20991231-${String(n).padStart(4, "0")}`,
        userId,
        status: "processing",
        subtotalPaise: 69_800,
        totalPaise: 70_797,
        shippingPaise: 999,
        shippingAddress: address,
        billingAddress: address,
        shippingMethod: { id: "standard", label: "Standard Shipping", costPaise: 999 },
        paymentMethod: "gateway",
        paymentProvider: "sandbox",
        paymentStatus: "paid",
        paymentTransactionId: `TX-${randomUUID()}`,
        paidAt: new Date(),
      })
      .returning();
    await tx.insert(orderItems).values(
      productIds.slice(0, 2).map((productId, i) => ({
        orderId: order.id,
        productId,
        name: `Item ${n}.${i}`,
        quantity: i + 1,
        unitPricePaise: 34_900,
      })),
    );
    await tx.insert(paymentEvents).values({
      provider: "sandbox",
      eventId: `EV-${randomUUID()}`,
      orderId: order.id,
      transactionId: order.paymentTransactionId ?? "",
      state: "COMPLETED",
      amountPaise: order.totalPaise,
      outcome: "applied",
    });
    return order.id;
  });
}

async function rowsOf(db: Database, table: string): Promise<Record<string, unknown>[]> {
  const result = (await db.execute(sql.raw(`select * from "${table}" order by 1`))) as unknown as {
    rows: Record<string, unknown>[];
  };
  return result.rows;
}

async function shopData(db: Database) {
  return {
    orders: await rowsOf(db, "orders"),
    order_items: await rowsOf(db, "order_items"),
    payment_events: await rowsOf(db, "payment_events"),
    user: await rowsOf(db, "user"),
    products: await rowsOf(db, "products"),
    migrations: (
      (await db.execute(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by id`,
      )) as unknown as { rows: unknown[] }
    ).rows,
  };
}

async function aCustomer(db: Database) {
  const id = randomUUID();
  await db.insert(user).values({ id, name: "Asha Rao", email: `asha-${id}@example.com` });
  return id;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  for (const drop of drops) await drop().catch(() => {});
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

let source: Awaited<ReturnType<typeof createPostgresDatabase>>;
let sourceDb: Awaited<ReturnType<typeof openDatabase>>;
let backupDir: string;
let pgliteDataDir: string;
let pgliteShop: Started;

// Both shops start at once: starting them is most of this file's time.
beforeAll(async () => {
  source = await createPostgresDatabase();
  drops.push(source.drop);
  backupDir = await tempDir("lk-backup-pg-");
  pgliteDataDir = await tempDir("lk-shop-pglite-");
  [, pgliteShop] = await Promise.all([
    startShop({
      DATABASE_URL: source.url,
      DATA_DIR: await tempDir("lk-shop-pg-"),
      SEED_DEMO: "auto",
    }),
    // No demo catalogue here (slow on PGlite): the PGlite test writes its own rows.
    startShop({ DATA_DIR: pgliteDataDir, SEED_DEMO: "never" }),
  ]);
  sourceDb = await openDatabase({ databaseUrl: source.url });
});

describe("PostgreSQL", () => {
  afterAll(async () => {
    await sourceDb?.close();
  });

  it("a backup of the running shop, taken while orders arrive, restores every order into an empty database, and the shop starts on it", async () => {
    const db = sourceDb.db;
    const productIds = (await db.select({ id: products.id }).from(products)).map((p) => p.id);
    expect(productIds.length).toBeGreaterThan(1);
    const customer = await aCustomer(db);
    for (let i = 0; i < 20; i++) await writeOrder(db, customer, productIds);
    const before = await shopData(db);

    // Orders keep arriving while pg_dump runs.
    const file = path.join(backupDir, "shop.dump");
    const backup = runScript("db-backup.ts", [file], {
      DATABASE_URL: source.url,
      DATA_DIR: backupDir,
    });
    const during: string[] = [];
    let done = false;
    const finished = backup.finally(() => {
      done = true;
    });
    while (!done) during.push(await writeOrder(db, customer, productIds));
    const result = await finished;
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(file);
    expect(result.stdout).toMatch(/\d+ bytes/);
    expect((await stat(file)).size).toBeGreaterThan(0);
    expect(existsSync(`${file}.partial`)).toBe(false);

    const target = await createPostgresDatabase();
    drops.push(target.drop);
    const restore = await runScript("db-restore.ts", [file], {
      DATABASE_URL: target.url,
      DATA_DIR: backupDir,
    });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`up to date (${migrationsKnown} migrations)`);

    // Read the restored database without migrating it (openDatabase would).
    const pg = (await import("pg")).default;
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new pg.Pool({ connectionString: target.url });
    try {
      const restored = await shopData(drizzle({ client: pool }) as unknown as Database);
      // Everything written before the backup started is there, identical.
      expect(restored.migrations).toHaveLength(migrationsKnown);
      expect(restored.migrations).toEqual(before.migrations);
      expect(restored.user).toEqual(before.user);
      expect(restored.products).toEqual(before.products);
      const byId = <T extends Record<string, unknown>>(rows: T[]) =>
        new Map(rows.map((r) => [r.id as string, r]));
      const restoredOrders = byId(restored.orders);
      for (const order of before.orders)
        expect(restoredOrders.get(order.id as string)).toEqual(order);
      const restoredItems = byId(restored.order_items);
      for (const item of before.order_items)
        expect(restoredItems.get(item.id as string)).toEqual(item);
      const restoredEvents = byId(restored.payment_events);
      for (const event of before.payment_events)
        expect(restoredEvents.get(event.id as string)).toEqual(event);

      // One snapshot: the orders written during the backup are there up to some point, none
      // after it, and each with all its items and its payment event.
      const kept = during.filter((id) => restoredOrders.has(id));
      expect(kept).toEqual(during.slice(0, kept.length));
      const after = await shopData(db);
      const orderIds = new Set(restored.orders.map((o) => o.id as string));
      expect(restored.order_items).toEqual(
        after.order_items.filter((i) => orderIds.has(i.order_id as string)),
      );
      expect(restored.payment_events).toEqual(
        after.payment_events.filter((e) => orderIds.has(e.order_id as string)),
      );
      expect(restored.orders.length).toBe(before.orders.length + kept.length);
    } finally {
      await pool.end();
    }

    // The shop starts on the restored database (no demo seed: the catalogue is the restored one).
    const shop = await startShop({
      DATABASE_URL: target.url,
      DATA_DIR: await tempDir("lk-shop-restored-"),
      SEED_DEMO: "never",
    });
    const page = await fetch(`http://127.0.0.1:${shop.port}/products`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const names = before.products.map((p) => String(p.name));
    expect(names.some((name) => html.includes(name))).toBe(true);
    await stopServer(shop);
  });

  it("a backup from an older schema restores, and the shop's migrations bring it forward", async () => {
    // A database at the previous schema version: every migration but the last.
    const old = await createPostgresDatabase();
    drops.push(old.drop);
    const folder = await tempDir("lk-old-migrations-");
    await cp(path.join(projectRoot, "drizzle"), folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8"));
    journal.entries.pop();
    await writeFile(journalFile, JSON.stringify(journal));
    const pg = (await import("pg")).default;
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: old.url });
    await migrate(drizzle({ client: pool }), { migrationsFolder: folder });
    await pool.end();

    const file = path.join(backupDir, "old.dump");
    expect(
      (await runScript("db-backup.ts", [file], { DATABASE_URL: old.url, DATA_DIR: backupDir }))
        .code,
    ).toBe(0);
    const target = await createPostgresDatabase();
    drops.push(target.drop);
    const restore = await runScript("db-restore.ts", [file], {
      DATABASE_URL: target.url,
      DATA_DIR: backupDir,
    });
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(
      `The backup has ${migrationsKnown - 1} of ${migrationsKnown} migrations`,
    );
    // What the shop does at start-up.
    const migrated = await openDatabase({ databaseUrl: target.url });
    try {
      const { rows } = (await migrated.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(rows[0].n).toBe(migrationsKnown);
    } finally {
      await migrated.close();
    }
  });

  it("refuses to restore into a database that isn't empty", async () => {
    const file = path.join(backupDir, "refuse.dump");
    expect(
      (await runScript("db-backup.ts", [file], { DATABASE_URL: source.url, DATA_DIR: backupDir }))
        .code,
    ).toBe(0);
    const countBefore = (await rowsOf(sourceDb.db, "orders")).length;
    const restore = await runScript("db-restore.ts", [file], {
      DATABASE_URL: source.url,
      DATA_DIR: backupDir,
    });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("is not empty");
    expect(restore.stderr).toContain("never merges");
    expect((await rowsOf(sourceDb.db, "orders")).length).toBe(countBefore);
  });

  it("fails with a clear message when the database can't be reached", async () => {
    const dir = await tempDir("lk-backup-unreachable-");
    const port = await freePort();
    const result = await runScript("db-backup.ts", [], {
      DATABASE_URL: `postgres://postgres:hunter2@127.0.0.1:${port}/nowhere`,
      DATA_DIR: dir,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Backup failed: pg_dump failed");
    expect(result.stderr).toMatch(/connection to server .* failed/);
    expect(result.stderr).not.toContain("hunter2");
    // No half-written backup is left.
    expect(existsSync(path.join(dir, "backups"))).toBe(true);
    expect(await readdir(path.join(dir, "backups"))).toEqual([]);
  });
});

describe("PGlite", () => {
  it("refuses while the shop holds the folder; backs up the stopped shop; restores into an empty folder only", async () => {
    const dataDir = pgliteDataDir;
    const shop = pgliteShop;
    // The running shop has the folder open (postmaster.pid, or its lock once it takes one).
    const refused = await runScript("db-backup.ts", [], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Stop the shop first");
    await stopServer(shop);

    // Orders written with the shop stopped, through the app's own database module.
    const opened = await openDatabase({ pgliteDir: pgliteFolder(dataDir) });
    const productIds = (
      await opened.db
        .insert(products)
        .values(
          ["Dragon", "Vase"].map((name) => ({
            name: `Backup ${name}`,
            slug: `backup-${name.toLowerCase()}`,
            pricePaise: 34_900,
            category: "3D Prints",
            image: "/images/test.png",
          })),
        )
        .returning({ id: products.id })
    ).map((p) => p.id);
    const customer = await aCustomer(opened.db);
    for (let i = 0; i < 5; i++) await writeOrder(opened.db, customer, productIds);
    const before = await shopData(opened.db);
    await opened.close();

    const backup = await runScript("db-backup.ts", [], { DATA_DIR: dataDir });
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const [file] = await readdir(path.join(dataDir, "backups"));
    expect(file).toMatch(/^layerkart-pglite-\d{8}T\d{6}Z\.tar\.gz$/);
    const backupFile = path.join(dataDir, "backups", file);
    expect(backup.stdout).toContain(backupFile);
    // The backup released the folder.
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
    expect(existsSync(path.join(pgliteFolder(dataDir), "postmaster.pid"))).toBe(false);

    // Into a folder that already holds a database: refused.
    const intoShop = await runScript("db-restore.ts", [backupFile], { DATA_DIR: dataDir });
    expect(intoShop.code).toBe(1);
    expect(intoShop.stderr).toContain("is not empty");

    // A PostgreSQL target for a PGlite backup: refused, naming the mix-up.
    const wrongKind = await runScript("db-restore.ts", [backupFile], {
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres",
    });
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain("backup of the embedded database");

    const restoredDir = await tempDir("lk-restored-pglite-");
    const restore = await runScript("db-restore.ts", [backupFile], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    const restored = await openDatabase({ pgliteDir: pgliteFolder(restoredDir) });
    try {
      expect(await shopData(restored.db)).toEqual(before);
      expect(before.orders.length).toBe(5);
    } finally {
      await restored.close();
    }

    // The shop starts on the restored folder.
    const again = await startShop({ DATA_DIR: restoredDir, SEED_DEMO: "never" });
    expect((await fetch(`http://127.0.0.1:${again.port}/products`)).status).toBe(200);
    await stopServer(again);
  });

  it("the folder lock: a live holder is refused, a dead one's lock is replaced", async () => {
    const dataDir = await tempDir("lk-lock-");
    // A database folder as far as the backup looks, so that it reaches the lock.
    mkdirSync(pgliteFolder(dataDir));
    writeFileSync(path.join(pgliteFolder(dataDir), "PG_VERSION"), "17\n");
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      writeFileSync(
        path.join(dataDir, "pglite.lock"),
        JSON.stringify({
          pid: holder.pid,
          host: (await import("node:os")).hostname(),
          purpose: "the shop",
          since: new Date().toISOString(),
        }),
      );
      expect(() => holdPgliteLock(dataDir)).toThrow(/in use by the shop/);
      const refused = await runScript("db-backup.ts", [], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Stop the shop first");
    } finally {
      holder.kill();
      await new Promise((r) => holder.once("exit", r));
    }
    // Its process is gone: the lock is stale.
    holdPgliteLock(dataDir);
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    releasePgliteLock(dataDir);
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
  });
});
