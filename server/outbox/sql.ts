// Every statement of the outbox: the one table through which replies, mailings and letters reach
// Telegram, exactly once. Each is named for what it does, with what it guarantees, so the
// exactly-once argument reads in one file (as graphile-worker's src/sql and pg-boss's plans.js).
//
// Who writes a row, in order: the bot runtime (a reply, made with its update's claim), the mailing
// service (a row per recipient when a mailing starts), the letter scheduler (a member's moments);
// then the engine's bot senders (claim → name on the wire → outcome), and recovery after a crash.
// The states: waiting → sending → sent | failed | blocked | unknown (| back to waiting for a retry);
// sent → unsend → deleting → deleted | failed (delete from the chats); waiting → cancelled | skipped.
import { DELETE_FROM_CHATS_HOURS } from '../../contract/mailings';

/** Letters go before mailings, after replies (0). */
export const LETTER_PRIORITY = 5;
/** A mailing's rows go after replies and letters. */
export const MAILING_PRIORITY = 10;
/** At most this many joins, sweeps and follow-ups of letters per statement. */
export const LETTER_BATCH = 1_000;

// ─── The engine: leases of bots ───────────────────────────────────────────────────────────────

export const ACQUIRE = `
  insert into bot_senders (funnel_id, owner, lease_until) values ($1, $2, now() + make_interval(secs => $3 / 1000.0))
  on conflict (funnel_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
   where bot_senders.owner = excluded.owner or bot_senders.lease_until < now()
  returning funnel_id`;

/** Keeps the lease only if nobody took it meanwhile (a holder that slept past it and was replaced has lost it). */
export const RENEW = `
  update bot_senders set lease_until = now() + make_interval(secs => $3 / 1000.0)
   where funnel_id = $1 and owner = $2
  returning funnel_id`;

/** Lets the lease go at once (the sender stopped): another process may take the bot at its next tick. */
export const FREE_LEASE = `update bot_senders set lease_until = now() - interval '1 second' where funnel_id = $1 and owner = $2`;

/** The embedded database belongs to one process: any lease in it is a previous run's. */
export const FREE_ALL_LEASES = `update bot_senders set lease_until = now() - interval '1 second'`;

/** Bots with something to send or delete now (a sending mailing, rows claimed, letters due). */
export const BOTS_WITH_WORK = `
  select funnel_id from mailings where state = 'sending'
  union select funnel_id from outbox where state in ('sending', 'unsend', 'deleting') and not reply
  union select distinct funnel_id from outbox where state = 'waiting' and letter_id is not null and not_before <= now()`;

// ─── The engine: one bot's rows ───────────────────────────────────────────────────────────────

/**
 * The process $3 holds the lease of the bot $1 (a condition of every claim and name). The fence
 * is the owner: a lease that ran out while nobody took it is still safe to send under (no one
 * else sends for the bot; a slow renewal under load must not stop the bot), and once another
 * process takes it, this one can do nothing more.
 */
export const LEASE_HELD = `select 1 from bot_senders b where b.funnel_id = $1 and b.owner = $3`;

/**
 * The previous holder is gone: its claimed rows that were never put on the wire (no owner) go back
 * to waiting, the ones it named are unknown (their request may have reached Telegram), and its
 * deletions stay sent (a deletion is asked again only by the owner).
 */
export const RECOVER = `
  update outbox set state = case when state = 'deleting' then 'sent' when owner is null then 'waiting' else 'unknown' end,
                    attempts = case when state = 'sending' and owner is null then greatest(attempts - 1, 0) else attempts end,
                    error = case when state = 'sending' and owner is not null then 'The server stopped while this message was being sent.' else error end,
                    updated_at = now()
   where funnel_id = $1 and state in ('sending', 'deleting') and not reply`;

export const CLAIM = `
  with picked as (
    select o.id from outbox o
     where o.funnel_id = $1 and o.state = 'waiting' and o.not_before <= now() and not o.reply
       and exists (${LEASE_HELD})
       and (o.mailing_id is null or exists (select 1 from mailings m where m.id = o.mailing_id and m.state = 'sending'))
       and (o.letter_id is null or exists (
             select 1 from letters l join letter_series s on s.id = l.series_id
               join series_members sm on sm.series_id = s.id and sm.person_id = o.person_id
              where l.id = o.letter_id and l.enabled and s.enabled_at is not null and sm.left_at is null))
     order by o.priority, o.id
     limit $2
     for update of o skip locked
  )
  update outbox o set state = 'sending', attempts = o.attempts + 1, owner = null, updated_at = now()
    from picked, people p
   where o.id = picked.id and p.id = o.person_id
  returning o.id, o.mailing_id, o.letter_id, o.stage_id, o.person_id, o.attempts, o.state, p.telegram_id, o.telegram_message_id, p.first_name, p.last_name, p.username`;

