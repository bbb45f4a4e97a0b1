CREATE TABLE "runtime_processes" (
	"owner" varchar(64) PRIMARY KEY NOT NULL,
	"alive_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "outbox_mailing_state_idx";--> statement-breakpoint
DROP INDEX "outbox_open_idx";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "reply" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "stage_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "owner" varchar(64);--> statement-breakpoint
CREATE INDEX "outbox_replies_open_idx" ON "outbox" USING btree ("funnel_id","person_id","id") WHERE "outbox"."reply" and "outbox"."state" in ('waiting', 'sending');--> statement-breakpoint
CREATE INDEX "outbox_mailing_state_idx" ON "outbox" USING btree ("mailing_id","state") WHERE "outbox"."mailing_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_open_idx" ON "outbox" USING btree ("funnel_id") WHERE "outbox"."state" in ('sending', 'unsend', 'deleting') and not "outbox"."reply";