CREATE TABLE "product_option_values" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"option_id" uuid NOT NULL,
	"value" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"swatch" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_option_values_value_length" CHECK (char_length("product_option_values"."value") between 1 and 60),
	CONSTRAINT "product_option_values_swatch_format" CHECK ("product_option_values"."swatch" is null or "product_option_values"."swatch" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "product_options" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_options_position_range" CHECK ("product_options"."position" between 0 and 2),
	CONSTRAINT "product_options_name_length" CHECK (char_length("product_options"."name") between 1 and 40)
);
--> statement-breakpoint
CREATE TABLE "product_variant_values" (
	"variant_id" uuid NOT NULL,
	"option_id" uuid NOT NULL,
	"value_id" uuid NOT NULL,
	CONSTRAINT "product_variant_values_variant_id_option_id_pk" PRIMARY KEY("variant_id","option_id")
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"sku" text,
	"price_paise" integer NOT NULL,
	"original_price_paise" integer,
	"stock_count" integer,
	"in_stock" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_price_nonnegative" CHECK ("product_variants"."price_paise" >= 0),
	CONSTRAINT "product_variants_original_price_nonnegative" CHECK ("product_variants"."original_price_paise" is null or "product_variants"."original_price_paise" >= 0),
	CONSTRAINT "product_variants_stock_nonnegative" CHECK ("product_variants"."stock_count" is null or "product_variants"."stock_count" >= 0)
);
--> statement-breakpoint
-- (drizzle-kit wrote these statements in an order PostgreSQL refuses: the (value, option) key
-- before its unique index, the cart's new primary key before its column. They run here in an order
-- that works, with the data step where the existing rows need it.)
CREATE INDEX "product_option_values_option_idx" ON "product_option_values" USING btree ("option_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_option_value_uq" ON "product_option_values" USING btree ("option_id",lower("value"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_id_option_uq" ON "product_option_values" USING btree ("id","option_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_product_position_uq" ON "product_options" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_product_name_uq" ON "product_options" USING btree ("product_id",lower("name"));--> statement-breakpoint
CREATE INDEX "product_variant_values_value_idx" ON "product_variant_values" USING btree ("value_id");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_uq" ON "product_variants" USING btree (lower("sku")) WHERE "product_variants"."sku" is not null;--> statement-breakpoint
ALTER TABLE "product_option_values" ADD CONSTRAINT "product_option_values_option_id_product_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_option_id_product_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_values" ADD CONSTRAINT "product_variant_values_value_option_fk" FOREIGN KEY ("value_id","option_id") REFERENCES "public"."product_option_values"("id","option_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- order_items.variant_id was free text no code ever wrote: a uuid stays (checked below), anything else goes.
ALTER TABLE "order_items" ALTER COLUMN "variant_id" SET DATA TYPE uuid USING (CASE WHEN "variant_id" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN "variant_id"::uuid END);--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
-- ---- hand-written data step (issue 22; docs/decisions/0015-variants.md) -------------------------
-- Every product gets its one default variant carrying its price, original price and stock; every
-- cart line and order item names its product's default variant. Idempotent: a product that has a
-- variant, a line that names one, is left as it is.
INSERT INTO "product_variants" ("product_id", "price_paise", "original_price_paise", "stock_count", "in_stock", "is_active", "position", "created_at", "updated_at")
SELECT p."id", p."price_paise", p."original_price_paise", p."stock_count", p."in_stock", true, 0, p."created_at", p."updated_at"
FROM "products" p
WHERE NOT EXISTS (SELECT 1 FROM "product_variants" v WHERE v."product_id" = p."id");--> statement-breakpoint
UPDATE "order_items" oi SET "variant_id" = NULL
WHERE oi."variant_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "product_variants" v WHERE v."id" = oi."variant_id" AND v."product_id" = oi."product_id");--> statement-breakpoint
UPDATE "order_items" oi SET "variant_id" = (
  SELECT v."id" FROM "product_variants" v WHERE v."product_id" = oi."product_id" ORDER BY v."position", v."id" LIMIT 1
)
WHERE oi."variant_id" IS NULL AND oi."product_id" IS NOT NULL;--> statement-breakpoint
UPDATE "cart_items" ci SET "variant_id" = (
  SELECT v."id" FROM "product_variants" v WHERE v."product_id" = ci."product_id" ORDER BY v."position", v."id" LIMIT 1
)
WHERE ci."variant_id" IS NULL;--> statement-breakpoint
-- ---- end of the data step -----------------------------------------------------------------------
ALTER TABLE "cart_items" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_items" DROP CONSTRAINT "cart_items_user_id_product_id_pk";--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_user_id_variant_id_pk" PRIMARY KEY("user_id","variant_id");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_items_user_product_idx" ON "cart_items" USING btree ("user_id","product_id");--> statement-breakpoint
-- ---- hand-written triggers (decision 0015) -------------------------------------------------------
-- A product is created with its default variant, whoever creates it (staff, the import, the seed,
-- a custom part). While a product has no options its row and its one variant are the same thing:
-- a change to the row's price or stock is the variant's too. A product with options keeps a
-- summary of its variants on its row, written by the inventory and catalog modules.
CREATE OR REPLACE FUNCTION layerkart_product_default_variant() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_variants (product_id, price_paise, original_price_paise, stock_count, in_stock, position, created_at, updated_at)
  VALUES (NEW.id, NEW.price_paise, NEW.original_price_paise, NEW.stock_count, NEW.in_stock, 0, NEW.created_at, NEW.updated_at);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER products_default_variant AFTER INSERT ON products
  FOR EACH ROW EXECUTE FUNCTION layerkart_product_default_variant();--> statement-breakpoint
CREATE OR REPLACE FUNCTION layerkart_product_mirror_default_variant() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE product_variants v
  SET price_paise = NEW.price_paise,
      original_price_paise = NEW.original_price_paise,
      stock_count = NEW.stock_count,
      in_stock = NEW.in_stock,
      updated_at = NEW.updated_at
  WHERE v.product_id = NEW.id
    AND NOT EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = NEW.id)
    AND (v.price_paise, v.original_price_paise, v.stock_count, v.in_stock)
      IS DISTINCT FROM (NEW.price_paise, NEW.original_price_paise, NEW.stock_count, NEW.in_stock);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER products_mirror_default_variant
  AFTER UPDATE OF price_paise, original_price_paise, stock_count, in_stock ON products
  FOR EACH ROW
  WHEN ((OLD.price_paise, OLD.original_price_paise, OLD.stock_count, OLD.in_stock)
    IS DISTINCT FROM (NEW.price_paise, NEW.original_price_paise, NEW.stock_count, NEW.in_stock))
  EXECUTE FUNCTION layerkart_product_mirror_default_variant();--> statement-breakpoint
-- The storefront pages read options and variants too (the page cache, drizzle/0005).
CREATE TRIGGER product_options_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_options
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();--> statement-breakpoint
CREATE TRIGGER product_option_values_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_option_values
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();--> statement-breakpoint
CREATE TRIGGER product_variants_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();--> statement-breakpoint
CREATE TRIGGER product_variant_values_storefront_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variant_values
  FOR EACH STATEMENT EXECUTE FUNCTION layerkart_notify_storefront_change();
