/**
 * Times the storefront's listing and product queries directly on a bench database (no HTTP, no
 * React), with their plans, to tell database time from rendering time.
 *
 *   node bench/queries.ts --data-dir .tmp/bench/pglite        (server stopped: PGlite is 1 process)
 *   node bench/queries.ts --database-url postgres://…/layerkart_bench_x
 *
 * The SQL mirrors app/modules/catalog/products.server.ts (listProducts, getProduct,
 * listRelatedProducts, listProductReviews); keep it in step when those change.
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { parseArgs, root } from "./lib.ts";

const args = parseArgs();
const databaseUrl = args.get("database-url");
const dataDir = args.get("data-dir");
const runs = Number(args.get("runs") ?? 50);
const showPlans = args.has("plans");

type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;
let query: Query;
let close: () => Promise<void>;
if (databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  query = async (text, params) => (await client.query(text, params)).rows;
  close = () => client.end();
} else if (dataDir) {
  const client = await PGlite.create({
    dataDir: path.resolve(root, dataDir, "pglite"),
    extensions: { pg_trgm, fuzzystrmatch },
  });
  query = async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows;
  close = () => client.close();
} else {
  throw new Error("--data-dir DIR or --database-url URL");
}

const card =
  "id, name, category, subcategory, image, price_paise, original_price_paise, discount, rating, reviews_count, badge, in_stock, is_active, stock_count";
const [{ id, category }] = await query(
  "select id, category from products where is_active order by created_at desc, id limit 1 offset 4000",
);
const queries: Record<string, [string, unknown[]]> = {
  // The indexes are "created_at DESC NULLS LAST, id" (drizzle's .desc()); the app orders the same
  // way since a83db9e. The "plain DESC" rows show the old order (NULLS FIRST), which can't use the
  // index and sorts every active product.
  "listing page 1 (/products)": [
    `select ${card} from products where is_active = true order by created_at desc nulls last, id asc limit 24 offset 0`,
    [],
  ],
  "listing page 1, plain DESC (before a83db9e)": [
    `select ${card} from products where is_active = true order by created_at desc, id asc limit 24 offset 0`,
    [],
  ],
  "listing count (/products)": ["select count(*) from products where is_active = true", []],
  "listing page 200": [
    `select ${card} from products where is_active = true order by created_at desc nulls last, id asc limit 24 offset 4776`,
    [],
  ],
  "category listing count (/3d-prints)": [
    "select count(*) from products where is_active = true and category ilike '%3D Prints%'",
    [],
  ],
  "product by id": ["select * from products where id = $1", [id]],
  "related products": [
    `select ${card} from products where category = $1 and is_active = true and id <> $2 order by created_at desc nulls last, id asc limit 4`,
    [category, id],
  ],
  "related products, plain DESC (before a83db9e)": [
    `select ${card} from products where category = $1 and is_active = true and id <> $2 order by created_at desc, id asc limit 4`,
    [category, id],
  ],
  "review stats": ["select * from review_stats where product_id = $1", [id]],
  "reviews page (merged)": [
    `select * from (
       select r.id::text as key, r.rating::int as rating, coalesce(r.reviewer_name, u.name) as name,
              r.title, r.review, r.created_at as date
         from reviews r join "user" u on u.id = r.user_id where r.product_id = $1
       union all
       select 'static-' || (x.ordinality)::text, round((x.value->>'rating')::numeric)::int,
              x.value->>'name', x.value->>'title', x.value->>'review',
              coalesce((x.value->>'date')::timestamptz, p.created_at)
         from products p, jsonb_array_elements(p.reviews_list) with ordinality as x(value, ordinality)
        where p.id = $1
     ) merged order by date desc, key limit 11 offset 0`,
    [id],
  ],
};

console.log(`${databaseUrl ? "PostgreSQL" : "PGlite"}: mean of ${runs} runs after 5 warm-up runs`);
for (const [label, [text, params]] of Object.entries(queries)) {
  for (let i = 0; i < 5; i++) await query(text, params);
  const t = performance.now();
  for (let i = 0; i < runs; i++) await query(text, params);
  const ms = (performance.now() - t) / runs;
  console.log(`${ms.toFixed(2).padStart(8)} ms  ${label}`);
  if (showPlans) {
    const plan = await query(`explain (analyze, buffers off) ${text}`, params);
    console.log(plan.map((r) => `            ${r["QUERY PLAN"]}`).join("\n"));
  }
}
await close();
