CREATE TABLE "discount_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"discount_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "discounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"kind" text NOT NULL,
	"percent_basis_points" integer,
	"cap_paise" integer,
	"amount_paise" integer,
	"buy_quantity" integer,
	"get_quantity" integer,
	"applies_to" text DEFAULT 'order' NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"min_subtotal_paise" integer,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"uses_count" integer DEFAULT 0 NOT NULL,
	"combines_with_automatic" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discounts_code_format" CHECK ("discounts"."code" is null or "discounts"."code" ~ '^[A-Za-z0-9-]{3,32}$'),
	CONSTRAINT "discounts_kind_valid" CHECK ("discounts"."kind" in ('percent','flat','free_shipping','buy_get')),
	CONSTRAINT "discounts_state_valid" CHECK ("discounts"."state" in ('active','paused','archived')),
	CONSTRAINT "discounts_uses_within_limit" CHECK ("discounts"."uses_count" >= 0 and ("discounts"."usage_limit" is null or "discounts"."uses_count" <= "discounts"."usage_limit")),
	CONSTRAINT "discounts_percent_range" CHECK ("discounts"."percent_basis_points" is null or "discounts"."percent_basis_points" between 1 and 10000),
	CONSTRAINT "discounts_amounts_nonnegative" CHECK (coalesce("discounts"."cap_paise", 0) >= 0 and coalesce("discounts"."amount_paise", 0) >= 0 and coalesce("discounts"."min_subtotal_paise", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "applied_discounts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "discount_id" uuid;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "hide_when_discount_ends" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD CONSTRAINT "discount_redemptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_redemptions_order_uq" ON "discount_redemptions" USING btree ("discount_id","order_id");--> statement-breakpoint
CREATE INDEX "discount_redemptions_user_idx" ON "discount_redemptions" USING btree ("discount_id","user_id");--> statement-breakpoint
CREATE INDEX "discount_redemptions_order_idx" ON "discount_redemptions" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discounts_code_lower_uq" ON "discounts" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "discounts_automatic_idx" ON "discounts" USING btree ("state","code");--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_discount_range" CHECK ("order_items"."discount_paise" >= 0 and "order_items"."discount_paise" <= "order_items"."unit_price_paise" * "order_items"."quantity");