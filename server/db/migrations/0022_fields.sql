CREATE TABLE "funnel_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"key" varchar(32) NOT NULL,
	"title" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "funnel_fields_kind_check" CHECK ("funnel_fields"."kind" in ('text', 'number', 'email', 'phone', 'date', 'choice')),
	CONSTRAINT "funnel_fields_key_check" CHECK ("funnel_fields"."key" ~ '^[a-z][a-z0-9_]{0,31}$')
);
--> statement-breakpoint
ALTER TABLE "funnel_fields" ADD CONSTRAINT "funnel_fields_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_fields_funnel_key_idx" ON "funnel_fields" USING btree ("funnel_id","key");
--> statement-breakpoint
CREATE TABLE "person_fields" (
	"person_id" integer NOT NULL,
	"field_id" integer NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "person_fields_person_id_field_id_pk" PRIMARY KEY("person_id","field_id")
);
--> statement-breakpoint
ALTER TABLE "person_fields" ADD CONSTRAINT "person_fields_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "person_fields" ADD CONSTRAINT "person_fields_field_id_funnel_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."funnel_fields"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "person_fields_field_value_idx" ON "person_fields" USING btree ("field_id","value");
--> statement-breakpoint
ALTER TABLE "stages" ADD COLUMN "ask" jsonb;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "ask_again" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "stage_moves" DROP CONSTRAINT "stage_moves_via_check";
--> statement-breakpoint
ALTER TABLE "stage_moves" ADD CONSTRAINT "stage_moves_via_check" CHECK ("stage_moves"."via" in ('start', 'next', 'choice', 'keyword', 'manual', 'timer', 'payment', 'refund', 'webhook', 'answer'));
