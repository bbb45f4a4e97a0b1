// Mailings through the API and the delivery engine against the fake Bot API: drafts, audience
// filters, the pre-send check, sending with a state per recipient, pause/resume without
// duplicates or skips, Telegram's errors (429, 403, 5xx, 401), a crash's unknown rows, ownership.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, type Funnel, type PersonDetail } from '../../../contract/funnels';
import { MAILINGS_API, type Mailing, type MailingCheck, type RecipientsPage } from '../../../contract/mailings';
import { mailings, outbox, people } from '../../db/schema';
import { COMMON_ERRORS } from '../../domain-error';
import { MAILING_ERRORS } from '../../mailings/errors';
import { MESSAGE_ERRORS } from '../../messages/errors';
import { eventually } from '../../test/eventually';
import { addPerson, addStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';
import { addSubscribers, useOutboxSenders } from '../../test/mailings';
import { fieldsError } from '../funnels/expected-errors';

const env = useFunnelsTestEnv();
const expectError = (res: Parameters<typeof expectJsonError>[0], status: number, body: Record<string, unknown>) =>
  expect(expectJsonError(res, status)).toEqual(body);
const startSender = useOutboxSenders(env);

const draft = (title = 'Black Friday', text = 'Hello, {first_name|friend}! <b>-30%</b> today only.') => ({
  title,
  message: { text, buttons: [{ text: 'Shop', url: 'https://example.com/shop' }] },
});

const mailingOf = async (key: string, id: number) => ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(id)));
const finished = (key: string, id: number) => eventually(() => mailingOf(key, id), (m) => m.state === 'finished', 'the mailing finishes', 30_000);

