DROP INDEX "tags_funnel_title_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "tags_funnel_title_lower_idx" ON "tags" USING btree ("funnel_id",lower("title"));