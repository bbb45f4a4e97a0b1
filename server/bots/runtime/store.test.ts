// The runtime's statements when many updates arrive at once: /start and next-step presses made in
// one turn of the event loop (by any bots) go to the database together, and each person still
// ends up where they would be had the presses come one by one.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { funnelKeywords, funnels, people, personEvents, personTags, users } from '../../db/schema';
import { eventually } from '../../test/eventually';
import type { Db } from '../../db';
import { createTestDb, type TestDb } from '../../test/helpers';
import { ALREADY_HANDLED, EMBEDDED_STAGE_CACHE_MS, type StartedPerson, createRuntimeStore, type RuntimeStore } from './store';
import { createFunnel, createOwner, type StageSpec } from '../../test/funnel-runtime';

let testDb: TestDb;
let store: RuntimeStore;
let ownerId: number;
let botNumber = 0;
let updateId = 0;
/** A new update id (Telegram's are per bot; unique here is simpler and just as good). */
const u = () => ++updateId;
/** The person's id, from a call that must have handled its update. */
const handled = <T,>(value: T | typeof ALREADY_HANDLED): T => {
  if (value === ALREADY_HANDLED) throw new Error('the update was refused as handled before');
  return value;
};
/** The person's id of a /start answer (ALREADY_HANDLED stays as it is). */
const idOf = (value: StartedPerson | typeof ALREADY_HANDLED) => (value === ALREADY_HANDLED ? value : value.id);

const STAGES: StageSpec[] = [
  { text: 'one', tag: 'lead' },
  { text: 'two', tag: 'warm' },
  { text: 'three', next: null },
];

beforeAll(async () => {
  testDb = await createTestDb();
  store = createRuntimeStore(testDb.db);
  ownerId = await createOwner(testDb.db);
});
afterAll(async () => {
  await testDb?.drop();
});

async function funnel() {
  botNumber += 1;
  const made = await createFunnel(testDb.db, { ownerId, token: `${900 + botNumber}:STORE-${botNumber}`, username: `store${botNumber}_bot`, stageSpecs: STAGES });
  const stages = await store.stages(made.funnel.id);
  return { id: made.funnel.id, stages };
}

const person = (id: number, name = `Person ${id}`) => ({ id, first_name: name, language_code: 'en' });

async function personRow(funnelId: number, telegramId: number) {
  const [row] = await testDb.db.orm.select().from(people).where(and(eq(people.funnelId, funnelId), eq(people.telegramId, telegramId)));
  return row;
}

async function history(personId: number) {
  const rows = await testDb.db.orm.select().from(personEvents).where(eq(personEvents.personId, personId)).orderBy(asc(personEvents.id));
  return rows.map((r) => `${r.direction} ${r.kind} ${r.text}`);
}

/**
 * A store whose statements are counted: at 800 updates/s a round trip per text held the pool and
 * the replies waited for it (npm run bench:bots).
 */
function countingStatements(): { store: RuntimeStore; statements: string[] } {
  const statements: string[] = [];
  const { db } = testDb;
  const counting: Db = {
    ...db,
    query: <Row,>(text: string, params?: unknown[]) => {
      statements.push(text);
      return db.query<Row>(text, params);
    },
  };
  return { store: createRuntimeStore(counting), statements };
}

async function tagIdsOf(personId: number) {
  const rows = await testDb.db.orm.select().from(personTags).where(eq(personTags.personId, personId));
  return rows.map((r) => r.tagId).sort();
}

