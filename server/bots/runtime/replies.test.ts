// Replies through the outbox: a /start's reply is an outbox row written with the claim (as being
// sent: the bot's rate slot was taken first) and sent by the runtime; replies a dead runtime left are taken over: waiting ones are sent (a person's
// oldest first, before anything newer of theirs), ones that were on the wire become unknown and
// are never sent again; a live runtime's replies are left alone.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { Params } from '../../../scripts/telegram/fake-bot-api/request-body';
import { outbox, people, personEvents } from '../../db/schema';
import { createTestDb, type TestDb } from '../../test/helpers';
import { createFunnel, createOwner, testRuntime } from '../../test/funnel-runtime';
import { eventually } from '../../test/eventually';
import type { FunnelRuntime } from './runtime';
import { createRuntimeStore, type RuntimeStage } from './store';

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

async function runningFunnel() {
  counter += 1;
  const bot = fake.addBot({ username: `replies${counter}_bot` });
  const made = await createFunnel(testDb.db, {
    ownerId,
    token: bot.token,
    username: bot.username,
    stageSpecs: [{ text: 'One, {first_name}', next: 'Go on' }, { text: 'Two' }, { text: '' }],
  });
  return { ...made, token: bot.token };
}

const profile = (id: number, first_name = `P${id}`) => ({ id, first_name });

async function repliesOf(funnelId: number) {
  return testDb.db.orm
    .select({ id: outbox.id, personId: outbox.personId, state: outbox.state, stageId: outbox.stageId, owner: outbox.owner, messageId: outbox.telegramMessageId })
    .from(outbox)
    .where(and(eq(outbox.funnelId, funnelId), eq(outbox.reply, true)))
    .orderBy(outbox.id);
}

describe('replies through the outbox', () => {
  it('a /start writes its reply with the claim, and the runtime sends it and records it with the history', async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    const runtime = testRuntime(testDb.db, fake.url);
    runtimes.push(runtime);
    await runtime.start();
    fake.sendUserMessage(token, { from: profile(61, 'Ann'), text: '/start' });
    const message = await fake.waitForBotMessage(token, 61);
    expect(message.text).toBe('One, Ann');
    const [person] = await testDb.db.orm.select().from(people).where(and(eq(people.funnelId, funnel.id), eq(people.telegramId, 61)));
    const events = await eventually(
      async () => (await testDb.db.orm.select().from(personEvents).where(eq(personEvents.personId, person.id))).filter((e) => e.kind === 'stage_message'),
      (list) => list.length === 1,
      'the reply in the history',
    );
    expect(events).toMatchObject([{ text: 'One, Ann', stageId: stageIds[0], telegramMessageId: message.message_id }]);
    // Sent: the history has it, the outbox keeps nothing of it.
    expect(await repliesOf(funnel.id)).toEqual([]);
  });

  it("takes over a dead runtime's replies: waiting ones are sent oldest first, ones on the wire become unknown, a live runtime's are left alone", async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    // Their chats with the bot exist (their /starts were taken from Telegram by the dead runtime).
    let last = 0;
    for (const id of [71, 72, 73]) last = fake.sendUserMessage(token, { from: profile(id), text: '/start' }).update_id;
    await fake.callMethod(token, 'getUpdates', new Params({ offset: last + 1, timeout: 0 }, new Map()));
    // A runtime that wrote replies and died: no row in runtime_processes.
    const dead = createRuntimeStore(testDb.db, { owner: 'dead-runtime' });
    const stages = await dead.stages(funnel.id);
    const first = stages[0] as RuntimeStage;
    let update = 900_000 + counter * 100;
    const ann = await dead.startPerson(funnel.id, ++update, profile(71, 'Ann'), first, '/start');
    const ben = await dead.startPerson(funnel.id, ++update, profile(72, 'Ben'), first, '/start');
    const cid = await dead.startPerson(funnel.id, ++update, profile(73, 'Cid'), first, '/start');
    if (typeof ann === 'symbol' || typeof ben === 'symbol' || typeof cid === 'symbol') throw new Error('not handled');
    // Ann also pressed next-step: two replies, which had been put back to waiting (their runtime
    // was stopping when their turn came); Ben's was on the wire when the process died.
    const moved = await dead.movePerson(funnel.id, ++update, 71, stageIds[0], stages[1], 'Go on');
    if (typeof moved === 'symbol' || moved === null) throw new Error('not moved');
    await dead.releaseReplies([ann.replyId!, moved.replyId!]);
    // Cid's belongs to a runtime that is alive (another process on PostgreSQL): left alone. The
    // embedded database has one process: there, every other runtime is a dead one.
    const alive = createRuntimeStore(testDb.db, { owner: 'alive-runtime' });
    await alive.heartbeat();
    await testDb.db.query(`update outbox set owner = 'alive-runtime' where id = $1`, [cid.replyId]);

    const runtime = testRuntime(testDb.db, fake.url);
    runtimes.push(runtime);
    await runtime.start();

    const annMessages = await eventually(() => fake.botMessages(token, 71), (list) => list.length >= 2, "Ann's two waiting replies");
    expect(annMessages.map((m) => m.text)).toEqual(['One, Ann', 'Two']);
    const rows = await eventually(() => repliesOf(funnel.id), (r) => !r.some((row) => row.personId === ann.id), "Ann's replies recorded as sent");
    const byPerson = (id: number) => rows.filter((r) => r.personId === id).map((r) => r.state);
    const annEvents = await testDb.db.orm.select().from(personEvents).where(eq(personEvents.personId, ann.id));
    expect(annEvents.filter((e) => e.kind === 'stage_message').map((e) => e.text)).toEqual(['One, Ann', 'Two']);
    expect(byPerson(ben.id)).toEqual(['unknown']);
    expect(fake.botMessages(token, 72)).toHaveLength(0);
    expect(byPerson(cid.id)).toEqual([testDb.db.driver === 'postgres' ? 'sending' : 'unknown']);
    expect(fake.botMessages(token, 73)).toHaveLength(0);
    await alive.goodbye();
  });

  it('a stage with no message writes no reply', async () => {
    const { funnel, token, stageIds } = await runningFunnel();
    const store = createRuntimeStore(testDb.db);
    const stages = await store.stages(funnel.id);
    const started = await store.startPerson(funnel.id, 990_001 + counter, profile(81), stages[1], '/start');
    expect(started).toMatchObject({ replyId: expect.any(Number) });
    const moved = await store.movePerson(funnel.id, 990_002 + counter, 81, stageIds[0], stages[2], 'x');
    // Placed in stages[1]: a press on stage 0's message moves nobody.
    expect(moved).toBeNull();
    await testDb.db.query('update people set stage_id = $1 where funnel_id = $2', [stageIds[1], funnel.id]);
    const toEmpty = await store.movePerson(funnel.id, 990_003 + counter, 81, stageIds[1], stages[2], 'x');
    expect(toEmpty).toMatchObject({ replyId: null });
    expect(fake.botMessages(token, 81)).toHaveLength(0);
  });
});