export const CLAIM_UNSEND = `
  with picked as (
    select o.id from outbox o where o.funnel_id = $1 and o.state = 'unsend' and not o.reply and exists (${LEASE_HELD})
     order by o.id limit $2 for update of o skip locked
  )
  update outbox o set state = 'deleting', updated_at = now()
    from picked, people p
   where o.id = picked.id and p.id = o.person_id
  returning o.id, o.mailing_id, o.letter_id, o.stage_id, o.person_id, o.attempts, o.state, p.telegram_id, o.telegram_message_id, p.first_name, p.last_name, p.username`;

/** Right before their requests: rows of bots whose lease this process ($2) still holds are named as on the wire. */
export const ON_WIRE = `
  update outbox o set owner = $2
   where o.id = any($1::bigint[]) and o.state = 'sending' and o.owner is null and not o.reply
     and exists (select 1 from bot_senders b where b.funnel_id = o.funnel_id and b.owner = $2)
  returning o.id`;

/** A row this process named but then did not send (its name came too late): back to waiting, whoever counted it since. */
export const WITHDRAW = `
  update outbox set state = 'waiting', owner = null, error = null, attempts = greatest(attempts - 1, 0), updated_at = now()
   where id = $1 and owner = $2 and state in ('sending', 'unknown') and not reply`;

/** Claimed rows never put on the wire go back (stopping, the token refused, the lease lost): only by the lease's holder. */
export const RELEASE = `
  update outbox o set state = case when o.state = 'deleting' then 'unsend' else 'waiting' end, attempts = greatest(o.attempts - 1, 0), updated_at = now()
   where o.id = any($1::bigint[]) and ((o.state = 'sending' and o.owner is null) or o.state = 'deleting')
     and exists (select 1 from bot_senders b where b.funnel_id = o.funnel_id and b.owner = $2)`;

export const RECORD = `
  with r as (
    select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::text[])
      as r(id, state, message_id, error, history, delay_ms, kind)
  ), u as (
    update outbox o
       set state = r.state,
           owner = case when r.state = 'waiting' then null else o.owner end,
           telegram_message_id = coalesce(r.message_id, o.telegram_message_id),
           error = r.error,
           sent_at = case when r.state = 'sent' then now() else o.sent_at end,
           not_before = case when r.state = 'waiting' then now() + make_interval(secs => r.delay_ms / 1000.0) else o.not_before end,
           updated_at = now()
      from r
     where o.id = r.id
       -- only a row this process put on the wire (a later holder may have counted it unknown
       -- meanwhile: what Telegram answered is still the truth), or a deletion it claimed
       and ((o.state in ('sending', 'unknown') and o.owner = $8) or (o.state = 'deleting' and r.state in ('deleted', 'failed')))
    returning o.person_id, o.funnel_id, o.state, o.telegram_message_id, r.history, r.kind
  ), h as (
    insert into person_events (person_id, funnel_id, direction, kind, text, telegram_message_id)
    select person_id, funnel_id, 'out', kind, history, telegram_message_id
      from u where state = 'sent' and history is not null
  ), b as (
    update people set blocked = true from u where people.id = u.person_id and u.state = 'blocked'
  )
  select count(*)::int as n from u`;

/** The content of a mailing's rows (read once per mailing and cached by the engine). */
export const MAILING_CONTENT = 'select message, paid_broadcast from mailings where id = $1';

/** The content of letters' rows (many letters, one statement; read again every few seconds for edits). */
export const LETTERS_CONTENT = 'select id, message from letters where id = any($1::int[])';

// ─── The bot runtime: replies ─────────────────────────────────────────────────────────────────
// A reply is written with its update's claim, already `sending` under the runtime process's name
// (owner); it goes before anything else of its bot (priority 0) and never through the engine.

/** A sent reply lives on in the person's history: its row is deleted (cheaper than an update, nothing left to prune), in the statement that writes the history. */
export const RECORD_SENT_REPLIES = `with r as (select * from unnest($1::bigint[], $2::bigint[], $3::text[]) as r(id, message_id, text)),
             d as (delete from outbox o using r where o.id = r.id and o.reply and o.state in ('sending', 'unknown')
                   returning o.person_id, o.funnel_id, o.stage_id, r.message_id, r.text)
             insert into person_events (person_id, funnel_id, direction, kind, text, stage_id, telegram_message_id)
             select person_id, funnel_id, 'out', 'stage_message', text, stage_id, message_id from d`;

/** A reply that did not go keeps its row, with why. */
export const RECORD_UNSENT_REPLIES = `update outbox o set state = r.state, error = r.error, updated_at = now()
               from unnest($1::bigint[], $2::text[], $3::text[]) as r(id, state, error)
              where o.id = r.id and o.reply and o.state in ('sending', 'unknown')`;

/** A person's waiting replies up to a given one, taken by this runtime process ($4) in one statement. */
export const TAKE_REPLIES = `with input as (select * from unnest($1::int[], $2::int[], $3::bigint[]) with ordinality as t(funnel_id, person_id, up_to, ord))
       update outbox o set state = 'sending', attempts = o.attempts + 1, owner = $4, updated_at = now()
         from input
        where o.reply and o.state = 'waiting' and o.funnel_id = input.funnel_id and o.person_id = input.person_id and o.id <= input.up_to
       returning o.id, o.stage_id, o.ask_again, input.ord`;

