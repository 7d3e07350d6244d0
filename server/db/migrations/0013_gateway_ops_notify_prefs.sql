CREATE TABLE "notify_drill_receipts" (
	"drill_id" integer NOT NULL,
	"phone_id" integer NOT NULL,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"adapter" text,
	"tries" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"provider_id" text,
	"failed_detail" text,
	"acknowledged_at" timestamp with time zone,
	"ack_comment" text,
	CONSTRAINT "notify_drill_receipts_drill_id_phone_id_channel_pk" PRIMARY KEY("drill_id","phone_id","channel")
);
--> statement-breakpoint
CREATE TABLE "notify_drill_schedules" (
	"house_id" integer PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"weekday" integer NOT NULL,
	"time" text NOT NULL,
	"created_by" text NOT NULL,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notify_drills" (
	"id" serial PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"started_by" text NOT NULL,
	"scheduled" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"dispatched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notify_prefs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"farm_ids" jsonb,
	"severities" jsonb NOT NULL,
	"channels" jsonb NOT NULL,
	"quiet_start" text,
	"quiet_end" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_logs" (
	"command_id" text PRIMARY KEY NOT NULL,
	"gateway_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_upgrades" (
	"command_id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"version" text NOT NULL,
	"from_version" text NOT NULL,
	"file_name" text NOT NULL,
	"stage" text,
	"percent" integer
);
--> statement-breakpoint
CREATE TABLE "upgrade_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"command_id" text NOT NULL,
	"gateway_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notify_drill_receipts" ADD CONSTRAINT "notify_drill_receipts_drill_id_notify_drills_id_fk" FOREIGN KEY ("drill_id") REFERENCES "public"."notify_drills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_drill_schedules" ADD CONSTRAINT "notify_drill_schedules_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_drill_schedules" ADD CONSTRAINT "notify_drill_schedules_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_drills" ADD CONSTRAINT "notify_drills_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_drills" ADD CONSTRAINT "notify_drills_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_prefs" ADD CONSTRAINT "notify_prefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_logs" ADD CONSTRAINT "gateway_logs_command_id_gateway_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."gateway_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_logs" ADD CONSTRAINT "gateway_logs_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_logs" ADD CONSTRAINT "gateway_logs_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_upgrades" ADD CONSTRAINT "gateway_upgrades_command_id_gateway_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."gateway_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_command_id_gateway_commands_id_fk" FOREIGN KEY ("command_id") REFERENCES "public"."gateway_commands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notify_drills_house_idx" ON "notify_drills" USING btree ("house_id","started_at");--> statement-breakpoint
CREATE INDEX "gateway_logs_gateway_idx" ON "gateway_logs" USING btree ("gateway_id","received_at");