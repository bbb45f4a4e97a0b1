// The owner hears of what stopped by itself: a revoked token (the runtime stops the funnel) and a
// mailing that paused itself. Once per event, by the service bot (the fake Bot API's chat with
// the owner) and by e-mail (a real SMTP listener), in the owner's language, with what to do and a
// link to the screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../scripts/telegram/fake-bot-api';
import { eq } from 'drizzle-orm';
import { mailings, users } from '../db/schema';
import { createMailer, type Mailer } from '../mail/mailer';
import { mailingEvents } from '../mailings/state';
import { createFunnel, createOwner, pollingPastEverything, silentLog, testRuntime } from '../test/funnel-runtime';
import { eventually } from '../test/eventually';
import { startSmtpListener, type SmtpListener } from '../test/smtp';
import { createTestDb, TEST_BOT_TOKEN, type TestDb } from '../test/helpers';
import { createOwnerNotices, type OwnerNotices } from './owner-notices';
import type { FunnelRuntime } from './runtime/runtime';

const PUBLIC_URL = 'https://funnels.test';

let fake: FakeBotApi;
let smtp: SmtpListener;
let testDb: TestDb;
let mailer: Mailer;
let notices: OwnerNotices;
let runtime: FunnelRuntime;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeBotApi();
  smtp = await startSmtpListener();
  testDb = await createTestDb();
  fake.addBot({ token: TEST_BOT_TOKEN, username: 'funnels_service_bot' });
  mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'Funnels <noreply@funnels.test>', dataDir: '/nonexistent' });
  notices = createOwnerNotices({
    db: testDb.db,
    config: { telegramBotToken: TEST_BOT_TOKEN, telegramApiRoot: fake.url, publicUrl: PUBLIC_URL },
    mailer,
    log: silentLog,
  });
  runtime = testRuntime(testDb.db, fake.url, { onTokenRevoked: (funnelId) => notices.tokenRevoked(funnelId) });
  await runtime.start();
});
afterAll(async () => {
  await runtime?.stop();
  await mailer?.close();
  await smtp?.close();
  await fake?.close();
  await testDb?.drop();
});

/** An owner with an e-mail and a Telegram identity who has opened the service bot. */
async function owner(language: 'en' | 'ru') {
  counter += 1;
  const id = await createOwner(testDb.db);
  const telegramId = 7_000_000 + counter;
  const [row] = await testDb.db.orm.update(users).set({ language, telegramId }).where(eq(users.id, id)).returning();
  fake.sendUserMessage(TEST_BOT_TOKEN, { from: { id: telegramId, first_name: 'Owner' }, text: '/start' });
  return { id, telegramId, email: row.email! };
}

async function runningFunnel(ownerId: number) {
  counter += 1;
  const bot = fake.addBot({ username: `notice${counter}_bot` });
  const { funnel } = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs: [{ text: 'Hi', next: null }] });
  await runtime.sync(funnel.id);
  await pollingPastEverything(fake, bot.token);
  return { funnelId: funnel.id, token: bot.token, username: bot.username };
}

const chatTexts = (telegramId: number) => fake.botMessages(TEST_BOT_TOKEN, telegramId).map((m) => m.text ?? '');

