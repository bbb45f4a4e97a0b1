CREATE TABLE "letter_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"join_on" jsonb NOT NULL,
	"leave_on" jsonb NOT NULL,
	"time_zone" varchar(64) DEFAULT 'UTC' NOT NULL,
	"catch_up_hours" integer DEFAULT 24 NOT NULL,
	"enabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "letters" (
	"id" serial PRIMARY KEY NOT NULL,
	"series_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"message" jsonb NOT NULL,
	"sending_time" jsonb,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series_members" (
	"series_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"left_at" timestamp with time zone,
	"how" varchar(8) NOT NULL,
	CONSTRAINT "series_members_series_id_person_id_pk" PRIMARY KEY("series_id","person_id")
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "letter_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "series_id" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "moment" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "anchor" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "occurrence" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "followed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "letter_series" ADD CONSTRAINT "letter_series_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "letters" ADD CONSTRAINT "letters_series_id_letter_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."letter_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_members" ADD CONSTRAINT "series_members_series_id_letter_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."letter_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_members" ADD CONSTRAINT "series_members_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "letter_series_funnel_idx" ON "letter_series" USING btree ("funnel_id");--> statement-breakpoint
CREATE INDEX "letters_series_idx" ON "letters" USING btree ("series_id","position");--> statement-breakpoint
CREATE INDEX "series_members_person_idx" ON "series_members" USING btree ("person_id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_letter_id_letters_id_fk" FOREIGN KEY ("letter_id") REFERENCES "public"."letters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_series_id_letter_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."letter_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_letter_moment_idx" ON "outbox" USING btree ("letter_id","person_id","moment") WHERE "outbox"."letter_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_series_person_idx" ON "outbox" USING btree ("series_id","person_id") WHERE "outbox"."series_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_letters_due_idx" ON "outbox" USING btree ("not_before") WHERE "outbox"."state" = 'waiting' and "outbox"."letter_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_unfollowed_idx" ON "outbox" USING btree ("moment") WHERE "outbox"."letter_id" is not null and not "outbox"."followed";