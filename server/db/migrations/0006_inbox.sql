ALTER TABLE "funnels" ADD COLUMN "inbox_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "unread_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "people_funnel_last_message_idx" ON "people" USING btree ("funnel_id","last_message_at");