CREATE TABLE "stage_reaches" (
	"person_id" integer NOT NULL,
	"stage_id" integer NOT NULL,
	"funnel_id" integer NOT NULL,
	"reached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stage_reaches_person_id_stage_id_pk" PRIMARY KEY("person_id","stage_id")
);
--> statement-breakpoint
ALTER TABLE "stage_reaches" ADD CONSTRAINT "stage_reaches_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_reaches" ADD CONSTRAINT "stage_reaches_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_reaches" ADD CONSTRAINT "stage_reaches_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stage_reaches_funnel_stage_idx" ON "stage_reaches" USING btree ("funnel_id","stage_id","reached_at");