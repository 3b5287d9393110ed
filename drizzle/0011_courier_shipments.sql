CREATE TABLE "shipment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shipment_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"stage" text NOT NULL,
	"status_code" text NOT NULL,
	"label" text NOT NULL,
	"location" text,
	"activity" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"raw" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"carrier" text NOT NULL,
	"reference" text NOT NULL,
	"stage" text DEFAULT 'booked' NOT NULL,
	"courier_id" text NOT NULL,
	"courier_name" text NOT NULL,
	"awb" text NOT NULL,
	"carrier_order_id" text,
	"carrier_shipment_id" text,
	"grams" integer NOT NULL,
	"box_length_cm" smallint NOT NULL,
	"box_width_cm" smallint NOT NULL,
	"box_height_cm" smallint NOT NULL,
	"rate_paise" integer,
	"expected_date" text,
	"pickup_requested_at" timestamp with time zone,
	"pickup_date" text,
	"pickup_token" text,
	"cancelled_at" timestamp with time zone,
	"last_event_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_rate_nonnegative" CHECK ("shipments"."rate_paise" is null or "shipments"."rate_paise" >= 0),
	CONSTRAINT "shipments_parcel_positive" CHECK ("shipments"."grams" > 0 and "shipments"."box_length_cm" > 0 and "shipments"."box_width_cm" > 0 and "shipments"."box_height_cm" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_valid";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "out_for_delivery_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_key_uq" ON "shipment_events" USING btree ("shipment_id","event_key");--> statement-breakpoint
CREATE INDEX "shipment_events_timeline_idx" ON "shipment_events" USING btree ("shipment_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_live_uq" ON "shipments" USING btree ("order_id") WHERE "shipments"."stage" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_carrier_awb_uq" ON "shipments" USING btree ("carrier","awb") WHERE "shipments"."stage" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_reference_uq" ON "shipments" USING btree ("carrier","reference");--> statement-breakpoint
CREATE INDEX "shipments_created_idx" ON "shipments" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_valid" CHECK ("orders"."status" in ('pending','processing','shipped','delivered','cancelled','refunded','returned'));