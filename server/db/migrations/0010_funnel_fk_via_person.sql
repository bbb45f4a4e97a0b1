ALTER TABLE "outbox" DROP CONSTRAINT "outbox_funnel_id_funnels_id_fk";
--> statement-breakpoint
ALTER TABLE "person_events" DROP CONSTRAINT "person_events_funnel_id_funnels_id_fk";
