-- The subscription (issue 23): plans an admin edits, one subscription per user, and the billing
-- ledger, append-only (a trigger refuses UPDATE, DELETE and TRUNCATE, whatever the code does).
CREATE TABLE "plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(64) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_free" boolean DEFAULT false NOT NULL,
	"max_running_funnels" integer,
	"max_people" integer,
	"mailings" boolean DEFAULT false NOT NULL,
	"letters" boolean DEFAULT false NOT NULL,
	"price_stars" integer,
	"price_card" integer,
	"card_currency" varchar(3),
	"archived" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_card_price_check" CHECK (("price_card" IS NULL) = ("card_currency" IS NULL)),
	CONSTRAINT "plans_free_unpriced_check" CHECK (NOT "is_free" OR ("price_stars" IS NULL AND "price_card" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"plan_id" integer,
	"method" varchar(8) NOT NULL,
	"paid_until" timestamp with time zone NOT NULL,
	"grace_until" timestamp with time zone NOT NULL,
	"renews" boolean DEFAULT true NOT NULL,
	"external_id" text,
	"cancel_generation" integer DEFAULT 0 NOT NULL,
	"grace_notified_for" timestamp with time zone,
	"ended_for" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "subscriptions_method_check" CHECK ("method" in ('stars', 'card'))
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_paid_until_idx" ON "subscriptions" USING btree ("paid_until");--> statement-breakpoint
-- No foreign key to users: the ledger outlives a deleted account (a cascade would be a DELETE).
CREATE TABLE "billing_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"kind" varchar(8) NOT NULL,
	"method" varchar(8) NOT NULL,
	"plan_id" integer,
	"amount" integer NOT NULL,
	"currency" varchar(8) NOT NULL,
	"paid_until" timestamp with time zone,
	"external_id" text,
	"charge_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_events_key_unique" UNIQUE("key"),
	CONSTRAINT "billing_events_kind_check" CHECK ("kind" in ('payment', 'renewal', 'refund', 'cancel')),
	CONSTRAINT "billing_events_method_check" CHECK ("method" in ('stars', 'card'))
);
--> statement-breakpoint
CREATE INDEX "billing_events_user_idx" ON "billing_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE FUNCTION "billing_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'billing_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "billing_events_no_change" BEFORE UPDATE OR DELETE ON "billing_events"
  FOR EACH ROW EXECUTE FUNCTION "billing_events_append_only"();--> statement-breakpoint
CREATE TRIGGER "billing_events_no_truncate" BEFORE TRUNCATE ON "billing_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "billing_events_append_only"();--> statement-breakpoint
-- What billing stopped when a subscription ended, so that a payment resumes exactly that: funnels
-- get stop_reason 'billing', mailings pause_reason 'billing', and a series keeps the moment it
-- was switched on here while it is off.
ALTER TABLE "letter_series" ADD COLUMN "billing_paused_enabled_at" timestamp with time zone;