describe('mailings', () => {
  it('counts the audience by stages and tags, leaves blocked people out, and refuses what Telegram would', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const s1 = await addStage(env, key, funnel.id, { title: 'One' });
    const s2 = await addStage(env, key, funnel.id, { title: 'Two' });
    const vip = await addTag(env, key, funnel.id, 'VIP');
    const a = await addPerson(env, funnel.id, { stageId: s1.id });
    await addPerson(env, funnel.id, { stageId: s2.id });
    await addPerson(env, funnel.id, { stageId: s2.id, blocked: true });
    ok(await call(env, key, 'POST', FUNNELS_API.personTags(a.id), { tag_id: vip.id }), 201);
    const count = async (audience: Record<string, number[]>) =>
      ok<{ count: number }>(
        await call(env, key, 'POST', MAILINGS_API.audience(funnel.id), { stages_in: [], stages_out: [], tags_in: [], tags_out: [], ...audience }),
      ).count;
    expect(await count({})).toBe(2);
    expect(await count({ stages_in: [s2.id] })).toBe(1);
    expect(await count({ stages_out: [s2.id] })).toBe(1);
    expect(await count({ tags_in: [vip.id] })).toBe(1);
    expect(await count({ tags_out: [vip.id] })).toBe(1);
    expect(await count({ stages_in: [s2.id], tags_in: [vip.id] })).toBe(0);

    // Another funnel's stage is not ours to filter by.
    const other = await connectFunnel(env, key);
    const foreign = await addStage(env, key, other.id, { title: 'Foreign' });
    expectError(
      await call(env, key, 'POST', MAILINGS_API.audience(funnel.id), { stages_in: [foreign.id], stages_out: [], tags_in: [], tags_out: [] }),
      400,
      fieldsError({ audience: [COMMON_ERRORS.doesNotExist(foreign.id)] }),
    );

    // A bad button URL and a too-long caption are refused when saving, both at once.
    expectError(
      await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { title: 'x', message: { text: '', buttons: [{ text: 'Go', url: 'nope' }] } }),
      400,
      fieldsError({ text: [COMMON_ERRORS.blank], buttons: [MESSAGE_ERRORS.badButtonUrl] }),
    );

    // An empty audience: the check says so, and sending is refused with the same words.
    const m = ok<Mailing>(
      await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { ...draft(), audience: { stages_in: [s1.id], stages_out: [], tags_in: [], tags_out: [vip.id] } }),
      201,
    );
    expect(m).toMatchObject({ state: 'draft', audience_size: 0 });
    const check = ok<MailingCheck>(await call(env, key, 'GET', MAILINGS_API.check(m.id)));
    expect(check.problems).toEqual([{ field: 'audience', code: 'empty_audience', message: MAILING_ERRORS.emptyAudience.text }]);
    expectError(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}), 400, fieldsError({ audience: [MAILING_ERRORS.emptyAudience] }));

    // The estimate: 10,000 people at 29 a second.
    await env.t.db.orm.update(mailings).set({ audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] } }).where(eq(mailings.id, m.id));
    const fine = ok<MailingCheck>(await call(env, key, 'GET', MAILINGS_API.check(m.id)));
    expect(fine).toMatchObject({ problems: [], audience_size: 2, messages_per_second: 29, estimated_seconds: 1, stars: 0 });

    // Scheduling in the past is refused.
    expectError(
      await call(env, key, 'POST', MAILINGS_API.send(m.id), { scheduled_at: '2020-01-01T10:00:00Z' }),
      400,
      fieldsError({ scheduled_at: [MAILING_ERRORS.scheduleInPast] }),
    );

    // Another user sees none of it.
    const stranger = await user(env);
    expectError(await call(env, stranger, 'GET', MAILINGS_API.mailing(m.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'GET', MAILINGS_API.mailings(funnel.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'POST', MAILINGS_API.send(m.id), {}), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'DELETE', MAILINGS_API.mailing(m.id)), 404, NOT_FOUND);
    expectError(await call(env, stranger, 'GET', MAILINGS_API.recipients(m.id)), 404, NOT_FOUND);
  });

  it('sends to every recipient exactly once, personalised, with each outcome and the history', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 40);
    // Someone the bot never talked to (Telegram: chat not found) and someone who blocked it.
    const stranger = await addPerson(env, funnel.id, { firstName: 'Ghost' });
    const [blocker] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1, { firstName: 'Bob' });
    env.fake.setBlocked(funnel.token, blocker.telegramId, true);

    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft()), 201);
    startSender();
    const sending = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    expect(sending.state).toBe('sending');
    expect(sending.audience_size).toBe(42);
    const done = await finished(key, m.id);
    expect(done.progress).toMatchObject({ total: 42, sent: 40, failed: 1, blocked: 1, waiting: 0, unknown: 0 });

    for (const person of subscribers) {
      const got = env.fake.botMessages(funnel.token, person.telegramId);
      expect(got).toHaveLength(1);
      expect(got[0].text).toBe(`Hello, ${person.firstName}! -30% today only.`);
    }
    const page = ok<RecipientsPage>(await call(env, key, 'GET', `${MAILINGS_API.recipients(m.id)}?state=failed`));
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({ person_id: stranger.id, state: 'failed' });
    expect(page.results[0].error).toMatch(/chat not found/);
    const [blockedRow] = await env.t.db.orm.select().from(people).where(eq(people.id, blocker.id));
    expect(blockedRow.blocked).toBe(true);

    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(subscribers[0].id)));
    expect(detail.history.some((h) => h.kind === 'mailing' && h.text.includes(`Hello, ${subscribers[0].firstName}!`))).toBe(true);
  });

  it('pauses and resumes without sending anyone the message twice or skipping anyone', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 120);
    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft()), 201);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    await eventually(() => mailingOf(key, m.id), (x) => x.progress.sent >= 20, 'some sent');
    const paused = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.pause(m.id)));
    expect(paused.state).toBe('paused');
    expect(paused.progress.waiting).toBeGreaterThan(0);
    // Resuming a mailing that is not paused is refused clearly.
    expectError(await call(env, key, 'POST', MAILINGS_API.pause(m.id)), 409, { detail: MAILING_ERRORS.mailingState.text, code: 'mailing_state' });
    ok(await call(env, key, 'POST', MAILINGS_API.resume(m.id)));
    const done = await finished(key, m.id);
    expect(done.progress).toMatchObject({ total: 120, sent: 120, waiting: 0, unknown: 0 });
    for (const person of subscribers) expect(env.fake.botMessages(funnel.token, person.telegramId)).toHaveLength(1);
  });

  it('waits out a 429 for that bot, retries 5xx, and pauses on a revoked token', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 30);
    env.fake.rateLimit(funnel.token, { calls: 2, retryAfter: 1, methods: ['sendMessage'] });
    env.fake.failNextCalls(funnel.token, { count: 2, error_code: 502, description: 'Bad Gateway', methods: ['sendMessage'] });
    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft()), 201);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    const done = await finished(key, m.id);
    expect(done.progress).toMatchObject({ sent: 30, failed: 0 });
    for (const person of subscribers) expect(env.fake.botMessages(funnel.token, person.telegramId)).toHaveLength(1);

    // The token is revoked mid-way: the mailing pauses and says why; the funnel shows it too.
    const more = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 5);
    const second = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft('Second')), 201);
    env.fake.revokeToken(funnel.token);
    ok(await call(env, key, 'POST', MAILINGS_API.send(second.id), {}));
    // Nobody got it: every row is back to waiting, for a resume after the token is replaced.
    const paused = await eventually(
      () => mailingOf(key, second.id),
      (x) => x.state === 'paused' && x.progress.waiting === 35,
      'paused by the 401 with everyone still waiting',
    );
    expect(paused.pause_reason).toBe('token_revoked');
    for (const person of more) expect(env.fake.botMessages(funnel.token, person.telegramId)).toHaveLength(0);
  });

  it('turns rows left on the wire by a dead process into unknown, never sends them again, sends the ones it only claimed, and finishes', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 10);
    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft()), 201);
    // Started, then "killed": a process that died with its lease had claimed four rows and put two
    // of them on the wire (named with its owner); the other two never reached Telegram.
    const { createMailingService } = await import('../../mailings/mailings');
    await createMailingService({ db: env.t.db, now: () => new Date() }).startNow(m.id);
    const rows = await env.t.db.orm.select().from(outbox).where(eq(outbox.mailingId, m.id)).orderBy(outbox.id);
    await env.t.db.query(`update outbox set state = 'sending', attempts = 1, owner = 'dead' where id = any($1::bigint[])`, [rows.slice(0, 2).map((r) => r.id)]);
    await env.t.db.query(`update outbox set state = 'sending', attempts = 1 where id = any($1::bigint[])`, [rows.slice(2, 4).map((r) => r.id)]);
    await env.t.db.query(`insert into bot_senders (funnel_id, owner, lease_until) values ($1, 'dead', now() - interval '1 second')`, [funnel.id]);
    startSender();
    const done = await finished(key, m.id);
    expect(done.progress).toMatchObject({ total: 10, sent: 8, unknown: 2 });
    const unknownIds = new Set(rows.slice(0, 2).map((r) => r.personId));
    for (const person of subscribers) expect(env.fake.botMessages(funnel.token, person.telegramId)).toHaveLength(unknownIds.has(person.id) ? 0 : 1);
  });

  it('starts a scheduled mailing at its moment', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const [person] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1);
    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), draft()), 201);
    startSender();
    const at = new Date(Date.now() + 1500).toISOString();
    const scheduled = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.send(m.id), { scheduled_at: at }));
    expect(scheduled).toMatchObject({ state: 'scheduled', scheduled_at: at });
    const message = await env.fake.waitForBotMessage(funnel.token, person.telegramId, { timeoutMs: 10_000 });
    expect(message.date * 1000).toBeGreaterThanOrEqual(Math.floor(Date.parse(at) / 1000) * 1000);
    await finished(key, m.id);
    const funnelRow = ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id)));
    expect(funnelRow.id).toBe(funnel.id);
  });
});