/**
 * Whether reaching the stage `s` sends a reply: its message has text or media, or it is a payment
 * stage (its invoice goes after the message, in the same reply: bots/runtime/replies.ts).
 */
export const stageHasReply = (s: string) =>
  `(btrim(${s}.message->>'text') <> '' or ${s}.message->'media_id' <> 'null'::jsonb or ${s}.payment is not null)`;

/**
 * The CTEs `claimed` (the batch's updates taken in handled_updates, new ones only) and `fresh`
 * (the input rows of those, one per update: a webhook retry in the same batch is taken once),
 * over a CTE `input` with funnel_id, update_id and ord.
 */
export const CLAIM_FRESH = `claimed as (
         insert into handled_updates (funnel_id, update_id) select funnel_id, update_id from input
         on conflict do nothing returning funnel_id, update_id),
       fresh as (
         select distinct on (funnel_id, update_id) input.* from input join claimed using (funnel_id, update_id)
         order by funnel_id, update_id, ord)`;

/**
 * A /start press: the update's claim, the person, their history and tag, and their reply's row named by this runtime ($11), in one statement: an update is never half taken.
 * A source's code ($12, from "/start src_<code>") is the person's first source: looked up among
 * the funnel's sources that are not archived, and kept once set (a later code changes nothing).
 */
export const START_PERSON = `with input as (
         select * from unnest($1::int[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[], $12::text[])
           with ordinality as t(funnel_id, update_id, telegram_id, first_name, last_name, username, language_code, stage_id, tag_id, text, source_code, ord)),
       ${CLAIM_FRESH},
       was as (select p.id, p.stage_id from people p join fresh using (funnel_id, telegram_id)),
       person as (
         insert into people (funnel_id, telegram_id, first_name, last_name, username, language_code, stage_id, blocked, last_seen_at, source_id)
         select funnel_id, telegram_id, first_name, last_name, username, language_code, stage_id, false, now(),
                (select fs.id from funnel_sources fs where fs.funnel_id = fresh.funnel_id and fs.code = fresh.source_code and fs.archived_at is null)
           from fresh
         on conflict (funnel_id, telegram_id) do update set
           first_name = excluded.first_name, last_name = excluded.last_name, username = excluded.username,
           language_code = excluded.language_code, stage_id = coalesce(people.stage_id, excluded.stage_id),
           blocked = false, last_seen_at = now(), source_id = coalesce(people.source_id, excluded.source_id)
         returning id, funnel_id, telegram_id, stage_id as placed),
       started as (select person.id, person.placed, fresh.* from person join fresh using (funnel_id, telegram_id)),
       event as (
         insert into person_events (person_id, funnel_id, direction, kind, text)
         select id, funnel_id, 'in', 'command', text from started),
       reach as (
         insert into stage_reaches (person_id, stage_id, funnel_id)
         select id, placed, funnel_id from started where placed is not null
         on conflict do nothing),
       -- Placed in a stage for the first time (new, or their stage was deleted): a move (its
       -- trigger makes the stage's timer). Someone already in a stage wrote /start: their timer
       -- that waits for silence is over (the new stage's, made after this statement, is not seen here).
       move as (
         insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via)
         select started.funnel_id, started.id, null, started.placed, 'start' from started left join was using (id)
          where started.placed is not null and was.stage_id is null),
       silent as (
         update person_timers t set state = 'cancelled' from was
          where t.person_id = was.id and was.stage_id is not null and t.state = 'waiting' and t.only_if_silent),
       tag as (
         insert into person_tags (person_id, tag_id, source)
         select id, tag_id, 'stage' from started where tag_id is not null and placed = stage_id
         on conflict do nothing),
       reply as (
         insert into outbox (funnel_id, person_id, stage_id, reply, owner, priority, state, attempts)
         select started.funnel_id, started.id, started.placed, true, $11, 0, 'sending', 1
           from started join stages s on s.id = started.placed
          where ${stageHasReply('s')}
         returning id, person_id)
       select started.id, started.placed, started.ord, reply.id as reply_id from started left join reply on reply.person_id = started.id`;

/**
 * A move by the person (a next-step or choice press, a keyword): the claim, the move, history, the
 * stage_moves row, reach and tag, and the reply's row named by this runtime ($9), in one statement.
 * A press moves the person only from the stage it was sent from (from_stage_id); a keyword
 * (from_stage_id null) from wherever they are, unless they are in its stage already.
 */
/**
 * An answer to a stage's question ($4, field $5) where no stage follows it, or one that does not
 * fit ($6 null): the update's claim and, only if it is new and the person is still in that stage,
 * what they wrote in their history and the value kept, or the stage's re-ask text written to the
 * outbox as a reply being sent by this runtime ($8). One statement: the update is never half taken.
 * Answers claimed (false: handled before), the person, and the re-ask reply's row.
 */
