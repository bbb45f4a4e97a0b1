// Webhooks through the API, the database's triggers and the sender: the owner's outgoing webhooks
// (secret shown once, URL rules, ownership: another user's are 404 and stay as they were); an
// event (a person reaching a stage, getting a tag) POSTed signed to a local receiver that answers
// 500 first and 200 next: retried with the same delivery id, one 2xx recorded, never POSTed again;
// a webhook failing for a day switched off with one notice to its owner (time moved the way the
// house's test clock moves schedules: the rows' moments are moved back); and the incoming URL:
// a wrong secret or another funnel's person is 404, go_to_stage moves the person and the fake Bot
// API gets the stage's message once even when the same event is POSTed twice, add_tag tags.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIELDS_API } from '../../../contract/fields';
import { FUNNELS_API, type PersonDetail, type Tag } from '../../../contract/funnels';
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOKS_API,
  type FunnelWebhook,
  type FunnelWebhookWithSecret,
  type WebhookDelivery,
  type WebhookSettings,
} from '../../../contract/webhooks';
import { createOwnerNotices } from '../../bots/owner-notices';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { funnelWebhooks, people, stageMoves, users, webhookDeliveries } from '../../db/schema';
import { decryptSecret } from '../../funnels/secret-box';
import { WebhookSender } from '../../outbox/webhook-sender';
import { isPrivateAddress, webhookUrlProblem } from '../../outbox/webhook-url';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { addPerson, addRunnableStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError, TEST_BOT_TOKEN } from '../../test/helpers';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  body: { id: string; event: string; funnel: { id: number; name: string }; person: { id: number; stage_id: number | null } | null; data: Record<string, unknown> };
}

/** A local HTTP receiver: answers each POST with the next status of its list (the last repeats). */
let receiver: Server;
let receiverUrl = '';
const received: Received[] = [];
let statuses: number[] = [200];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, raw, body: JSON.parse(raw) as Received['body'] });
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0];
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };

function sender(onDisabled?: (webhookId: number) => Promise<void>) {
  return new WebhookSender({ db: env.t.db, secretOf: (sealed) => decryptSecret(sealed, env.t.config.secretKey), allowLocal: true, log: silent, onDisabled });
}

