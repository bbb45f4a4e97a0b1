// When a mailing is scheduled: RFC 3339 with its offset and a day that exists, nothing else. An
// empty string, a day that does not exist (2030-02-30 rolled over into March), RFC 2822, free
// text and six-digit years are each a 400 naming scheduled_at, and the mailing stays a draft.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAILINGS_API, type Mailing } from '../../../contract/mailings';
import { DATE_TIME_MESSAGE } from '../../../contract/schemas/common';
import { outbox } from '../../db/schema';
import { call, connectFunnel, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError } from '../../test/helpers';
import { addSubscribers } from '../../test/mailings';

const env = useFunnelsTestEnv();

describe('scheduling a mailing', () => {
  it('refuses a moment that is not RFC 3339 with an offset and a day that exists, and changes nothing', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 2);
    const m = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { title: 'Sale', message: { text: 'Hello' } }), 201);
    for (const at of [
      '',
      '2030-02-30T10:00:00Z',
      '2029-02-29T10:00:00Z',
      '2030-13-01T10:00:00Z',
      'Thu, 28 Feb 2030 10:00:00 GMT',
      'February 28, 2030 10:00',
      '2030-02-28 10:00',
      '2030-02-28T10:00:00',
      '2030-02-28',
      '+010000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00Z',
      '2030-02-28T10:00:00Z\u0000',
    ]) {
      const res = await call(env, key, 'POST', MAILINGS_API.send(m.id), { scheduled_at: at });
      expect(expectJsonError(res, 400), JSON.stringify(at)).toMatchObject({ scheduled_at: [DATE_TIME_MESSAGE] });
    }
    const still = ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(m.id)));
    expect(still).toMatchObject({ state: 'draft', scheduled_at: null, started_at: null });
    expect(await env.t.db.orm.select().from(outbox).where(eq(outbox.mailingId, m.id))).toEqual([]);

    // RFC 3339 with an offset is the moment it names.
    const scheduled = ok<Mailing>(await call(env, key, 'POST', MAILINGS_API.send(m.id), { scheduled_at: '2030-02-28T13:00:00.5+03:00' }));
    expect(scheduled).toMatchObject({ state: 'scheduled', scheduled_at: '2030-02-28T10:00:00.500Z' });
  });
});
