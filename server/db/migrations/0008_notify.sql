CREATE TABLE "notify_group_sends" (
	"alarm_id" integer PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify_phone_levels" (
	"phone_id" integer PRIMARY KEY NOT NULL,
	"level" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify_silenced_alarms" (
	"alarm_id" integer PRIMARY KEY NOT NULL,
	"silence_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notify_silences" (
	"id" serial PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"house_id" integer,
	"cause" text,
	"reason" text NOT NULL,
	"owner_id" integer,
	"owner_name" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notify_group_sends" ADD CONSTRAINT "notify_group_sends_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_phone_levels" ADD CONSTRAINT "notify_phone_levels_phone_id_alarm_phones_id_fk" FOREIGN KEY ("phone_id") REFERENCES "public"."alarm_phones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_silenced_alarms" ADD CONSTRAINT "notify_silenced_alarms_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_silenced_alarms" ADD CONSTRAINT "notify_silenced_alarms_silence_id_notify_silences_id_fk" FOREIGN KEY ("silence_id") REFERENCES "public"."notify_silences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_silences" ADD CONSTRAINT "notify_silences_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_silences" ADD CONSTRAINT "notify_silences_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_silences" ADD CONSTRAINT "notify_silences_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notify_silences_farm_idx" ON "notify_silences" USING btree ("farm_id","ends_at");