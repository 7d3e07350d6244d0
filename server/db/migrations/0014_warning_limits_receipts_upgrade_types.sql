CREATE TABLE "breed_warning_limits" (
	"breed_id" integer PRIMARY KEY NOT NULL,
	"limits" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "house_warning_limits" (
	"house_id" integer PRIMARY KEY NOT NULL,
	"limits" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_notify_attempts" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "notify_drill_receipts" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upgrade_files" ADD COLUMN "type_keys" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "breed_warning_limits" ADD CONSTRAINT "breed_warning_limits_breed_id_breeds_id_fk" FOREIGN KEY ("breed_id") REFERENCES "public"."breeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "house_warning_limits" ADD CONSTRAINT "house_warning_limits_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_notify_attempts_provider_idx" ON "alarm_notify_attempts" USING btree ("provider_id") WHERE "alarm_notify_attempts"."provider_id" is not null;--> statement-breakpoint
CREATE INDEX "notify_drill_receipts_provider_idx" ON "notify_drill_receipts" USING btree ("provider_id") WHERE "notify_drill_receipts"."provider_id" is not null;