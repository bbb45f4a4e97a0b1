CREATE TABLE "runtime_processes" (
	"owner" varchar(64) PRIMARY KEY NOT NULL,
	"alive_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "reply" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "stage_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "owner" varchar(64);--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_replies_open_idx" ON "outbox" USING btree ("funnel_id","person_id","id") WHERE "outbox"."reply" and "outbox"."state" in ('waiting', 'sending');