// Branches in the bot runtime, through the fake Bot API: choice buttons (sent as go:<from>:<to>,
// a press moves the person once, however often it is pressed; a press on an old message moves
// nobody) and keywords (whole words in any case, Russian and English; other text goes to the
// inbox as before). Each move is in the person's history and in stage_moves (from /start's own,
// which places them in the first stage).
import { and, asc, eq } from 'drizzle-orm';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHOICE_CALLBACK_PREFIX } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { funnelKeywords, people, personEvents, personTags, stageMoves, stageReaches } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { createFunnel, createOwner, pollingPastEverything, recordingLog, testRuntime, type StageSpec } from '../../test/funnel-runtime';
import { createTestDb, type TestDb } from '../../test/helpers';
import { matchKeyword } from './behaviours/keyword';
import type { FunnelRuntime } from './runtime';

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

const BRANCHING: StageSpec[] = [
  { title: 'Choose', text: 'Which course?', next: null, choices: [{ text: 'Basic', to: 1 }, { text: 'Pro', to: 2 }] },
  { title: 'Basic', text: 'Basic course: 10 lessons', next: null, tag: 'basic' },
  { title: 'Pro', text: 'Pro course: 30 lessons', next: null, tag: 'pro' },
];

async function runningFunnel(stageSpecs: StageSpec[] = BRANCHING) {
  counter += 1;
  const bot = fake.addBot({ username: `branch${counter}_bot` });
  const made = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs });
  const log = recordingLog();
  const runtime = testRuntime(testDb.db, fake.url, { log });
  runtimes.push(runtime);
  await runtime.start();
  return { ...made, token: bot.token, log };
}

const keyboardOf = (message: Message) => (message.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard ?? [];

async function personRow(funnelId: number, telegramId: number) {
  const [row] = await testDb.db.orm
    .select()
    .from(people)
    .where(and(eq(people.funnelId, funnelId), eq(people.telegramId, telegramId)));
  return row;
}

const historyOf = (personId: number) =>
  testDb.db.orm.select({ kind: personEvents.kind, text: personEvents.text }).from(personEvents).where(eq(personEvents.personId, personId)).orderBy(asc(personEvents.id));
const movesOf = (personId: number) =>
  testDb.db.orm
    .select({ from: stageMoves.fromStageId, to: stageMoves.toStageId, via: stageMoves.via, label: stageMoves.label })
    .from(stageMoves)
    .where(eq(stageMoves.personId, personId))
    .orderBy(asc(stageMoves.id));

describe('choice buttons', () => {
  it('are sent as buttons; a press moves the person to its stage once, tags them and records the choice, however often it is pressed', async () => {
    const { funnel, token, stageIds, tagIds, log } = await runningFunnel();
    const ann = { id: 7001, first_name: 'Ann' };
    fake.sendUserMessage(token, { from: ann, text: '/start' });
    const first = await fake.waitForBotMessage(token, ann.id);
    const pro = `${CHOICE_CALLBACK_PREFIX}${stageIds[0]}:${stageIds[2]}`;
    expect(keyboardOf(first)).toEqual([[{ text: 'Basic', callback_data: `${CHOICE_CALLBACK_PREFIX}${stageIds[0]}:${stageIds[1]}` }], [{ text: 'Pro', callback_data: pro }]]);

    // Pressed twice in a row (before the first is answered): one move, one message.
    const press = fake.pressButton(token, { from: ann, message_id: first.message_id, callback_data: pro });
    const again = fake.pressButton(token, { from: ann, message_id: first.message_id, callback_data: pro });
    await fake.waitForBotMessage(token, ann.id, { predicate: (m) => m.text === 'Pro course: 30 lessons' });
    await fake.waitForCallbackAnswer(token, press.callback_query!.id);
    await fake.waitForCallbackAnswer(token, again.callback_query!.id);
    await pollingPastEverything(fake, token);
    expect(fake.botMessages(token, ann.id).map((m) => m.text)).toEqual(['Which course?', 'Pro course: 30 lessons']);

    const person = await personRow(funnel.id, ann.id);
    expect(person.stageId).toBe(stageIds[2]);
    const tags = await testDb.db.orm.select({ tagId: personTags.tagId }).from(personTags).where(eq(personTags.personId, person.id));
    expect(tags).toEqual([{ tagId: tagIds[2] }]);
    const reached = await testDb.db.orm.select({ stageId: stageReaches.stageId }).from(stageReaches).where(eq(stageReaches.personId, person.id));
    expect(reached.map((r) => r.stageId).sort()).toEqual([stageIds[0], stageIds[2]].sort());
    const history = await eventually(() => historyOf(person.id), (rows) => rows.length === 4, 'the history of /start and the press');
    expect(history).toEqual([
      { kind: 'command', text: '/start' },
      { kind: 'stage_message', text: 'Which course?' },
      { kind: 'button', text: 'Pro' },
      { kind: 'stage_message', text: 'Pro course: 30 lessons' },
    ]);
    expect(await movesOf(person.id)).toEqual([
      { from: null, to: stageIds[0], via: 'start', label: '' },
      { from: stageIds[0], to: stageIds[2], via: 'choice', label: 'Pro' },
    ]);
    expect(log.errors).toEqual([]);
  });

  it('a press on an old message (the person has moved on) moves nobody and is only answered', async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    const bob = { id: 7002, first_name: 'Bob' };
    fake.sendUserMessage(token, { from: bob, text: '/start' });
    const first = await fake.waitForBotMessage(token, bob.id);
    fake.pressButton(token, { from: bob, message_id: first.message_id, callback_data: `${CHOICE_CALLBACK_PREFIX}${stageIds[0]}:${stageIds[1]}` });
    await fake.waitForBotMessage(token, bob.id, { predicate: (m) => m.text === 'Basic course: 10 lessons' });
    await eventually(() => personRow(funnel.id, bob.id), (row) => row.stageId === stageIds[1], 'the move to Basic');

    const late = fake.pressButton(token, { from: bob, message_id: first.message_id, callback_data: `${CHOICE_CALLBACK_PREFIX}${stageIds[0]}:${stageIds[2]}` });
    await fake.waitForCallbackAnswer(token, late.callback_query!.id);
    await pollingPastEverything(fake, token);
    expect(fake.botMessages(token, bob.id).map((m) => m.text)).toEqual(['Which course?', 'Basic course: 10 lessons']);
    const person = await personRow(funnel.id, bob.id);
    expect(person.stageId).toBe(stageIds[1]);
    expect(await movesOf(person.id)).toEqual([
      { from: null, to: stageIds[0], via: 'start', label: '' },
      { from: stageIds[0], to: stageIds[1], via: 'choice', label: 'Basic' },
    ]);
  });
});

