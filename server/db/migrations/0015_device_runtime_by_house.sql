-- Device run times: one row per house, its ports in a jsonb object, not a row per port (see
-- server/db/devicesSchema.ts). The counted times move over unchanged.
CREATE TABLE "device_runtime_by_house" (
	"house_id" integer PRIMARY KEY NOT NULL,
	"devices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "device_runtime_by_house" ("house_id", "devices")
SELECT "house_id", jsonb_object_agg("device_key", jsonb_build_object(
	'run', "run_seconds",
	'last', round(extract(epoch from "last_ts") * 1000)::bigint,
	'state', "last_state"))
FROM "device_runtime" GROUP BY "house_id";
--> statement-breakpoint
DROP TABLE "device_runtime";
--> statement-breakpoint
ALTER TABLE "device_runtime_by_house" RENAME TO "device_runtime";
--> statement-breakpoint
ALTER TABLE "device_runtime" RENAME CONSTRAINT "device_runtime_by_house_pkey" TO "device_runtime_pkey";
--> statement-breakpoint
ALTER TABLE "device_runtime" ADD CONSTRAINT "device_runtime_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;
