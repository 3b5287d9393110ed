CREATE TABLE "search_products" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"search_text" text NOT NULL,
	"search_words" text[] NOT NULL
);
--> statement-breakpoint
-- Hand-written from here (docs/decisions/0021-search-answers.md, amended 2026-11-28): one narrow
-- row per active product, kept by statement triggers with transition tables as search_postings is
-- (drizzle/0018), filled before its indexes are built. A row is written only when the product's
-- name, text, words or active flag changed: a sale's stock update writes nothing. No foreign key:
-- a deleted product's row goes with it through the delete trigger.
INSERT INTO search_products (id, name, search_text, search_words)
  SELECT id, name, search_text, search_words FROM products WHERE is_active;
--> statement-breakpoint
CREATE INDEX "search_products_name_idx" ON "search_products" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "search_products_text_trgm_idx" ON "search_products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "search_products_words_idx" ON "search_products" USING gin ("search_words");--> statement-breakpoint
-- The search reads these from search_products now; products keep their generated columns (the
-- triggers' source, and the text of products with options).
DROP INDEX IF EXISTS "products_search_text_trgm_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "products_search_words_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_products_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_products (id, name, search_text, search_words)
    SELECT n.id, n.name, n.search_text, n.search_words FROM new_rows n WHERE n.is_active
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text, search_words = excluded.search_words;
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
  INSERT INTO search_products (id, name, search_text, search_words)
    SELECT n.id, n.name, n.search_text, n.search_words FROM new_rows n
     WHERE n.is_active
       AND NOT EXISTS (SELECT 1 FROM old_rows o
                        WHERE o.id = n.id AND o.is_active AND o.name = n.name
                          AND o.search_text = n.search_text AND o.search_words = n.search_words)
  ON CONFLICT (id) DO UPDATE
    SET name = excluded.name, search_text = excluded.search_text, search_words = excluded.search_words;
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
