// The mailing state machine: what each action is allowed from and where it leads (pure), then its
// writes on a database, walked over the whole transition table: every allowed transition writes
// what the owner sees, every other one is refused with the error the owner has always been given
// and writes nothing, and another owner's mailing is never written, whatever its state.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAILING_STATES, type MailingState } from '../../contract/mailings';
import type { Db } from '../db';
import { mailings, outbox, people, type MailingRow } from '../db/schema';
import { DomainError } from '../domain-error';
import { MAILING_PRIORITY } from '../outbox/sql';
import { createFunnel, createOwner } from '../test/funnel-runtime';
import { createTestDb, type TestDb } from '../test/helpers';
import { MAILING_ERRORS } from './errors';
import {
  canApply,
  cancelMailing,
  editMailing,
  mailingEvents,
  MAILING_TRANSITIONS,
  nextState,
  pauseMailing,
  resumeMailing,
  scheduleMailing,
  startOwnersMailing,
  unsendMailing,
  type MailingAction,
  type OwnedMailing,
} from './state';

describe('mailing states', () => {
  it('goes draft → sending ⇄ paused → finished, and can be cancelled until it ends', () => {
    expect(nextState('start', 'draft')).toBe('sending');
    expect(nextState('schedule', 'draft')).toBe('scheduled');
    expect(nextState('start', 'scheduled')).toBe('sending');
    expect(nextState('pause', 'sending')).toBe('paused');
    expect(nextState('resume', 'paused')).toBe('sending');
    expect(nextState('finish', 'sending')).toBe('finished');
    for (const from of ['draft', 'scheduled', 'sending', 'paused'] as const) expect(nextState('cancel', from)).toBe('cancelled');
  });

  it('refuses what makes no sense', () => {
    expect(nextState('pause', 'paused')).toBeNull();
    expect(nextState('resume', 'sending')).toBeNull();
    expect(nextState('start', 'sending')).toBeNull();
    expect(nextState('start', 'finished')).toBeNull();
    expect(nextState('cancel', 'finished')).toBeNull();
    expect(nextState('cancel', 'cancelled')).toBeNull();
    expect(canApply('edit', 'sending')).toBe(false);
    expect(canApply('edit', 'scheduled')).toBe(true);
    expect(canApply('unsend', 'finished')).toBe(true);
    expect(canApply('unsend', 'sending')).toBe(false);
  });

  it('never leaves a final state', () => {
    for (const action of ['edit', 'schedule', 'start', 'pause', 'resume', 'cancel', 'finish'] as const) {
      expect(nextState(action, 'finished')).toBeNull();
      expect(nextState(action, 'cancelled')).toBeNull();
    }
    expect(MAILING_STATES).toContain('finished');
  });
});

// ─── The writes, on a database ────────────────────────────────────────────────────────────────

let testDb: TestDb;
let db: Db;
let ownerId: number;
let strangerId: number;
let bots = 0;
const NOW = new Date();
const LATER = new Date(NOW.getTime() + 86_400_000);

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  ownerId = await createOwner(db);
  strangerId = await createOwner(db);
});
afterAll(async () => {
  await testDb?.drop();
});

/**
 * A funnel of its own with two people and one mailing in `state`, as the service and the engine
 * leave it there: a started one has a row sent a minute ago to the first person, and (unless it
 * ended) one waiting for the second; a paused one was paused by the engine.
 */
async function mailingIn(state: MailingState, scheduledAt = LATER): Promise<{ mailing: MailingRow; funnelId: number }> {
  bots += 1;
  const { funnel } = await createFunnel(db, { ownerId, token: `${7_000_000 + bots}:state-test`, username: `state${bots}_bot`, stageSpecs: [] });
  const [first, second] = await db.orm
    .insert(people)
    .values([
      { funnelId: funnel.id, telegramId: 8_000_000 + bots * 2, firstName: 'Ann' },
      { funnelId: funnel.id, telegramId: 8_000_001 + bots * 2, firstName: 'Bob' },
    ])
    .returning();
  const started = state !== 'draft' && state !== 'scheduled';
  const [mailing] = await db.orm
    .insert(mailings)
    .values({
      funnelId: funnel.id,
      title: 'Spring sale',
      message: { text: 'Hello', media_id: null, buttons: [], next_button: null },
      audience: { stages_in: [], stages_out: [], tags_in: [], tags_out: [], lists_in: [] },
      state,
      scheduledAt: state === 'scheduled' ? scheduledAt : null,
      startedAt: started ? new Date(NOW.getTime() - 120_000) : null,
      finishedAt: state === 'finished' || state === 'cancelled' ? new Date(NOW.getTime() - 60_000) : null,
      pauseReason: state === 'paused' ? 'too_many_errors' : null,
      recipientCount: started ? 2 : 0,
    })
    .returning();
  if (started) {
    const secondState = state === 'finished' ? 'failed' : state === 'cancelled' ? 'cancelled' : 'waiting';
    await db.orm.insert(outbox).values([
      { funnelId: funnel.id, personId: first.id, mailingId: mailing.id, priority: MAILING_PRIORITY, state: 'sent', sentAt: new Date(Date.now() - 60_000), telegramMessageId: 11 },
      { funnelId: funnel.id, personId: second.id, mailingId: mailing.id, priority: MAILING_PRIORITY, state: secondState },
    ]);
  }
  return { mailing, funnelId: funnel.id };
}

