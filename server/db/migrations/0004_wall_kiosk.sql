CREATE TABLE "wall_kiosk_farms" (
	"kiosk_id" integer NOT NULL,
	"farm_id" integer NOT NULL,
	CONSTRAINT "wall_kiosk_farms_kiosk_id_farm_id_pk" PRIMARY KEY("kiosk_id","farm_id")
);
--> statement-breakpoint
CREATE TABLE "wall_kiosk_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"all_farms" boolean NOT NULL,
	"created_by_id" integer,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "wall_kiosk_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "wall_kiosk_farms" ADD CONSTRAINT "wall_kiosk_farms_kiosk_id_wall_kiosk_links_id_fk" FOREIGN KEY ("kiosk_id") REFERENCES "public"."wall_kiosk_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wall_kiosk_farms" ADD CONSTRAINT "wall_kiosk_farms_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wall_kiosk_links" ADD CONSTRAINT "wall_kiosk_links_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wall_kiosk_links" ADD CONSTRAINT "wall_kiosk_links_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wall_kiosk_farms_farm_idx" ON "wall_kiosk_farms" USING btree ("farm_id");--> statement-breakpoint
CREATE INDEX "wall_kiosk_links_created_idx" ON "wall_kiosk_links" USING btree ("created_at");