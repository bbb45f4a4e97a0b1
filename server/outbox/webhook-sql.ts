// Every statement of the outgoing webhooks' deliveries (server/outbox/webhook-sender.ts), in one
// place as sql.ts is for the outbox, so the at-most-once-per-2xx argument reads here:
// - a delivery is claimed (state 'sending', a lease) by one process at a time (FOR UPDATE SKIP
//   LOCKED); only a 'waiting' one that is due, or a 'sending' one whose lease ran out (its process
//   died mid-POST: the receiver may see that POST again, with the same X-Funnel-Delivery), is taken;
// - its outcome is written only while it is still 'sending', and 'sent' is never claimed again: no
//   delivery is POSTed after its 2xx was recorded.
// Events are queued by the database itself (enqueue_funnel_webhooks(), migration 0025).

/** Due deliveries of enabled webhooks: claimed by $2 for $3 seconds, at most $1 of them. */
export const CLAIM_WEBHOOK_DELIVERIES = `
  with due as (
    select d.id from webhook_deliveries d join funnel_webhooks w on w.id = d.webhook_id
     where w.enabled and d.next_attempt_at <= now()
       and (d.state = 'waiting' or (d.state = 'sending' and d.lease_until < now()))
     order by d.next_attempt_at, d.id limit $1
     for update of d skip locked)
  update webhook_deliveries d
     set state = 'sending', attempts = d.attempts + 1, lease_owner = $2, lease_until = now() + make_interval(secs => $3),
         next_attempt_at = now() + make_interval(secs => $3)
    from due, funnel_webhooks w
   where d.id = due.id and w.id = d.webhook_id
  returning d.id, d.webhook_id, d.event_id, d.event, d.body, d.attempts, w.url, w.secret`;

/** A 2xx: sent for good, and the webhook is no longer failing. */
export const RECORD_WEBHOOK_SENT = `
  with sent as (
    update webhook_deliveries set state = 'sent', sent_at = now(), last_status = $2, last_error = null, lease_owner = null, lease_until = null
     where id = $1 and state = 'sending'
    returning webhook_id)
  update funnel_webhooks w set failing_since = null from sent where w.id = sent.webhook_id
  returning w.id`;

/**
 * Not a 2xx (or no answer): tried again after the next of the delays $4 (seconds, by attempts so
 * far; the last repeats), but never later than $5 seconds after the event, when the last try is
 * made; a failure after that is final. The webhook is failing from its first such failure.
 */
export const RECORD_WEBHOOK_FAILED = `
  with failed as (
    update webhook_deliveries d set
           state = case when now() >= d.created_at + make_interval(secs => $5) or $6::boolean then 'failed' else 'waiting' end,
           next_attempt_at = least(now() + make_interval(secs => ($4::int[])[least(d.attempts, cardinality($4::int[]))]), d.created_at + make_interval(secs => $5)),
           last_status = $2, last_error = $3, lease_owner = null, lease_until = null
     where d.id = $1 and d.state = 'sending'
    returning d.webhook_id, d.event)
  update funnel_webhooks w set failing_since = coalesce(w.failing_since, now()) from failed
   where w.id = failed.webhook_id and failed.event <> 'webhook.test'
  returning w.id`;

/**
 * A webhook failing for $2 seconds is switched off, and what it still had to send fails with it.
 * Returns it only to the statement that switched it off: the owner is told once.
 */
export const DISABLE_FAILING_WEBHOOK = `
  with off as (
    update funnel_webhooks set enabled = false, disabled_reason = 'failing'
     where id = $1 and enabled and failing_since <= now() - make_interval(secs => $2)
    returning id),
  dropped as (
    update webhook_deliveries set state = 'failed', last_error = coalesce(last_error, $3), lease_owner = null, lease_until = null
     where webhook_id in (select id from off) and state = 'waiting')
  select id from off`;