export const ANSWER_IN_PLACE = `with input as (select $1::int as funnel_id, $2::bigint as update_id, $3::bigint as telegram_id, $4::int as stage_id, $5::int as field_id, $6::text as value, $7::text as text),
       claimed as (
         insert into handled_updates (funnel_id, update_id) select funnel_id, update_id from input
         on conflict do nothing returning funnel_id),
       person as (
         update people p set last_seen_at = now(), blocked = false from input, claimed
          where p.funnel_id = input.funnel_id and p.telegram_id = input.telegram_id and p.stage_id = input.stage_id
         returning p.id, input.funnel_id, input.stage_id, input.field_id, input.value, input.text),
       event as (
         insert into person_events (person_id, funnel_id, direction, kind, text) select id, funnel_id, 'in', 'text', text from person),
       kept as (
         insert into person_fields (person_id, field_id, value) select id, field_id, value from person where value is not null
         on conflict (person_id, field_id) do update set value = excluded.value, updated_at = now()),
       reask as (
         insert into outbox (funnel_id, person_id, stage_id, reply, ask_again, owner, priority, state, attempts)
         select funnel_id, id, stage_id, true, true, $8, 0, 'sending', 1 from person where value is null
         returning id)
       select exists (select 1 from claimed) as claimed, (select id from person) as person_id, (select id from reask) as reply_id`;

export const MOVE_PERSON = `with input as (
         select * from unnest($1::int[], $2::bigint[], $3::bigint[], $4::int[], $5::int[], $6::int[], $7::text[], $8::boolean[], $10::text[], $11::text[], $12::int[], $13::text[]) with ordinality
           as t(funnel_id, update_id, telegram_id, from_stage_id, to_stage_id, tag_id, button_text, reply, via, label, field_id, field_value, ord)),
       ${CLAIM_FRESH},
       moved as (
         update people set stage_id = fresh.to_stage_id, blocked = false, last_seen_at = now()
         from fresh, people was
         where was.id = people.id and people.funnel_id = fresh.funnel_id and people.telegram_id = fresh.telegram_id
           and (people.stage_id = fresh.from_stage_id or (fresh.from_stage_id is null and people.stage_id is distinct from fresh.to_stage_id))
         returning people.id, fresh.ord, fresh.funnel_id, was.stage_id as from_stage_id, fresh.to_stage_id, fresh.tag_id, fresh.button_text, fresh.reply, fresh.via, fresh.label,
                   fresh.field_id, fresh.field_value),
       event as (
         insert into person_events (person_id, funnel_id, direction, kind, text)
         select id, funnel_id, 'in', case when via in ('keyword', 'answer') then 'text' else 'button' end, button_text from moved),
       kept as (
         insert into person_fields (person_id, field_id, value)
         select id, field_id, field_value from moved where field_id is not null
         on conflict (person_id, field_id) do update set value = excluded.value, updated_at = now()),
       move as (
         insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via, label)
         select funnel_id, id, from_stage_id, to_stage_id, via, label from moved),
       reach as (
         insert into stage_reaches (person_id, stage_id, funnel_id)
         select id, to_stage_id, funnel_id from moved
         on conflict do nothing),
       tag as (
         insert into person_tags (person_id, tag_id, source)
         select id, tag_id, 'stage' from moved where tag_id is not null
         on conflict do nothing),
       reply as (
         insert into outbox (funnel_id, person_id, stage_id, reply, owner, priority, state, attempts)
         select funnel_id, id, to_stage_id, true, $9, 0, 'sending', 1 from moved where moved.reply
         returning id, person_id)
       select moved.id, fresh.ord, reply.id as reply_id from fresh left join moved using (ord) left join reply on reply.person_id = moved.id`;

/**
 * A successful_payment of a payment stage's invoice: the update's claim ($2), the payment (once
 * per charge id: a second delivery of it records nothing), and the payer's move to the stage's
 * paid_stage_id (stage_moves via 'payment', reach, tag, and the reply's row named by this runtime,
 * $8), in one statement. A payer already in that stage, or a payment whose stage or paid stage was
 * deleted, is recorded without a move. Answers one row: fresh (the claim was new), payment_id,
 * person_id, to_stage_id and reply_id (null when nothing was recorded, moved or sent).
 */
