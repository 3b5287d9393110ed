CREATE TABLE "search_vocabulary" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_vocabulary_prefix_idx" ON "search_vocabulary" USING btree ("word" text_pattern_ops);--> statement-breakpoint
-- Hand-written from here (docs/decisions/0004-search.md, amended 2026-11-25): the search's text and
-- words stored with each product, the indexes searchProducts uses, and the triggers that keep the
-- vocabulary. The two columns are left out of app/db/schema.ts, so no select or insert carries them.
ALTER TABLE "products" ADD COLUMN "search_text" text
  GENERATED ALWAYS AS (lower("name" || ' ' || "category" || ' ' || coalesce("subcategory", ''))) STORED;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_words" text[]
  GENERATED ALWAYS AS (regexp_split_to_array(lower("name" || ' ' || "category" || ' ' || coalesce("subcategory", '')), '[[:space:][:punct:]]+')) STORED;
--> statement-breakpoint
CREATE INDEX "products_search_text_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "products_search_words_idx" ON "products" USING gin ("search_words");
--> statement-breakpoint
-- Active products by name, with what ranking the first of them by name needs (an index-only scan).
CREATE INDEX "products_active_name_idx" ON "products" USING btree ("name") INCLUDE ("id", "search_text") WHERE "is_active";
--> statement-breakpoint
-- Numbers (and the empty word before leading punctuation) are not kept: no word without a digit
-- is a prefix of a number or within 2 edits of one, and a query word with a digit is matched
-- product by product instead.
CREATE OR REPLACE FUNCTION layerkart_search_vocabulary_add() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_vocabulary (word)
    SELECT DISTINCT w FROM new_rows, unnest(new_rows.search_words) AS w
     WHERE w !~ '^[0-9]*$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_vocabulary_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_vocabulary_add();
--> statement-breakpoint
CREATE TRIGGER products_search_vocabulary_update AFTER UPDATE ON products
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_vocabulary_add();
--> statement-breakpoint
INSERT INTO search_vocabulary (word)
  SELECT DISTINCT w FROM products, unnest(products.search_words) AS w WHERE w !~ '^[0-9]*$'
ON CONFLICT DO NOTHING;
