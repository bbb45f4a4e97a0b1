// The bot runtime against the fake Bot API: what a subscriber sees (/start, next-step, buttons,
// photos), what the owner sees in the database (stage, tags, history), and trouble that stays
// with one bot (403, 401, 429).
import { and, eq } from 'drizzle-orm';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_STEP_CALLBACK_PREFIX } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { funnels, media, outbox, people, personEvents, personTags, stages } from '../../db/schema';
import { createTestDb, TEST_DATABASE_URL, type TestDb } from '../../test/helpers';
import { END_OF_FUNNEL_TEXT } from './behaviours/next-step';
import { type BotApiCallSent, botApiCallSent, type UpdateReceived, updateReceived } from '../../telegram/diagnostics';
import type { FunnelRuntime } from './runtime';
import { STAGE_CACHE_MS } from './store';
import { createFunnel, createOwner, pollingPastEverything, recordingLog, setFunnelState, testRuntime, TINY_PNG, type StageSpec } from '../../test/funnel-runtime';
import { eventually, until } from '../../test/eventually';
import { MAX_API_RETRIES, MAX_RATE_LIMIT_WAIT_S } from '../../telegram/client';
import { SEND_RETRY_DELAYS_MS } from './funnel-context';

let fake: FakeBotApi;
let testDb: TestDb;
let ownerId: number;
let counter = 0;
const runtimes: FunnelRuntime[] = [];

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
  ownerId = await createOwner(testDb.db);
});
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});
afterAll(async () => {
  await fake?.close();
  await testDb?.drop();
});

/** As many retries as in production, without the wait. */
const FAST_RETRIES = SEND_RETRY_DELAYS_MS.map(() => 10);

const THREE_STAGES: StageSpec[] = [
  { text: '<b>Welcome!</b> Here is the guide.', buttons: [{ text: 'Guide', url: 'https://example.com/guide' }, { text: 'Site', url: 'https://example.com/' }], next: 'Go on', tag: 'lead' },
  { text: 'Stage two: the offer', next: 'More', tag: 'warm' },
  { text: 'Last stage', next: 'Finish' },
];

async function runningFunnel(stageSpecs: StageSpec[] = THREE_STAGES) {
  counter += 1;
  const bot = fake.addBot({ username: `runtime${counter}_bot` });
  const made = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs });
  return { ...made, token: bot.token };
}

function start(runtime: FunnelRuntime): Promise<void> {
  runtimes.push(runtime);
  return runtime.start();
}