export const PAY_PERSON = `with claimed as (
         insert into handled_updates (funnel_id, update_id) values ($1, $2) on conflict do nothing returning funnel_id),
       person as (
         select p.id from people p where p.funnel_id = $1 and p.telegram_id = $3 and exists (select 1 from claimed)),
       paid as (
         insert into funnel_payments (funnel_id, person_id, stage_id, amount, currency, provider, charge_id)
         select $1, person.id, (select s.id from stages s where s.id = $4 and s.funnel_id = $1), $5, $6, 'stars', $7 from person
         on conflict (funnel_id, provider, charge_id) do nothing
         returning id, person_id, stage_id),
       target as (
         select paid.person_id, t.id as to_stage_id, t.tag_id, ${stageHasReply('t')} as reply, s.payment->>'title' as label
           from paid join stages s on s.id = paid.stage_id
           join stages t on t.id = (s.payment->>'paid_stage_id')::int and t.funnel_id = $1),
       moved as (
         update people set stage_id = target.to_stage_id, blocked = false, last_seen_at = now()
           from target, people was
          where was.id = people.id and people.id = target.person_id and people.stage_id is distinct from target.to_stage_id
         returning people.id, was.stage_id as from_stage_id, target.to_stage_id, target.tag_id, target.reply, target.label),
       move as (
         insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via, label)
         select $1, id, from_stage_id, to_stage_id, 'payment', coalesce(label, '') from moved),
       reach as (
         insert into stage_reaches (person_id, stage_id, funnel_id) select id, to_stage_id, $1 from moved on conflict do nothing),
       tag as (
         insert into person_tags (person_id, tag_id, source) select id, tag_id, 'stage' from moved where tag_id is not null on conflict do nothing),
       reply as (
         insert into outbox (funnel_id, person_id, stage_id, reply, owner, priority, state, attempts)
         select $1, id, to_stage_id, true, $8, 0, 'sending', 1 from moved where moved.reply
         returning id)
       select exists (select 1 from claimed) as fresh, (select id from paid) as payment_id, (select person_id from paid) as person_id,
              (select to_stage_id from moved) as to_stage_id, (select id from reply) as reply_id`;

/**
 * A Stars payment refunded (by its owner through the API, or by Telegram: a refunded_payment
 * message): the payment becomes refunded once (a second refund of it changes nothing), and the
 * person moves to its stage's refund_stage_id (stage_moves via 'refund', reach, tag, and the
 * reply's row), in one statement. From the bot runtime ($5 its name, $4 the update, claimed in
 * the same statement) the reply is written sending, for it to send now; from the API ($4 and $5
 * null) it is written waiting, with no runtime's name: the running bot's runtime takes it over
 * within its heartbeat (ADOPT_ORPHAN_REPLIES) and sends it. Answers one row: fresh (the claim
 * was new, or no update), payment_id, person_id, to_stage_id and reply_id.
 */
export const REFUND_PAYMENT = `with claimed as (
         insert into handled_updates (funnel_id, update_id) select $1, $4::bigint where $4::bigint is not null
         on conflict do nothing returning funnel_id),
       refunded as (
         update funnel_payments fp set state = 'refunded', refunded_at = now()
          where fp.funnel_id = $1 and fp.provider = 'stars' and fp.charge_id = $2 and fp.state = 'paid'
            and ($3::bigint is null or fp.person_id in (select id from people where funnel_id = $1 and telegram_id = $3::bigint))
            and ($4::bigint is null or exists (select 1 from claimed))
         returning fp.id, fp.person_id, fp.stage_id),
       target as (
         select refunded.person_id, t.id as to_stage_id, t.tag_id, ${stageHasReply('t')} as reply
           from refunded join stages s on s.id = refunded.stage_id
           join stages t on t.id = (s.payment->>'refund_stage_id')::int and t.funnel_id = $1),
       moved as (
         update people set stage_id = target.to_stage_id
           from target, people was
          where was.id = people.id and people.id = target.person_id and people.stage_id is distinct from target.to_stage_id
         returning people.id, was.stage_id as from_stage_id, target.to_stage_id, target.tag_id, target.reply),
       move as (
         insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via) select $1, id, from_stage_id, to_stage_id, 'refund' from moved),
       reach as (
         insert into stage_reaches (person_id, stage_id, funnel_id) select id, to_stage_id, $1 from moved on conflict do nothing),
       tag as (
         insert into person_tags (person_id, tag_id, source) select id, tag_id, 'stage' from moved where tag_id is not null on conflict do nothing),
       reply as (
         insert into outbox (funnel_id, person_id, stage_id, reply, owner, priority, state, attempts)
         select $1, id, to_stage_id, true, $5::text, 0, case when $5::text is null then 'waiting' else 'sending' end, case when $5::text is null then 0 else 1 end
           from moved where moved.reply
         returning id)
       select ($4::bigint is null or exists (select 1 from claimed)) as fresh, (select id from refunded) as payment_id,
              (select person_id from refunded) as person_id, (select to_stage_id from moved) as to_stage_id, (select id from reply) as reply_id`;

/** Replies taken but never handed to Telegram go back to waiting. */
export const RELEASE_REPLIES = `update outbox set state = 'waiting', attempts = greatest(attempts - 1, 0), updated_at = now() where id = any($1::bigint[]) and reply and state = 'sending'`;

/** The reply's runtime process is gone: nobody named it, or its name's heartbeat ran out. */
const ORPHANED = `(o.owner is null or not exists (select 1 from runtime_processes r where r.owner = o.owner and r.alive_until > now()))`;

