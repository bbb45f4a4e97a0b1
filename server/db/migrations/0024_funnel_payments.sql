ALTER TABLE "stages" ADD COLUMN "payment" jsonb;
--> statement-breakpoint
CREATE TABLE "funnel_payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"stage_id" integer,
	"amount" integer NOT NULL,
	"currency" varchar(8) DEFAULT 'XTR' NOT NULL,
	"provider" varchar(16) NOT NULL,
	"charge_id" text NOT NULL,
	"state" varchar(16) DEFAULT 'paid' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "funnel_payments_provider_check" CHECK ("funnel_payments"."provider" in ('stars', 'external')),
	CONSTRAINT "funnel_payments_state_check" CHECK ("funnel_payments"."state" in ('paid', 'refunded'))
);
--> statement-breakpoint
ALTER TABLE "funnel_payments" ADD CONSTRAINT "funnel_payments_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "funnel_payments" ADD CONSTRAINT "funnel_payments_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "funnel_payments" ADD CONSTRAINT "funnel_payments_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_payments_charge_idx" ON "funnel_payments" USING btree ("funnel_id","provider","charge_id");
--> statement-breakpoint
CREATE INDEX "funnel_payments_person_idx" ON "funnel_payments" USING btree ("person_id");
--> statement-breakpoint
CREATE INDEX "funnel_payments_funnel_created_idx" ON "funnel_payments" USING btree ("funnel_id","created_at");
