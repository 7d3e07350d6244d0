CREATE TABLE "cameras" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"channel" integer DEFAULT 1 NOT NULL,
	"vendor" text NOT NULL,
	"user_name_secret" text DEFAULT '' NOT NULL,
	"password_secret" text DEFAULT '' NOT NULL,
	"verify_code_secret" text DEFAULT '' NOT NULL,
	"stream_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "concentrators" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer NOT NULL,
	"type" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_runtime" (
	"house_id" integer NOT NULL,
	"device_key" text NOT NULL,
	"run_seconds" double precision DEFAULT 0 NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"last_state" smallint NOT NULL,
	CONSTRAINT "device_runtime_house_id_device_key_pk" PRIMARY KEY("house_id","device_key")
);
--> statement-breakpoint
CREATE TABLE "maintenance_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"plan_id" integer,
	"house_id" integer NOT NULL,
	"device_name" text,
	"type" text NOT NULL,
	"content" text NOT NULL,
	"done_at" timestamp with time zone NOT NULL,
	"done_by" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer NOT NULL,
	"device_id" integer,
	"type" text NOT NULL,
	"content" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"planned_date" date,
	"interval" integer,
	"base_run_seconds" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_extra" (
	"house_id" integer NOT NULL,
	"code" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"value" real NOT NULL,
	CONSTRAINT "telemetry_extra_house_id_code_ts_pk" PRIMARY KEY("house_id","code","ts")
);
--> statement-breakpoint
CREATE TABLE "telemetry_extra_hourly" (
	"house_id" integer NOT NULL,
	"code" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"min" real NOT NULL,
	"max" real NOT NULL,
	"sum" double precision NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "telemetry_extra_hourly_house_id_code_bucket_pk" PRIMARY KEY("house_id","code","bucket")
);
--> statement-breakpoint
CREATE TABLE "terminal_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer NOT NULL,
	"concentrator_id" integer,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"control_port" text DEFAULT '' NOT NULL,
	"current_port" text DEFAULT '' NOT NULL,
	"sensor_port" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"can_input" boolean DEFAULT false NOT NULL,
	"type" text NOT NULL,
	"extras" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cameras" ADD CONSTRAINT "cameras_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "concentrators" ADD CONSTRAINT "concentrators_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_runtime" ADD CONSTRAINT "device_runtime_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_plan_id_maintenance_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."maintenance_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_history" ADD CONSTRAINT "maintenance_history_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_device_id_terminal_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."terminal_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal_devices" ADD CONSTRAINT "terminal_devices_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal_devices" ADD CONSTRAINT "terminal_devices_concentrator_id_concentrators_id_fk" FOREIGN KEY ("concentrator_id") REFERENCES "public"."concentrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cameras_org_name_uniq" ON "cameras" USING btree ("org_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "concentrators_house_code_uniq" ON "concentrators" USING btree ("house_id","code");--> statement-breakpoint
CREATE INDEX "maintenance_history_house_idx" ON "maintenance_history" USING btree ("house_id","done_at");--> statement-breakpoint
CREATE INDEX "maintenance_plans_house_idx" ON "maintenance_plans" USING btree ("house_id");--> statement-breakpoint
CREATE UNIQUE INDEX "terminal_devices_house_code_uniq" ON "terminal_devices" USING btree ("house_id","code");--> statement-breakpoint
CREATE INDEX "terminal_devices_concentrator_idx" ON "terminal_devices" USING btree ("concentrator_id");