/** Replies a gone process may have put on the wire: unknown (counted, shown, never sent again). */
export const ORPHAN_REPLIES_UNKNOWN = `update outbox o set state = 'unknown', error = 'The server stopped while this reply was being sent.', updated_at = now()
          where o.reply and o.state = 'sending' and o.funnel_id = any($1::int[]) and ${ORPHANED}
         returning o.id`;

/** Waiting replies of a gone process are taken over by this one ($2). */
export const ADOPT_ORPHAN_REPLIES = `update outbox o set owner = $2, updated_at = now() from people p
          where p.id = o.person_id and o.reply and o.state = 'waiting' and o.funnel_id = any($1::int[]) and o.owner is distinct from $2 and ${ORPHANED}
         returning o.id, o.funnel_id, o.person_id, p.telegram_id, p.first_name, p.last_name, p.username, p.language_code`;

/** Replies that ended long ago: the person's history keeps what was sent. */
export const PRUNE_REPLIES = `delete from outbox where reply and state not in ('waiting', 'sending') and updated_at < now() - make_interval(hours => $1)`;

/**
 * The mailing m still has rows to send or being sent: a condition over mailings m, read by
 * mailings/state.ts (the one writer of a mailing's state) when it finishes a bot's sent mailings.
 */
export const MAILING_ROWS_LEFT = `exists (select 1 from outbox o where o.mailing_id = m.id and o.state in ('waiting', 'sending'))`;

// ─── The mailing service ──────────────────────────────────────────────────────────────────────

/**
 * A mailing row's state as its owner sees it (contract RECIPIENT_STATES), over outbox o joined to
 * its mailing m. A deletion that failed leaves the row 'failed' with its sent_at (a send that
 * failed never has one); a row still 'sent' after "delete from the chats" was sent more than
 * Telegram's 48 hours before it was asked, so it was never marked.
 */
const RECIPIENT_STATE = `case
    when o.state in ('unsend', 'deleting') then 'deleting'
    when o.state = 'failed' and o.sent_at is not null then 'delete_failed'
    when o.state = 'sent' and m.unsent_at is not null and o.sent_at <= m.unsent_at - make_interval(hours => ${DELETE_FROM_CHATS_HOURS}) then 'too_old'
    else o.state end`;

/** How far mailings got: their rows counted by the state the owner sees. */
export const MAILING_PROGRESS = `select o.mailing_id, ${RECIPIENT_STATE} as state, count(*)::int as n
         from outbox o join mailings m on m.id = o.mailing_id
        where o.mailing_id = any($1::int[]) group by 1, 2`;

/**
 * A mailing's rows, one per recipient (the audience's WHERE over people p, its parameters $1…$n,
 * the mailing $n+1), returning 1 per row made: mailings/state.ts runs it in the transaction that
 * turns the mailing to sending, and counts what it made into the mailing in the same statement, so
 * a second start finds the state changed and makes none. A person is in it once (on conflict).
 */
export function insertMailingRows(audienceWhere: string, audienceParams: number): string {
  return `insert into outbox (funnel_id, person_id, mailing_id, priority)
          select p.funnel_id, p.id, $${audienceParams + 1}, ${MAILING_PRIORITY} from people p where ${audienceWhere}
          on conflict do nothing returning 1`;
}

/** A cancelled mailing's rows not sent yet: nobody else gets it (run after the owner's conditional update of the mailing). */
export const CANCEL_MAILING_ROWS = `update outbox set state = 'cancelled', updated_at = now() where mailing_id = $1 and state = 'waiting'`;

/** Delete from the chats: sent rows still within Telegram's window ($2 hours) are marked for the engine, only when the mailing is the owner's ($3). */
export const UNSEND_MAILING = `with marked as (
         update outbox set state = 'unsend', updated_at = now()
         where mailing_id = $1 and state = 'sent' and sent_at > now() - make_interval(hours => $2)
           and exists (select 1 from mailings m join funnels f on f.id = m.funnel_id where m.id = $1 and f.owner_id = $3)
         returning 1)
       select count(*)::int as n from marked`;

/** A page of a mailing's recipients with their outcome, in these states as the owner sees them (the caller checked the owner). */
export const MAILING_RECIPIENTS = `select o.person_id, p.first_name, p.last_name, p.username, ${RECIPIENT_STATE} as state,
              coalesce(o.sent_at, o.updated_at) as at, o.error, count(*) over ()::int as total
         from outbox o join people p on p.id = o.person_id join mailings m on m.id = o.mailing_id
        where o.mailing_id = $1 and ($2::text[] is null or ${RECIPIENT_STATE} = any($2::text[]))
        order by o.id limit $3 offset $4`;

/** How many recipients a mailing has in these states (a page past the end). */
export const MAILING_RECIPIENTS_COUNT = `select count(*)::int as n from outbox o join mailings m on m.id = o.mailing_id
        where o.mailing_id = $1 and ($2::text[] is null or ${RECIPIENT_STATE} = any($2::text[]))`;

