CREATE TABLE "pin_codes" (
	"pin" text PRIMARY KEY NOT NULL,
	"district" text NOT NULL,
	"state" text NOT NULL,
	"metro" text,
	"special_zone" text
);
--> statement-breakpoint
CREATE TABLE "pin_directory" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"source" text NOT NULL,
	"pin_count" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pin_directory_single_row" CHECK ("pin_directory"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "ship_from_pin" text DEFAULT '560001' NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "dispatch_days" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "print_lead_days" smallint DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "print_lead_days_by_category" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "transit_days" jsonb DEFAULT '{"local":1,"state":2,"metro":3,"rest":5,"special":7}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "holidays" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD CONSTRAINT "shop_settings_lead_days_range" CHECK ("shop_settings"."dispatch_days" between 0 and 60 and "shop_settings"."print_lead_days" between 0 and 60);