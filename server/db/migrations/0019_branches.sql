CREATE TABLE "stage_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"from_stage_id" integer,
	"to_stage_id" integer,
	"via" varchar(16) NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stage_moves_via_check" CHECK ("stage_moves"."via" in ('start', 'next', 'choice', 'keyword', 'manual', 'timer', 'payment', 'refund', 'webhook'))
);
--> statement-breakpoint
ALTER TABLE "stage_moves" ADD CONSTRAINT "stage_moves_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_moves" ADD CONSTRAINT "stage_moves_from_stage_id_stages_id_fk" FOREIGN KEY ("from_stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_moves" ADD CONSTRAINT "stage_moves_to_stage_id_stages_id_fk" FOREIGN KEY ("to_stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stage_moves_funnel_from_created_idx" ON "stage_moves" USING btree ("funnel_id","from_stage_id","created_at");--> statement-breakpoint
CREATE INDEX "stage_moves_person_idx" ON "stage_moves" USING btree ("person_id");--> statement-breakpoint
CREATE TABLE "funnel_keywords" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"phrase" varchar(64) NOT NULL,
	"stage_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funnel_keywords" ADD CONSTRAINT "funnel_keywords_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funnel_keywords" ADD CONSTRAINT "funnel_keywords_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_keywords_funnel_phrase_idx" ON "funnel_keywords" USING btree ("funnel_id",lower("phrase"));--> statement-breakpoint
CREATE INDEX "funnel_keywords_stage_idx" ON "funnel_keywords" USING btree ("stage_id");
