DROP INDEX "cameras_org_name_uniq";--> statement-breakpoint
CREATE UNIQUE INDEX "cameras_house_name_uniq" ON "cameras" USING btree ("house_id","name");