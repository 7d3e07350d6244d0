CREATE TABLE "gateway_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"gateway_id" integer NOT NULL,
	"house_id" integer NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"params" jsonb NOT NULL,
	"read_back" jsonb,
	"reason" text,
	"requested_by" integer,
	"requested_by_name" text NOT NULL,
	"source" text DEFAULT 'computer' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_params" (
	"gateway_id" integer PRIMARY KEY NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "param_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "param_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"house_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"operator_name" text NOT NULL,
	"command_id" text,
	"key" text NOT NULL,
	"old_value" double precision,
	"new_value" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_commands" ADD CONSTRAINT "gateway_commands_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_commands" ADD CONSTRAINT "gateway_commands_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_commands" ADD CONSTRAINT "gateway_commands_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_params" ADD CONSTRAINT "gateway_params_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "param_changes" ADD CONSTRAINT "param_changes_house_id_houses_id_fk" FOREIGN KEY ("house_id") REFERENCES "public"."houses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "param_changes" ADD CONSTRAINT "param_changes_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_commands_open_idx" ON "gateway_commands" USING btree ("gateway_id","created_at") WHERE "gateway_commands"."state" in ('queued', 'sent');--> statement-breakpoint
CREATE INDEX "gateway_commands_house_idx" ON "gateway_commands" USING btree ("house_id","created_at");--> statement-breakpoint
CREATE INDEX "param_changes_house_idx" ON "param_changes" USING btree ("house_id","at");