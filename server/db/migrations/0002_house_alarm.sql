ALTER TABLE "house_state" ADD COLUMN "alarm_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "house_state" ADD COLUMN "alarm_top" jsonb;