CREATE TABLE "search_postings" (
	"word" text NOT NULL,
	"name" text NOT NULL,
	"product_id" uuid NOT NULL,
	CONSTRAINT "search_postings_word_name_product_id_pk" PRIMARY KEY("word","name","product_id")
);
--> statement-breakpoint
-- Hand-written from here (docs/decisions/0021-search-answers.md, amended 2026-11-27 b): the rows
-- follow each active product's words and name. Statement triggers with transition tables, as for
-- search_vocabulary (drizzle/0007), so seeding or importing thousands of products is one insert.
-- A row changes only when the product's words, name or active flag do: a sale's stock update
-- finds its old and new row identical and writes nothing.
CREATE OR REPLACE FUNCTION layerkart_search_postings_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_postings (word, name, product_id)
    SELECT DISTINCT w, n.name, n.id FROM new_rows n, unnest(n.search_words) AS w
     WHERE n.is_active AND w !~ '^[0-9]*$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_postings_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_postings sp
   USING old_rows o, unnest(o.search_words) AS w
   WHERE o.is_active
     AND NOT EXISTS (SELECT 1 FROM new_rows n
                      WHERE n.id = o.id AND n.is_active AND n.name = o.name
                        AND n.search_words = o.search_words)
     AND sp.word = w AND sp.name = o.name AND sp.product_id = o.id;
  INSERT INTO search_postings (word, name, product_id)
    SELECT DISTINCT w, n.name, n.id FROM new_rows n, unnest(n.search_words) AS w
     WHERE n.is_active AND w !~ '^[0-9]*$'
       AND NOT EXISTS (SELECT 1 FROM old_rows o
                        WHERE o.id = n.id AND o.is_active AND o.name = n.name
                          AND o.search_words = n.search_words)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_postings_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_postings sp
   USING old_rows o, unnest(o.search_words) AS w
   WHERE o.is_active AND sp.word = w AND sp.name = o.name AND sp.product_id = o.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_postings_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_postings;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_search_postings_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_postings_insert();
--> statement-breakpoint
CREATE TRIGGER products_search_postings_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_postings_update();
--> statement-breakpoint
CREATE TRIGGER products_search_postings_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_postings_delete();
--> statement-breakpoint
CREATE TRIGGER products_search_postings_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_postings_truncate();
--> statement-breakpoint
INSERT INTO search_postings (word, name, product_id)
  SELECT DISTINCT w, p.name, p.id FROM products p, unnest(p.search_words) AS w
   WHERE p.is_active AND w !~ '^[0-9]*$'
ON CONFLICT DO NOTHING;
