import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "~/db/auth-schema.ts";
import { products, shopSettings, subscribers } from "~/db/schema.ts";
import { insertProduct } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";

/*
 * The page cache's change feed (drizzle/0005_page_cache_feed.sql): a committed change to what the
 * storefront shows is announced once per transaction, after the commit; a rolled-back one, or a
 * change elsewhere, never is. On PGlite and on PostgreSQL.
 */
const CHANNEL = "layerkart_storefront";
let database: TestDatabase;
let heard = 0;
const states: boolean[] = [];
let stop: () => Promise<void>;

/** Waits long enough for a notification that is coming to arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

beforeAll(async () => {
  database = await createTestDatabase();
  stop = await database.listen(
    CHANNEL,
    () => {
      heard += 1;
    },
    (listening) => states.push(listening),
  );
});
afterAll(async () => {
  await stop?.();
  await database?.destroy();
});

describe(`storefront change feed (${process.env.TEST_DB})`, () => {
  it("says when it is listening", () => {
    expect(states).toEqual([true]);
  });

  it("announces a committed product change once, after the commit", async () => {
    await settle();
    const start = heard;
    const product = await insertProduct(database.db);
    await expect.poll(() => heard, { timeout: 2_000 }).toBe(start + 1);

    // Three statements in one transaction: one announcement, and only once committed.
    const before = heard;
    await database.db.transaction(async (tx) => {
      for (const price of [100, 200, 300]) {
        await tx.update(products).set({ pricePaise: price }).where(eq(products.id, product.id));
      }
      await settle();
      expect(heard).toBe(before);
    });
    await expect.poll(() => heard, { timeout: 2_000 }).toBe(before + 1);
  });

  it("announces nothing for a rolled-back change or a change the storefront doesn't show", async () => {
    const product = await insertProduct(database.db);
    await settle();
    const start = heard;
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(products).set({ name: "Never" }).where(eq(products.id, product.id));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await database.db.insert(subscribers).values({ email: `feed-${Date.now()}@example.com` });
    await settle();
    expect(heard).toBe(start);
  });

  it("announces shop settings changes and raw SQL alike", async () => {
    await settle();
    const start = heard;
    await database.db.execute(sql`update ${products} set updated_at = now()`);
    await expect.poll(() => heard, { timeout: 2_000 }).toBe(start + 1);
    await database.db.delete(shopSettings);
    await expect.poll(() => heard, { timeout: 2_000 }).toBe(start + 2);
  });

  it("announces a change of an account's name (reviews show it), not of its other fields", async () => {
    const [account] = await database.db
      .insert(user)
      .values({ id: `feed-${Date.now()}`, name: "Asha", email: `feed-${Date.now()}@example.com` })
      .returning();
    await settle();
    const start = heard;
    await database.db.update(user).set({ emailVerified: true }).where(eq(user.id, account!.id));
    await settle();
    expect(heard).toBe(start);
    await database.db.update(user).set({ name: "Asha R." }).where(eq(user.id, account!.id));
    await expect.poll(() => heard, { timeout: 2_000 }).toBe(start + 1);
  });

  it("stops when asked", async () => {
    await stop();
    expect(states.at(-1)).toBe(false);
    const start = heard;
    await insertProduct(database.db);
    await settle();
    expect(heard).toBe(start);
  });
});
