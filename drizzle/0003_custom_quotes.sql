CREATE TABLE "quote_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"rates" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_settings_single_row" CHECK ("quote_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"file_name" text NOT NULL,
	"storage_path" text NOT NULL,
	"file_bytes" integer NOT NULL,
	"geometry" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"options" jsonb,
	"rates" jsonb,
	"unit_price_paise" integer,
	"quantity" integer,
	"expires_at" timestamp with time zone,
	"customer_note" text,
	"staff_reply" text,
	"staff_priced" boolean DEFAULT false NOT NULL,
	"replied_at" timestamp with time zone,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_status_valid" CHECK ("quotes"."status" in ('draft','in_cart','review_requested','offered','ordered','closed')),
	CONSTRAINT "quotes_price_nonnegative" CHECK ("quotes"."unit_price_paise" is null or "quotes"."unit_price_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quotes_user_created_idx" ON "quotes" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_status_created_idx" ON "quotes" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "products_quote_uq" ON "products" USING btree ("quote_id");