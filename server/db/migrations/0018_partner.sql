CREATE TABLE "partner_attributions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"kind" varchar(3) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_clicks_kind_check" CHECK ("partner_clicks"."kind" in ('web', 'bot', 'app'))
);
--> statement-breakpoint
CREATE TABLE "partner_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"kind" varchar(19) NOT NULL,
	"amount" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payment_key" text,
	"payer_user_id" integer,
	"payment_amount" integer,
	"link_id" integer,
	"withdrawal_id" integer,
	CONSTRAINT "partner_ledger_key_unique" UNIQUE("key"),
	CONSTRAINT "partner_ledger_kind_check" CHECK ("partner_ledger"."kind" in ('commission', 'void', 'clawback', 'withdrawal', 'withdrawal_returned'))
);
--> statement-breakpoint
CREATE TABLE "partner_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"uid" varchar(32) NOT NULL,
	"label" varchar(64),
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_links_uid_unique" UNIQUE("uid")
);
--> statement-breakpoint
CREATE TABLE "partner_pending_referrals" (
	"telegram_id" bigint PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_refunded_payments" (
	"payment_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"method" varchar(200) NOT NULL,
	"state" varchar(9) DEFAULT 'requested' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	CONSTRAINT "partner_withdrawals_state_check" CHECK ("partner_withdrawals"."state" in ('requested', 'approved', 'rejected', 'paid')),
	CONSTRAINT "partner_withdrawals_amount_check" CHECK ("partner_withdrawals"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "partner_attributions" ADD CONSTRAINT "partner_attributions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_attributions" ADD CONSTRAINT "partner_attributions_link_id_partner_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."partner_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_clicks" ADD CONSTRAINT "partner_clicks_link_id_partner_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."partner_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_ledger" ADD CONSTRAINT "partner_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_ledger" ADD CONSTRAINT "partner_ledger_withdrawal_id_partner_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."partner_withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_links" ADD CONSTRAINT "partner_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_pending_referrals" ADD CONSTRAINT "partner_pending_referrals_link_id_partner_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."partner_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_withdrawals" ADD CONSTRAINT "partner_withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_attributions_link_idx" ON "partner_attributions" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_clicks_link_idx" ON "partner_clicks" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_ledger_user_idx" ON "partner_ledger" USING btree ("user_id","currency","available_at");--> statement-breakpoint
CREATE INDEX "partner_ledger_payment_idx" ON "partner_ledger" USING btree ("payment_key");--> statement-breakpoint
CREATE INDEX "partner_ledger_link_idx" ON "partner_ledger" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_links_user_idx" ON "partner_links" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_links_default_idx" ON "partner_links" USING btree ("user_id") WHERE "partner_links"."is_default";--> statement-breakpoint
CREATE INDEX "partner_withdrawals_user_idx" ON "partner_withdrawals" USING btree ("user_id","requested_at");--> statement-breakpoint
CREATE INDEX "partner_withdrawals_state_idx" ON "partner_withdrawals" USING btree ("state","requested_at");--> statement-breakpoint
-- The partner ledger is append-only: a line is never changed or removed; a correction is a new line.
CREATE FUNCTION "partner_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'partner_ledger is append-only: % refused', TG_OP;
END $$;--> statement-breakpoint
CREATE TRIGGER "partner_ledger_append_only" BEFORE UPDATE OR DELETE ON "partner_ledger"
  FOR EACH STATEMENT EXECUTE FUNCTION "partner_ledger_append_only"();
