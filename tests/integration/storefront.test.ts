import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contactMessages,
  jobs,
  products,
  promotionInterests,
  promotions,
  reviews,
  subscribers,
  user,
} from "~/db/schema.ts";
import {
  listProductReviews,
  listProducts,
  searchProducts,
} from "~/modules/catalog/products.server.ts";
import { submitContactMessage } from "~/modules/contact/contact.server.ts";
import { createJobRunner } from "~/modules/jobs/jobs.server.ts";
import { recordPromotionInterest } from "~/modules/promotions/promotions.server.ts";
import { subscribe } from "~/modules/subscribers/subscribers.server.ts";
import { createTestDatabase, type TestDatabase, testDbKind } from "../support/test-database.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.insert(products).values([
    {
      name: "Ember Wyrmling Dragon",
      slug: "ember-wyrmling-dragon",
      category: "3D Characters",
      subcategory: "Fantasy",
      pricePaise: 89_900,
    },
    {
      name: "Lotus Tealight Holder",
      slug: "lotus-tealight-holder",
      category: "3D Prints",
      subcategory: "Home Decor",
      pricePaise: 34_900,
    },
    {
      name: "Cable Tamer Clips",
      slug: "cable-tamer-clips",
      category: "3D Prints",
      subcategory: "Desk & Office",
      pricePaise: 14_900,
    },
    {
      name: "गणेश मूर्ति",
      slug: "ganesh-murti",
      category: "Festive",
      pricePaise: 59_900,
    },
    {
      name: "Hidden Dragon Lamp",
      slug: "hidden-dragon-lamp",
      category: "3D Prints",
      subcategory: "Home Decor",
      isActive: false,
    },
  ]);
});
afterAll(() => t?.destroy());