/** The receiver's check: the signature is the HMAC-SHA256 of the raw body with the webhook's secret. */
const signedWith = (secret: string, r: Received) => r.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] === `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;

async function addWebhook(key: string, funnelId: number, events: string[], url = receiverUrl) {
  return ok<FunnelWebhookWithSecret>(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnelId), { url, events }), 201);
}

/** "Time passes" for a webhook's deliveries: their moments move `seconds` into the past (due now if they were waiting). */
async function passTime(webhookId: number, seconds: number) {
  await env.t.db.query(
    `update webhook_deliveries set created_at = created_at - make_interval(secs => $2), next_attempt_at = least(next_attempt_at - make_interval(secs => $2), now()) where webhook_id = $1`,
    [webhookId, seconds],
  );
  await env.t.db.query('update funnel_webhooks set failing_since = failing_since - make_interval(secs => $2) where id = $1', [webhookId, seconds]);
}

const deliveriesOf = async (webhookId: number) =>
  env.t.db.orm.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)).orderBy(webhookDeliveries.id);

describe('outgoing webhooks: the owner manages them', () => {
  it('creates one (its secret shown once), lists, changes, switches off, rotates the secret and deletes; bad URLs are refused', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Shop');
    const made = await addWebhook(key, funnel.id, ['stage.reached', 'tag.added', 'stage.reached']);
    expect(made).toMatchObject({ funnel_id: funnel.id, url: receiverUrl, events: ['stage.reached', 'tag.added'], enabled: true, failing_since: null });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const listed = ok<FunnelWebhook[]>(await call(env, key, 'GET', WEBHOOKS_API.webhooks(funnel.id)));
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');

    const changed = ok<FunnelWebhook>(await call(env, key, 'PATCH', WEBHOOKS_API.webhook(funnel.id, made.id), { events: ['person.blocked'], enabled: false }));
    expect(changed).toMatchObject({ events: ['person.blocked'], enabled: false });
    const rotated = ok<FunnelWebhookWithSecret>(await call(env, key, 'POST', WEBHOOKS_API.rotateSecret(funnel.id, made.id)));
    expect(rotated.secret).not.toBe(made.secret);

    const urlError = async (url: string) => expectJsonError(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnel.id), { url, events: ['tag.added'] }), 400);
    expect(await urlError('not a url')).toMatchObject({ url: ['Enter a valid URL, like https://example.com/hooks/funnel.'] });
    expect(await urlError('ftp://example.com/x')).toHaveProperty('url');
    expect(expectJsonError(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnel.id), { url: receiverUrl, events: [] }), 400)).toHaveProperty('events');
    expect(expectJsonError(await call(env, key, 'POST', WEBHOOKS_API.webhooks(funnel.id), { url: receiverUrl, events: ['nope'] }), 400)).toHaveProperty('events');

    expect((await call(env, key, 'DELETE', WEBHOOKS_API.webhook(funnel.id, made.id))).statusCode).toBe(204);
    expect(ok<FunnelWebhook[]>(await call(env, key, 'GET', WEBHOOKS_API.webhooks(funnel.id)))).toEqual([]);
  });

  it("another user's funnel or webhook is 404, and their rows stay as they were", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Mine');
    const mine = await addWebhook(key, funnel.id, ['tag.added']);
    const other = await connectFunnel(env, key, 'Also mine');
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    const theirHook = await addWebhook(stranger, theirs.id, ['stage.reached']);

    const notFound = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      expect(expectJsonError(await call(env, key, method, url, body), 404)).toEqual(NOT_FOUND);
    await notFound('GET', WEBHOOKS_API.webhooks(theirs.id));
    await notFound('POST', WEBHOOKS_API.webhooks(theirs.id), { url: receiverUrl, events: ['tag.added'] });
    await notFound('GET', WEBHOOKS_API.settings(theirs.id));
    await notFound('POST', WEBHOOKS_API.rotateInbound(theirs.id));
    await notFound('GET', WEBHOOKS_API.webhook(theirs.id, theirHook.id));
    await notFound('PATCH', WEBHOOKS_API.webhook(theirs.id, theirHook.id), { url: 'http://127.0.0.1:1/stolen', enabled: false });
    await notFound('POST', WEBHOOKS_API.rotateSecret(theirs.id, theirHook.id));
    await notFound('GET', WEBHOOKS_API.deliveries(theirs.id, theirHook.id));
    await notFound('POST', WEBHOOKS_API.test(theirs.id, theirHook.id));
    await notFound('DELETE', WEBHOOKS_API.webhook(theirs.id, theirHook.id));
    // Their webhook under my funnel's path, and mine under another of my funnels.
    await notFound('PATCH', WEBHOOKS_API.webhook(funnel.id, theirHook.id), { enabled: false });
    await notFound('DELETE', WEBHOOKS_API.webhook(funnel.id, theirHook.id));
    await notFound('DELETE', WEBHOOKS_API.webhook(other.id, mine.id));

    const [row] = await env.t.db.orm.select().from(funnelWebhooks).where(eq(funnelWebhooks.id, theirHook.id));
    expect(row).toMatchObject({ url: receiverUrl, enabled: true, funnelId: theirs.id, events: ['stage.reached'] });
    const [theirFunnel] = await env.t.db.query<{ inbound_secret: string | null }>('select inbound_secret from funnels where id = $1', [theirs.id]);
    expect(theirFunnel.inbound_secret).toBeNull();
    expect(ok<FunnelWebhook[]>(await call(env, key, 'GET', WEBHOOKS_API.webhooks(funnel.id))).map((w) => w.id)).toEqual([mine.id]);
  });
});

describe('outgoing webhooks: delivery', () => {
  it('a stage reached is POSTed signed; a 500 is retried with the same delivery id; the 2xx is recorded once and never POSTed again', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Course');
    const welcome = await addRunnableStage(env, key, funnel.id, { title: 'Welcome' });
    const paid = await addRunnableStage(env, key, funnel.id, { title: 'Paid' });
    const hook = await addWebhook(key, funnel.id, ['stage.reached']);
    const person = await addPerson(env, funnel.id, { firstName: 'Ann', stageId: welcome.id });
    received.length = 0;
    statuses = [500, 200];
    const webhooks = sender();

    ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: paid.id }));
    expect(await webhooks.pass()).toBe(1);
    expect(received).toHaveLength(1);
    const [failedRow] = await deliveriesOf(hook.id);
    expect(failedRow).toMatchObject({ state: 'waiting', attempts: 1, lastStatus: 500 });
    expect(failedRow.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);
    // Not due yet: nothing is POSTed.
    expect(await webhooks.pass()).toBe(0);

    await passTime(hook.id, 60);
    expect(await webhooks.pass()).toBe(1);
    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(signedWith(hook.secret, r)).toBe(true);
      expect(r.headers[WEBHOOK_EVENT_HEADER.toLowerCase()]).toBe('stage.reached');
      expect(r.headers[WEBHOOK_DELIVERY_HEADER.toLowerCase()]).toBe(failedRow.eventId);
      expect(r.body).toMatchObject({
        id: failedRow.eventId,
        event: 'stage.reached',
        funnel: { id: funnel.id, name: 'Course' },
        person: { id: person.id, first_name: 'Ann', stage_id: paid.id },
        data: { stage_id: paid.id, from_stage_id: welcome.id, via: 'manual', stage_title: 'Paid' },
      });
    }
    expect(received[0].raw).toBe(received[1].raw);
    expect(signedWith('whsec_not-the-secret', received[1])).toBe(false);
    const [sentRow] = await deliveriesOf(hook.id);
    expect(sentRow).toMatchObject({ state: 'sent', attempts: 2, lastStatus: 200, lastError: null });

    // Time passes, another event goes: the sent one is not POSTed again.
    await passTime(hook.id, 86_400);
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: welcome.id }));
    expect(await webhooks.pass()).toBe(1);
    expect(received.map((r) => r.body.data.stage_id)).toEqual([paid.id, paid.id, welcome.id]);
    expect(new Set(received.map((r) => r.body.id)).size).toBe(2);

    // The log shows them, newest first.
    const log = ok<WebhookDelivery[]>(await call(env, key, 'GET', WEBHOOKS_API.deliveries(funnel.id, hook.id)));
    expect(log.map((d) => [d.event, d.state, d.attempts, d.last_status])).toEqual([
      ['stage.reached', 'sent', 1, 200],
      ['stage.reached', 'sent', 2, 200],
    ]);
    expect(ok<FunnelWebhook>(await call(env, key, 'GET', WEBHOOKS_API.webhook(funnel.id, hook.id))).failing_since).toBeNull();
  });

  it('a tag added goes only to webhooks subscribed to it; "Send a test" POSTs at once and answers with the result', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Tags');
    const tagsHook = await addWebhook(key, funnel.id, ['tag.added']);
    const stagesHook = await addWebhook(key, funnel.id, ['stage.reached']);
    const vip = await addTag(env, key, funnel.id, 'VIP');
    const person = await addPerson(env, funnel.id);
    received.length = 0;
    statuses = [200];
    ok<PersonDetail>(await call(env, key, 'POST', FUNNELS_API.personTags(person.id), { tag_id: vip.id }), 201);
    expect(await sender().pass()).toBe(1);
    expect(received.map((r) => [r.body.event, r.body.data])).toEqual([['tag.added', { tag_id: vip.id, tag: 'VIP' }]]);
    expect(signedWith(tagsHook.secret, received[0])).toBe(true);
    expect(await deliveriesOf(stagesHook.id)).toEqual([]);

    statuses = [503];
    const test = ok<WebhookDelivery>(await call(env, key, 'POST', WEBHOOKS_API.test(funnel.id, stagesHook.id)));
    expect(test).toMatchObject({ event: 'webhook.test', state: 'failed', attempts: 1, last_status: 503 });
    expect(test.last_error).toContain('503');
    expect(received.at(-1)!.body).toMatchObject({ event: 'webhook.test', funnel: { id: funnel.id, name: 'Tags' } });
    expect(signedWith(stagesHook.secret, received.at(-1)!)).toBe(true);
    // A failed test does not make the webhook "failing".
    expect(ok<FunnelWebhook>(await call(env, key, 'GET', WEBHOOKS_API.webhook(funnel.id, stagesHook.id))).failing_since).toBeNull();
    statuses = [200];
    expect(ok<WebhookDelivery>(await call(env, key, 'POST', WEBHOOKS_API.test(funnel.id, stagesHook.id)))).toMatchObject({ state: 'sent', last_status: 200 });
  });

  it('a webhook whose deliveries failed for a day is switched off, its owner told once by the service bot and by e-mail', { timeout: 30_000 }, async () => {
    env.fake.addBot({ token: TEST_BOT_TOKEN, username: 'funnels_service_bot' });
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Failing');
    const [owner] = await env.t.db.query<{ id: number; email: string }>('select u.id, u.email from users u join funnels f on f.owner_id = u.id where f.id = $1', [funnel.id]);
    const telegramId = 8_800_001;
    await env.t.db.orm.update(users).set({ language: 'ru', telegramId }).where(eq(users.id, owner.id));
    env.fake.sendUserMessage(TEST_BOT_TOKEN, { from: { id: telegramId, first_name: 'Owner' }, text: '/start' });
    const notices = createOwnerNotices({
      db: env.t.db,
      config: { telegramBotToken: TEST_BOT_TOKEN, telegramApiRoot: env.fake.url, publicUrl: 'https://funnels.test' },
      mailer: env.t.mailer,
      log: silent,
    });
    const stage = await addRunnableStage(env, key, funnel.id, { title: 'One' });
    const hook = await addWebhook(key, funnel.id, ['stage.reached']);
    const person = await addPerson(env, funnel.id);
    statuses = [500];
    const webhooks = sender((id) => notices.webhookDisabled(id));

    ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: stage.id }));
    expect(await webhooks.pass()).toBe(1);
    const failing = ok<FunnelWebhook>(await call(env, key, 'GET', WEBHOOKS_API.webhook(funnel.id, hook.id)));
    expect(failing).toMatchObject({ enabled: true });
    expect(failing.failing_since).not.toBeNull();

    // A day of failures later, the last try fails too: the delivery fails for good and the webhook switches off.
    await passTime(hook.id, 86_400);
    expect(await webhooks.pass()).toBe(1);
    const off = ok<FunnelWebhook>(await call(env, key, 'GET', WEBHOOKS_API.webhook(funnel.id, hook.id)));
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect((await deliveriesOf(hook.id)).map((d) => d.state)).toEqual(['failed']);

    const chat = await eventually(
      () => env.fake.botMessages(TEST_BOT_TOKEN, telegramId).map((m) => m.text ?? ''),
      (texts) => texts.length >= 1,
      'the service bot tells the owner',
      10_000,
    );
    expect(chat).toHaveLength(1);
    expect(chat[0]).toContain('Вебхук');
    expect(chat[0]).toContain(receiverUrl);
    const mail = await env.t.mailer.next(owner.email);
    expect(mail.subject).toContain('Failing');
    expect(mail.text).toContain(`https://funnels.test/content/funnels/${funnel.id}/webhooks/`);

    // Off: a new event is not queued for it, and the owner is not told again.
    const two = await addRunnableStage(env, key, funnel.id, { title: 'Two' });
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: two.id }));
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    // Switched on again by the owner: no longer failing.
    const on = ok<FunnelWebhook>(await call(env, key, 'PATCH', WEBHOOKS_API.webhook(funnel.id, hook.id), { enabled: true }));
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    expect(env.fake.botMessages(TEST_BOT_TOKEN, telegramId)).toHaveLength(1);
  });
});

