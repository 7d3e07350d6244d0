-- A camera's code names its folder on the media gateway, so it becomes unique across the
-- installation. Codes shared before this migration would make the index fail: the oldest camera
-- (lowest id) keeps its code, each later one gets `-<its id>` appended (ids are unique, so the
-- new codes are too); an administrator renames them in the console if needed.
UPDATE "cameras" SET "code" = "cameras"."code" || '-' || "cameras"."id"
FROM "cameras" AS "first"
WHERE "first"."code" = "cameras"."code" AND "first"."id" < "cameras"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "cameras_code_uniq" ON "cameras" USING btree ("code");