describe(`storefront queries on ${testDbKind()}`, () => {
  it("finds a product from a misspelt query, never an inactive one", async () => {
    const { items } = await searchProducts(t.db, "dargon");
    expect(items.map((p) => p.name)).toEqual(["Ember Wyrmling Dragon"]);
    expect((await searchProducts(t.db, "tealght")).items[0]?.name).toBe("Lotus Tealight Holder");
    expect((await searchProducts(t.db, "   ")).items).toEqual([]);
    expect((await searchProducts(t.db, "tealite")).items[0]?.name).toBe("Lotus Tealight Holder");
    expect((await searchProducts(t.db, "lotuss")).items.map((p) => p.name)).toEqual([
      "Lotus Tealight Holder",
    ]);
    expect((await searchProducts(t.db, "drag")).items.map((p) => p.name)).toEqual([
      "Ember Wyrmling Dragon",
    ]);
    expect((await searchProducts(t.db, "ember dargon")).items.map((p) => p.name)).toEqual([
      "Ember Wyrmling Dragon",
    ]);
    // Swapped letters in a short word, and a filler word the name doesn't have.
    expect((await searchProducts(t.db, "lotsu")).items[0]?.name).toBe("Lotus Tealight Holder");
    expect((await searchProducts(t.db, "holder for tealight")).items[0]?.name).toBe(
      "Lotus Tealight Holder",
    );
    // Names in Devanagari: a word keeps its vowel signs, and a misspelling still finds it.
    expect((await searchProducts(t.db, "गणेश मूर्ति")).items.map((p) => p.name)).toEqual(["गणेश मूर्ति"]);
    expect((await searchProducts(t.db, "मूर्ति गणेश")).items[0]?.name).toBe("गणेश मूर्ति");
  });

  it("doesn't offer unrelated products for a word that isn't in the shop", async () => {
    // 'ganesh' shares only a first letter or two with 'Cable', 'Desk', 'Decor'…; 'lotus' with 'lock'.
    expect((await searchProducts(t.db, "ganesh")).items).toEqual([]);
    expect((await searchProducts(t.db, "dragon lamp")).items).toEqual([]);
    expect((await searchProducts(t.db, "clipz")).items.map((p) => p.name)).toEqual([
      "Cable Tamer Clips",
    ]);
  });

  it("lists by category text and subcategory slug, active products only", async () => {
    const prints = await listProducts(t.db, { categoryText: "3d prints" }, 1);
    expect(prints.total).toBe(2);
    const desk = await listProducts(
      t.db,
      { categoryText: "3D Prints", subcategorySlug: "desk-office" },
      1,
    );
    expect(desk.items.map((p) => p.name)).toEqual(["Cable Tamer Clips"]);
    // A LIKE wildcard in the text is taken literally.
    expect((await listProducts(t.db, { categoryText: "%" }, 1)).total).toBe(0);
  });

  it("merges static and stored reviews newest first and skips unusable static ones", async () => {
    const [p] = await t.db
      .insert(products)
      .values({
        name: "Reviewed Vase",
        slug: "reviewed-vase",
        reviewsList: [
          { rating: 5, name: "A", title: "Old", review: "x", date: "2026-01-01T00:00:00Z" },
          { rating: 4, name: "B", title: "Newer", review: "y", date: "2026-03-01T00:00:00Z" },
          // Legacy junk: no rating, and a date nobody can read.
          { name: "C", title: "No rating", review: "z", date: "soon" } as never,
          { rating: 9, name: "D", title: "Too high", review: "w", date: "not a date" },
        ],
      })
      .returning();
    await t.db
      .insert(user)
      .values({ id: "u-review", name: "Stored Reviewer", email: "sr@example.com" });
    await t.db.insert(reviews).values({
      userId: "u-review",
      productId: p.id,
      rating: 3,
      title: "Newest",
      createdAt: new Date("2026-06-01T00:00:00Z"),
    });
    const page = await listProductReviews(t.db, p.id, 1);
    // "Too high" has an unreadable date, so it sorts by the product's creation time (now): first.
    expect(page.reviews.map((r) => r.title)).toEqual(["Too high", "Newest", "Newer", "Old"]);
    expect(page.reviews[1]).toMatchObject({ title: "Newest", name: "Stored Reviewer", rating: 3 });
    expect(page.reviews.find((r) => r.title === "No rating")).toBeUndefined();
    expect(page.reviews.find((r) => r.title === "Too high")?.rating).toBe(5);
    expect(page.hasNext).toBe(false);
  });

  it("stores newsletter subscribers once, case-insensitively", async () => {
    expect(await subscribe(t.db, "Reader@Example.com")).toBe(true);
    expect(await subscribe(t.db, "reader@example.com ")).toBe(false);
    const [{ n }] = await t.db.select({ n: count() }).from(subscribers);
    expect(n).toBe(1);
  });

  it("stores a promotion interest against a live promotion only, and tells the shop", async () => {
    const shop = {
      db: t.db,
      jobs: createJobRunner(t.db, { mail: async () => {} }),
      shopEmail: "shop@example.com",
    };
    const [live] = await t.db.insert(promotions).values({ name: "Diwali Offer" }).returning();
    const [gone] = await t.db
      .insert(promotions)
      .values({ name: "Old Offer", isDeleted: true })
      .returning();
    expect(
      await recordPromotionInterest(shop, {
        promotionId: live.id,
        name: "Asha",
        email: undefined,
        phone: "9876543210",
      }),
    ).toBe(true);
    expect(
      await recordPromotionInterest(shop, {
        promotionId: gone.id,
        name: "Asha",
        email: undefined,
        phone: undefined,
      }),
    ).toBe(false);
    const rows = await t.db.select().from(promotionInterests);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ promotionTitle: "Diwali Offer", name: "Asha", email: null });
    // The shop hears of it by e-mail (staff have no other place to see it yet).
    const mails = await t.db.select().from(jobs).where(eq(jobs.kind, "mail"));
    const told = mails.filter((j) => JSON.stringify(j.payload).includes("Diwali Offer"));
    expect(told).toHaveLength(1);
    expect(told[0].payload).toMatchObject({
      to: "shop@example.com",
      subject: "Offer interest: Diwali Offer",
    });
    expect(JSON.stringify(told[0].payload)).toContain("9876543210");
  });

  it("keeps a contact message even when the e-mail to the shop fails, and retries the e-mail", async () => {
    const failing = createJobRunner(t.db, {
      mail: async () => {
        throw new Error("SMTP down");
      },
    });
    await submitContactMessage(
      { db: t.db, jobs: failing, shopEmail: "shop@example.com" },
      {
        firstName: "Ravi",
        lastName: "Kumar",
        email: "ravi@example.com",
        subject: "Hi",
        message: "Hello",
      },
      null,
    );
    const [job] = (await t.db.select().from(jobs).where(eq(jobs.kind, "mail"))).filter((j) =>
      JSON.stringify(j.payload).includes("ravi@example.com"),
    );
    expect(job).toMatchObject({ status: "queued", attempts: 1, lastError: "SMTP down" });
    expect(job.payload).toMatchObject({ to: "shop@example.com", replyTo: "ravi@example.com" });
    const rows = await t.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, "ravi@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe("Ravi Kumar");
  });
});
