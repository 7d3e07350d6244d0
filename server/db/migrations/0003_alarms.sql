CREATE TABLE "alarm_inputs" (
	"id" serial PRIMARY KEY NOT NULL,
	"gateway_id" integer NOT NULL,
	"di_code" text NOT NULL,
	"content" text NOT NULL,
	"horn" boolean NOT NULL,
	"shield_test" boolean NOT NULL,
	"relay_type" text NOT NULL,
	"important" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_limits" (
	"house_id" integer PRIMARY KEY NOT NULL,
	"limits" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"alarm_id" integer NOT NULL,
	"phone_id" integer NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"done_reason" text,
	"claimed_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alarm_notify_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarm_notify_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"notification_id" integer NOT NULL,
	"alarm_id" integer NOT NULL,
	"phone_id" integer NOT NULL,
	"channel" text NOT NULL,
	"adapter" text NOT NULL,
	"try" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"detail" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_phones" (
	"id" serial PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"house_id" integer,
	"phone" text NOT NULL,
	"period1_start" text NOT NULL,
	"period1_end" text NOT NULL,
	"period2_start" text,
	"period2_end" text,
	"date_type" text NOT NULL,
	"repeat_minutes" integer NOT NULL,
	"closable" boolean NOT NULL,
	"alarm_type" text NOT NULL,
	"delay_minutes" integer NOT NULL,
	"status" text NOT NULL,
	"notice_types" jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarm_rule_state" (
	"house_id" integer PRIMARY KEY NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer NOT NULL,
	"farm_id" integer NOT NULL,
	"cause" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"severity" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"value" real,
	"limit_value" real,
	"text" text,
	"raised_at" timestamp with time zone NOT NULL,
	"condition_ended_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"ack_user_id" integer,
	"ack_comment" text,
	"cleared_at" timestamp with time zone,
	"cleared_by" text,
	"occurrences" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_inputs" ADD CONSTRAINT "alarm_inputs_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_limits" ADD CONSTRAINT "alarm_limits_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notifications" ADD CONSTRAINT "alarm_notifications_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notifications" ADD CONSTRAINT "alarm_notifications_phone_id_alarm_phones_id_fk" FOREIGN KEY ("phone_id") REFERENCES "public"."alarm_phones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notify_attempts" ADD CONSTRAINT "alarm_notify_attempts_notification_id_alarm_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."alarm_notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_phones" ADD CONSTRAINT "alarm_phones_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_phones" ADD CONSTRAINT "alarm_phones_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rule_state" ADD CONSTRAINT "alarm_rule_state_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_ack_user_id_users_id_fk" FOREIGN KEY ("ack_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_inputs_gateway_code" ON "alarm_inputs" USING btree ("gateway_id","di_code");--> statement-breakpoint
CREATE UNIQUE INDEX "alarm_notifications_uniq" ON "alarm_notifications" USING btree ("alarm_id","phone_id");--> statement-breakpoint
CREATE INDEX "alarm_notifications_due_idx" ON "alarm_notifications" USING btree ("next_at") WHERE not "alarm_notifications"."done";--> statement-breakpoint
CREATE INDEX "alarm_notify_attempts_alarm_idx" ON "alarm_notify_attempts" USING btree ("alarm_id");--> statement-breakpoint
CREATE INDEX "alarm_phones_farm_idx" ON "alarm_phones" USING btree ("farm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_one_open" ON "alarms" USING btree ("house_id","cause","subject") WHERE "alarms"."state" <> 'cleared';--> statement-breakpoint
CREATE INDEX "alarms_house_raised_idx" ON "alarms" USING btree ("house_id","raised_at");--> statement-breakpoint
CREATE INDEX "alarms_raised_idx" ON "alarms" USING btree ("raised_at");