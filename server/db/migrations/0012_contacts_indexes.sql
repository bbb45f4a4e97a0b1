CREATE INDEX "people_joined_idx" ON "people" USING btree ("joined_at","id");--> statement-breakpoint
CREATE INDEX "people_funnel_joined_idx" ON "people" USING btree ("funnel_id","joined_at","id");--> statement-breakpoint
CREATE INDEX "people_blocked_idx" ON "people" USING btree ("funnel_id") WHERE "people"."blocked";