function keyboardOf(message: Message): InlineKeyboardMarkup['inline_keyboard'] {
  return (message.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard ?? [];
}

async function personRow(funnelId: number, telegramId: number) {
  const [row] = await testDb.db.orm
    .select()
    .from(people)
    .where(and(eq(people.funnelId, funnelId), eq(people.telegramId, telegramId)));
  return row;
}

describe('a subscriber goes through the funnel', () => {
  it('/start sends the first stage with its URL buttons and the next-step button, and records the person', async () => {
    const { funnel, token, stageIds, tagIds } = await runningFunnel();
    const log = recordingLog();
    await start(testRuntime(testDb.db, fake.url, { log }));
    const ann = { id: 5001, first_name: 'Ann', last_name: 'Lee', username: 'ann_lee', language_code: 'en' };
    fake.sendUserMessage(token, { from: ann, text: '/start promo42' });
    const reply = await fake.waitForBotMessage(token, ann.id);
    expect(reply.text).toBe('Welcome! Here is the guide.');
    expect(reply.entities).toEqual([{ type: 'bold', offset: 0, length: 8 }]);
    expect(keyboardOf(reply)).toEqual([
      [{ text: 'Guide', url: 'https://example.com/guide' }],
      [{ text: 'Site', url: 'https://example.com/' }],
      [{ text: 'Go on', callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[0]}` }],
    ]);
    const person = await eventually(() => personRow(funnel.id, ann.id), (row) => row !== undefined, 'the person');
    expect(person).toMatchObject({ firstName: 'Ann', lastName: 'Lee', username: 'ann_lee', languageCode: 'en', stageId: stageIds[0], blocked: false });
    const personTagRows = await testDb.db.orm.select().from(personTags).where(eq(personTags.personId, person.id));
    expect(personTagRows).toEqual([expect.objectContaining({ tagId: tagIds[0], source: 'stage' })]);
    const history = await eventually(
      () => testDb.db.orm.select().from(personEvents).where(eq(personEvents.personId, person.id)).orderBy(personEvents.id),
      (rows) => rows.length === 2,
      'two history entries',
    );
    expect(history).toMatchObject([
      { direction: 'in', kind: 'command', text: '/start promo42', stageId: null },
      { direction: 'out', kind: 'stage_message', stageId: stageIds[0], telegramMessageId: reply.message_id, text: THREE_STAGES[0].text },
    ]);
    expect(log.errors).toEqual([]);
  });

  it('fills {first_name} and friends per person (fallback when missing), and escaped text arrives as typed', async () => {
    const text = '<b>Tom &amp; Jerry &lt;3</b>, {first_name}! Prices &lt; 100 rub. @{username|friend} {last_name}';
    const { token } = await runningFunnel([{ text, next: 'Go on' }, { text: 'Next, {first_name|there}' }]);
    await start(testRuntime(testDb.db, fake.url));
    const ann = { id: 5101, first_name: 'Ann <&>', username: 'ann_k' };
    const bob = { id: 5102, first_name: 'Bob', last_name: 'Ray' };
    fake.sendUserMessage(token, { from: ann, text: '/start' });
    fake.sendUserMessage(token, { from: bob, text: '/start' });
    const toAnn = await fake.waitForBotMessage(token, ann.id);
    const toBob = await fake.waitForBotMessage(token, bob.id);
    expect(toAnn.text).toBe('Tom & Jerry <3, Ann <&>! Prices < 100 rub. @ann_k'); // Telegram trims the end
    expect(toAnn.entities).toEqual([{ type: 'bold', offset: 0, length: 14 }]);
    expect(toBob.text).toBe('Tom & Jerry <3, Bob! Prices < 100 rub. @friend Ray');
  });

  it('next-step moves the person to the next stage once, trims the pressed keyboard, and the last one says that is all', async () => {
    const { funnel, token, stageIds, tagIds } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    const bob = { id: 5002, first_name: 'Bob', language_code: 'en' };
    fake.sendUserMessage(token, { from: bob, text: '/start' });
    const first = await fake.waitForBotMessage(token, bob.id);
    const firstData = `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[0]}`;

    const press = fake.pressButton(token, { from: bob, message_id: first.message_id, callback_data: firstData });
    const second = await fake.waitForBotMessage(token, bob.id, { predicate: (m) => m.text === 'Stage two: the offer' });
    expect(keyboardOf(second)).toEqual([[{ text: 'More', callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[1]}` }]]);
    await fake.waitForCallbackAnswer(token, press.callback_query!.id);
    const person = await eventually(() => personRow(funnel.id, bob.id), (row) => row.stageId === stageIds[1], 'the move to stage 2');
    const tagRows = await testDb.db.orm.select().from(personTags).where(eq(personTags.personId, person.id));
    expect(tagRows.map((t) => t.tagId).sort()).toEqual([tagIds[0], tagIds[1]].sort());
    // The pressed message keeps its URL buttons but loses the next-step button.
    const trimmed = await eventually(
      async () => fake.botMessages(token, bob.id).find((m) => m.message_id === first.message_id)!,
      (m) => keyboardOf(m).length === 2,
      'the pressed keyboard trimmed',
    );
    expect(keyboardOf(trimmed).flat().map((b) => b.text)).toEqual(['Guide', 'Site']);

    // On to the last stage.
    const sentBefore = fake.botMessages(token, bob.id).length;
    const onward = fake.pressButton(token, { from: bob, message_id: second.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[1]}` });
    await fake.waitForBotMessage(token, bob.id, { predicate: (m) => m.text === 'Last stage' });
    await fake.waitForCallbackAnswer(token, onward.callback_query!.id);
    expect(fake.botMessages(token, bob.id).length).toBe(sentBefore + 1);
    expect((await personRow(funnel.id, bob.id)).stageId).toBe(stageIds[2]);

    const last = fake.botMessages(token, bob.id).find((m) => m.text === 'Last stage')!;
    const end = fake.pressButton(token, { from: bob, message_id: last.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[2]}` });
    const answer = await fake.waitForCallbackAnswer(token, end.callback_query!.id);
    expect(answer.text).toBe(END_OF_FUNNEL_TEXT.en);
    expect((await personRow(funnel.id, bob.id)).stageId).toBe(stageIds[2]);
    expect(fake.botMessages(token, bob.id).length).toBe(sentBefore + 1);
  });

  it('a press on a message from a stage the person has left moves nobody', async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    const cat = { id: 5003, first_name: 'Cat' };
    fake.sendUserMessage(token, { from: cat, text: '/start' });
    const first = await fake.waitForBotMessage(token, cat.id);
    // /start again: a second copy of stage 1, then move on from the second copy.
    fake.sendUserMessage(token, { from: cat, text: '/start' });
    const again = await fake.waitForBotMessage(token, cat.id);
    const data = `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[0]}`;
    fake.pressButton(token, { from: cat, message_id: again.message_id, callback_data: data });
    await fake.waitForBotMessage(token, cat.id, { predicate: (m) => m.text === 'Stage two: the offer' });
    await eventually(() => personRow(funnel.id, cat.id), (row) => row.stageId === stageIds[1], 'stage 2');
    // The first copy still shows its next-step button; pressing it now does nothing but answer.
    const stale = fake.pressButton(token, { from: cat, message_id: first.message_id, callback_data: data });
    await fake.waitForCallbackAnswer(token, stale.callback_query!.id);
    // The press is fully handled once the bot waits in a poll for the updates after it.
    await pollingPastEverything(fake, token);
    expect(fake.botMessages(token, cat.id).filter((m) => m.text === 'Stage two: the offer')).toHaveLength(1);
    expect((await personRow(funnel.id, cat.id)).stageId).toBe(stageIds[1]);
  });

  it('a photo is uploaded the first time and sent by its file_id after that', async () => {
    const { token, mediaIds } = await runningFunnel([{ text: 'A <i>picture</i>', photo: TINY_PNG, next: null }]);
    await start(testRuntime(testDb.db, fake.url));
    const dan = { id: 5004, first_name: 'Dan' };
    const eve = { id: 5005, first_name: 'Eve' };
    fake.sendUserMessage(token, { from: dan, text: '/start' });
    const toDan = await fake.waitForBotMessage(token, dan.id);
    expect(toDan.photo?.length).toBeGreaterThan(0);
    expect(toDan.caption).toBe('A picture');
    fake.sendUserMessage(token, { from: eve, text: '/start' });
    const toEve = await fake.waitForBotMessage(token, eve.id);
    const calls = await eventually(async () => fake.calls(token, 'sendPhoto'), (c) => c.length === 2, 'two sendPhoto calls');
    // grammY uploads as multipart with the file in its own part ("attach://…").
    expect(String(calls[0].params.photo)).toMatch(/^attach:\/\//);
    const fileId = toDan.photo!.at(-1)!.file_id;
    expect(calls[1].params.photo).toBe(fileId);
    expect(toEve.photo!.at(-1)!.file_id).toBe(fileId);
    const [row] = await testDb.db.orm.select().from(media).where(eq(media.id, mediaIds[0]!));
    expect(row.telegramFileId).toBe(fileId);
  });

  async function editableFunnel() {
    const { funnel, token, stageIds } = await runningFunnel([{ text: 'Old welcome', next: null }]);
    const runtime = testRuntime(testDb.db, fake.url);
    await start(runtime);
    let next = 5101 + counter * 100;
    const startAs = async () => {
      const id = next++;
      fake.sendUserMessage(token, { from: { id, first_name: 'Dee' }, text: '/start' });
      return (await fake.waitForBotMessage(token, id)).text;
    };
    const edit = (text: string) =>
      testDb.db.orm.update(stages).set({ message: { text, media_id: null, buttons: [], next_button: null } }).where(eq(stages.id, stageIds[0]));
    expect(await startAs()).toBe('Old welcome');
    return { runtime, funnelId: funnel.id, startAs, edit };
  }

  it('an edited stage message reaches the next subscriber at once when the API says so', async () => {
    const { runtime, funnelId, startAs, edit } = await editableFunnel();
    // Saved through this process's API: the API tells the runtime, and the next /start has it.
    await edit('New <b>welcome</b>');
    runtime.stagesChanged(funnelId);
    expect(await startAs()).toBe('New welcome');
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'an edited stage message reaches the next subscriber within about a second when another process edits it (PostgreSQL only: PGlite is one process, no other can edit)',
    async () => {
      const { startAs, edit } = await editableFunnel();
      await edit('Third welcome');
      await eventually(startAs, (text) => text === 'Third welcome', 'the edited stage sent', STAGE_CACHE_MS * 3);
    },
  );

  it('publishes its timing points: the update received, then the reply handed to the network (what bench:bots times)', async () => {
    const { funnel, token } = await runningFunnel([{ text: 'Hello', next: null }]);
    await start(testRuntime(testDb.db, fake.url));
    const seen: string[] = [];
    const onReceived = (m: unknown) => {
      const r = m as UpdateReceived;
      if (r.botId === funnel.botId) seen.push(`received ${r.chatId}`);
    };
    const onSent = (m: unknown) => {
      const c = m as BotApiCallSent;
      if (c.botId === funnel.botId && c.method === 'sendMessage') seen.push(`sent ${String(c.chatId)}`);
    };
    updateReceived.subscribe(onReceived);
    botApiCallSent.subscribe(onSent);
    try {
      fake.sendUserMessage(token, { from: { id: 5151, first_name: 'Gil' }, text: '/start' });
      await fake.waitForBotMessage(token, 5151);
      expect(seen).toEqual(['received 5151', 'sent 5151']);
    } finally {
      updateReceived.unsubscribe(onReceived);
      botApiCallSent.unsubscribe(onSent);
    }
  });

  it('text the person writes goes into their history', async () => {
    const { funnel, token } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    const fay = { id: 5006, first_name: 'Fay' };
    fake.sendUserMessage(token, { from: fay, text: '/start' });
    await fake.waitForBotMessage(token, fay.id);
    fake.sendUserMessage(token, { from: fay, text: 'How much is it?' });
    fake.sendUserMessage(token, { from: fay, text: '/help' });
    const person = await personRow(funnel.id, fay.id);
    const history = await eventually(
      () => testDb.db.orm.select().from(personEvents).where(eq(personEvents.personId, person.id)).orderBy(personEvents.id),
      (rows) => rows.length === 4,
      'four history entries',
    );
    expect(history.slice(2)).toMatchObject([
      { direction: 'in', kind: 'text', text: 'How much is it?' },
      { direction: 'in', kind: 'command', text: '/help' },
    ]);
  });
});

