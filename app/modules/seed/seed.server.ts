import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import type { Database } from "~/adapters/db/index.server.ts";
import type { FileStorage } from "~/adapters/storage/types.ts";
import type { Env } from "~/config/env.server.ts";
import {
  categories,
  discounts,
  type ProductImage,
  products,
  promotions,
  sponsoredProducts,
  user,
} from "~/db/schema.ts";
import { log } from "~/lib/log.server.ts";
import { ensureAdminAccount } from "~/modules/accounts/admin-account.server.ts";
import type { Auth } from "~/modules/accounts/auth.server.ts";
import { storeImageVariants } from "~/modules/catalog/images.server.ts";
import { defineVariants } from "~/modules/catalog/variants.server.ts";
import { updateShopSettings } from "~/modules/settings/settings.server.ts";
import { slugify } from "~/rules/product-mapping.ts";
import { drawArtwork } from "./artwork.ts";
import {
  DEMO_FREE_SHIPPING_PAISE,
  type DemoFeatures,
  type DemoProduct,
  demoCategories,
  demoDiscounts,
  demoParcels,
  demoProducts,
  demoPromotions,
  demoSponsoredKeys,
  demoVariants,
} from "./catalogue.ts";

const DAY = 24 * 60 * 60 * 1000;

/** The demo shop's identity (GST invoices, contact page); a real shop edits it in admin settings. */
const demoShopIdentity = {
  shopName: "LayerKart",
  shopAddress: "14, 3rd Cross, Koramangala 5th Block, Bengaluru, Karnataka 560095",
  shopPhone: "+91 80 4567 8910",
  shopEmail: "hello@layerkart.example",
  gstin: "29ABCDE1234F1Z5",
  shopState: "Karnataka",
};
const ART_SIZE = { width: 640, height: 640 };

const averageRating = (ratings: number[]) =>
  ratings.length === 0
    ? 0
    : Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10;

function featureColumns(features: DemoFeatures): {
  features: string[];
  featuresKv: Record<string, string> | null;
} {
  if (features.shape === "map") return { features: [], featuresKv: features.map };
  return { features: features.items, featuresKv: null };
}

type SeedDeps = { db: Database; storage: FileStorage; auth: Auth; env: Env };

/**
 * Seeds the demo catalogue, promotions, carousel and demo admin into an empty database. Images
 * are drawn as SVG and rasterised here; nothing is downloaded. Does nothing when products exist.
 */