describe('keywords', () => {
  it('match whole words in any case, Russian and English, and a phrase of several words', () => {
    const keywords = [
      { phrase: 'цена', stageId: 1 },
      { phrase: 'price list', stageId: 2 },
    ];
    expect(matchKeyword(keywords, 'Какая цена?')?.stageId).toBe(1);
    expect(matchKeyword(keywords, 'ЦЕНА')?.stageId).toBe(1);
    expect(matchKeyword(keywords, 'Что с ценами')).toBeUndefined();
    expect(matchKeyword(keywords, 'бесценная')).toBeUndefined();
    expect(matchKeyword(keywords, 'Send the PRICE   list, please')?.stageId).toBe(2);
    expect(matchKeyword(keywords, 'pricelist')).toBeUndefined();
  });

  it('a message with a keyword moves the person to its stage and answers with its message; other text goes to the inbox', async () => {
    const { funnel, token, stageIds, tagIds, log } = await runningFunnel();
    await testDb.db.orm.insert(funnelKeywords).values([
      { funnelId: funnel.id, phrase: 'цена', stageId: stageIds[2] },
      { funnelId: funnel.id, phrase: 'basic', stageId: stageIds[1] },
    ]);
    const cat = { id: 7003, first_name: 'Кат' };
    fake.sendUserMessage(token, { from: cat, text: '/start' });
    await fake.waitForBotMessage(token, cat.id);

    // Not a whole word: the inbox, as any text.
    fake.sendUserMessage(token, { from: cat, text: 'Что с ценами?' });
    const afterFirst = await eventually(() => personRow(funnel.id, cat.id), (row) => row.unreadCount === 1, 'the text in the inbox');
    expect(afterFirst.stageId).toBe(stageIds[0]);

    fake.sendUserMessage(token, { from: cat, text: 'Какая ЦЕНА?' });
    await fake.waitForBotMessage(token, cat.id, { predicate: (m) => m.text === 'Pro course: 30 lessons' });
    const moved = await eventually(() => personRow(funnel.id, cat.id), (row) => row.stageId === stageIds[2], 'the move to Pro');
    expect(moved.unreadCount).toBe(1); // the bot answered it: not one more unread
    const tags = await testDb.db.orm.select({ tagId: personTags.tagId }).from(personTags).where(eq(personTags.personId, moved.id));
    expect(tags).toEqual([{ tagId: tagIds[2] }]);

    fake.sendUserMessage(token, { from: cat, text: 'I want basic.' });
    await fake.waitForBotMessage(token, cat.id, { predicate: (m) => m.text === 'Basic course: 10 lessons' });
    await eventually(() => personRow(funnel.id, cat.id), (row) => row.stageId === stageIds[1], 'the move to Basic');

    const history = await eventually(() => historyOf(moved.id), (rows) => rows.length === 7, 'the whole history');
    expect(history).toEqual([
      { kind: 'command', text: '/start' },
      { kind: 'stage_message', text: 'Which course?' },
      { kind: 'text', text: 'Что с ценами?' },
      { kind: 'text', text: 'Какая ЦЕНА?' },
      { kind: 'stage_message', text: 'Pro course: 30 lessons' },
      { kind: 'text', text: 'I want basic.' },
      { kind: 'stage_message', text: 'Basic course: 10 lessons' },
    ]);
    expect(await movesOf(moved.id)).toEqual([
      { from: null, to: stageIds[0], via: 'start', label: '' },
      { from: stageIds[0], to: stageIds[2], via: 'keyword', label: 'цена' },
      { from: stageIds[2], to: stageIds[1], via: 'keyword', label: 'basic' },
    ]);
    expect(log.errors).toEqual([]);
  });

  it('a keyword of the stage the person is in already moves nobody: the text goes to the inbox', async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    await testDb.db.orm.insert(funnelKeywords).values({ funnelId: funnel.id, phrase: 'hello', stageId: stageIds[0] });
    const dan = { id: 7004, first_name: 'Dan' };
    fake.sendUserMessage(token, { from: dan, text: '/start' });
    await fake.waitForBotMessage(token, dan.id);
    fake.sendUserMessage(token, { from: dan, text: 'Hello!' });
    const person = await eventually(() => personRow(funnel.id, dan.id), (row) => row.unreadCount === 1, 'the text in the inbox');
    await pollingPastEverything(fake, token);
    expect(fake.botMessages(token, dan.id)).toHaveLength(1);
    expect(await movesOf(person.id)).toEqual([{ from: null, to: stageIds[0], via: 'start', label: '' }]);
  });
});
