// What the owner reads of a mailing once it has ended: "delete from the chats" with what became of
// each message (deleted, too old for Telegram, failed), Telegram's errors as stable reasons per
// recipient, and a cancelled mailing that no longer carries the reason it had paused for.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAILINGS_API, type Mailing, type RecipientsPage } from '../../../contract/mailings';
import { mailings } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { addPerson, call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { addSubscribers, useOutboxSenders } from '../../test/mailings';

const env = useFunnelsTestEnv();
const startSender = useOutboxSenders(env);

const mailingOf = async (key: string, id: number) => ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(id)));
const create = async (key: string, funnelId: number) =>
  ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnelId), { title: 'Sale', message: { text: 'Sale, {first_name}!' } }), 201);
const recipientsOf = async (key: string, id: number, state?: string) =>
  ok<RecipientsPage>(await call(env, key, 'GET', `${MAILINGS_API.recipients(id)}${state ? `?state=${state}` : ''}`));

describe('a mailing after it ended', () => {
  it('says it was deleted from the chats, with how many were deleted, too old and failed, and each recipient\'s state', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 6);
    const m = await create(key, funnel.id);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    const finished = await eventually(() => mailingOf(key, m.id), (x) => x.state === 'finished', 'finished', 15_000);
    expect(finished.deletion).toBeNull();

    // One message went out more than Telegram's 48 hours ago; one deletion Telegram refuses.
    const old = subscribers[0];
    await env.t.db.query(`update outbox set sent_at = sent_at - interval '49 hours' where mailing_id = $1 and person_id = $2`, [m.id, old.id]);
    env.fake.failNextCalls(funnel.token, { count: 1, error_code: 400, description: 'Bad Request: message to delete not found', methods: ['deleteMessage'] });
    ok(await call(env, key, 'POST', MAILINGS_API.unsend(m.id)));

    const done = await eventually(() => mailingOf(key, m.id), (x) => x.deletion !== null && x.deletion.deleting === 0 && x.deletion.deleted > 0, 'deleted', 15_000);
    expect(done.state).toBe('finished');
    expect(done.deletion).toEqual({ deleting: 0, deleted: 4, too_old: 1, failed: 1 });
    // Every message reached its chat: none of them counts as a failed send.
    expect(done.progress).toMatchObject({ total: 6, sent: 6, failed: 0 });

    const all = await recipientsOf(key, m.id);
    const stateOf = new Map(all.results.map((r) => [r.person_id, r]));
    expect(stateOf.get(old.id)).toMatchObject({ state: 'too_old', error_reason: null });
    const failed = all.results.filter((r) => r.state === 'delete_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ error_reason: 'message_gone' });
    expect(all.results.filter((r) => r.state === 'deleted')).toHaveLength(4);

    expect((await recipientsOf(key, m.id, 'deleted')).count).toBe(4);
    expect((await recipientsOf(key, m.id, 'too_old')).results.map((r) => r.person_id)).toEqual([old.id]);
    // "Sent" still lists every message that reached a chat.
    expect((await recipientsOf(key, m.id, 'sent')).count).toBe(6);
  });

  it('gives each recipient Telegram\'s error as a reason', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 2);
    const stranger = await addPerson(env, funnel.id, { firstName: 'Ghost' });
    const [blocker] = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 1, { firstName: 'Bob' });
    env.fake.setBlocked(funnel.token, blocker.telegramId, true);
    const m = await create(key, funnel.id);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    await eventually(() => mailingOf(key, m.id), (x) => x.state === 'finished', 'finished', 15_000);

    const page = await recipientsOf(key, m.id);
    const byPerson = new Map(page.results.map((r) => [r.person_id, r]));
    expect(byPerson.get(stranger.id)).toMatchObject({ state: 'failed', error_reason: 'chat_not_found' });
    expect(byPerson.get(blocker.id)).toMatchObject({ state: 'blocked', error_reason: 'blocked' });
    expect(page.results.filter((r) => r.state === 'sent').every((r) => r.error_reason === null)).toBe(true);
  });

  it('forgets why it had paused itself once it is cancelled', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 60);
    env.fake.failNextCalls(funnel.token, { count: 1000, error_code: 400, description: 'Bad Request: message is too long', methods: ['sendMessage'] });
    const m = await create(key, funnel.id);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    const paused = await eventually(() => mailingOf(key, m.id), (x) => x.state === 'paused' && x.progress.sending === 0, 'paused', 15_000);
    expect(paused.pause_reason).toBe('too_many_errors');
    const failed = await recipientsOf(key, m.id, 'failed');
    expect(failed.results[0]).toMatchObject({ error_reason: 'message_too_long' });

    const cancelled = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.cancel(m.id)));
    expect(cancelled).toMatchObject({ state: 'cancelled', pause_reason: null });
    expect((await mailingOf(key, m.id)).pause_reason).toBeNull();
    const [row] = await env.t.db.orm.select({ pauseReason: mailings.pauseReason }).from(mailings).where(eq(mailings.id, m.id));
    expect(row.pauseReason).toBeNull();
  });
});