/** The funnel's mailings and outbox rows, byte for byte. */
async function rowsOf(funnelId: number): Promise<string[]> {
  const found = await db.query<{ row: string }>(
    `select 'mailing ' || row_to_json(m)::text as row from mailings m where m.funnel_id = $1
     union all select 'outbox ' || row_to_json(o)::text from outbox o where o.funnel_id = $1
     order by row`,
    [funnelId],
  );
  return found.map((r) => r.row);
}

const mailingRow = async (id: number): Promise<MailingRow> => (await db.orm.select().from(mailings).where(eq(mailings.id, id)))[0];
const outboxStates = async (mailingId: number): Promise<string[]> =>
  (await db.orm.select({ state: outbox.state }).from(outbox).where(eq(outbox.mailingId, mailingId)).orderBy(outbox.personId)).map((r) => r.state);

/** The owner's write of each user-driven action, as the mailing service makes it. */
const ownersWrites: Record<Exclude<MailingAction, 'finish'>, (target: OwnedMailing) => Promise<unknown>> = {
  edit: (target) => editMailing(db.orm, target, { title: 'Summer sale' }, NOW),
  schedule: (target) => scheduleMailing(db.orm, target, LATER, NOW),
  start: (target) => startOwnersMailing(db, target, () => NOW),
  pause: (target) => pauseMailing(db.orm, target, NOW),
  resume: (target) => resumeMailing(db.orm, target, NOW),
  cancel: (target) => cancelMailing(db.orm, target, NOW),
  unsend: (target) => unsendMailing(db.orm, target, NOW),
};

/** What the owner sees after each allowed action (beyond the state the table names). */
const afterAllowed: Record<Exclude<MailingAction, 'finish'>, (row: MailingRow, rows: string[]) => void> = {
  edit: (row) => expect(row.title).toBe('Summer sale'),
  schedule: (row) => expect(row.scheduledAt?.getTime()).toBe(LATER.getTime()),
  start: (row, rows) => {
    expect(row).toMatchObject({ startedAt: NOW, scheduledAt: null, recipientCount: 2 });
    expect(rows.filter((r) => r.startsWith('outbox ') && r.includes('"state":"waiting"'))).toHaveLength(2);
  },
  pause: (row, rows) => {
    expect(row.pauseReason).toBeNull();
    expect(rows.filter((r) => r.includes('"state":"waiting"'))).toHaveLength(1);
  },
  resume: (row) => expect(row.pauseReason).toBeNull(),
  cancel: (row) => expect(row.finishedAt?.getTime()).toBe(NOW.getTime()),
  unsend: (row) => expect(row.unsentAt?.getTime()).toBe(NOW.getTime()),
};

