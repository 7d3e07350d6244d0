CREATE TABLE "breed_targets" (
	"breed_id" integer NOT NULL,
	"age_day" smallint NOT NULL,
	"temperature" real,
	"humidity" real,
	"co2" real,
	"light_hours" real,
	"light_intensity" real,
	"water_per_head" real,
	"weight" real,
	"feed_per_head" real,
	"egg_weight" real,
	"laying_rate" real,
	"survival_rate" real,
	CONSTRAINT "breed_targets_breed_id_age_day_pk" PRIMARY KEY("breed_id","age_day")
);
--> statement-breakpoint
CREATE TABLE "breeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"factory" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_common" boolean DEFAULT false NOT NULL,
	"operator" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captchas" (
	"id" text PRIMARY KEY NOT NULL,
	"answer" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farms" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"parent_id" integer,
	"level" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"province_adcode" text,
	"province_name" text,
	"longitude" double precision,
	"latitude" double precision,
	"address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer NOT NULL,
	"breed_id" integer,
	"placed_on" date NOT NULL,
	"age_at_placement" smallint DEFAULT 1 NOT NULL,
	"head_count" integer NOT NULL,
	"closed_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" serial PRIMARY KEY NOT NULL,
	"house_id" integer,
	"network_id" text NOT NULL,
	"type_key" smallint NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"sim_card" text DEFAULT '' NOT NULL,
	"token_hash" text NOT NULL,
	"interval_seconds" integer DEFAULT 60 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateways_network_id_unique" UNIQUE("network_id")
);
--> statement-breakpoint
CREATE TABLE "houses" (
	"id" serial PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "immune_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"breed_id" integer NOT NULL,
	"age_day" smallint NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"address" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operation_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_id" integer,
	"operator_name" text NOT NULL,
	"function" text NOT NULL,
	"house_id" integer,
	"house_name" text DEFAULT '' NOT NULL,
	"operation" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'computer' NOT NULL,
	"network_id" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"principal" text DEFAULT '' NOT NULL,
	"office_tel" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"fax" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"logo" "bytea",
	"map_type" text DEFAULT '1' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organizations_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text DEFAULT 'computer' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_farms" (
	"user_id" integer NOT NULL,
	"farm_id" integer NOT NULL,
	CONSTRAINT "user_farms_user_id_farm_id_pk" PRIMARY KEY("user_id","farm_id")
);
--> statement-breakpoint
CREATE TABLE "user_houses" (
	"user_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	CONSTRAINT "user_houses_user_id_house_id_pk" PRIMARY KEY("user_id","house_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"real_name" text DEFAULT '' NOT NULL,
	"department" text DEFAULT '' NOT NULL,
	"position" text DEFAULT '' NOT NULL,
	"office_tel" text DEFAULT '' NOT NULL,
	"mobile" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"role_key" text NOT NULL,
	"can_operate" boolean DEFAULT false NOT NULL,
	"remote_config" boolean DEFAULT false NOT NULL,
	"scope_node_id" integer,
	"last_login_at" timestamp with time zone,
	"login_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "breed_targets" ADD CONSTRAINT "breed_targets_breed_id_breeds_id_fk" FOREIGN KEY ("breed_id") REFERENCES "public"."breeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breeds" ADD CONSTRAINT "breeds_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farms" ADD CONSTRAINT "farms_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farms" ADD CONSTRAINT "farms_parent_id_farms_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flocks" ADD CONSTRAINT "flocks_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flocks" ADD CONSTRAINT "flocks_breed_id_breeds_id_fk" FOREIGN KEY ("breed_id") REFERENCES "public"."breeds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "houses" ADD CONSTRAINT "houses_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "immune_reminders" ADD CONSTRAINT "immune_reminders_breed_id_breeds_id_fk" FOREIGN KEY ("breed_id") REFERENCES "public"."breeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_farms" ADD CONSTRAINT "user_farms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_farms" ADD CONSTRAINT "user_farms_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_houses" ADD CONSTRAINT "user_houses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_houses" ADD CONSTRAINT "user_houses_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_scope_node_id_farms_id_fk" FOREIGN KEY ("scope_node_id") REFERENCES "public"."farms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "farms_parent_idx" ON "farms" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "farms_org_idx" ON "farms" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flocks_one_open_per_house" ON "flocks" USING btree ("house_id") WHERE "flocks"."closed_on" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_house_uniq" ON "gateways" USING btree ("house_id");--> statement-breakpoint
CREATE INDEX "houses_farm_idx" ON "houses" USING btree ("farm_id");--> statement-breakpoint
CREATE INDEX "login_failures_user_idx" ON "login_failures" USING btree ("username","at");--> statement-breakpoint
CREATE INDEX "login_failures_addr_idx" ON "login_failures" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "operation_logs_at_idx" ON "operation_logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uniq" ON "users" USING btree (lower("username"));