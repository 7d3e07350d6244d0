CREATE TABLE "device_notice_sends" (
	"plan_id" integer NOT NULL,
	"phone_id" integer NOT NULL,
	"day" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ok" boolean DEFAULT false NOT NULL,
	CONSTRAINT "device_notice_sends_plan_id_phone_id_day_pk" PRIMARY KEY("plan_id","phone_id","day")
);
--> statement-breakpoint
CREATE TABLE "telemetry_extra_daily" (
	"house_id" integer NOT NULL,
	"code" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"min" real NOT NULL,
	"max" real NOT NULL,
	"sum" double precision NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "telemetry_extra_daily_house_id_code_bucket_pk" PRIMARY KEY("house_id","code","bucket")
);
--> statement-breakpoint
CREATE TABLE "upgrade_files" (
	"sha256" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_notice_sends" ADD CONSTRAINT "device_notice_sends_plan_id_maintenance_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."maintenance_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_files" ADD CONSTRAINT "upgrade_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;