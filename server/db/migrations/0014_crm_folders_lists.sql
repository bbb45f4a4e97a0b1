CREATE TABLE "contact_list_members" (
	"list_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_list_members_list_id_person_id_pk" PRIMARY KEY("list_id","person_id")
);
--> statement-breakpoint
CREATE TABLE "contact_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"folder_id" integer,
	"name" varchar(128) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"filter" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_lists_kind_check" CHECK ("contact_lists"."kind" in ('static', 'segment'))
);
--> statement-breakpoint
CREATE TABLE "crm_folders" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" varchar(128) NOT NULL,
	"picture_type" varchar(100),
	"picture" "bytea",
	"background_type" varchar(100),
	"background" "bytea",
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folder_templates" (
	"folder_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	CONSTRAINT "folder_templates_folder_id_template_id_pk" PRIMARY KEY("folder_id","template_id")
);
--> statement-breakpoint
ALTER TABLE "funnels" ADD COLUMN "folder_id" integer;--> statement-breakpoint
ALTER TABLE "contact_list_members" ADD CONSTRAINT "contact_list_members_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_list_members" ADD CONSTRAINT "contact_list_members_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_folder_id_crm_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."crm_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_folders" ADD CONSTRAINT "crm_folders_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folder_templates" ADD CONSTRAINT "folder_templates_folder_id_crm_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."crm_folders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folder_templates" ADD CONSTRAINT "folder_templates_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_list_members_person_idx" ON "contact_list_members" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "contact_lists_owner_idx" ON "contact_lists" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "contact_lists_folder_idx" ON "contact_lists" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "crm_folders_owner_idx" ON "crm_folders" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "folder_templates_template_idx" ON "folder_templates" USING btree ("template_id");--> statement-breakpoint
ALTER TABLE "funnels" ADD CONSTRAINT "funnels_folder_id_crm_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."crm_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnels_folder_idx" ON "funnels" USING btree ("folder_id");--> statement-breakpoint
CREATE INDEX "people_telegram_idx" ON "people" USING btree ("telegram_id");