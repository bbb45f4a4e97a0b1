CREATE TABLE "funnel_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "funnel_sources_code_check" CHECK ("funnel_sources"."code" ~ '^[A-Za-z0-9_-]{1,32}$')
);
--> statement-breakpoint
ALTER TABLE "funnel_sources" ADD CONSTRAINT "funnel_sources_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_sources_funnel_code_idx" ON "funnel_sources" USING btree ("funnel_id","code");
--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "source_id" integer;
--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_source_id_funnel_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."funnel_sources"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "people_funnel_source_joined_idx" ON "people" USING btree ("funnel_id","source_id","joined_at");