describe('a revoked token', () => {
  it('tells a Russian owner once, by the service bot and by e-mail, in Russian, with the way to the token screen', { timeout: 30_000 }, async () => {
    const ann = await owner('ru');
    const first = await runningFunnel(ann.id);
    fake.revokeToken(first.token);

    const texts = await eventually(() => chatTexts(ann.telegramId), (t) => t.length === 1, 'the service bot tells the owner', 10_000);
    expect(texts[0]).toContain(`@${first.username}`);
    expect(texts[0]).toContain('токен');
    expect(texts[0]).toContain('/revoke');
    const [message] = fake.botMessages(TEST_BOT_TOKEN, ann.telegramId);
    const button = message.reply_markup?.inline_keyboard.flat()[0];
    expect(button?.text).toBe('Заменить токен');
    expect(button && 'web_app' in button ? button.web_app?.url : undefined).toBe(`${PUBLIC_URL}/content/funnels/${first.funnelId}/token/`);

    const [mail] = await eventually(() => smtp.mailsTo(ann.email), (m) => m.length === 1, 'the e-mail', 10_000);
    expect(mail.subject).toContain('токен отозван');
    expect(mail.text).toContain('BotFather');
    expect(mail.text).toContain(`${PUBLIC_URL}/content/funnels/${first.funnelId}/token/`);

    // The delivery engine meets the same 401 later (a mailing's send): no second notice. The
    // owner's next bot revoked afterwards is told, which shows the first was not told again.
    await runtime.tokenRevoked(first.funnelId);
    const second = await runningFunnel(ann.id);
    fake.revokeToken(second.token);
    await eventually(() => chatTexts(ann.telegramId), (t) => t.length >= 2, 'the notice of the second bot', 10_000);
    await eventually(() => smtp.mailsTo(ann.email), (m) => m.length >= 2, 'the e-mail of the second bot', 10_000);
    expect(chatTexts(ann.telegramId).filter((t) => t.includes(`@${first.username}`))).toHaveLength(1);
    expect(chatTexts(ann.telegramId).filter((t) => t.includes(`@${second.username}`))).toHaveLength(1);
    expect(smtp.mailsTo(ann.email).filter((m) => m.text?.includes(`/funnels/${first.funnelId}/token/`))).toHaveLength(1);
  });
});

describe('a mailing that paused itself', () => {
  it('tells the owner once in their language why and what to do, with a link to the mailing; a repeated pause tells nothing', { timeout: 30_000 }, async () => {
    const bob = await owner('en');
    const { funnelId } = await runningFunnel(bob.id);
    const [mailing] = await testDb.db.orm
      .insert(mailings)
      .values({
        funnelId,
        title: 'Black Friday',
        message: { text: 'Sale today', media_id: null, buttons: [], next_button: null },
        audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] },
        state: 'sending',
      })
      .returning();
    const events = mailingEvents(testDb.db, { onAutoPaused: (mailingId, reason) => notices.mailingPaused(mailingId, reason) });

    await events.pause(mailing.id, 'too_many_errors');
    // The engine's next tick pauses it again (it is paused already): nothing new is written or sent.
    await events.pause(mailing.id, 'too_many_errors');
    await events.pauseBot(funnelId, 'too_many_errors');

    const texts = await eventually(() => chatTexts(bob.telegramId), (t) => t.length >= 1, 'the service bot tells the owner', 10_000);
    expect(texts[0]).toContain('“Black Friday” of the funnel');
    expect(texts[0]).toContain('too many messages in a row could not be delivered');
    expect(texts[0]).toContain('open the mailing');
    const [mail] = await eventually(() => smtp.mailsTo(bob.email), (m) => m.length >= 1, 'the e-mail', 10_000);
    expect(mail.subject).toBe('The mailing “Black Friday” paused');
    expect(mail.text).toContain(`${PUBLIC_URL}/content/funnels/${funnelId}/mailings/${mailing.id}/`);

    // Resumed and paused again later: a new event, told again (and only once more).
    await testDb.db.orm.update(mailings).set({ state: 'sending', pauseReason: null }).where(eq(mailings.id, mailing.id));
    await events.pause(mailing.id, 'paid_broadcast_unavailable');
    const later = await eventually(() => chatTexts(bob.telegramId), (t) => t.length >= 2, 'the second pause is told', 10_000);
    expect(later[1]).toContain('paid broadcasts');
    await eventually(() => smtp.mailsTo(bob.email), (m) => m.length >= 2, 'the second e-mail', 10_000);
    expect(chatTexts(bob.telegramId)).toHaveLength(2);
    expect(smtp.mailsTo(bob.email)).toHaveLength(2);
  });
});
