// More of a mailing's life: a picture uploaded once and re-sent by file_id, the paid burst (Stars
// counted by Telegram; a bot that may not use it pauses with the reason), a mailing whose errors
// pile up pausing itself, and "delete from the chats" within Telegram's 48 hours.
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, type MessageMedia } from '../../../contract/funnels';
import { MAILINGS_API, type Mailing } from '../../../contract/mailings';
import { MAILING_ERRORS } from '../../mailings/errors';
import { eventually } from '../../test/eventually';
import { TINY_PNG } from '../../test/funnel-runtime';
import { call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';
import { addSubscribers, useOutboxSenders } from '../../test/mailings';

const env = useFunnelsTestEnv();
const startSender = useOutboxSenders(env);

const mailingOf = async (key: string, id: number) => ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(id)));
const create = async (key: string, funnelId: number, body: Record<string, unknown> = {}) =>
  ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnelId), { title: 'Sale', message: { text: 'Sale, {first_name}!' }, ...body }), 201);

describe('more of a mailing', () => {
  it('uploads a picture once and re-sends it by file_id', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const media = ok<MessageMedia>(
      await env.t.app.inject({
        method: 'POST',
        url: `${FUNNELS_API.media(funnel.id)}?filename=sale.png`,
        headers: { authorization: `Token ${key}`, 'content-type': 'image/png' },
        payload: TINY_PNG,
      }),
      201,
    );
    const people = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 12);
    const m = await create(key, funnel.id, { message: { text: 'New <b>collection</b>', media_id: media.id } });
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    await eventually(() => mailingOf(key, m.id), (x) => x.state === 'finished', 'finished', 15_000);
    const photos = env.fake.calls(funnel.token, 'sendPhoto');
    expect(photos).toHaveLength(12);
    // grammY sends an upload as multipart with photo=attach://…; every other send names the file_id.
    const uploads = photos.filter((c) => String(c.params.photo).startsWith('attach://'));
    expect(uploads).toHaveLength(1);
    expect(new Set(photos.filter((c) => c !== uploads[0]).map((c) => c.params.photo)).size).toBe(1);
    for (const person of people) expect(env.fake.botMessages(funnel.token, person.telegramId)[0].caption).toBe('New collection');
  });

  it('sends a paid burst for an eligible bot (Stars counted) and pauses, saying why, for one that is not', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 100);
    const m = await create(key, funnel.id, { paid_broadcast: true });
    const check = ok<{ stars: number; messages_per_second: number }>(await call(env, key, 'GET', MAILINGS_API.check(m.id)));
    expect(check).toMatchObject({ messages_per_second: 1000, stars: 7 });
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    const paused = await eventually(() => mailingOf(key, m.id), (x) => x.state === 'paused' && x.progress.sending === 0, 'paused', 15_000);
    expect(paused.pause_reason).toBe('paid_broadcast_unavailable');
    expect(paused.progress.sent).toBe(0);

    env.fake.setPaidBroadcastEligible(funnel.token, true);
    ok(await call(env, key, 'POST', MAILINGS_API.resume(m.id)));
    const done = await eventually(() => mailingOf(key, m.id), (x) => x.state === 'finished', 'finished', 15_000);
    expect(done.progress.sent).toBe(100);
    const stats = env.fake.limitStats(funnel.token);
    expect(stats.too_many_requests).toBe(0);
    expect(stats.paid_messages).toBeGreaterThan(0);
  });

  it('pauses itself when its errors pile up, and says why', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 60);
    env.fake.failNextCalls(funnel.token, { count: 1000, error_code: 400, description: 'Bad Request: something is off', methods: ['sendMessage'] });
    const m = await create(key, funnel.id);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    const paused = await eventually(() => mailingOf(key, m.id), (x) => x.state === 'paused' && x.progress.sending === 0, 'paused', 15_000);
    expect(paused.pause_reason).toBe('too_many_errors');
    expect(paused.progress.failed).toBeGreaterThanOrEqual(20);
    expect(paused.progress.waiting).toBeGreaterThan(0);
  });

  it('deletes a finished mailing from the chats, within 48 hours only', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const people = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 5);
    const m = await create(key, funnel.id);
    startSender();
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.unsend(m.id)), 409)).toEqual({ detail: MAILING_ERRORS.mailingState.text, code: 'mailing_state' });
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    await eventually(() => mailingOf(key, m.id), (x) => x.state === 'finished', 'finished', 15_000);
    const unsent = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.unsend(m.id)));
    expect(unsent.unsent_at).not.toBeNull();
    await eventually(
      () => people.map((p) => env.fake.chatSnapshot(funnel.token, p.telegramId).entries.filter((e) => e.from_bot && !e.deleted).length),
      (counts) => counts.every((n) => n === 0),
      'deleted from every chat',
    );

    // A mailing sent more than 48 hours ago cannot be taken back.
    const old = await create(key, funnel.id);
    ok(await call(env, key, 'POST', MAILINGS_API.send(old.id), {}));
    await eventually(() => mailingOf(key, old.id), (x) => x.state === 'finished', 'finished', 15_000);
    await env.t.db.query(`update outbox set sent_at = sent_at - interval '49 hours' where mailing_id = $1`, [old.id]);
    expect(expectJsonError(await call(env, key, 'POST', MAILINGS_API.unsend(old.id)), 400)).toEqual({ detail: MAILING_ERRORS.unsendTooLate.text, code: 'unsend_too_late' });
  });
});
