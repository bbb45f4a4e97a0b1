-- Outgoing webhooks (a funnel tells other systems what happened), their deliveries, and the
-- incoming webhook (other systems tell the funnel: "Payments made elsewhere"), issue 24.
-- Deliveries are made by the database, in the transaction of the change itself: a trigger on
-- each event's table calls enqueue_funnel_webhooks(), so every writer (the bot runtime, the API,
-- the incoming webhook, a timer) feeds them without knowing they exist, and an event is queued
-- at most once (with its change, or not at all).
ALTER TABLE "funnels" ADD COLUMN "inbound_secret" text;
--> statement-breakpoint
CREATE TABLE "funnel_webhooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" varchar(32),
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funnel_webhooks" ADD CONSTRAINT "funnel_webhooks_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "funnel_webhooks_funnel_idx" ON "funnel_webhooks" USING btree ("funnel_id");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" integer NOT NULL,
	"funnel_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"event" varchar(32) NOT NULL,
	"body" jsonb NOT NULL,
	"state" varchar(16) DEFAULT 'waiting' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_state_check" CHECK ("webhook_deliveries"."state" in ('waiting', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_funnel_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."funnel_webhooks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_webhook_event_idx" ON "webhook_deliveries" USING btree ("webhook_id","event_id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."state" in ('waiting', 'sending');
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at");
--> statement-breakpoint
CREATE TABLE "funnel_inbound_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"action" varchar(16) NOT NULL,
	"person_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "funnel_inbound_events" ADD CONSTRAINT "funnel_inbound_events_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "funnel_inbound_events_funnel_event_idx" ON "funnel_inbound_events" USING btree ("funnel_id","event_id");
--> statement-breakpoint
-- One delivery per enabled webhook of the funnel subscribed to the event, all with one event id
-- (the receiver's dedup key, X-Funnel-Delivery). The body is made now: it says what was true
-- when the event happened, however late it is sent. A funnel with no such webhook costs one
-- indexed look.
CREATE FUNCTION "enqueue_funnel_webhooks"(p_funnel_id int, p_person_id int, p_event text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_event_id text;
  v_body jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM funnel_webhooks w WHERE w.funnel_id = p_funnel_id AND w.enabled AND w.events ? p_event) THEN
    RETURN;
  END IF;
  v_event_id := gen_random_uuid()::text;
  SELECT jsonb_build_object(
           'id', v_event_id,
           'event', p_event,
           'created_at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'funnel', jsonb_build_object('id', f.id, 'name', f.name),
           'person', (SELECT jsonb_build_object('id', p.id, 'telegram_id', p.telegram_id, 'first_name', p.first_name, 'username', p.username, 'stage_id', p.stage_id)
                        FROM people p WHERE p.id = p_person_id),
           'data', coalesce(p_data, '{}'::jsonb))
    INTO v_body
    FROM funnels f WHERE f.id = p_funnel_id;
  INSERT INTO webhook_deliveries (webhook_id, funnel_id, event_id, event, body)
  SELECT w.id, p_funnel_id, v_event_id, p_event, v_body
    FROM funnel_webhooks w WHERE w.funnel_id = p_funnel_id AND w.enabled AND w.events ? p_event
  ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
CREATE FUNCTION "stage_moves_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.to_stage_id IS NOT NULL THEN
    PERFORM enqueue_funnel_webhooks(NEW.funnel_id, NEW.person_id, 'stage.reached', jsonb_build_object(
      'stage_id', NEW.to_stage_id,
      'stage_title', (SELECT s.title FROM stages s WHERE s.id = NEW.to_stage_id),
      'from_stage_id', NEW.from_stage_id,
      'via', NEW.via));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "stage_moves_webhooks" AFTER INSERT ON "stage_moves" FOR EACH ROW EXECUTE FUNCTION "stage_moves_webhooks"();
--> statement-breakpoint
CREATE FUNCTION "person_tags_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_funnel_id int;
  v_title text;
BEGIN
  SELECT t.funnel_id, t.title INTO v_funnel_id, v_title FROM tags t WHERE t.id = NEW.tag_id;
  IF v_funnel_id IS NOT NULL THEN
    PERFORM enqueue_funnel_webhooks(v_funnel_id, NEW.person_id, 'tag.added', jsonb_build_object('tag_id', NEW.tag_id, 'tag', v_title));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "person_tags_webhooks" AFTER INSERT ON "person_tags" FOR EACH ROW EXECUTE FUNCTION "person_tags_webhooks"();
--> statement-breakpoint
CREATE FUNCTION "people_blocked_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM enqueue_funnel_webhooks(NEW.funnel_id, NEW.id, 'person.blocked', '{}'::jsonb);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "people_blocked_webhooks" AFTER UPDATE OF "blocked" ON "people"
  FOR EACH ROW WHEN (NEW."blocked" AND NOT OLD."blocked") EXECUTE FUNCTION "people_blocked_webhooks"();
