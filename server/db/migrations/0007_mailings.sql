CREATE TABLE "bot_senders" (
	"funnel_id" integer PRIMARY KEY NOT NULL,
	"owner" varchar(64) NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"paused_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"title" varchar(128) NOT NULL,
	"message" jsonb NOT NULL,
	"audience" jsonb NOT NULL,
	"state" varchar(10) DEFAULT 'draft' NOT NULL,
	"pause_reason" varchar(32),
	"paid_broadcast" boolean DEFAULT false NOT NULL,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"unsent_at" timestamp with time zone,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailings_state_check" CHECK ("mailings"."state" in ('draft', 'scheduled', 'sending', 'paused', 'cancelled', 'finished'))
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"mailing_id" integer,
	"priority" integer DEFAULT 10 NOT NULL,
	"state" varchar(10) DEFAULT 'waiting' NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"telegram_message_id" bigint,
	"error" text,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_senders" ADD CONSTRAINT "bot_senders_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mailings_funnel_idx" ON "mailings" USING btree ("funnel_id","id");--> statement-breakpoint
CREATE INDEX "mailings_scheduled_idx" ON "mailings" USING btree ("scheduled_at") WHERE "mailings"."state" = 'scheduled';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_mailing_person_idx" ON "outbox" USING btree ("mailing_id","person_id") WHERE "outbox"."mailing_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_mailing_state_idx" ON "outbox" USING btree ("mailing_id","state");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("funnel_id","priority","id") WHERE "outbox"."state" = 'waiting';--> statement-breakpoint
CREATE INDEX "outbox_open_idx" ON "outbox" USING btree ("funnel_id") WHERE "outbox"."state" in ('sending', 'unsend', 'deleting');--> statement-breakpoint
CREATE INDEX "outbox_person_idx" ON "outbox" USING btree ("person_id");