export async function seedDemoIfEmpty(deps: SeedDeps): Promise<boolean> {
  const { db } = deps;
  const [{ n }] = await db.select({ n: count() }).from(products);
  if (n > 0) return false;
  const started = Date.now();
  const now = Date.now();
  const stamp = now.toString();

  const ids = new Map<string, string>(demoProducts.map((p) => [p.key, crypto.randomUUID()]));
  const imagesByKey = new Map<string, ProductImage[]>();
  await Promise.all(
    demoProducts.map(async (p) => {
      const id = ids.get(p.key)!;
      const images = await Promise.all(
        p.art.map((art, i) =>
          storeImageVariants(
            deps.storage,
            `products/${id}/${stamp}_${p.key}-${i + 1}.webp`,
            drawArtwork(art, ART_SIZE),
          ),
        ),
      );
      imagesByKey.set(p.key, images);
    }),
  );
  const promotionImages = await Promise.all(
    demoPromotions.map((promo) =>
      storeImageVariants(
        deps.storage,
        `promotions/${stamp}_${promo.key}.webp`,
        // Promotion cards crop the picture to 4:3, so it carries no caption that could be cut off.
        drawArtwork({ ...promo.art, label: undefined }, ART_SIZE),
      ),
    ),
  );

  const rows = demoProducts.map((p: DemoProduct) => {
    const images = imagesByKey.get(p.key)!;
    const created = new Date(now - p.daysOld * DAY);
    return {
      id: ids.get(p.key)!,
      name: p.name,
      slug: slugify(p.name),
      description: p.description,
      pricePaise: p.pricePaise,
      currency: "INR",
      originalPricePaise: p.originalPricePaise,
      image: images[0]?.url ?? null,
      images,
      category: p.category,
      subcategory: p.subcategory,
      // The shown rating is the average of the reviews the product carries (none: 0).
      rating: averageRating(p.staticReviews.map((r) => r.rating)),
      reviewsCount: p.staticReviews.length,
      reviewsList: p.staticReviews.map((r) => ({
        rating: r.rating,
        name: r.name,
        title: r.title,
        review: r.review,
        date: new Date(now - r.daysAgo * DAY).toISOString(),
      })),
      ...featureColumns(p.features),
      discount: p.discount,
      inStock: p.inStock,
      stockCount: p.stockCount,
      badge: p.badge,
      isActive: p.isActive,
      hsnCode: p.hsnCode,
      ...parcelColumns(p.name),
      createdAt: created,
      updatedAt: created,
    };
  });

  await db.transaction(async (tx) => {
    await tx.insert(products).values(rows);
    await tx
      .insert(categories)
      .values(demoCategories.map((name) => ({ name })))
      .onConflictDoNothing();
    const discountIds = new Map(demoDiscounts.map((d) => [d.key, crypto.randomUUID()]));
    await tx.insert(discounts).values(
      demoDiscounts.map((d) => ({
        id: discountIds.get(d.key)!,
        name: d.name,
        code: d.code,
        kind: d.kind,
        percentBasisPoints: d.percentBasisPoints ?? null,
        capPaise: d.capPaise ?? null,
        amountPaise: d.amountPaise ?? null,
        appliesTo: d.appliesTo,
        categories: d.categories ?? [],
        minSubtotalPaise: d.minSubtotalPaise ?? null,
        firstOrderOnly: d.firstOrderOnly ?? false,
        perCustomerLimit: d.perCustomerLimit ?? null,
        endsAt: d.endsInDays ? new Date(now + d.endsInDays * DAY) : null,
      })),
    );
    await tx.insert(promotions).values(
      demoPromotions.map((promo, i) => ({
        discountId: promo.discountKey ? (discountIds.get(promo.discountKey) ?? null) : null,
        name: promo.name,
        description: promo.description,
        discount: promo.discount,
        cta: promo.cta,
        image: promotionImages[i].url,
        imageStoragePath: promotionImages[i].storagePath,
        createdAt: new Date(now - i * 1000),
      })),
    );
    await tx
      .insert(sponsoredProducts)
      .values(demoSponsoredKeys.map((k, position) => ({ productId: ids.get(k)!, position })));
    // A few products in several variants, so a newcomer sees options on the first start.
    for (const [key, input] of Object.entries(demoVariants)) {
      await defineVariants(tx, ids.get(key)!, input, new Date(now));
    }
  });

  await updateShopSettings(db, {
    ...demoShopIdentity,
    freeShippingThresholdPaise: DEMO_FREE_SHIPPING_PAISE,
  });
  await ensureDemoAdmin(deps);
  log.info("demo catalogue seeded", {
    products: rows.length,
    promotions: demoPromotions.length,
    ms: Date.now() - started,
  });
  return true;
}

/** The demo seed's verified admin (DESIGN.md); the generated password is printed once. */
async function ensureDemoAdmin({ db, auth, env }: SeedDeps) {
  const email = env.demoAdminEmail;
  const existing = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (existing.length > 0) return;
  const password = env.demoAdminPassword ?? randomBytes(12).toString("base64url");
  await ensureAdminAccount({ db, auth }, { email, name: "Demo Admin", password });
  if (env.demoAdminPassword) {
    log.info("demo admin created", { email });
  } else {
    // Printed once, on the terminal of whoever started the shop for the first time.
    process.stdout.write(`\nDemo admin created: ${email}\nPassword (shown once): ${password}\n\n`);
  }
}

/** A demo product's packed weight and box (every demo product has one: see catalogue.test.ts). */
function parcelColumns(name: string) {
  const parcel = demoParcels[name];
  if (!parcel) return {};
  const [weightGrams, boxLengthCm, boxWidthCm, boxHeightCm] = parcel;
  return { weightGrams, boxLengthCm, boxWidthCm, boxHeightCm };
}
