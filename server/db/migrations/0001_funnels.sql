CREATE TABLE "funnels" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"bot_token_encrypted" text NOT NULL,
	"bot_token_hash" varchar(64) NOT NULL,
	"bot_token_hint" varchar(32) NOT NULL,
	"bot_id" bigint NOT NULL,
	"bot_username" varchar(64) NOT NULL,
	"state" varchar(10) DEFAULT 'draft' NOT NULL,
	"stop_reason" varchar(32),
	"archived_at" timestamp with time zone,
	"first_run_at" timestamp with time zone,
	"update_offset" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "funnels_bot_token_hash_unique" UNIQUE("bot_token_hash"),
	CONSTRAINT "funnels_state_check" CHECK ("funnels"."state" in ('draft', 'running', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "handled_updates" (
	"funnel_id" integer NOT NULL,
	"update_id" bigint NOT NULL,
	"handled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "handled_updates_funnel_id_update_id_pk" PRIMARY KEY("funnel_id","update_id")
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"kind" varchar(5) NOT NULL,
	"filename" varchar(255) NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"telegram_file_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_kind_check" CHECK ("media"."kind" in ('photo', 'video'))
);
--> statement-breakpoint
CREATE TABLE "people" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"telegram_id" bigint NOT NULL,
	"first_name" varchar(128) DEFAULT '' NOT NULL,
	"last_name" varchar(128) DEFAULT '' NOT NULL,
	"username" varchar(64),
	"language_code" varchar(16),
	"stage_id" integer,
	"blocked" boolean DEFAULT false NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "person_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"person_id" integer NOT NULL,
	"funnel_id" integer NOT NULL,
	"direction" varchar(3) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"stage_id" integer,
	"telegram_message_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "person_tags" (
	"person_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	"source" varchar(8) DEFAULT 'manual' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "person_tags_person_id_tag_id_pk" PRIMARY KEY("person_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"title" varchar(128) NOT NULL,
	"icon" varchar(16) DEFAULT 'flag' NOT NULL,
	"color" varchar(7) DEFAULT '#2481cc' NOT NULL,
	"position" integer NOT NULL,
	"tag_id" integer,
	"message" jsonb DEFAULT '{"text":"","media_id":null,"buttons":[],"next_button":null}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"title" varchar(64) NOT NULL,
	"color" varchar(7) DEFAULT '#2481cc' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funnels" ADD CONSTRAINT "funnels_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handled_updates" ADD CONSTRAINT "handled_updates_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_events" ADD CONSTRAINT "person_events_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_events" ADD CONSTRAINT "person_events_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_events" ADD CONSTRAINT "person_events_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_tags" ADD CONSTRAINT "person_tags_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_tags" ADD CONSTRAINT "person_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnels_owner_id_idx" ON "funnels" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "funnels_state_idx" ON "funnels" USING btree ("state");--> statement-breakpoint
CREATE INDEX "handled_updates_handled_at_idx" ON "handled_updates" USING btree ("handled_at");--> statement-breakpoint
CREATE INDEX "media_funnel_id_idx" ON "media" USING btree ("funnel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "people_funnel_telegram_idx" ON "people" USING btree ("funnel_id","telegram_id");--> statement-breakpoint
CREATE INDEX "people_stage_id_idx" ON "people" USING btree ("stage_id");--> statement-breakpoint
CREATE INDEX "person_events_person_idx" ON "person_events" USING btree ("person_id","id");--> statement-breakpoint
CREATE INDEX "person_events_funnel_created_idx" ON "person_events" USING btree ("funnel_id","created_at");--> statement-breakpoint
CREATE INDEX "person_tags_tag_id_idx" ON "person_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "stages_funnel_position_idx" ON "stages" USING btree ("funnel_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_funnel_title_idx" ON "tags" USING btree ("funnel_id","title");