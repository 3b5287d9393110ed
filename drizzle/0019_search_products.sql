-- No product changes between the copy below and the triggers that keep it (another instance
-- writing meanwhile would be missed): held until the migrations' transaction ends.
LOCK TABLE "products" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "search_products" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"search_text" text NOT NULL,
	"search_words" text[] NOT NULL,
	"search_coded" text NOT NULL
);
--> statement-breakpoint
-- Hand-written from here (docs/decisions/0021-search-answers.md, amended 2026-11-27 c): one narrow
-- row per active product, kept by statement triggers with transition tables as search_postings is
-- (drizzle/0018), filled before its indexes are built. A row is written only when the product's
-- name, text, words or active flag changed: a sale's stock update writes nothing. No foreign key:
-- a deleted product's row goes with it through the delete trigger.
--
-- The coded text: "z" and every ASCII space, punctuation or symbol written as "z" and its code in
-- two hex digits (app/rules/search-similarity.ts codes a query the same way), so a word and the
-- next one make trigrams together ("fz2", "z20"): a query of several words is found through the
-- trigram index on the few products that contain it exactly.
CREATE OR REPLACE FUNCTION layerkart_search_coded(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(t, 'z', 'z7a'), ' ', 'z20'), '!', 'z21'), '"', 'z22'), '#', 'z23'), '$', 'z24'), '%', 'z25'), '&', 'z26'), '''', 'z27'), '(', 'z28'), ')', 'z29'), '*', 'z2a'), '+', 'z2b'), ',', 'z2c'), '-', 'z2d'), '.', 'z2e'), '/', 'z2f'), ':', 'z3a'), ';', 'z3b'), '<', 'z3c'), '=', 'z3d'), '>', 'z3e'), '?', 'z3f'), '@', 'z40'), '[', 'z5b'), '\', 'z5c'), ']', 'z5d'), '^', 'z5e'), '_', 'z5f'), '`', 'z60'), '{', 'z7b'), '|', 'z7c'), '}', 'z7d'), '~', 'z7e'), chr(9), 'z09'), chr(10), 'z0a'), chr(11), 'z0b'), chr(12), 'z0c'), chr(13), 'z0d')
$$;
--> statement-breakpoint
INSERT INTO search_products (id, name, search_text, search_words, search_coded)
  SELECT id, name, search_text, search_words, layerkart_search_coded(search_text)
    FROM products WHERE is_active;
--> statement-breakpoint
CREATE INDEX "search_products_name_idx" ON "search_products" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "search_products_text_trgm_idx" ON "search_products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_products_coded_trgm_idx" ON "search_products" USING gin ("search_coded" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_products_words_idx" ON "search_products" USING gin ("search_words");--> statement-breakpoint
-- The search reads these from search_products now; products keep their generated columns (the
-- triggers' source, and the text of products with options).
DROP INDEX IF EXISTS "products_search_text_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "products_search_words_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_products (id, name, search_text, search_words, search_coded)
    SELECT n.id, n.name, n.search_text, n.search_words, layerkart_search_coded(n.search_text)
      FROM new_rows n WHERE n.is_active
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text,
        search_words = excluded.search_words, search_coded = excluded.search_coded;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_products s
   USING new_rows n
   WHERE s.id = n.id AND NOT n.is_active;
  INSERT INTO search_products (id, name, search_text, search_words, search_coded)
    SELECT n.id, n.name, n.search_text, n.search_words, layerkart_search_coded(n.search_text)
      FROM new_rows n
     WHERE n.is_active
       AND NOT EXISTS (SELECT 1 FROM old_rows o
                        WHERE o.id = n.id AND o.is_active AND o.name = n.name
                          AND o.search_text = n.search_text AND o.search_words = n.search_words)
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text,
        search_words = excluded.search_words, search_coded = excluded.search_coded;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_products s USING old_rows o WHERE s.id = o.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_products;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_products_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_products_insert();
--> statement-breakpoint
CREATE TRIGGER products_search_products_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_products_update();
--> statement-breakpoint
CREATE TRIGGER products_search_products_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_products_delete();
--> statement-breakpoint
CREATE TRIGGER products_search_products_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_products_truncate();
--> statement-breakpoint
-- Statistics for the planner now (PGlite has no autovacuum to take them).
ANALYZE search_products;
