// A media file_id Telegram no longer takes (another bot's, or expired), for both kinds of sends
// that go through telegram/send.ts: a runtime reply and a mailing of the delivery engine. Before
// the one sender, the engine failed every such row (only the runtime uploaded again).
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from '../../../scripts/telegram/fake-bot-api';
import { mailings, media, outbox } from '../../db/schema';
import { startMailing } from '../../mailings/state';
import type { OutboxSender } from '../../outbox/engine';
import { forgetFileIds } from '../../telegram/send';
import { until } from '../../test/eventually';
import { createFunnel, createOwner, testRuntime, TINY_PNG } from '../../test/funnel-runtime';
import { createTestDb, type TestDb } from '../../test/helpers';
import { addSubscribers, testOutboxSender } from '../../test/mailings';
import type { FunnelRuntime } from './runtime';

let fake: FakeBotApi;
let testDb: TestDb;
let ownerId: number;
let counter = 0;
const running: Array<FunnelRuntime | OutboxSender> = [];
/** A file_id Telegram never gave this bot (another bot's, or expired). */
const STALE_FILE_ID = 'AgACAgIAAxkBAAIstale-file-id-of-another-bot';

beforeAll(async () => {
  fake = await startFakeBotApi();
  testDb = await createTestDb();
  ownerId = await createOwner(testDb.db);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await fake?.close();
  await testDb?.drop();
});

/** A running funnel whose first stage has a photo whose stored file_id went stale. */
async function funnelWithStalePhoto(text: string) {
  counter += 1;
  const bot = fake.addBot({ username: `stale${counter}_bot` });
  const { funnel, mediaIds } = await createFunnel(testDb.db, { ownerId, token: bot.token, username: bot.username, stageSpecs: [{ text, photo: TINY_PNG, next: null }] });
  const mediaId = mediaIds[0]!;
  await testDb.db.orm.update(media).set({ telegramFileId: STALE_FILE_ID }).where(eq(media.id, mediaId));
  forgetFileIds(testDb.db);
  return { token: bot.token, funnelId: funnel.id, mediaId };
}

async function storedFileId(mediaId: number): Promise<string | null> {
  const [row] = await testDb.db.orm.select({ fileId: media.telegramFileId }).from(media).where(eq(media.id, mediaId));
  return row.fileId;
}

describe('a media file_id that went stale', () => {
  it('a runtime reply with a photo whose stored file_id Telegram no longer takes still arrives, uploaded again', async () => {
    const { token, mediaId } = await funnelWithStalePhoto('Welcome');
    const runtime = testRuntime(testDb.db, fake.url);
    running.push(runtime);
    await runtime.start();
    fake.sendUserMessage(token, { from: { id: 4242, first_name: 'Ann' }, text: '/start' });
    const reply = await fake.waitForBotMessage(token, 4242);
    expect(reply.caption).toBe('Welcome');
    expect(reply.photo?.length).toBeGreaterThan(0);
    await until(async () => (await storedFileId(mediaId)) === reply.photo?.at(-1)?.file_id, 'the new file_id stored');
  });

  it("a mailing's photo whose stored file_id Telegram no longer takes still reaches everyone, uploaded again", async () => {
    const { token, funnelId, mediaId } = await funnelWithStalePhoto('Look');
    const people = await addSubscribers(testDb.db, fake, token, funnelId, 5);
    const [mailing] = await testDb.db.orm
      .insert(mailings)
      .values({
        funnelId,
        title: 'Photo sale',
        message: { text: 'Sale, {first_name}', media_id: mediaId, buttons: [], next_button: null },
        audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [] },
      })
      .returning();
    const sender = testOutboxSender(testDb.db, fake.url);
    running.push(sender);
    void sender.start();
    expect(await startMailing(testDb.db, mailing.id, { now: () => new Date() })).toBe(true);
    await until(async () => {
      const rows = await testDb.db.orm.select({ state: outbox.state }).from(outbox).where(eq(outbox.mailingId, mailing.id));
      return rows.length === 5 && rows.every((r) => r.state !== 'waiting' && r.state !== 'sending');
    }, 'every recipient done');
    const states = await testDb.db.orm.select({ state: outbox.state }).from(outbox).where(eq(outbox.mailingId, mailing.id));
    expect(states.map((s) => s.state)).toEqual(Array(5).fill('sent'));
    for (const person of people) {
      const got = await fake.waitForBotMessage(token, person.telegramId);
      expect(got.photo?.length).toBeGreaterThan(0);
    }
  });
});
