-- A timer's move sends its stage's reply through the bot runtime (a reply row), as every other
-- move does, so a payment stage reached by a wait sends its invoice and an asking stage its
-- keyboard. Stage rows the engine would have sent, still waiting, become such reply rows
-- (nobody's: the running bot's runtime takes them over); the engine's index for them goes.
UPDATE "outbox" SET "reply" = true, "owner" = null, "priority" = 0, "updated_at" = now()
 WHERE "state" = 'waiting' AND "stage_id" IS NOT NULL AND NOT "reply";--> statement-breakpoint
DROP INDEX "outbox_stages_due_idx";
