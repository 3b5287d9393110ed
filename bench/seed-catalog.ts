/**
 * Fills a LayerKart database with generated products until it holds N (default 10,000), for the
 * benchmarks. Realistic names, categories and subcategories across "3D Prints" and
 * "3D Characters", prices in paise, about 5 % inactive, a few static reviews. Images reuse the
 * demo seed's stored images (same URLs and storage paths) when the database has them, so pages
 * show real pictures.
 *
 *   node bench/seed-catalog.ts --data-dir .tmp/bench/pglite-10k [--count 10000] [--batch 500]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/db node bench/seed-catalog.ts [--count N]
 *
 * The schema must already be migrated (start the built server on it once, e.g. with
 * SEED_DEMO=auto, and stop it). Never run it on a PGlite folder a running server holds.
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { count, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "../app/db/schema.ts";
import { parseArgs, root } from "./lib.ts";

const { products } = schema;
type NewProduct = typeof products.$inferInsert;
type ProductImage = schema.ProductImage;

const args = parseArgs();
const target = Number(args.get("count") ?? 10_000);
const batchSize = Number(args.get("batch") ?? 500);
const databaseUrl = args.get("database-url") ?? process.env.DATABASE_URL ?? "";
const dataDir = args.get("data-dir");
const inactiveShare = Number(args.get("inactive") ?? 0.05);
if (!Number.isInteger(target) || target < 1) throw new Error("--count must be a positive integer");
if (!databaseUrl && !dataDir) {
  throw new Error("give --data-dir DIR (PGlite in DIR/pglite) or DATABASE_URL / --database-url");
}

// A small deterministic PRNG (mulberry32), so two runs with the same seed make the same catalogue.
let state = Number(args.get("seed") ?? 20261121) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

type Category = "3D Prints" | "3D Characters";
const catalogue: Record<Category, Record<string, { nouns: string[]; hsn: string }>> = {
  "3D Prints": {
    "Home Decor": {
      nouns: ["Tealight Holder", "Vase", "Wall Hexagon", "Lamp Shade", "Diya Stand", "Coaster Set"],
      hsn: "3926",
    },
    Gadgets: {
      nouns: ["Phone Stand", "Cable Organiser", "Headphone Hook", "Key Holder", "Charging Dock"],
      hsn: "3926",
    },
    Planters: {
      nouns: ["Succulent Planter", "Self-Watering Pot", "Hanging Planter", "Herb Box"],
      hsn: "3926",
    },
    "Desk & Office": {
      nouns: ["Pen Cup", "Desk Tidy", "Monitor Riser", "Card Holder", "Bookend Pair"],
      hsn: "3926",
    },
  },
  "3D Characters": {
    Anime: {
      nouns: ["Ninja Figurine", "Mecha Pilot", "Spirit Fox", "Magical Girl", "Ronin Bust"],
      hsn: "9503",
    },
    Fantasy: {
      nouns: ["Dragon", "Wizard Miniature", "Elf Ranger", "Dwarf Smith", "Griffin", "Troll Chief"],
      hsn: "9503",
    },
    Mythology: {
      nouns: ["Garuda Statue", "Hanuman Bust", "Nandi", "Ganesha Idol", "Airavata", "Yali"],
      hsn: "9503",
    },
    "Sci-Fi": {
      nouns: ["Space Marine", "Rover Model", "Android Bust", "Starfighter", "Alien Scout"],
      hsn: "9503",
    },
  },
};
// biome-ignore format: a word list reads better packed
const adjectives = [
  "Lotus", "Peacock", "Geometric", "Minimal", "Twisted", "Low-Poly", "Mandala", "Voronoi",
  "Carved", "Honeycomb", "Paisley", "Crescent", "Royal", "Temple", "Monsoon", "Saffron",
  "Midnight", "Ember", "Jade", "Marble-Look", "Silk", "Matte", "Articulated", "Chibi",
];
const finishes = ["Silk PLA", "Matte PLA", "PETG", "Resin", "Wood-fill PLA", "Marble PLA"];
const colours = ["Ivory", "Rose gold", "Teal", "Charcoal", "Saffron", "Indigo", "Jade", "Crimson"];
const reviewers = ["Aarav", "Diya", "Ishaan", "Kavya", "Rohan", "Sneha", "Vikram", "Zoya", "Neha"];
const reviewTexts = [
  ["Lovely finish", "Layer lines are barely visible. Packed well too."],
  ["Good value", "Sturdier than I expected for the price."],
  ["Gift hit", "Gave it to a friend; she keeps it on her desk."],
  ["A bit small", "Nice print but smaller than the photos made it look."],
  ["Exactly as shown", "Colour and size match the listing. Quick delivery to Pune."],
] as const;
const DAY = 24 * 60 * 60 * 1000;

function generate(index: number, imagesFor: (c: Category, sub: string) => ProductImage[]) {
  const category: Category = random() < 0.55 ? "3D Prints" : "3D Characters";
  const subcategory = pick(Object.keys(catalogue[category]));
  const { nouns, hsn } = catalogue[category][subcategory];
  const name = `${pick(adjectives)} ${pick(nouns)} ${index}`;
  const finish = pick(finishes);
  // ₹149 to ₹4,999, ending in 9 like a shop price.
  const pricePaise = (Math.floor(between(149, 4999) / 10) * 10 + 9) * 100;
  const onSale = random() < 0.25;
  const discount = onSale ? pick([10, 15, 20, 25, 30]) : 0;
  const originalPricePaise = onSale
    ? Math.round(pricePaise / (1 - discount / 100) / 100) * 100
    : null;
  const reviewCount = random() < 0.6 ? between(0, 4) : 0;
  const created = new Date(Date.now() - between(0, 365 * DAY));
  const reviewsList = Array.from({ length: reviewCount }, () => {
    const [title, review] = pick(reviewTexts);
    return {
      rating: between(3, 5),
      name: pick(reviewers),
      title,
      review,
      date: new Date(created.getTime() + between(DAY, 60 * DAY)).toISOString(),
    };
  });
  const rating =
    reviewCount === 0
      ? 0
      : Math.round((reviewsList.reduce((a, r) => a + r.rating, 0) / reviewCount) * 10) / 10;
  const images = imagesFor(category, subcategory);
  const trackStock = random() < 0.3;
  const stockCount = trackStock ? between(0, 40) : null;
  const row: NewProduct = {
    name,
    slug: name.trim().toLowerCase().replace(/\s+/g, "-"),
    description: `${name}, printed to order in ${finish}. ${
      category === "3D Prints"
        ? "Designed for Indian homes and desks, printed at 0.16 mm layers for a clean finish."
        : "Hand-finished and primed, ready to paint or display as it is."
    } Ships in 3–5 working days from Bengaluru.`,
    pricePaise,
    currency: "INR",
    originalPricePaise,
    image: images[0]?.url ?? null,
    images,
    category,
    subcategory,
    rating,
    reviewsCount: reviewCount,
    reviewsList,
    features: [
      `Material: ${finish}`,
      `Size: ${between(6, 30)} cm tall`,
      `Colour: ${pick(colours)}`,
    ],
    featuresKv: null,
    discount,
    inStock: stockCount === null ? random() > 0.03 : stockCount > 0,
    stockCount,
    badge: random() < 0.05 ? "Best Seller" : random() < 0.05 ? "New" : null,
    isActive: random() >= inactiveShare,
    hsnCode: hsn,
    createdAt: created,
    updatedAt: created,
  };
  return row;
}

async function main() {
  let db:
    | ReturnType<typeof drizzlePglite<typeof schema>>
    | ReturnType<typeof drizzlePg<typeof schema>>;
  let close: () => Promise<void>;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    db = drizzlePg({ client: pool, schema });
    close = () => pool.end();
  } else {
    const folder = path.resolve(root, dataDir!, "pglite");
    const client = await PGlite.create({ dataDir: folder, extensions: { pg_trgm, fuzzystrmatch } });
    db = drizzlePglite({ client, schema });
    close = () => client.close();
  }
  const started = Date.now();
  try {
    const [{ n: existing }] = await db.select({ n: count() }).from(products);
    // Images of the products already there (the demo seed), by category and subcategory.
    const withImages = await db
      .select({
        category: products.category,
        subcategory: products.subcategory,
        images: products.images,
      })
      .from(products)
      .where(sql`jsonb_array_length(${products.images}) > 0`);
    const bySub = new Map<string, ProductImage[][]>();
    const byCategory = new Map<string, ProductImage[][]>();
    for (const r of withImages) {
      const key = `${r.category}/${r.subcategory ?? ""}`;
      bySub.set(key, [...(bySub.get(key) ?? []), r.images]);
      byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r.images]);
    }
    const all = withImages.map((r) => r.images);
    const imagesFor = (c: Category, sub: string): ProductImage[] => {
      const pool = bySub.get(`${c}/${sub}`) ?? byCategory.get(c) ?? all;
      return pool.length > 0 ? pick(pool) : [];
    };

    const toAdd = Math.max(0, target - existing);
    console.log(
      `${existing} products present (${withImages.length} with images); adding ${toAdd} to reach ${target}`,
    );
    for (let done = 0; done < toAdd; done += batchSize) {
      const rows = Array.from({ length: Math.min(batchSize, toAdd - done) }, (_, i) =>
        generate(existing + done + i + 1, imagesFor),
      );
      await db.insert(products).values(rows);
      if ((done / batchSize) % 4 === 0) process.stdout.write(`  ${done + rows.length}/${toAdd}\n`);
    }
    // Fresh planner statistics, as autovacuum would give a long-running database.
    await db.execute(sql`analyze products`);
    const [{ n: total }] = await db.select({ n: count() }).from(products);
    const [{ n: active }] = await db
      .select({ n: count() })
      .from(products)
      .where(sql`${products.isActive}`);
    console.log(
      `done: ${total} products (${active} active) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await close();
  }
}

await main();
