CREATE TABLE "daily_records" (
	"flock_id" integer NOT NULL,
	"day" date NOT NULL,
	"deaths_am" integer NOT NULL,
	"deaths_pm" integer NOT NULL,
	"culls_am" integer NOT NULL,
	"culls_pm" integer NOT NULL,
	"feed_kg" real NOT NULL,
	"water_l" real,
	"eggs" integer,
	"egg_kg" real,
	"body_weight_g" real,
	"uniformity" real,
	"note" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "daily_records_flock_id_day_pk" PRIMARY KEY("flock_id","day")
);
--> statement-breakpoint
CREATE TABLE "flock_tasks" (
	"flock_id" integer NOT NULL,
	"age_day" smallint NOT NULL,
	"content" text NOT NULL,
	"state" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" integer,
	CONSTRAINT "flock_tasks_flock_id_age_day_content_pk" PRIMARY KEY("flock_id","age_day","content")
);
--> statement-breakpoint
CREATE TABLE "tariffs" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"hours" jsonb NOT NULL,
	"prices" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flocks" ADD COLUMN "origin" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "flocks" ADD COLUMN "depleted_count" integer;--> statement-breakpoint
ALTER TABLE "flocks" ADD COLUMN "catch_weight_kg" real;--> statement-breakpoint
ALTER TABLE "daily_records" ADD CONSTRAINT "daily_records_flock_id_flocks_id_fk" FOREIGN KEY ("flock_id") REFERENCES "public"."flocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_records" ADD CONSTRAINT "daily_records_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flock_tasks" ADD CONSTRAINT "flock_tasks_flock_id_flocks_id_fk" FOREIGN KEY ("flock_id") REFERENCES "public"."flocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flock_tasks" ADD CONSTRAINT "flock_tasks_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tariffs" ADD CONSTRAINT "tariffs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;