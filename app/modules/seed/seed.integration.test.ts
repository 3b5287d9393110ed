import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboxMailer } from "~/adapters/mail/index.server.ts";
import { createLocalStorage } from "~/adapters/storage/local.server.ts";
import { parseEnv } from "~/config/env.server.ts";
import { products, promotions, sponsoredProducts, userProfiles } from "~/db/schema.ts";
import { createAuth } from "~/modules/accounts/auth.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import {
  createTestDatabase,
  type TestDatabase,
  testDbKind,
} from "../../../tests/support/test-database.ts";
import { seedDemoIfEmpty } from "./seed.server.ts";

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "lk-seed-"));
});
afterAll(async () => {
  await t?.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe(`demo seed on ${testDbKind()}`, () => {
  it("fills an empty shop once, with images made here and a verified demo admin", async () => {
    const env = parseEnv({
      DATA_DIR: dir,
      DEMO_ADMIN_EMAIL: "owner@example.com",
      DEMO_ADMIN_PASSWORD: "owner-password-1",
    });
    const storage = createLocalStorage(path.join(dir, "uploads"));
    const auth = createAuth({
      db: t.db,
      mailer: createOutboxMailer(path.join(dir, "outbox"), "test@localhost"),
      secret: env.authSecret,
      publicUrl: "http://localhost:3000",
      rateLimit: false,
    });
    const deps = { db: t.db, storage, auth, env };

    expect(await seedDemoIfEmpty(deps)).toBe(true);
    const all = await t.db.select().from(products);
    expect(all.length).toBeGreaterThanOrEqual(24);
    expect(new Set(all.map((p) => p.category))).toEqual(new Set(["3D Prints", "3D Characters"]));
    expect(all.some((p) => !p.isActive)).toBe(true);
    expect(all.some((p) => !p.inStock)).toBe(true);
    for (const p of all) {
      expect(p.images.length).toBeGreaterThanOrEqual(2);
      expect(p.images.length).toBeLessThanOrEqual(4);
      for (const image of p.images) {
        expect(await storage.exists(image.storagePath!)).toBe(true);
        expect(await storage.exists(`${image.storagePath}.w320.avif`)).toBe(true);
      }
    }
    const files = await readdir(path.join(dir, "uploads/products"));
    expect(files.length).toBe(all.length);
    expect((await t.db.select({ n: count() }).from(promotions))[0].n).toBe(3);
    expect((await t.db.select({ n: count() }).from(sponsoredProducts))[0].n).toBe(4);

    const signIn = await auth.api.signInEmail({
      body: { email: "owner@example.com", password: "owner-password-1" },
    });
    expect(signIn.user.email).toBe("owner@example.com");
    const [profile] = await t.db
      .select()
      .from(userProfiles)
      .where(eq(userProfiles.userId, signIn.user.id));
    expect(profile).toMatchObject({ isAdmin: true, isEmailVerified: true });

    // Cash on delivery on, ₹49 up to ₹5,000, none in the special zones (issue 24).
    const settings = await getShopSettings(t.db);
    expect(settings.codEnabled).toBe(true);
    expect(settings.shippingRates.metro).toMatchObject({
      codFeePaise: 4_900,
      codLimitPaise: 500_000,
    });
    expect(settings.shippingRates.special.codLimitPaise).toBe(0);

    // A second start finds the shop filled and leaves it alone.
    expect(await seedDemoIfEmpty(deps)).toBe(false);
    expect((await t.db.select({ n: count() }).from(products))[0].n).toBe(all.length);
  });
});
