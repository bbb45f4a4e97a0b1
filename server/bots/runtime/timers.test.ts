// Stages' waits through the fake Bot API (issue 24, "Wait"): /start places a person in a stage
// that waits, the test clock moves their timer past its moment, and the delivery engine moves them
// on, once, with the next stage's message and its buttons as the runtime sends them. A timer is
// cancelled when the person moves on, blocks the bot, or (if it waits for silence) writes or
// presses anything; a move into a silent stage keeps that stage's new timer.
import { and, asc, eq } from 'drizzle-orm';
import type { InlineKeyboardMarkup, Message } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_STEP_CALLBACK_PREFIX } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { people, personEvents, personTags, personTimers, stageMoves, stages } from '../../db/schema';
import { createTestClock } from '../../letters/test-clock';
import type { OutboxSender } from '../../outbox/engine';
import { TimerScheduler } from '../../outbox/timer-scheduler';
import { eventually } from '../../test/eventually';
import { createFunnel, createOwner, pollingPastEverything, recordingLog, testRuntime, type StageSpec } from '../../test/funnel-runtime';
import { createTestDb, type TestDb } from '../../test/helpers';
import { testOutboxSender } from '../../test/mailings';
import type { FunnelRuntime } from './runtime';

let fake: FakeBotApi;
let testDb: TestDb;
let counter = 0;
const running: Array<FunnelRuntime | OutboxSender> = [];

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await fake?.close();
  await testDb?.drop();
});

const HOUR = 3_600;

/** Welcome waits 2 hours, then moves the person to Reminder; Next moves them to Pricing. */
const WAITING: StageSpec[] = [
  { title: 'Welcome', text: 'Hello {first_name}!', next: 'Tell me more', wait: { amount: 2, unit: 'hours', to: 2 } },
  { title: 'Pricing', text: 'It costs 10 Stars', next: null },
  { title: 'Reminder', text: 'Still there, {first_name}?', next: 'Yes', tag: 'reminded' },
  { title: 'Last', text: 'Glad you are here', next: null },
];

type MadeFunnel = Awaited<ReturnType<typeof createFunnel>>;

async function runningFunnel(stageSpecs: StageSpec[] = WAITING, { engine = true, prepare }: { engine?: boolean; prepare?: (made: MadeFunnel) => Promise<void> } = {}) {
  counter += 1;
  const bot = fake.addBot({ username: `wait${counter}_bot` });
  // An owner per funnel: the test clock moves all of an owner's timers.
  const ownerId = await createOwner(testDb.db);
  /** "That much time passes" for the owner's timers (the test clock's own statement). */
  const advance = (seconds: number) => createTestClock({ db: testDb.db }).advance(ownerId, seconds);
  const made = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs });
  await prepare?.(made);
  const log = recordingLog();
  const runtime = testRuntime(testDb.db, fake.url, { log });
  running.push(runtime);
  await runtime.start();
  if (engine) {
    const sender = testOutboxSender(testDb.db, fake.url);
    running.push(sender);
    await sender.start();
  }
  return { ...made, token: bot.token, log, advance };
}

