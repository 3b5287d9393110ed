ALTER TABLE "shop_settings" ADD COLUMN "courier_rates" text DEFAULT 'table' NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "preferred_courier" text DEFAULT '' NOT NULL;