describe('outgoing webhooks: one POST per event', () => {
  it('two senders at once POST each of many events once; a sender killed mid-POST leaves it to be POSTed again with the same delivery id', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Busy');
    const one = await addRunnableStage(env, key, funnel.id, { title: 'One' });
    const two = await addRunnableStage(env, key, funnel.id, { title: 'Two' });
    const hook = await addWebhook(key, funnel.id, ['stage.reached']);
    const crowd = await Promise.all(Array.from({ length: 30 }, () => addPerson(env, funnel.id, { stageId: one.id })));
    for (const person of crowd) ok(await call(env, key, 'PATCH', FUNNELS_API.person(person.id), { stage_id: two.id }));
    received.length = 0;
    statuses = [200];
    const first = sender();
    const second = sender();
    const drain = async (s: WebhookSender) => {
      while ((await s.pass()) > 0);
    };
    await Promise.all([drain(first), drain(second)]);
    const ids = received.map((r) => r.headers[WEBHOOK_DELIVERY_HEADER.toLowerCase()]);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(new Set(received.map((r) => r.body.person!.id))).toEqual(new Set(crowd.map((p) => p.id)));
    expect((await deliveriesOf(hook.id)).every((d) => d.state === 'sent' && d.attempts === 1)).toBe(true);

    // A process killed after claiming (its lease runs out): the next sender POSTs it again, same id.
    ok(await call(env, key, 'PATCH', FUNNELS_API.person(crowd[0].id), { stage_id: one.id }));
    const [waiting] = (await deliveriesOf(hook.id)).filter((d) => d.state === 'waiting');
    await env.t.db.query(
      `update webhook_deliveries set state = 'sending', attempts = 1, lease_owner = 'killed', lease_until = now() - interval '1 second', next_attempt_at = now() - interval '1 second' where id = $1`,
      [waiting.id],
    );
    received.length = 0;
    expect(await first.pass()).toBe(1);
    expect(received.map((r) => r.headers[WEBHOOK_DELIVERY_HEADER.toLowerCase()])).toEqual([waiting.eventId]);
    const [again] = (await deliveriesOf(hook.id)).filter((d) => d.id === waiting.id);
    expect(again).toMatchObject({ state: 'sent', attempts: 2 });
  });
});

