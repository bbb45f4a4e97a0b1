CREATE TABLE "template_media" (
	"id" serial PRIMARY KEY NOT NULL,
	"version_id" integer NOT NULL,
	"kind" varchar(5) NOT NULL,
	"filename" varchar(255) NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"source_funnel_id" integer,
	"name" varchar(128) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"cover_type" varchar(100),
	"cover" "bytea",
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funnels" ALTER COLUMN "bot_token_encrypted" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnels" ALTER COLUMN "bot_token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnels" ALTER COLUMN "bot_token_hint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnels" ALTER COLUMN "bot_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnels" ALTER COLUMN "bot_username" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "funnels" ADD COLUMN "template_version_id" integer;--> statement-breakpoint
ALTER TABLE "template_media" ADD CONSTRAINT "template_media_version_id_template_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."template_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_source_funnel_id_funnels_id_fk" FOREIGN KEY ("source_funnel_id") REFERENCES "public"."funnels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_media_version_idx" ON "template_media" USING btree ("version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "template_versions_template_version_idx" ON "template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE INDEX "templates_source_funnel_idx" ON "templates" USING btree ("source_funnel_id");--> statement-breakpoint
ALTER TABLE "funnels" ADD CONSTRAINT "funnels_template_version_id_template_versions_id_fk" FOREIGN KEY ("template_version_id") REFERENCES "public"."template_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnels_template_version_idx" ON "funnels" USING btree ("template_version_id");--> statement-breakpoint
ALTER TABLE "funnels" ADD CONSTRAINT "funnels_bot_check" CHECK ("funnels"."state" = 'draft' or "funnels"."bot_token_encrypted" is not null);