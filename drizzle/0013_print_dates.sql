ALTER TABLE "quotes" ADD COLUMN "print_minutes" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "ready_by" date;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "price_note" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "actual_print_minutes" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "printed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_print_minutes_valid" CHECK (("quotes"."print_minutes" is null or "quotes"."print_minutes" >= 0) and ("quotes"."actual_print_minutes" is null or "quotes"."actual_print_minutes" > 0));