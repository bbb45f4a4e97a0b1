// What a subscriber gets right after the owner edits a stage: the API (through the stage service)
// tells the bot runtime which funnel changed, and only that funnel's bot reads its stages again;
// the other bots keep their copies (each read again costs a database round trip per funnel).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FUNNELS_API } from '../../../contract/funnels';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import type { FunnelRuntime } from '../../bots/runtime/runtime';
import { stages } from '../../db/schema';
import { createFunnel, testRuntime } from '../../test/funnel-runtime';
import { auth, createTestApp, createTestDb, signedInUser, type TestApp, type TestDb } from '../../test/helpers';

let fake: FakeBotApi;
let testDb: TestDb;
let runtime: FunnelRuntime;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
  runtime = testRuntime(testDb.db, fake.url);
  t = await createTestApp(testDb.db, { config: { telegramApiRoot: fake.url }, deps: { funnelRuntime: runtime } });
});
afterAll(async () => {
  await runtime?.stop();
  await t?.close();
  await fake?.close();
  await testDb?.drop();
});

let nextSubscriber = 7100;
/** A new subscriber presses Start: the text the bot answers with. */
async function startAs(token: string): Promise<string | undefined> {
  const id = nextSubscriber++;
  fake.sendUserMessage(token, { from: { id, first_name: 'Cy' }, text: '/start' });
  return (await fake.waitForBotMessage(token, id)).text;
}

it("an edited stage message reaches the funnel's next subscriber at once, and no other funnel's bot reads its stages again", async () => {
  const owner = await signedInUser(t);
  const botA = fake.addBot({ username: 'cache_a_bot' });
  const botB = fake.addBot({ username: 'cache_b_bot' });
  const a = await createFunnel(testDb.db, { ownerId: owner.id, token: botA.token, username: botA.username, stageSpecs: [{ text: 'A before', next: null }] });
  const b = await createFunnel(testDb.db, { ownerId: owner.id, token: botB.token, username: botB.username, stageSpecs: [{ text: 'B before', next: null }] });
  await runtime.start();
  // Each bot has read its stages once and keeps them.
  expect(await startAs(botA.token)).toBe('A before');
  expect(await startAs(botB.token)).toBe('B before');

  // B's stage changes behind the runtime's back (as a write that never told it would): B's bot
  // answers with it only if it reads its stages again, which an edit of A must not make it do.
  await testDb.db.orm.update(stages).set({ message: { text: 'B changed quietly', media_id: null, buttons: [], next_button: null } }).where(eq(stages.id, b.stageIds[0]));

  const edited = await t.app.inject({ method: 'PUT', url: FUNNELS_API.stageMessage(a.stageIds[0]), headers: auth(owner.key), payload: { text: 'A <b>after</b>' } });
  expect(edited.statusCode, edited.body).toBe(200);

  expect(await startAs(botA.token)).toBe('A after');
  expect(await startAs(botB.token)).toBe('B before');
});
