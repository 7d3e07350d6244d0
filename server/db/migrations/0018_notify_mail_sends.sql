CREATE TABLE "notify_mail_sends" (
	"alarm_id" integer NOT NULL,
	"mailbox" text NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"ok" boolean,
	"detail" text DEFAULT '' NOT NULL,
	CONSTRAINT "notify_mail_sends_alarm_id_mailbox_pk" PRIMARY KEY("alarm_id","mailbox")
);
--> statement-breakpoint
ALTER TABLE "notify_mail_sends" ADD CONSTRAINT "notify_mail_sends_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notify_mail_sends" ADD CONSTRAINT "notify_mail_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- E-mail becomes a channel people choose in their preferences. Preferences saved before it was
-- one never said no to e-mail: they keep getting it until the person unticks it.
UPDATE "notify_prefs" SET "channels" = "channels" || '["email"]'::jsonb WHERE NOT ("channels" ? 'email');
