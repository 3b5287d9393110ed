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
CREATE TRIGGER products_search_generation AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF "name", "category", "subcategory", "is_active" ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER product_options_search_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "product_options"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
--> statement-breakpoint
CREATE TRIGGER product_option_values_search_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "product_option_values"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_search_generation_raise();
