import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "~/adapters/db/index.server.ts";
import { openPglite } from "~/adapters/db/pglite.server.ts";
import { openPostgres } from "~/adapters/db/postgres.server.ts";
import type { Database, DatabaseHandle } from "~/adapters/db/types.ts";
import { createPostgresDatabase, testDbKind } from "../support/test-database.ts";

/*
 * Migration 0010 (options and variants, issue 22) on a shop that already has data: a database at
 * the schema of migrations 0000–0009, with products, orders, carts, reviews and favourites, moves
 * forward with every row intact, each product on one default variant carrying its price and stock,
 * and each cart line and order item naming it.
 */

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A copy of the migrations folder whose journal stops after `lastTag`. */
async function migrationsUpTo(lastTag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "lk-migrations-"));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  await cp(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalFile, "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(last).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

type Rows = Array<Record<string, unknown>>;
const rows = async (db: Database, query: ReturnType<typeof sql>): Promise<Rows> => {
  const result = (await db.execute(query)) as unknown as { rows: Rows };
  return result.rows;
};

/** Opens a database at migration 0009, then returns a function that brings it to today. */
async function oldDatabase(): Promise<{ handle: DatabaseHandle; forward(): Promise<Database> }> {
  const old = await migrationsUpTo("0009_shipping_rates");
  if (testDbKind() === "pglite") {
    const handle = await openPglite(undefined, old);
    cleanups.push(() => handle.close());
    return {
      handle,
      async forward() {
        const { migrate } = await import("drizzle-orm/pglite/migrator");
        // biome-ignore lint/suspicious/noExplicitAny: the PGlite drizzle instance behind the handle
        await migrate(handle.db as any, { migrationsFolder: migrationsFolder() });
        return handle.db;
      },
    };
  }
  const created = await createPostgresDatabase();
  cleanups.push(created.drop);
  const handle = await openPostgres(created.url, old, () => {});
  cleanups.push(() => handle.close());
  return {
    handle,
    async forward() {
      const now = await openPostgres(created.url, migrationsFolder(), () => {});
      cleanups.push(() => now.close());
      return now.db;
    },
  };
}

describe(`migration 0010 on a shop with data (${testDbKind()})`, () => {
  it("keeps every row and puts each product on its default variant", async () => {
    const { handle, forward } = await oldDatabase();
    const db = handle.db;
    await db.execute(sql`
      insert into "user" (id, name, email) values ('u1', 'Asha', 'asha@example.com'),
        ('u2', 'Ravi', 'ravi@example.com')`);
    await db.execute(sql`
      insert into products (id, name, slug, price_paise, original_price_paise, stock_count, in_stock)
      values
        ('00000000-0000-4000-8000-000000000001', 'Dragon', 'dragon', 49900, 59900, 3, true),
        ('00000000-0000-4000-8000-000000000002', 'Vase', 'vase', 34900, null, null, true),
        ('00000000-0000-4000-8000-000000000003', 'Gone', 'gone', 19900, null, 0, false)`);
    await db.execute(sql`
      insert into cart_items (user_id, product_id, quantity) values
        ('u1', '00000000-0000-4000-8000-000000000001', 2),
        ('u1', '00000000-0000-4000-8000-000000000002', 1),
        ('u2', '00000000-0000-4000-8000-000000000001', 1)`);
    const address = JSON.stringify({ name: "Asha", postalCode: "560001" });
    await db.execute(sql`
      insert into orders (id, order_number, user_id, shipping_address, billing_address,
        shipping_method, payment_method, payment_provider, total_paise)
      values ('10000000-0000-4000-8000-000000000001', 'ORD-20261101-0001', 'u1',
        ${address}::jsonb, ${address}::jsonb, '{"id":"standard","label":"Standard","costPaise":999}',
        'gateway', 'sandbox', 100699)`);
    await db.execute(sql`
      insert into order_items (order_id, product_id, variant_id, name, quantity, unit_price_paise)
      values
        ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001', null, 'Dragon', 1, 49900),
        ('10000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'legacy-colour-red', 'Vase', 1, 34900),
        ('10000000-0000-4000-8000-000000000001', null, null, 'Deleted thing', 1, 9900)`);
    await db.execute(sql`
      insert into reviews (user_id, product_id, order_id, rating, title)
      values ('u1', '00000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000001', 5, 'Lovely')`);
    await db.execute(sql`
      insert into favourites (user_id, product_id, name, price_paise)
      values ('u2', '00000000-0000-4000-8000-000000000003', 'Gone', 19900)`);
    const count = async (d: Database, table: string) =>
      (await rows(d, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n;
    const before: Record<string, unknown> = {};
    const tables = ["user", "products", "cart_items", "orders", "order_items", "reviews"];
    for (const t of [...tables, "favourites"]) before[t] = await count(db, t);

    const now = await forward();

    for (const t of [...tables, "favourites"]) expect(await count(now, t), t).toBe(before[t]);
    const variants = await rows(
      now,
      sql`select product_id, price_paise, original_price_paise, stock_count, in_stock, is_active
          from product_variants order by product_id`,
    );
    expect(variants).toEqual([
      {
        product_id: "00000000-0000-4000-8000-000000000001",
        price_paise: 49900,
        original_price_paise: 59900,
        stock_count: 3,
        in_stock: true,
        is_active: true,
      },
      {
        product_id: "00000000-0000-4000-8000-000000000002",
        price_paise: 34900,
        original_price_paise: null,
        stock_count: null,
        in_stock: true,
        is_active: true,
      },
      {
        product_id: "00000000-0000-4000-8000-000000000003",
        price_paise: 19900,
        original_price_paise: null,
        stock_count: 0,
        in_stock: false,
        is_active: true,
      },
    ]);
    expect(await count(now, "product_options")).toBe(0);

    // Every cart line and order item with a product names that product's variant.
    const lines = await rows(
      now,
      sql`select c.user_id, c.quantity, v.product_id = c.product_id as same
          from cart_items c join product_variants v on v.id = c.variant_id
          order by c.user_id, c.quantity`,
    );
    expect(lines).toEqual([
      { user_id: "u1", quantity: 1, same: true },
      { user_id: "u1", quantity: 2, same: true },
      { user_id: "u2", quantity: 1, same: true },
    ]);
    const items = await rows(
      now,
      sql`select i.name, i.quantity, i.unit_price_paise, i.options,
            (v.product_id = i.product_id) as same
          from order_items i left join product_variants v on v.id = i.variant_id
          order by i.name`,
    );
    expect(items).toEqual([
      { name: "Deleted thing", quantity: 1, unit_price_paise: 9900, options: [], same: null },
      { name: "Dragon", quantity: 1, unit_price_paise: 49900, options: [], same: true },
      { name: "Vase", quantity: 1, unit_price_paise: 34900, options: [], same: true },
    ]);
    const review = await rows(now, sql`select rating, title, order_id from reviews`);
    expect(review).toEqual([
      { rating: 5, title: "Lovely", order_id: "10000000-0000-4000-8000-000000000001" },
    ]);

    // A product created after the migration gets its default variant; while it has no options a
    // change to its price or stock is its variant's too.
    await now.execute(sql`
      insert into products (id, name, slug, price_paise, stock_count)
      values ('00000000-0000-4000-8000-000000000004', 'New', 'new', 1000, 5)`);
    await now.execute(sql`
      update products set price_paise = 1200, stock_count = 4
      where id = '00000000-0000-4000-8000-000000000004'`);
    expect(
      await rows(
        now,
        sql`select price_paise, stock_count from product_variants
            where product_id = '00000000-0000-4000-8000-000000000004'`,
      ),
    ).toEqual([{ price_paise: 1200, stock_count: 4 }]);
  });
});