async function refusedWith(write: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await write.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("the owner's transitions, over the whole table", () => {
  it("every action of the table is walked (finish is the engine's alone)", () => {
    expect(Object.keys(ownersWrites).sort()).toEqual(Object.keys(MAILING_TRANSITIONS).filter((action) => action !== 'finish').sort());
  });

  for (const [action, write] of Object.entries(ownersWrites) as Array<[Exclude<MailingAction, 'finish'>, (target: OwnedMailing) => Promise<unknown>]>) {
    for (const state of MAILING_STATES) {
      if (canApply(action, state)) {
        it(`${action} from ${state} leads to ${nextState(action, state)}`, async () => {
          const { mailing, funnelId } = await mailingIn(state);
          await write({ ownerId, mailingId: mailing.id });
          const row = await mailingRow(mailing.id);
          expect(row.state).toBe(nextState(action, state));
          expect(row.updatedAt.getTime()).toBe(NOW.getTime());
          afterAllowed[action](row, await rowsOf(funnelId));
          if (action === 'cancel') expect(await outboxStates(mailing.id)).not.toContain('waiting');
          if (action === 'unsend') expect((await outboxStates(mailing.id))[0]).toBe('unsend');
        });
      } else {
        it(`${action} from ${state} is refused as a conflict (409 mailing_state), and nothing is written`, async () => {
          const { mailing, funnelId } = await mailingIn(state);
          const before = await rowsOf(funnelId);
          const error = await refusedWith(write({ ownerId, mailingId: mailing.id }));
          expect({ kind: error.kind, detail: error.detail }).toEqual({ kind: 'conflict', detail: MAILING_ERRORS.mailingState });
          expect(await rowsOf(funnelId)).toEqual(before);
        });
      }
      it(`${action} of another owner's mailing in ${state} is not found, and its rows stay byte for byte`, async () => {
        const { mailing, funnelId } = await mailingIn(state);
        const before = await rowsOf(funnelId);
        const error = await refusedWith(write({ ownerId: strangerId, mailingId: mailing.id }));
        expect(error.kind).toBe('not_found');
        expect(await rowsOf(funnelId)).toEqual(before);
      });
    }
  }

  it('a mailing that does not exist is not found', async () => {
    for (const write of Object.values(ownersWrites)) expect((await refusedWith(write({ ownerId, mailingId: 2_000_000_000 }))).kind).toBe('not_found');
  });

  it('deleting from the chats happens once, and not after 48 hours: refused, and nothing is written', async () => {
    const once = await mailingIn('finished');
    await unsendMailing(db.orm, { ownerId, mailingId: once.mailing.id }, NOW);
    const afterFirst = await rowsOf(once.funnelId);
    const again = await refusedWith(unsendMailing(db.orm, { ownerId, mailingId: once.mailing.id }, LATER));
    expect({ kind: again.kind, detail: again.detail }).toEqual({ kind: 'conflict', detail: MAILING_ERRORS.mailingState });
    expect(await rowsOf(once.funnelId)).toEqual(afterFirst);

    const old = await mailingIn('finished');
    await db.query(`update outbox set sent_at = now() - interval '49 hours' where mailing_id = $1`, [old.mailing.id]);
    const before = await rowsOf(old.funnelId);
    const late = await refusedWith(unsendMailing(db.orm, { ownerId, mailingId: old.mailing.id }, NOW));
    expect({ kind: late.kind, detail: late.detail }).toEqual({ kind: 'invalid', detail: MAILING_ERRORS.unsendTooLate });
    expect(await rowsOf(old.funnelId)).toEqual(before);
  });
});

describe("the engine's transitions (its MailingEvents port), over the whole table", () => {
  const events = () => mailingEvents(db, { now: () => NOW });

  for (const state of MAILING_STATES) {
    it(`finishing the bot's sent mailings ${canApply('finish', state) ? 'finishes' : 'leaves'} one in ${state}`, async () => {
      const { mailing, funnelId } = await mailingIn(state);
      // Nothing left to send: the second person's row failed.
      await db.query(`update outbox set state = 'failed' where mailing_id = $1 and state = 'waiting'`, [mailing.id]);
      const before = await rowsOf(funnelId);
      await events().finishSent(funnelId);
      if (canApply('finish', state)) {
        const row = await mailingRow(mailing.id);
        expect(row.state).toBe('finished');
        expect(row.finishedAt).not.toBeNull();
      } else expect(await rowsOf(funnelId)).toEqual(before);
    });

    it(`the engine's pause ${canApply('pause', state) ? 'pauses' : 'leaves'} a mailing in ${state}, alone or with its bot`, async () => {
      for (const pause of [(m: MailingRow) => events().pause(m.id, 'token_revoked'), (m: MailingRow) => events().pauseBot(m.funnelId, 'token_revoked')]) {
        const { mailing, funnelId } = await mailingIn(state);
        const before = await rowsOf(funnelId);
        await pause(mailing);
        if (canApply('pause', state)) expect(await mailingRow(mailing.id)).toMatchObject({ state: 'paused', pauseReason: 'token_revoked' });
        else expect(await rowsOf(funnelId)).toEqual(before);
      }
    });
  }

  it('a sending mailing with a row still waiting is not finished', async () => {
    const { funnelId } = await mailingIn('sending');
    const before = await rowsOf(funnelId);
    await events().finishSent(funnelId);
    expect(await rowsOf(funnelId)).toEqual(before);
  });

  it('starts a scheduled mailing once its moment came, with a row per recipient; not one still to come, nor a draft', async () => {
    const due = await mailingIn('scheduled', new Date(Date.now() - 60_000));
    const notYet = await mailingIn('scheduled');
    const notYetBefore = await rowsOf(notYet.funnelId);
    const draft = await mailingIn('draft');
    const draftBefore = await rowsOf(draft.funnelId);
    let woken = 0;
    await mailingEvents(db, { now: () => NOW, wake: () => (woken += 1) }).startDue();
    expect(await mailingRow(due.mailing.id)).toMatchObject({ state: 'sending', recipientCount: 2, scheduledAt: null });
    expect(await outboxStates(due.mailing.id)).toEqual(['waiting', 'waiting']);
    expect(woken).toBe(1);
    expect(await rowsOf(draft.funnelId)).toEqual(draftBefore);
    expect(await rowsOf(notYet.funnelId)).toEqual(notYetBefore);
  });
});

describe('one writer of a mailing', () => {
  it('no module of the server but mailings/state.ts updates a mailing', () => {
    const serverDir = path.resolve(import.meta.dirname, '..');
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'test' && entry.name !== 'migrations') walk(full);
        } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          if (/update\s+mailings\b|\.update\(\s*mailings\s*\)/i.test(readFileSync(full, 'utf8'))) writers.push(path.relative(serverDir, full));
        }
      }
    };
    walk(serverDir);
    expect(writers).toEqual([path.join('mailings', 'state.ts')]);
  });
});