// ─── Series of letters ────────────────────────────────────────────────────────────────────────

/** How many times each letter was sent. */
export const LETTERS_SENT = `select letter_id, count(*)::int as n from outbox where letter_id = any($1::int[]) and state in ('sent', 'deleted') group by letter_id`;

/** Who got a letter (or will, or was skipped), newest moments first (the caller checked the owner). */
export const LETTER_HISTORY = `select o.person_id, p.first_name, p.last_name, p.username, o.state, o.moment, o.sent_at, count(*) over ()::int as total
         from outbox o join people p on p.id = o.person_id
        where o.letter_id = $1 order by o.moment desc, o.id desc limit $2`;

/** A member leaves by hand, only in a series of the owner ($3); their letters not sent yet are cancelled in the same statement. */
export const REMOVE_MEMBER = `with gone as (
         update series_members m set left_at = now() from letter_series s, funnels f
          where m.series_id = $1 and m.person_id = $2 and m.left_at is null and s.id = m.series_id and f.id = s.funnel_id and f.owner_id = $3
          returning m.person_id)
       update outbox set state = 'cancelled', updated_at = now() where series_id = $1 and person_id = $2 and state = 'waiting'
         and exists (select 1 from gone) returning person_id`;

// ─── The letter scheduler ─────────────────────────────────────────────────────────────────────
// Every write is one statement whose conflicts (a member already there, a moment already made)
// make a second process's same write do nothing.

/** Members and their first moments, in one statement: a member already made elsewhere gets nothing twice. */
export const JOIN = `
  with m as (
    insert into series_members (series_id, person_id, joined_at, how)
    select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[])
    on conflict do nothing
    returning series_id, person_id
  )
  insert into outbox (funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence, not_before, priority, followed)
  select r.funnel_id, r.person_id, r.letter_id, r.series_id, r.moment, r.anchor, 1, r.moment, ${LETTER_PRIORITY}, not r.repeats
    from unnest($5::int[], $6::int[], $7::int[], $8::int[], $9::timestamptz[], $10::timestamptz[], $11::bool[])
      as r(funnel_id, person_id, letter_id, series_id, moment, anchor, repeats)
    join m on m.series_id = r.series_id and m.person_id = r.person_id
  on conflict do nothing`;

/**
 * Members who reached the series' leaving stage or got its leaving tag after joining leave; their
 * waiting letters are cancelled. Found from the leaving side, each by its index: `since` looks at
 * what happened from $1 on, in every series; `whole` at everything in the series $1 (null: all
 * series, and the members who blocked the bot too). `offset 0` keeps each series' look apart.
 */
function leaveSql(look: 'since' | 'whole'): string {
  const from = (time: string) => (look === 'since' ? `and ${time} >= $1::timestamptz` : '');
  const series = look === 'since' ? '' : 'and ($1::int[] is null or s.id = any($1::int[]))';
  const blocked =
    look === 'since'
      ? ''
      : `select sm.series_id, sm.person_id
           from people p join series_members sm on sm.person_id = p.id
          where $1::int[] is null and p.blocked and sm.left_at is null
         union`;
  return `
  with leaving as (
    ${blocked}
    select sm.series_id, sm.person_id
      from letter_series s
      cross join lateral (
        select r.person_id, r.reached_at as at from stage_reaches r
         where r.funnel_id = s.funnel_id and r.stage_id = (s.leave_on->>'stage_id')::int ${from('r.reached_at')}
        offset 0
      ) x
      join series_members sm on sm.series_id = s.id and sm.person_id = x.person_id
     where s.leave_on->>'stage_id' is not null ${series} and sm.left_at is null and x.at >= sm.joined_at
    union
    select sm.series_id, sm.person_id
      from letter_series s
      cross join lateral (
        select pt.person_id, pt.added_at as at from person_tags pt
         where pt.tag_id = (s.leave_on->>'tag_id')::int ${from('pt.added_at')}
        offset 0
      ) x
      join series_members sm on sm.series_id = s.id and sm.person_id = x.person_id
     where s.leave_on->>'tag_id' is not null ${series} and sm.left_at is null and x.at >= sm.joined_at
  ), gone as (
    update series_members m set left_at = now()
      from leaving l
     where m.series_id = l.series_id and m.person_id = l.person_id and m.left_at is null
    returning m.series_id, m.person_id
  )
  update outbox o set state = 'cancelled', updated_at = now()
    from gone where o.series_id = gone.series_id and o.person_id = gone.person_id and o.state = 'waiting'`;
}
export const LEAVE_SINCE = leaveSql('since');
export const LEAVE_WHOLE = leaveSql('whole');

/**
 * Too late to be welcome (after downtime): skipped, and shown so. Only due rows are looked at, by
 * their index (`offset 0` keeps the planner from guessing a third of the outbox is due).
 */