const keyboardOf = (message: Message) => (message.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard ?? [];

async function personRow(funnelId: number, telegramId: number) {
  const [row] = await testDb.db.orm
    .select()
    .from(people)
    .where(and(eq(people.funnelId, funnelId), eq(people.telegramId, telegramId)));
  return row;
}

const timersOf = (personId: number) =>
  testDb.db.orm
    .select({ stageId: personTimers.stageId, toStageId: personTimers.toStageId, state: personTimers.state, onlyIfSilent: personTimers.onlyIfSilent })
    .from(personTimers)
    .where(eq(personTimers.personId, personId))
    .orderBy(asc(personTimers.id));

/** /start, and the person once their first stage's message came and their row is there. */
async function started(funnelId: number, token: string, user: { id: number; first_name: string }) {
  fake.sendUserMessage(token, { from: user, text: '/start' });
  const first = await fake.waitForBotMessage(token, user.id);
  const person = await eventually(() => personRow(funnelId, user.id), (row) => row !== undefined, 'the person');
  return { first, person };
}

describe('a stage that waits', () => {
  it("moves the person on once its time comes: the next stage's message with its buttons, reach, tag, and the move via 'timer'", async () => {
    const { funnel, token, stageIds, advance, tagIds, log } = await runningFunnel();
    const ann = { id: 9001, first_name: 'Ann' };
    const { person } = await started(funnel.id, token, ann);
    // /start placed her in Welcome: a move, whose trigger made Welcome's timer (due in 2 hours).
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[0], toStageId: stageIds[2], state: 'waiting', onlyIfSilent: false }]);
    const [timer] = await testDb.db.orm.select().from(personTimers).where(eq(personTimers.personId, person.id));
    expect(timer.dueAt.getTime() - timer.createdAt.getTime()).toBe(2 * HOUR * 1000);

    await advance(2 * HOUR);
    const reminder = await fake.waitForBotMessage(token, ann.id, { predicate: (m) => m.text === 'Still there, Ann?' });
    // The same keyboard the runtime sends: the next-step button of the stage it was sent from.
    expect(keyboardOf(reminder)).toEqual([[{ text: 'Yes', callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[2]}` }]]);
    await eventually(() => timersOf(person.id), (rows) => rows[0]?.state === 'fired', 'the timer fired');
    expect((await personRow(funnel.id, ann.id)).stageId).toBe(stageIds[2]);
    const moves = await testDb.db.orm.select({ from: stageMoves.fromStageId, to: stageMoves.toStageId, via: stageMoves.via }).from(stageMoves).where(eq(stageMoves.personId, person.id)).orderBy(asc(stageMoves.id));
    expect(moves).toEqual([
      { from: null, to: stageIds[0], via: 'start' },
      { from: stageIds[0], to: stageIds[2], via: 'timer' },
    ]);
    const tags = await testDb.db.orm.select({ tagId: personTags.tagId }).from(personTags).where(eq(personTags.personId, person.id));
    expect(tags).toEqual([{ tagId: tagIds[2] }]);
    const history = await eventually(
      () => testDb.db.orm.select({ kind: personEvents.kind, text: personEvents.text, stageId: personEvents.stageId }).from(personEvents).where(eq(personEvents.personId, person.id)).orderBy(asc(personEvents.id)),
      (rows) => rows.length === 3,
      'the reminder in her history',
    );
    expect(history.at(-1)).toEqual({ kind: 'stage_message', text: 'Still there, Ann?', stageId: stageIds[2] });

    // Its button works as the runtime's own: pressed, it moves her on.
    fake.pressButton(token, { from: ann, message_id: reminder.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[2]}` });
    await fake.waitForBotMessage(token, ann.id, { predicate: (m) => m.text === 'Glad you are here' });

    // More ticks fire nothing more: she got the reminder once.
    await advance(10 * HOUR);
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 0, skipped: 0 });
    await pollingPastEverything(fake, token);
    expect(fake.botMessages(token, ann.id).map((m) => m.text)).toEqual(['Hello Ann!', 'Still there, Ann?', 'Glad you are here']);
    expect(log.errors).toEqual([]);
  });

  it('is cancelled when the person moves on before it: nothing fires later', async () => {
    const { funnel, token, stageIds, advance } = await runningFunnel(WAITING, { engine: false });
    const bob = { id: 9002, first_name: 'Bob' };
    const { first, person } = await started(funnel.id, token, bob);
    fake.pressButton(token, { from: bob, message_id: first.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[0]}` });
    await fake.waitForBotMessage(token, bob.id, { predicate: (m) => m.text === 'It costs 10 Stars' });
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[0], toStageId: stageIds[2], state: 'cancelled', onlyIfSilent: false }]);
    await advance(3 * HOUR);
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 0, skipped: 0 });
    expect((await personRow(funnel.id, bob.id)).stageId).toBe(stageIds[1]);
  });

  it('is cancelled when the person blocks the bot', async () => {
    const { funnel, token, stageIds, advance } = await runningFunnel(WAITING, { engine: false });
    const cat = { id: 9003, first_name: 'Cat' };
    const { person } = await started(funnel.id, token, cat);
    fake.setBlocked(token, cat.id, true);
    await eventually(() => timersOf(person.id), (rows) => rows[0]?.state === 'cancelled', 'the timer cancelled by the block');
    await advance(3 * HOUR);
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 0, skipped: 0 });
    expect((await personRow(funnel.id, cat.id)).stageId).toBe(stageIds[0]);
  });

  it('that waits for silence is cancelled when the person writes; one that does not is kept', async () => {
    const silent: StageSpec[] = [
      { title: 'Ask', text: 'Any questions?', next: null, wait: { amount: 30, unit: 'minutes', to: 1, onlyIfSilent: true } },
      { title: 'Nudge', text: 'No questions? Here is a link', next: null },
    ];
    const { funnel, token, stageIds } = await runningFunnel(silent, { engine: false });
    const dan = { id: 9004, first_name: 'Dan' };
    const { person } = await started(funnel.id, token, dan);
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[0], toStageId: stageIds[1], state: 'waiting', onlyIfSilent: true }]);
    fake.sendUserMessage(token, { from: dan, text: 'How much is it?' });
    await eventually(() => timersOf(person.id), (rows) => rows[0]?.state === 'cancelled', 'the silent timer cancelled by his message');

    const loud: StageSpec[] = [{ ...silent[0], wait: { amount: 30, unit: 'minutes', to: 1 } }, silent[1]];
    const other = await runningFunnel(loud, { engine: false });
    const eve = { id: 9005, first_name: 'Eve' };
    const { person: evePerson } = await started(other.funnel.id, other.token, eve);
    fake.sendUserMessage(other.token, { from: eve, text: 'How much is it?' });
    await eventually(() => personRow(other.funnel.id, eve.id), (row) => row.unreadCount === 1, 'her message in the inbox');
    expect(await timersOf(evePerson.id)).toEqual([{ stageId: other.stageIds[0], toStageId: other.stageIds[1], state: 'waiting', onlyIfSilent: false }]);
  });

  it('a press that moves the person into a stage waiting for silence keeps that stage\'s timer, which then fires', async () => {
    const specs: StageSpec[] = [
      { title: 'Start', text: 'Welcome', next: 'Go' },
      { title: 'Offer', text: 'Buy now?', next: null, wait: { amount: 1, unit: 'minutes', to: 2, onlyIfSilent: true } },
      { title: 'Later', text: 'Maybe later then', next: null },
    ];
    const { funnel, token, stageIds, advance } = await runningFunnel(specs);
    const fay = { id: 9006, first_name: 'Fay' };
    const { first, person } = await started(funnel.id, token, fay);
    expect(await timersOf(person.id)).toEqual([]);
    fake.pressButton(token, { from: fay, message_id: first.message_id, callback_data: `${NEXT_STEP_CALLBACK_PREFIX}${stageIds[0]}` });
    await fake.waitForBotMessage(token, fay.id, { predicate: (m) => m.text === 'Buy now?' });
    await eventually(() => personRow(funnel.id, fay.id), (row) => row.stageId === stageIds[1], 'the move to Offer');
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[1], toStageId: stageIds[2], state: 'waiting', onlyIfSilent: true }]);
    await advance(60);
    await fake.waitForBotMessage(token, fay.id, { predicate: (m) => m.text === 'Maybe later then' });
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[1], toStageId: stageIds[2], state: 'fired', onlyIfSilent: true }]);
  });

  it('whose target stage was deleted moves nobody: the timer is skipped', async () => {
    const { funnel, token, stageIds, advance } = await runningFunnel(WAITING, { engine: false });
    const gus = { id: 9007, first_name: 'Gus' };
    const { person } = await started(funnel.id, token, gus);
    await testDb.db.orm.delete(stages).where(eq(stages.id, stageIds[2]));
    await advance(2 * HOUR);
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 0, skipped: 1 });
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[0], toStageId: null, state: 'skipped', onlyIfSilent: false }]);
    expect((await personRow(funnel.id, gus.id)).stageId).toBe(stageIds[0]);
  });

  it("sends what any move's reply sends: a payment stage's invoice after its message, an asking stage's keyboard in the person's language", async () => {
    const paying = await runningFunnel(
      [
        { title: 'Welcome', text: 'Hello', next: null, wait: { amount: 1, unit: 'hours', to: 1 } },
        { title: 'Offer', text: 'Our course, {first_name}', next: null },
        { title: 'Paid', text: 'Thank you', next: null },
      ],
      {
        prepare: async ({ stageIds }) => {
          const payment = { title: 'Course', description: 'Ten lessons', amount: 50, paid_stage_id: stageIds[2], refund_stage_id: null };
          await testDb.db.query('update stages set payment = $2 where id = $1', [stageIds[1], payment]);
        },
      },
    );
    const asking = await runningFunnel(
      [
        { title: 'Welcome', text: 'Hello', next: null, wait: { amount: 1, unit: 'hours', to: 1 } },
        { title: 'Phone', text: 'Your phone, please', next: null },
        { title: 'Done', text: 'Got it', next: null },
      ],
      {
        prepare: async ({ funnel, stageIds }) => {
          const [field] = await testDb.db.query<{ id: number }>(
            `insert into funnel_fields (funnel_id, key, title, kind) values ($1, 'phone', 'Phone', 'phone') returning id`,
            [funnel.id],
          );
          await testDb.db.query('update stages set ask = $2 where id = $1', [stageIds[1], { field_id: field.id, reask_text: 'Tap the button' }]);
        },
      },
    );
    const hal = { id: 9008, first_name: 'Hal' };
    const ira = { id: 9009, first_name: 'Ira', language_code: 'ru' };
    await started(paying.funnel.id, paying.token, hal);
    await started(asking.funnel.id, asking.token, ira);

    await paying.advance(HOUR);
    await asking.advance(HOUR);
    const invoice = await fake.waitForBotMessage(paying.token, hal.id, { predicate: (m) => m.invoice !== undefined });
    expect(invoice.invoice).toMatchObject({ title: 'Course', description: 'Ten lessons', currency: 'XTR', total_amount: 50 });
    expect(fake.botMessages(paying.token, hal.id).map((m) => m.text ?? m.invoice?.title)).toEqual(['Hello', 'Our course, Hal', 'Course']);
    // The invoice can be paid: it moves Hal to Paid, as any payment does.
    expect(await fake.payInvoiceMessage({ token: paying.token, chatId: hal.id, messageId: invoice.message_id })).toMatchObject({ status: 'paid' });
    await fake.waitForBotMessage(paying.token, hal.id, { predicate: (m) => m.text === 'Thank you' });

    await fake.waitForBotMessage(asking.token, ira.id, { predicate: (m) => m.text === 'Your phone, please' });
    expect(fake.chatSnapshot(asking.token, ira.id).reply_keyboard).toMatchObject({ keyboard: [[{ text: '📱 Поделиться номером', request_contact: true }]] });
  });

  it("of a stopped funnel waits while it is stopped, and fires once it runs again", async () => {
    const { funnel, token, stageIds, advance } = await runningFunnel(WAITING, { engine: false });
    const joy = { id: 9010, first_name: 'Joy' };
    const { person } = await started(funnel.id, token, joy);
    await testDb.db.query(`update funnels set state = 'stopped' where id = $1`, [funnel.id]);
    await advance(2 * HOUR);
    // Due, but its funnel is stopped: nothing is fired, moved or skipped.
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 0, skipped: 0 });
    expect(await timersOf(person.id)).toEqual([{ stageId: stageIds[0], toStageId: stageIds[2], state: 'waiting', onlyIfSilent: false }]);
    expect((await personRow(funnel.id, joy.id)).stageId).toBe(stageIds[0]);
    await testDb.db.query(`update funnels set state = 'running' where id = $1`, [funnel.id]);
    expect(await new TimerScheduler(testDb.db).tick()).toEqual({ fired: 1, skipped: 0 });
    expect((await personRow(funnel.id, joy.id)).stageId).toBe(stageIds[2]);
  });
});