describe('runtime store under many updates at once', () => {
  it('/starts of two bots in one turn: every person is in their first stage, with the command in their history and the stage tag', async () => {
    const a = await funnel();
    const b = await funnel();
    const ids = (
      await Promise.all([
        store.startPerson(a.id, u(), person(1, 'Ann'), a.stages[0], '/start'),
        store.startPerson(b.id, u(), person(1, 'Ben'), b.stages[0], '/start ad'),
        store.startPerson(a.id, u(), person(2, 'Cid'), a.stages[0], '/start'),
      ])
    ).map(idOf);
    expect(new Set(ids).size).toBe(3);
    const ann = await personRow(a.id, 1);
    const ben = await personRow(b.id, 1);
    const cid = await personRow(a.id, 2);
    expect([ann.id, ben.id, cid.id]).toEqual(ids);
    expect([ann.firstName, ben.firstName, cid.firstName]).toEqual(['Ann', 'Ben', 'Cid']);
    expect([ann.stageId, ben.stageId, cid.stageId]).toEqual([a.stages[0].id, b.stages[0].id, a.stages[0].id]);
    expect(await history(ben.id)).toEqual(['in command /start ad']);
    expect(await tagIdsOf(ann.id)).toEqual([a.stages[0].tagId]);
    expect(await tagIdsOf(ben.id)).toEqual([b.stages[0].tagId]);
  });

  it('one person pressing /start twice in one turn is one person, in the first stage, with both commands recorded', async () => {
    const a = await funnel();
    const ids = (
      await Promise.all([
        store.startPerson(a.id, u(), person(5, 'Dan'), a.stages[0], '/start'),
        store.startPerson(a.id, u(), person(5, 'Dan'), a.stages[0], '/start'),
        store.startPerson(a.id, u(), person(6, 'Eve'), a.stages[0], '/start'),
      ])
    ).map(idOf);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(await history(handled(ids[0]))).toEqual(['in command /start', 'in command /start']);
    expect((await personRow(a.id, 5)).stageId).toBe(a.stages[0].id);
  });

  it('next-step presses in one turn move each person once; a second press of the same button moves nobody', async () => {
    const a = await funnel();
    const b = await funnel();
    const ann = handled(await store.startPerson(a.id, u(), person(1), a.stages[0], '/start')).id;
    const ben = handled(await store.startPerson(b.id, u(), person(1), b.stages[0], '/start')).id;
    const moved = await Promise.all([
      store.movePerson(a.id, u(), 1, a.stages[0].id, a.stages[1], 'Next'),
      store.movePerson(a.id, u(), 1, a.stages[0].id, a.stages[1], 'Next'),
      store.movePerson(b.id, u(), 1, b.stages[0].id, b.stages[1], 'Go on'),
      store.movePerson(b.id, u(), 2, b.stages[0].id, b.stages[1], 'Go on'), // never pressed /start
    ]);
    const ids = moved.map((m) => (m === null || m === ALREADY_HANDLED ? m : m.id));
    expect(ids.filter((id) => id === ann)).toHaveLength(1);
    expect(ids.slice(0, 2)).toContain(null);
    expect(ids.slice(2)).toEqual([ben, null]);
    expect((await personRow(a.id, 1)).stageId).toBe(a.stages[1].id);
    expect((await personRow(b.id, 1)).stageId).toBe(b.stages[1].id);
    expect(await history(ann)).toEqual(['in command /start', 'in button Next']);
    expect(await tagIdsOf(ann)).toEqual([a.stages[0].tagId, a.stages[1].tagId].sort());
  });

  it('an update is taken once: the same one twice in a turn (a webhook retry), or again later, does nothing', async () => {
    const a = await funnel();
    const start = u();
    const [first, again] = await Promise.all([
      store.startPerson(a.id, start, person(7, 'Fay'), a.stages[0], '/start'),
      store.startPerson(a.id, start, person(7, 'Fay'), a.stages[0], '/start'),
    ]);
    expect([first, again].filter((r) => r === ALREADY_HANDLED)).toHaveLength(1);
    const fay = handled(first === ALREADY_HANDLED ? again : first).id;
    expect(await store.startPerson(a.id, start, person(7, 'Fay'), a.stages[0], '/start')).toBe(ALREADY_HANDLED);

    const press = u();
    const presses = await Promise.all([
      store.movePerson(a.id, press, 7, a.stages[0].id, a.stages[1], 'Next'),
      store.movePerson(a.id, press, 7, a.stages[0].id, a.stages[1], 'Next'),
    ]);
    expect(presses).toHaveLength(2);
    expect(presses.map((m) => (m === null || m === ALREADY_HANDLED ? m : m.id))).toContain(fay);
    expect(presses).toContain(ALREADY_HANDLED);
    expect(await store.movePerson(a.id, press, 7, a.stages[1].id, a.stages[2], 'Next')).toBe(ALREADY_HANDLED);
    expect((await personRow(a.id, 7)).stageId).toBe(a.stages[1].id);
    expect(await history(fay)).toEqual(['in command /start', 'in button Next']);
    // Claimed by the generic claim first: the statements that claim themselves see it as taken.
    const other = u();
    expect(await store.claimUpdate(a.id, other)).toBe(true);
    expect(await store.movePerson(a.id, other, 7, a.stages[1].id, a.stages[2], 'Next')).toBe(ALREADY_HANDLED);
  });

  it('a press on a message of an earlier stage moves nobody', async () => {
    const a = await funnel();
    await store.startPerson(a.id, u(), person(1), a.stages[0], '/start');
    await store.movePerson(a.id, u(), 1, a.stages[0].id, a.stages[1], 'Next');
    const [stale, fresh] = await Promise.all([
      store.movePerson(a.id, u(), 1, a.stages[0].id, a.stages[1], 'Next'),
      store.movePerson(a.id, u(), 1, a.stages[1].id, a.stages[2], 'Next'),
    ]);
    expect(stale).toBeNull();
    expect(fresh).not.toBeNull();
    expect((await personRow(a.id, 1)).stageId).toBe(a.stages[2].id);
  });

  it("where people are, asked in one turn by any bots (texts to funnels that ask), is one statement, and each gets their own stage", async () => {
    const { store: countingStore, statements } = countingStatements();
    const a = await funnel();
    const b = await funnel();
    await store.startPerson(a.id, u(), person(1), a.stages[0], '/start');
    await store.startPerson(a.id, u(), person(2), a.stages[0], '/start');
    await store.movePerson(a.id, u(), 2, a.stages[0].id, a.stages[1], 'Next');
    await store.startPerson(b.id, u(), person(1), b.stages[0], '/start');
    const where = await Promise.all([
      countingStore.stageOf(a.id, 1),
      countingStore.stageOf(a.id, 2),
      countingStore.stageOf(b.id, 1),
      countingStore.stageOf(a.id, 3), // never pressed /start
      countingStore.stageOf(b.id, 2),
    ]);
    expect(where).toEqual([a.stages[0].id, a.stages[1].id, b.stages[0].id, null, null]);
    expect(statements).toHaveLength(1);
  });

  it('people writing in one turn (any bots) are marked seen and their texts kept, one statement each; only a first unread alerts the owner', async () => {
    const { store: countingStore, statements } = countingStatements();
    await testDb.db.orm.update(users).set({ telegramId: 424_242 }).where(eq(users.id, ownerId));
    const a = await funnel();
    const b = await funnel();
    const ann = handled(await store.startPerson(a.id, u(), person(1, 'Ann'), a.stages[0], '/start')).id;
    const bob = handled(await store.startPerson(a.id, u(), person(2, 'Bob'), a.stages[0], '/start')).id;
    await store.movePerson(a.id, u(), 2, a.stages[0].id, a.stages[1], 'Next');
    const cid = handled(await store.startPerson(b.id, u(), person(1, 'Cid'), b.stages[0], '/start')).id;
    await store.setBlocked(b.id, 1, true);
    // Bob has an unread message already: his next one is not the first.
    await store.recordIncoming(a.id, bob, 'text', 'earlier');

    const seen = await Promise.all([
      countingStore.touchPerson(a.id, 1),
      countingStore.touchPerson(a.id, 2),
      countingStore.touchPerson(b.id, 1),
      countingStore.touchPerson(b.id, 9), // never pressed /start
    ]);
    expect(seen).toEqual([{ id: ann, stageId: a.stages[0].id }, { id: bob, stageId: a.stages[1].id }, { id: cid, stageId: b.stages[0].id }, null]);
    expect((await personRow(b.id, 1)).blocked).toBe(false);
    expect(statements).toHaveLength(1);

    statements.length = 0;
    const alerts = await Promise.all([
      countingStore.recordIncoming(a.id, ann, 'text', 'hello'),
      countingStore.recordIncoming(a.id, bob, 'text', 'again'),
      countingStore.recordIncoming(b.id, cid, 'text', 'hi'),
    ]);
    expect(alerts).toEqual([
      expect.objectContaining({ funnelId: a.id, personId: ann, personName: 'Ann', text: 'hello', ownerTelegramId: 424_242 }),
      null,
      expect.objectContaining({ funnelId: b.id, personId: cid, personName: 'Cid', text: 'hi', ownerTelegramId: 424_242 }),
    ]);
    expect(statements).toHaveLength(1);
    expect(await history(ann)).toEqual(['in command /start', 'in text hello']);
    expect(await history(bob)).toEqual(['in command /start', 'in button Next', 'in text earlier', 'in text again']);
    expect([(await personRow(a.id, 1)).unreadCount, (await personRow(a.id, 2)).unreadCount, (await personRow(b.id, 1)).unreadCount]).toEqual([1, 2, 1]);
  });

  it("a funnel's keywords, once read, are served while they are read again (a text never waits for that read); an added one comes after it", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let keywordReads = 0;
    const { db } = testDb;
    // Every read of the keywords after the first is held until released.
    const holding: Db = {
      ...db,
      query: async <Row,>(text: string, params?: unknown[]) => {
        if (text.includes('from funnel_keywords') && ++keywordReads > 1) await held;
        return db.query<Row>(text, params);
      },
    };
    const holdingStore = createRuntimeStore(holding);
    const a = await funnel();
    await testDb.db.orm.insert(funnelKeywords).values({ funnelId: a.id, phrase: 'price', stageId: a.stages[1].id });
    expect((await holdingStore.keywords(a.id)).map((k) => k.phrase)).toEqual(['price']);
    await testDb.db.orm.insert(funnelKeywords).values({ funnelId: a.id, phrase: 'menu', stageId: a.stages[2].id });
    // Past the cache's time on either database.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + EMBEDDED_STAGE_CACHE_MS + 1);
    try {
      expect((await holdingStore.keywords(a.id)).map((k) => k.phrase)).toEqual(['price']);
      await eventually(() => keywordReads, (reads) => reads === 2, 'the keywords read again, held');
      release();
      await eventually(
        async () => (await holdingStore.keywords(a.id)).map((k) => k.phrase),
        (phrases) => phrases.join() === 'price,menu',
        'the added keyword, once read again',
      );
    } finally {
      release();
      vi.restoreAllMocks();
    }
  });

  it('offsets saved in one turn keep the highest update of each bot, and never go back', async () => {
    const a = await funnel();
    const b = await funnel();
    await Promise.all([store.saveOffset(a.id, 10), store.saveOffset(a.id, 12), store.saveOffset(b.id, 7), store.saveOffset(a.id, 11)]);
    await store.saveOffset(b.id, 3);
    const rows = await testDb.db.orm.select({ id: funnels.id, offset: funnels.updateOffset }).from(funnels);
    const offsetOf = (id: number) => rows.find((r) => r.id === id)!.offset;
    expect(offsetOf(a.id)).toBe(12);
    expect(offsetOf(b.id)).toBe(7);
  });
});