describe("one bot's trouble stays with that bot", () => {
  it('403: the person is marked blocked, and unmarked when they write again', async () => {
    const { funnel, token } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    const gus = { id: 5101, first_name: 'Gus' };
    fake.sendUserMessage(token, { from: gus, text: '/start' });
    await fake.waitForBotMessage(token, gus.id);
    // Blocked between two messages: Telegram answers 403 to the next send.
    fake.failNextCalls(token, { count: 1, error_code: 403, description: 'Forbidden: bot was blocked by the user', methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: gus, text: '/start' });
    await eventually(() => personRow(funnel.id, gus.id), (row) => row.blocked, 'the person marked blocked');
    expect(fake.calls(token, 'sendMessage').filter((c) => c.ok)).toHaveLength(1);
    const person = await personRow(funnel.id, gus.id);
    const outgoing = await testDb.db.orm
      .select()
      .from(personEvents)
      .where(and(eq(personEvents.personId, person.id), eq(personEvents.direction, 'out')));
    expect(outgoing).toHaveLength(1);

    // Blocking in the app (my_chat_member) marks them too; writing again clears the mark.
    fake.sendUserMessage(token, { from: gus, text: '/start' });
    await fake.waitForBotMessage(token, gus.id);
    expect((await personRow(funnel.id, gus.id)).blocked).toBe(false);
    fake.setBlocked(token, gus.id, true);
    await eventually(() => personRow(funnel.id, gus.id), (row) => row.blocked, 'blocked by my_chat_member');
    fake.sendUserMessage(token, { from: gus, text: '/start' });
    await fake.waitForBotMessage(token, gus.id);
    expect((await personRow(funnel.id, gus.id)).blocked).toBe(false);
  });

  it('401: only that funnel stops, with stop_reason token_revoked; the others go on', async () => {
    const revoked = await runningFunnel();
    const healthy = await runningFunnel();
    const runtime = testRuntime(testDb.db, fake.url);
    await start(runtime);
    expect(runtime.runningFunnelIds()).toEqual(expect.arrayContaining([revoked.funnel.id, healthy.funnel.id]));
    fake.revokeToken(revoked.token);
    const [row] = await eventually(
      () => testDb.db.orm.select().from(funnels).where(eq(funnels.id, revoked.funnel.id)),
      (rows) => rows[0].state === 'stopped',
      'the funnel stopped',
    );
    expect(row.stopReason).toBe('token_revoked');
    expect(runtime.runningFunnelIds()).not.toContain(revoked.funnel.id);
    const hal = { id: 5102, first_name: 'Hal' };
    fake.sendUserMessage(healthy.token, { from: hal, text: '/start' });
    expect((await fake.waitForBotMessage(healthy.token, hal.id)).text).toBe('Welcome! Here is the guide.');
    const [other] = await testDb.db.orm.select().from(funnels).where(eq(funnels.id, healthy.funnel.id));
    expect(other).toMatchObject({ state: 'running', stopReason: null });
  });

  it('401 while answering an update stops the funnel too', async () => {
    const { funnel, token } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    fake.failNextCalls(token, { count: 1, error_code: 401, description: 'Unauthorized', methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: { id: 5103, first_name: 'Ida' }, text: '/start' });
    await eventually(
      () => testDb.db.orm.select().from(funnels).where(eq(funnels.id, funnel.id)),
      (rows) => rows[0].state === 'stopped' && rows[0].stopReason === 'token_revoked',
      'the funnel stopped',
    );
  });

  it("Telegram's 5xx: a reply is retried past SEND_RETRY_DELAYS_MS until it is replyGiveUpMs old, then given up: failed, logged, shown", async () => {
    const { funnel, token } = await runningFunnel([{ text: 'Hello', next: null }]);
    const log = recordingLog();
    const giveUpMs = 400;
    await start(testRuntime(testDb.db, fake.url, { log, sendRetryDelaysMs: FAST_RETRIES, replyGiveUpMs: giveUpMs }));
    fake.failNextCalls(token, { count: 1000, error_code: 500, description: 'Internal Server Error', methods: ['sendMessage'] });
    const sentAt = Date.now();
    fake.sendUserMessage(token, { from: { id: 5201, first_name: 'Ivy' }, text: '/start' });
    // The positive signal: the update's handler gave up and said so.
    await until(() => log.errors.some((line) => line.includes('sendMessage answered 500')), 'the give-up logged');
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(giveUpMs - FAST_RETRIES[0]);
    const attempts = fake.calls(token, 'sendMessage');
    // More than the fixed retries of old: it kept trying for as long as it was allowed.
    expect(attempts.length).toBeGreaterThan(SEND_RETRY_DELAYS_MS.length + 1);
    expect(attempts.every((c) => c.error_code === 500)).toBe(true);
    const rows = await eventually(
      () => testDb.db.orm.select({ state: outbox.state, error: outbox.error }).from(outbox).where(eq(outbox.funnelId, funnel.id)),
      (list) => list.length === 1 && list[0].state === 'failed',
      'the reply recorded failed',
    );
    expect(rows[0].error).toBe('500 Internal Server Error');
  });

  it("Telegram's 5xx: a bot stopped while a reply waits to be retried stops at once, without another attempt", async () => {
    const { funnel, token } = await runningFunnel([{ text: 'Hello', next: null }]);
    // A wait far longer than the test may take: only the stop can end it.
    const runtime = testRuntime(testDb.db, fake.url, { sendRetryDelaysMs: [10 * 60_000] });
    await start(runtime);
    fake.failNextCalls(token, { count: 5, error_code: 502, description: 'Bad Gateway', methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: { id: 5204, first_name: 'Lou' }, text: '/start' });
    await fake.waitForCall(token, 'sendMessage', { predicate: (c) => c.error_code === 502 });
    await setFunnelState(testDb.db, funnel.id, 'stopped');
    await runtime.sync(funnel.id); // resolves once the bot has stopped, and its update with it
    expect(runtime.runningFunnelIds()).not.toContain(funnel.id);
    expect(fake.calls(token, 'sendMessage').map((c) => c.error_code)).toEqual([502]);
    expect(fake.botState(token).injected_failures).toBe(4);
  });

  it(`429 again and again: auto-retry waits retry_after ${MAX_API_RETRIES} times, then the reply is given up, not retried as a 5xx`, async () => {
    const { token } = await runningFunnel([{ text: 'Hello', next: null }]);
    const log = recordingLog();
    await start(testRuntime(testDb.db, fake.url, { log, sendRetryDelaysMs: FAST_RETRIES }));
    fake.rateLimit(token, { calls: 20, retryAfter: 0, methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: { id: 5205, first_name: 'Mo' }, text: '/start' });
    await until(() => log.errors.some((line) => line.includes('sendMessage answered 429')), 'the give-up logged');
    expect(fake.calls(token, 'sendMessage').map((c) => c.error_code)).toEqual(Array(MAX_API_RETRIES + 1).fill(429));
    expect(fake.botState(token).injected_failures).toBe(20 - (MAX_API_RETRIES + 1));
  });

  it("Telegram's 5xx: a reply that fails twice is delivered on the third attempt", async () => {
    const { token } = await runningFunnel([{ text: 'Hello', next: null }]);
    await start(testRuntime(testDb.db, fake.url, { sendRetryDelaysMs: FAST_RETRIES }));
    fake.failNextCalls(token, { count: 2, error_code: 502, description: 'Bad Gateway', methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: { id: 5202, first_name: 'Jay' }, text: '/start' });
    expect((await fake.waitForBotMessage(token, 5202)).text).toBe('Hello');
    // The fake records a call once it has answered it, just after the message appears.
    await eventually(() => fake.calls(token, 'sendMessage').map((c) => c.ok).join(), (oks) => oks === 'false,false,true', 'two refused then a delivered sendMessage');
  });

  it('429: waits retry_after for that bot, then delivers; another bot is not held up', async () => {
    const slow = await runningFunnel();
    const other = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    fake.rateLimit(slow.token, { calls: 1, retryAfter: 2, methods: ['sendMessage'] });
    const jon = { id: 5104, first_name: 'Jon' };
    const sentAt = Date.now();
    fake.sendUserMessage(slow.token, { from: jon, text: '/start' });
    fake.sendUserMessage(other.token, { from: jon, text: '/start' });
    await fake.waitForBotMessage(other.token, jon.id);
    // The other bot answered while the slow one still waits out its 429.
    expect(fake.botMessages(slow.token, jon.id)).toHaveLength(0);
    await fake.waitForBotMessage(slow.token, jon.id, { timeoutMs: 8000 });
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1950);
    await eventually(async () => fake.calls(slow.token, 'sendMessage').map((c) => c.ok), (oks) => oks.join() === 'false,true', 'a refused then a delivered sendMessage');
  });

  it('429 with a retry_after above MAX_RATE_LIMIT_WAIT_S: given up at once, not retried as a transient failure', async () => {
    const { token } = await runningFunnel([{ text: 'Hello', next: null }]);
    const log = recordingLog();
    await start(testRuntime(testDb.db, fake.url, { log, sendRetryDelaysMs: FAST_RETRIES }));
    fake.rateLimit(token, { calls: 5, retryAfter: MAX_RATE_LIMIT_WAIT_S + 1, methods: ['sendMessage'] });
    fake.sendUserMessage(token, { from: { id: 5203, first_name: 'Kit' }, text: '/start' });
    await until(() => log.errors.some((line) => line.includes('sendMessage answered 429')), 'the give-up logged');
    expect(fake.calls(token, 'sendMessage')).toHaveLength(1);
  });

  it('network trouble: getUpdates failures are retried with backoff and nothing crashes', async () => {
    const { token } = await runningFunnel();
    await start(testRuntime(testDb.db, fake.url));
    await fake.waitForBotState(token, (s) => s.polling);
    fake.failNextCalls(token, { count: 2, error_code: 502, description: 'Bad Gateway', methods: ['getUpdates'] });
    // The waiting poll takes this one; the next two polls fail; then polling resumes.
    fake.sendUserMessage(token, { from: { id: 5105, first_name: 'Kim' }, text: '/start' });
    await fake.waitForBotMessage(token, 5105);
    await fake.waitForBotState(token, (s) => s.polling && s.injected_failures === 0);
    expect(fake.calls(token, 'getUpdates').filter((c) => !c.ok).map((c) => c.error_code)).toEqual([502, 502]);
    // Polling goes on after them: a later message is answered.
    fake.sendUserMessage(token, { from: { id: 5106, first_name: 'Lee' }, text: '/start' });
    expect((await fake.waitForBotMessage(token, 5106)).text).toBe('Welcome! Here is the guide.');
  });
});
