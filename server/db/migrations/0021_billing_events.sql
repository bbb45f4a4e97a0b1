-- The card provider's other subscription events (issue 23): a failed renewal (told once per
-- invoice), a renewal resumed in the provider's portal, and a partial refund (recorded with its
-- amount; it does not end the period). 'payment_failed' needs a longer kind column.
ALTER TABLE "billing_events" DROP CONSTRAINT "billing_events_kind_check";--> statement-breakpoint
ALTER TABLE "billing_events" ALTER COLUMN "kind" SET DATA TYPE varchar(16);--> statement-breakpoint
ALTER TABLE "billing_events" ADD CONSTRAINT "billing_events_kind_check" CHECK ("kind" in ('payment', 'renewal', 'refund', 'partial_refund', 'cancel', 'resume', 'payment_failed'));--> statement-breakpoint
-- What was refunded of a charge, and whether a failed invoice was already told of, are looked up by it.
CREATE INDEX "billing_events_charge_idx" ON "billing_events" USING btree ("charge_id") WHERE "charge_id" IS NOT NULL;
--> statement-breakpoint
-- The sweep runs at the next moment a grace period ends (billing.nextDueAt), looked up by it.
CREATE INDEX "subscriptions_grace_until_idx" ON "subscriptions" USING btree ("grace_until");