export const SKIP_LATE = `
  update outbox o set state = 'skipped', error = 'late', updated_at = now()
    from (select d.id, d.series_id, d.moment from outbox d
           where d.letter_id is not null and d.state = 'waiting' and d.not_before <= now() offset 0) due
    join letter_series s on s.id = due.series_id
   where o.id = due.id and o.state = 'waiting' and due.moment < now() - make_interval(hours => s.catch_up_hours)`;

/** Of several due at once for one person and series, only the newest goes. */
export const SKIP_PILED = `
  update outbox o set state = 'skipped', error = 'piled', updated_at = now()
   where o.id in (
     select id from (
       select id, row_number() over (partition by series_id, person_id order by moment desc) as n
         from outbox where letter_id is not null and state = 'waiting' and not_before <= now()
     ) due where due.n > 1)`;

export const DUE_REPEATS = `
  select o.id, o.funnel_id, o.person_id, o.letter_id, o.series_id, o.anchor, o.occurrence, s.time_zone, l.sending_time, l.enabled,
         (m.left_at is null) as member
    from outbox o
    join letters l on l.id = o.letter_id
    join letter_series s on s.id = o.series_id
    left join series_members m on m.series_id = o.series_id and m.person_id = o.person_id
   where o.letter_id is not null and not o.followed and o.moment <= now() + make_interval(secs => $1 / 1000.0)
   limit ${LETTER_BATCH}`;

/** A repeating letter's next occurrence, made in the statement that marks the current one followed. */
export const FOLLOW = `
  with f as (update outbox set followed = true where id = any($1::bigint[]) and not followed returning id)
  insert into outbox (funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence, not_before, priority, followed)
  select r.funnel_id, r.person_id, r.letter_id, r.series_id, r.moment, r.anchor, r.occurrence, r.moment, ${LETTER_PRIORITY}, false
    from unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::int[], $6::timestamptz[], $7::timestamptz[], $8::int[])
      as r(prev_id, funnel_id, person_id, letter_id, series_id, moment, anchor, occurrence)
   where r.prev_id in (select id from f) and r.moment is not null
  on conflict do nothing`;


// ─── The timer scheduler ──────────────────────────────────────────────────────────────────────
// A stage's wait moves the person on by itself. Timers are made and cancelled by the database
// (stage_moves' trigger, migration 0023); these statements fire the due ones.

/**
 * Fires up to $1 due timers of running funnels in one statement, exactly once across processes
 * and crashes: each is claimed with its person's row (`skip locked`: a timer whose person is being
 * moved right now is left for the next batch, and no batch waits for another), marked fired, and
 * its person, if still in the timer's stage and not blocked, moved to the stage it leads to
 * (stage_moves via 'timer', whose trigger makes the next stage's timer; reach; tag) with that
 * stage's reply queued as a bot reply row: waiting, nobody's, so the running bot's runtime takes
 * it over within its heartbeat (ADOPT_ORPHAN_REPLIES) and sends it as it sends any move's reply
 * (the message with its buttons, an ask's keyboard, a payment stage's invoice). Anyone else's
 * timer is skipped. A stopped funnel's timers wait: they fire when it runs again. A kill before
 * the commit leaves all of it undone, so the next batch fires it once.
 */
export const FIRE_TIMERS = `
  with due as (
    select t.id, t.funnel_id, t.person_id, t.stage_id, t.to_stage_id from person_timers t
      join people p on p.id = t.person_id
      join funnels f on f.id = t.funnel_id
     where t.state = 'waiting' and t.due_at <= now() and f.state = 'running' and f.archived_at is null
     order by t.due_at limit $1
     for update of t, p skip locked
  ), moved as (
    update people p set stage_id = due.to_stage_id
      from due join stages s on s.id = due.to_stage_id
     where p.id = due.person_id and p.stage_id = due.stage_id and not p.blocked
    returning p.id as person_id, due.id as timer_id, due.funnel_id, due.stage_id as from_stage_id, due.to_stage_id, s.tag_id, ${stageHasReply('s')} as reply
  ), fired as (
    update person_timers t set state = case when moved.timer_id is null then 'skipped' else 'fired' end, fired_at = now()
      from due left join moved on moved.timer_id = due.id
     where t.id = due.id
    returning t.state
  ), move as (
    insert into stage_moves (funnel_id, person_id, from_stage_id, to_stage_id, via)
    select funnel_id, person_id, from_stage_id, to_stage_id, 'timer' from moved
  ), reach as (
    insert into stage_reaches (person_id, stage_id, funnel_id)
    select person_id, to_stage_id, funnel_id from moved
    on conflict do nothing
  ), tag as (
    insert into person_tags (person_id, tag_id, source)
    select person_id, tag_id, 'stage' from moved where tag_id is not null
    on conflict do nothing
  ), reply as (
    insert into outbox (funnel_id, person_id, stage_id, reply, priority, state)
    select funnel_id, person_id, to_stage_id, true, 0, 'waiting' from moved where reply
  )
  select count(*) filter (where state = 'fired')::int as fired, count(*) filter (where state = 'skipped')::int as skipped from fired`;
