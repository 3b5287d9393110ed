CREATE TABLE "search_generation" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Hand-written from here (docs/decisions/0021-search-answers.md): one row, raised by every
-- statement that changes what a search matches or ranks by. Stock and price changes don't raise
-- it: a search's cards are read fresh every time, only its ranked ids are kept.
ALTER TABLE "search_generation" ADD CONSTRAINT "search_generation_one_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "search_generation" ("id", "generation") VALUES (true, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_search_generation_raise() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE search_generation SET generation = generation + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A product only a search could find matters: an inactive one (a custom part priced into a
-- cart, a draft) is never searched, so adding, renaming or deleting it keeps every ranking.
CREATE TRIGGER products_search_generation_insert AFTER INSERT ON "products"
  FOR EACH ROW WHEN (NEW."is_active") EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER products_search_generation_update
  AFTER UPDATE OF "name", "category", "subcategory", "is_active" ON "products"
  FOR EACH ROW WHEN (OLD."is_active" OR NEW."is_active")
  EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER products_search_generation_delete AFTER DELETE ON "products"
  FOR EACH ROW WHEN (OLD."is_active") EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER products_search_generation_truncate AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
-- Row triggers here too: a statement trigger also fires for the empty cascade a deleted
-- product sends its (absent) options.
CREATE TRIGGER product_options_search_generation AFTER INSERT OR UPDATE OR DELETE
  ON "product_options"
  FOR EACH ROW EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER product_options_search_generation_truncate AFTER TRUNCATE ON "product_options"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER product_option_values_search_generation AFTER INSERT OR UPDATE OR DELETE
  ON "product_option_values"
  FOR EACH ROW EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER product_option_values_search_generation_truncate AFTER TRUNCATE
  ON "product_option_values"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
