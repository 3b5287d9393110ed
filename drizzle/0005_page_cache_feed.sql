-- The page cache (app/lib/page-cache.server.ts) keeps rendered storefront pages until the data
-- behind them changes. Every statement that changes one of the tables those pages read sends a
-- notification, which PostgreSQL delivers after the transaction commits (one per transaction).
CREATE OR REPLACE FUNCTION layerkart_notify_storefront_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('layerkart_storefront', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER categories_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER sponsored_products_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sponsored_products
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER promotions_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON promotions
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER reviews_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER review_stats_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON review_stats
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
CREATE TRIGGER shop_settings_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shop_settings
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
--> statement-breakpoint
-- Reviews show their author's name from the account.
CREATE TRIGGER user_storefront_change AFTER UPDATE OF name OR DELETE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