describe('the incoming webhook', () => {
  const post = (url: string, payload: unknown) => env.t.app.inject({ method: 'POST', url, payload: payload as object });

  it('a wrong secret, an unknown funnel and a person of another funnel are 404; bad bodies are 400', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'In');
    const stage = await addRunnableStage(env, key, funnel.id);
    const other = await connectFunnel(env, key, 'Other');
    const stranger = await addPerson(env, other.id);
    const person = await addPerson(env, funnel.id);
    const settings = ok<WebhookSettings>(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id)));
    const path = new URL(settings.inbound_url).pathname;
    expect(settings.inbound_url).toMatch(new RegExp(`/api/hooks/funnels/${funnel.id}/[A-Za-z0-9_-]{32}/$`));
    const body = { event_id: 'evt-1', person_id: person.id, action: 'go_to_stage', stage_id: stage.id };

    expect(expectJsonError(await post(path.replace(/\/[^/]+\/$/, '/wrong-secret/'), body), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await post(WEBHOOKS_API.inbound(other.id, path.split('/').at(-2)!), body), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await post(path, { ...body, person_id: stranger.id }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await post(path, { ...body, stage_id: undefined }), 400)).toMatchObject({ stage_id: ['This field is required.'] });
    expect(expectJsonError(await post(path, { ...body, action: 'explode' }), 400)).toHaveProperty('action');
    expect(expectJsonError(await post(path, { ...body, event_id: '' }), 400)).toHaveProperty('event_id');
    expect(expectJsonError(await post(path, { ...body, action: 'mark_paid' }), 400)).toMatchObject({ amount: ['This field is required.'] });
    expect(expectJsonError(await post(path, { ...body, action: 'set_field', field: 'email' }), 400)).toMatchObject({ value: ['This field is required.'] });
    // None of these moved anyone or used up the event id.
    expect((await env.t.db.orm.select().from(stageMoves).where(eq(stageMoves.personId, stranger.id)))).toEqual([]);

    // Rotating makes a new URL; the old one stops working.
    const rotated = ok<WebhookSettings>(await call(env, key, 'POST', WEBHOOKS_API.rotateInbound(funnel.id)));
    expect(rotated.inbound_url).not.toBe(settings.inbound_url);
    expect(expectJsonError(await post(path, body), 404)).toEqual(NOT_FOUND);
    expect(ok(await post(new URL(rotated.inbound_url).pathname, body))).toEqual({ status: 'applied' });
  });

  it('go_to_stage moves the person via webhook and the bot sends the stage\'s message once, even when the event is POSTed twice', { timeout: 30_000 }, async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Paid course');
    const welcome = await addRunnableStage(env, key, funnel.id, { title: 'Welcome' });
    // {person_id}: the link to the owner's own checkout carries the id the incoming webhook names.
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(welcome.id), { text: 'Hello from Welcome. Pay: https://pay.example.com/?p={person_id}', media_id: null, buttons: [], next_button: null }));
    const paidTag = await addTag(env, key, funnel.id, 'paid');
    const paid = await addRunnableStage(env, key, funnel.id, { title: 'Paid', tag_id: paidTag.id });
    const lesson = await addRunnableStage(env, key, funnel.id, { title: 'Lesson' });
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const runtime = testRuntime(env.t.db, env.fake.url, { tokenOf: () => funnel.token });
    runtimes.push(runtime);
    await runtime.start();

    const ann = { id: 7301, first_name: 'Ann' };
    env.fake.sendUserMessage(funnel.token, { from: ann, text: '/start' });
    await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (m) => (m.text ?? '').includes('Hello from Welcome') });
    const [person] = await env.t.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, ann.id)));
    expect(env.fake.botMessages(funnel.token, ann.id)[0].text).toBe(`Hello from Welcome. Pay: https://pay.example.com/?p=${person.id}`);
    const path = new URL(ok<WebhookSettings>(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id))).inbound_url).pathname;

    const event = { event_id: 'order-1001', person_id: person.id, action: 'go_to_stage', stage_id: paid.id };
    expect(ok(await post(path, event))).toEqual({ status: 'applied' });
    expect(ok(await post(path, event))).toEqual({ status: 'duplicate' });
    await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (m) => (m.text ?? '').includes('Hello from Paid') });

    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(detail.stage_id).toBe(paid.id);
    expect(detail.tag_ids).toContain(paidTag.id);
    const moves = await env.t.db.orm.select().from(stageMoves).where(eq(stageMoves.personId, person.id));
    expect(moves.filter((m) => m.via === 'webhook').map((m) => m.toStageId)).toEqual([paid.id]);

    // Another event moves on: once its message arrives, the first one's is still there once.
    expect(ok(await post(path, { ...event, event_id: 'order-1002', stage_id: lesson.id }))).toEqual({ status: 'applied' });
    await env.fake.waitForBotMessage(funnel.token, ann.id, { predicate: (m) => (m.text ?? '').includes('Hello from Lesson') });
    const texts = env.fake.botMessages(funnel.token, ann.id).map((m) => m.text ?? '');
    expect(texts.filter((t) => t.includes('Hello from Paid'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Hello from Lesson'))).toHaveLength(1);
  });

  it('add_tag tags the person, making the tag by its title when the funnel has none, once per event', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Tagging');
    const existing = await addTag(env, key, funnel.id, 'Customer');
    const person = await addPerson(env, funnel.id);
    const path = new URL(ok<WebhookSettings>(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id))).inbound_url).pathname;

    expect(ok(await post(path, { event_id: 'e1', person_id: person.id, action: 'add_tag', tag: 'customer' }))).toEqual({ status: 'applied' });
    expect(ok(await post(path, { event_id: 'e2', person_id: person.id, action: 'add_tag', tag: 'Course buyer' }))).toEqual({ status: 'applied' });
    expect(ok(await post(path, { event_id: 'e2', person_id: person.id, action: 'add_tag', tag: 'Course buyer' }))).toEqual({ status: 'duplicate' });
    expect(expectJsonError(await post(path, { event_id: 'e3', person_id: person.id, action: 'add_tag' }), 400)).toMatchObject({ tag: ['This field is required.'] });

    const tags = ok<Tag[]>(await call(env, key, 'GET', FUNNELS_API.tags(funnel.id)));
    const buyer = tags.find((t) => t.title === 'Course buyer');
    expect(buyer).toBeDefined();
    expect(tags).toHaveLength(2);
    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect([...detail.tag_ids].sort()).toEqual([existing.id, buyer!.id].sort());
  });

  it("set_field keeps the person's value by the field's key, checked by its kind, once per event; the field's webhook is told", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Fields');
    const email = ok<{ id: number }>(await call(env, key, 'POST', FIELDS_API.fields(funnel.id), { title: 'E-mail', key: 'email', kind: 'email' }), 201);
    const phone = ok<{ id: number }>(await call(env, key, 'POST', FIELDS_API.fields(funnel.id), { title: 'Phone', key: 'phone', kind: 'phone' }), 201);
    const person = await addPerson(env, funnel.id);
    const hook = await addWebhook(key, funnel.id, ['field.answered']);
    const path = new URL(ok<WebhookSettings>(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id))).inbound_url).pathname;

    expect(expectJsonError(await post(path, { event_id: 'f0', person_id: person.id, action: 'set_field', field: 'email', value: 'not an address' }), 400)).toMatchObject({
      value: [expect.stringContaining('not a valid email')],
    });
    expect(expectJsonError(await post(path, { event_id: 'f0', person_id: person.id, action: 'set_field', field: 'city', value: 'Kazan' }), 400)).toMatchObject({
      field: [expect.stringContaining('“city”')],
    });
    expect(ok(await post(path, { event_id: 'f1', person_id: person.id, action: 'set_field', field: 'email', value: 'Anna@Example.com' }))).toEqual({ status: 'applied' });
    expect(ok(await post(path, { event_id: 'f1', person_id: person.id, action: 'set_field', field: 'email', value: 'other@example.com' }))).toEqual({ status: 'duplicate' });
    expect(ok(await post(path, { event_id: 'f2', person_id: person.id, action: 'set_field', field: 'phone', value: '+7 (912) 345-67-89' }))).toEqual({ status: 'applied' });

    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(Object.fromEntries(detail.fields.map((f) => [f.field_id, f.value]))).toEqual({ [email.id]: 'anna@example.com', [phone.id]: '+79123456789' });
    received.length = 0;
    statuses = [200];
    expect(await sender().pass()).toBe(2);
    expect(received.map((r) => [r.body.event, r.body.data.key, r.body.data.value])).toEqual([
      ['field.answered', 'email', 'anna@example.com'],
      ['field.answered', 'phone', '+79123456789'],
    ]);
    expect(signedWith(hook.secret, received[0])).toBe(true);
  });

  it('mark_paid records a payment made elsewhere once, moves the payer to the named stage, and tells the payment webhook', { timeout: 30_000 }, async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Course platform');
    await addRunnableStage(env, key, funnel.id, { title: 'Lesson' });
    const paid = await addRunnableStage(env, key, funnel.id, { title: 'Paid' });
    const person = await addPerson(env, funnel.id);
    const hook = await addWebhook(key, funnel.id, ['payment.paid']);
    const path = new URL(ok<WebhookSettings>(await call(env, key, 'GET', WEBHOOKS_API.settings(funnel.id))).inbound_url).pathname;

    expect(expectJsonError(await post(path, { event_id: 'p0', person_id: person.id, action: 'mark_paid' }), 400)).toMatchObject({ amount: ['This field is required.'] });
    expect(expectJsonError(await post(path, { event_id: 'p0', person_id: person.id, action: 'mark_paid', amount: 100, currency: 'rub' }), 400)).toHaveProperty('currency');
    const body = { event_id: 'order-1', person_id: person.id, action: 'mark_paid', amount: 499_000, currency: 'RUB', stage_id: paid.id };
    expect(ok(await post(path, body))).toEqual({ status: 'applied' });
    expect(ok(await post(path, body))).toEqual({ status: 'duplicate' });

    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(person.id)));
    expect(detail.payments).toEqual([expect.objectContaining({ amount: 499_000, currency: 'RUB', provider: 'external', charge_id: 'order-1', state: 'paid' })]);
    expect(detail.stage_id).toBe(paid.id);
    const moves = await env.t.db.orm.select({ to: stageMoves.toStageId, via: stageMoves.via }).from(stageMoves).where(eq(stageMoves.personId, person.id));
    expect(moves).toEqual([{ to: paid.id, via: 'payment' }]);
    // Counted as paid; revenue stays in Stars, so roubles are not added to it.
    expect(ok<{ paid: number; revenue: number }>(await call(env, key, 'GET', `${FUNNELS_API.stats(funnel.id)}?period=all`))).toMatchObject({ paid: 1, revenue: 0 });
    received.length = 0;
    statuses = [200];
    expect(await sender().pass()).toBe(1);
    expect(received[0].body).toMatchObject({ event: 'payment.paid', person: { id: person.id }, data: { amount: 499_000, currency: 'RUB', provider: 'external', charge_id: 'order-1' } });
    expect(signedWith(hook.secret, received[0])).toBe(true);
  });
});

describe('webhook URLs in production (PUBLIC_URL https)', () => {
  it('https only, and no address of this machine or a private network', () => {
    expect(webhookUrlProblem('https://hooks.example.com/funnel?x=1', false)).toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/funnel', false)).toBe('not_https');
    for (const url of ['https://localhost/x', 'https://127.0.0.1/x', 'https://10.1.2.3/', 'https://192.168.0.5/', 'https://172.20.0.1/', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://[fd00::1]/', 'https://db.internal/']) {
      expect(webhookUrlProblem(url, false), url).toBe('private_address');
    }
    expect(webhookUrlProblem('https://user:pass@example.com/', false)).toBe('not_a_url');
    expect(webhookUrlProblem('nonsense', false)).toBe('not_a_url');
    // A local or test server may use them.
    expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', true)).toBeNull();
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('::ffff:10.0.0.1')).toBe(true);
  });
});
