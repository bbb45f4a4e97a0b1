// The inbox: what subscribers write reaches it through the real runtime and the fake Bot API,
// with unread counts; the owner reads and answers (the answer goes through the bot and into the
// history); the owner is alerted through the service bot once per conversation, and not at all
// with the funnel's switch off.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FUNNELS_API, type Funnel, type InboxPage, type PersonDetail } from '../../../contract/funnels';
import { funnels, people, users } from '../../db/schema';
import { inboxAlertSender } from '../../bots/inbox-alerts';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { decryptBotToken } from '../../funnels/secret-box';
import { eventually } from '../../test/eventually';
import { testRuntime } from '../../test/funnel-runtime';
import { expectJsonError } from '../../test/helpers';
import { addRunnableStage, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { fieldsError } from './expected-errors';

const env = useFunnelsTestEnv();
const runtimes: FunnelRuntime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.stop()));
});

describe('the inbox', () => {
  it('collects what people write, counts unread, alerts the owner once, and the owner answers through the bot', async () => {
    const key = await user(env);
    const owner = 990_001;
    // The owner's account knows their Telegram identity (linked), so the service bot can reach them.
    const funnel = await connectFunnel(env, key);
    const funnelRow = ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id)));
    expect(funnelRow).toMatchObject({ unread_count: 0, inbox_alerts: true });
    const [{ ownerId }] = await env.t.db.orm.select({ ownerId: funnels.ownerId }).from(funnels).where(eq(funnels.id, funnel.id));
    await env.t.db.orm.update(users).set({ telegramId: owner, language: 'ru' }).where(eq(users.id, ownerId));

    await addRunnableStage(env, key, funnel.id, { title: 'Welcome' });
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const serviceBot = env.fake.addBot({ username: `service_${Date.now()}_bot` });
    // The owner opened the app from the service bot once: it may write to them (Telegram's rule).
    env.fake.sendUserMessage(serviceBot.token, { from: { id: owner, first_name: 'Owner' }, text: '/start' });
    const runtime = testRuntime(env.t.db, env.fake.url, {
      tokenOf: (row) => decryptBotToken(row, env.t.config),
      alertOwner: inboxAlertSender({ telegramBotToken: serviceBot.token, telegramApiRoot: env.fake.url, publicUrl: 'https://app.example.com' }),
    });
    runtimes.push(runtime);
    await runtime.start();

    const ann = { id: 770_001, first_name: 'Ann', last_name: 'Lee' };
    env.fake.sendUserMessage(funnel.token, { from: ann, text: '/start' });
    await env.fake.waitForBotMessage(funnel.token, ann.id);
    env.fake.sendUserMessage(funnel.token, { from: ann, text: 'How much is the course?' });
    env.fake.sendUserMessage(funnel.token, { from: ann, text: 'And is there a discount?' });

    const inboxOf = async () => ok<InboxPage>(await call(env, key, 'GET', FUNNELS_API.inbox(funnel.id)));
    const inbox = await eventually(inboxOf, (page) => page.unread_total === 2, 'two unread messages');
    expect(inbox.count).toBe(1);
    expect(inbox.results[0]).toMatchObject({ unread_count: 2, last_text: 'And is there a discount?', person: { first_name: 'Ann' } });
    expect(ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id))).unread_count).toBe(2);
    // /start is no question: only text reaches the inbox.

    // One alert for the conversation, in the owner's language, with a button into it.
    const alert = await env.fake.waitForBotMessage(serviceBot.token, owner, { since: 'any' });
    expect(alert.text).toBe('Новое сообщение в «Shop» от Ann Lee:\n\nHow much is the course?');
    const button = (alert.reply_markup?.inline_keyboard ?? []).flat()[0] as { web_app?: { url: string } };
    expect(button.web_app?.url).toBe(`https://app.example.com/content/funnels/${funnel.id}/inbox/${inbox.results[0].person.id}/`);
    expect(env.fake.botMessages(serviceBot.token, owner)).toHaveLength(1);

    // Reading clears the count; the answer goes through the bot and into the history.
    const personId = inbox.results[0].person.id;
    expect((await call(env, key, 'POST', FUNNELS_API.personRead(personId))).statusCode).toBe(204);
    expect((await inboxOf()).unread_total).toBe(0);
    const answered = ok<PersonDetail>(await call(env, key, 'POST', FUNNELS_API.personReply(personId), { text: 'It is <b>$49</b>, Tom &amp; Jerry price &lt;3' }), 201);
    const delivered = await env.fake.waitForBotMessage(funnel.token, ann.id, { since: 'any', predicate: (m) => m.text?.startsWith('It is') ?? false });
    expect(delivered.text).toBe('It is $49, Tom & Jerry price <3');
    expect(delivered.entities).toEqual([{ type: 'bold', offset: 6, length: 3 }]);
    expect(answered.history[0]).toMatchObject({ direction: 'out', kind: 'reply', text: 'It is <b>$49</b>, Tom &amp; Jerry price &lt;3' });

    // A new message after reading alerts again, once.
    env.fake.sendUserMessage(funnel.token, { from: ann, text: 'Thanks!' });
    await eventually(() => Promise.resolve(env.fake.botMessages(serviceBot.token, owner)), (list) => list.length === 2, 'a second alert');

    // Switched off: messages still arrive, no alert.
    ok(await call(env, key, 'PATCH', FUNNELS_API.funnel(funnel.id), { inbox_alerts: false }));
    expect((await call(env, key, 'POST', FUNNELS_API.personRead(personId))).statusCode).toBe(204);
    const bob = { id: 770_002, first_name: 'Bob' };
    env.fake.sendUserMessage(funnel.token, { from: bob, text: '/start' });
    await env.fake.waitForBotMessage(funnel.token, bob.id);
    env.fake.sendUserMessage(funnel.token, { from: bob, text: 'Hello?' });
    await eventually(inboxOf, (page) => page.count === 2 && page.unread_total === 1, "Bob's message in the inbox");
    expect(env.fake.botMessages(serviceBot.token, owner)).toHaveLength(2);
  });

  it('refuses bad replies clearly, says when the person blocked the bot, and keeps other owners out', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const [person] = await env.t.db.orm.insert(people).values({ funnelId: funnel.id, telegramId: 771_001, firstName: 'Cid', lastMessageAt: new Date(), unreadCount: 1 }).returning();
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personReply(person.id), { text: '' }), 400)).toHaveProperty('text');
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personReply(person.id), { text: '<b>open' }), 400)).toHaveProperty('text');
    // Cid never pressed Start (Telegram: "Bad Request: chat not found"): the reason, as a code the app words.
    const notStarted = expectJsonError(await call(env, key, 'POST', FUNNELS_API.personReply(person.id), { text: 'Hello' }), 400);
    expect(notStarted).toMatchObject({ codes: { text: [{ code: 'not_delivered', detail: 'chat_not_found' }] } });
    expect(JSON.stringify(notStarted)).not.toMatch(/Telegram refused/);
    env.fake.sendUserMessage(funnel.token, { from: { id: 771_001, first_name: 'Cid' }, text: 'hi' });
    env.fake.setBlocked(funnel.token, 771_001, true);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personReply(person.id), { text: 'Hello' }), 400)).toEqual(fieldsError({ text: [FUNNEL_ERRORS.personBlocked] }));
    const [row] = await env.t.db.orm.select().from(people).where(eq(people.id, person.id));
    expect(row.blocked).toBe(true);

    const stranger = await user(env);
    expect(expectJsonError(await call(env, stranger, 'GET', FUNNELS_API.inbox(funnel.id)), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, stranger, 'POST', FUNNELS_API.personReply(person.id), { text: 'x' }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, stranger, 'POST', FUNNELS_API.personRead(person.id)), 404)).toEqual(NOT_FOUND);
    const [still] = await env.t.db.orm.select().from(people).where(eq(people.id, person.id));
    expect(still.unreadCount).toBe(1);

    // A revoked token is never a success either.
    env.fake.setBlocked(funnel.token, 771_001, false);
    env.fake.revokeToken(funnel.token);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.personReply(person.id), { text: 'Hello' }), 400)).toEqual({ detail: FUNNEL_ERRORS.tokenRevoked.text, code: 'token_revoked' });
  });
});
