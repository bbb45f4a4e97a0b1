DROP INDEX "person_tags_tag_id_idx";--> statement-breakpoint
CREATE INDEX "person_tags_tag_added_idx" ON "person_tags" USING btree ("tag_id","added_at");--> statement-breakpoint
-- A person who blocks the bot leaves every series of letters at once, whichever path saw the 403
-- (a letter, a mailing, a funnel reply, the owner's reply, Telegram's my_chat_member), and their
-- letters not sent yet are cancelled: the scheduler need not look at blocked people every second.
CREATE FUNCTION "people_blocked_leave_series"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    UPDATE "series_members" SET "left_at" = now() WHERE "person_id" = NEW."id" AND "left_at" IS NULL RETURNING "series_id"
  )
  UPDATE "outbox" SET "state" = 'cancelled', "updated_at" = now()
   WHERE "person_id" = NEW."id" AND "state" = 'waiting' AND "series_id" IN (SELECT "series_id" FROM gone);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "people_blocked_leave_series" AFTER UPDATE OF "blocked" ON "people"
  FOR EACH ROW WHEN (NEW."blocked" AND NOT OLD."blocked") EXECUTE FUNCTION "people_blocked_leave_series"();
