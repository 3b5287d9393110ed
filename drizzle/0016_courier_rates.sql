CREATE TABLE "shipment_bookings" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "courier_rates" text DEFAULT 'table' NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "preferred_courier" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_bookings" ADD CONSTRAINT "shipment_bookings_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;