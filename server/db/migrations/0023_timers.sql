-- Timed moves (issue 24, "Wait"): a stage may move a person on by itself after a while. The
-- timers live in the database and are scheduled by it: every move of a person writes a
-- stage_moves row, and the trigger below cancels their waiting timer and makes the new stage's,
-- whichever part of the server moved them. The delivery engine fires due ones (outbox/timer-scheduler.ts).
ALTER TABLE "stages" ADD COLUMN "wait" jsonb;--> statement-breakpoint
CREATE TABLE "person_timers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"funnel_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"stage_id" integer NOT NULL,
	"to_stage_id" integer,
	"due_at" timestamp with time zone NOT NULL,
	"only_if_silent" boolean NOT NULL,
	"state" varchar(16) DEFAULT 'waiting' NOT NULL,
	"fired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "person_timers_state_check" CHECK ("person_timers"."state" in ('waiting', 'fired', 'cancelled', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "person_timers" ADD CONSTRAINT "person_timers_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_timers" ADD CONSTRAINT "person_timers_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_timers" ADD CONSTRAINT "person_timers_to_stage_id_stages_id_fk" FOREIGN KEY ("to_stage_id") REFERENCES "public"."stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "person_timers_due_idx" ON "person_timers" USING btree ("due_at") WHERE "person_timers"."state" = 'waiting';--> statement-breakpoint
CREATE UNIQUE INDEX "person_timers_waiting_person_idx" ON "person_timers" USING btree ("person_id") WHERE "person_timers"."state" = 'waiting';--> statement-breakpoint
CREATE INDEX "person_timers_person_idx" ON "person_timers" USING btree ("person_id", "id");--> statement-breakpoint
CREATE INDEX "person_timers_stage_idx" ON "person_timers" USING btree ("stage_id");--> statement-breakpoint
CREATE INDEX "person_timers_to_stage_idx" ON "person_timers" USING btree ("to_stage_id");--> statement-breakpoint
-- A stage's message sent by the delivery engine (a timer's move): waiting rows the engine looks for.
CREATE INDEX "outbox_stages_due_idx" ON "outbox" USING btree ("not_before") WHERE "outbox"."state" = 'waiting' and "outbox"."stage_id" is not null and not "outbox"."reply";--> statement-breakpoint
-- One statement's moves at once (a timer batch moves thousands): the person's waiting timer is
-- cancelled, and the stage they moved to makes its own when it has a wait that leads somewhere.
-- Of several moves of one person in a statement, the last one counts.
CREATE FUNCTION "stage_moves_schedule_timers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "person_timers" t SET "state" = 'cancelled'
    FROM (SELECT DISTINCT "person_id" FROM new_moves) m
   WHERE t."person_id" = m."person_id" AND t."state" = 'waiting';
  INSERT INTO "person_timers" ("funnel_id", "person_id", "stage_id", "to_stage_id", "due_at", "only_if_silent")
  SELECT m."funnel_id", m."person_id", s."id", (s."wait"->>'to_stage_id')::int,
         now() + ((s."wait"->>'amount')::int * CASE s."wait"->>'unit' WHEN 'minutes' THEN interval '1 minute' WHEN 'hours' THEN interval '1 hour' ELSE interval '1 day' END),
         coalesce((s."wait"->>'only_if_silent')::boolean, false)
    FROM (SELECT DISTINCT ON ("person_id") * FROM new_moves ORDER BY "person_id", "id" DESC) m
    JOIN "stages" s ON s."id" = m."to_stage_id"
    JOIN "people" p ON p."id" = m."person_id" AND NOT p."blocked"
   WHERE s."wait" IS NOT NULL AND jsonb_typeof(s."wait"->'to_stage_id') = 'number'
  -- A move committed by another transaction meanwhile made its own: the latest move's wins.
  ON CONFLICT ("person_id") WHERE "state" = 'waiting' DO UPDATE SET
    "funnel_id" = excluded."funnel_id", "stage_id" = excluded."stage_id", "to_stage_id" = excluded."to_stage_id",
    "due_at" = excluded."due_at", "only_if_silent" = excluded."only_if_silent", "created_at" = now();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "stage_moves_schedule_timers" AFTER INSERT ON "stage_moves"
  REFERENCING NEW TABLE AS new_moves FOR EACH STATEMENT EXECUTE FUNCTION "stage_moves_schedule_timers"();--> statement-breakpoint
-- A person who blocks the bot is moved on by no timer.
CREATE FUNCTION "people_blocked_cancel_timers"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "person_timers" SET "state" = 'cancelled' WHERE "person_id" = NEW."id" AND "state" = 'waiting';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "people_blocked_cancel_timers" AFTER UPDATE OF "blocked" ON "people"
  FOR EACH ROW WHEN (NEW."blocked" AND NOT OLD."blocked") EXECUTE FUNCTION "people_blocked_cancel_timers"();
