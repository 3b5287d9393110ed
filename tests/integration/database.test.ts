import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/adapters/db/index.server.ts";
import { addresses, orders, products, shopSettings, subscribers, user } from "~/db/schema.ts";
import {
  createPostgresDatabase,
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../support/test-database.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.destroy());

describe(`database on ${testDbKind()}`, () => {
  it("applies the migrations and answers a ping", async () => {
    await expect(t.ping()).resolves.toBeUndefined();
    const [settings] = await t.db.select().from(shopSettings);
    // Shop defaults (DESIGN.md decision 2): ₹9.99 flat shipping, 8% tax.
    expect(settings).toMatchObject({ id: 1, shippingFeePaise: 999, taxRateBasisPoints: 800 });
  });

  it("has the trigram extension for typo-tolerant search", async () => {
    const result = await t.db.execute(
      sql`select word_similarity('dargon', 'dragon figurine') as s`,
    );
    const rows = (result as unknown as { rows: Array<{ s: number }> }).rows;
    expect(Number(rows[0].s)).toBeGreaterThan(0.2);
  });

  it("refuses money, discount and rating values outside their ranges", async () => {
    await expect(
      t.db.insert(products).values({ name: "Bad", slug: "bad", pricePaise: -1 }),
    ).rejects.toThrow();
    await expect(
      t.db.insert(products).values({ name: "Bad", slug: "bad", discount: 101 }),
    ).rejects.toThrow();
    await expect(
      t.db.insert(products).values({ name: "Bad", slug: "bad", rating: 6 }),
    ).rejects.toThrow();
    const [ok] = await t.db
      .insert(products)
      .values({ name: "Good Vase", slug: "good-vase", pricePaise: 49_900 })
      .returning();
    expect(ok.currency).toBe("INR");
    expect(ok.inStock).toBe(true);
  });

  it("keeps order numbers unique and well-formed", async () => {
    await t.db.insert(user).values({ id: "u-orders", name: "A", email: "orders@example.com" });
    const snapshot = {
      addressId: null,
      label: "Home",
      name: "A",
      line1: "1 MG Road",
      line2: null,
      city: "Bengaluru",
      state: "Karnataka",
      postalCode: "560001",
      country: "India",
      phone: "9876543210",
    };
    const order = {
      userId: "u-orders",
      shippingAddress: snapshot,
      billingAddress: snapshot,
      shippingMethod: { id: "standard", label: "Standard Shipping", costPaise: 999 },
      paymentMethod: "phonepe",
      paymentProvider: "phonepe",
    };
    const [created] = await t.db
      .insert(orders)
      .values({ ...order, orderNumber: "ORD-20261121-1234" })
      .returning();
    expect(created.status).toBe("pending");
    expect(created.paymentStatus).toBe("unpaid");
    await expect(
      t.db.insert(orders).values({ ...order, orderNumber: "ORD-20261121-1234" }),
    ).rejects.toThrow();
    await expect(t.db.insert(orders).values({ ...order, orderNumber: "ORD-1" })).rejects.toThrow();
  });

  it("allows one default address per user and checks phone and PIN", async () => {
    await t.db.insert(user).values({ id: "u-addr", name: "B", email: "addr@example.com" });
    const base = {
      userId: "u-addr",
      name: "B",
      line1: "2 Park Street",
      city: "Kolkata",
      state: "West Bengal",
      postalCode: "700016",
      phone: "9123456780",
    };
    await t.db.insert(addresses).values({ ...base, isDefault: true });
    await expect(t.db.insert(addresses).values({ ...base, isDefault: true })).rejects.toThrow();
    await expect(
      t.db.insert(addresses).values({ ...base, postalCode: "012345" }),
    ).rejects.toThrow();
    await expect(t.db.insert(addresses).values({ ...base, phone: "12345" })).rejects.toThrow();
    const rows = await t.db.select().from(addresses).where(eq(addresses.userId, "u-addr"));
    expect(rows).toHaveLength(1);
    expect(rows[0].country).toBe("India");
  });

  it("treats subscriber e-mails case-insensitively", async () => {
    await t.db.insert(subscribers).values({ email: "Reader@Example.com" });
    await expect(
      t.db.insert(subscribers).values({ email: "reader@example.com" }),
    ).rejects.toThrow();
  });
});

describe.runIf(testDbKind() === "postgres")("migrations on a PostgreSQL server", () => {
  it("are applied once when two processes start at the same moment", async () => {
    const fresh = await createPostgresDatabase();
    try {
      const [a, b] = await Promise.all([
        openDatabase({ databaseUrl: fresh.url }),
        openDatabase({ databaseUrl: fresh.url }),
      ]);
      await a.ping();
      await b.ping();
      const result = await a.db.execute(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      const rows = (result as unknown as { rows: Array<{ n: number }> }).rows;
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await fresh.drop();
    }
  });
});
