// Funnels: connect a bot (getMe through the fake Bot API), list, rename, run/stop, archive,
// restore, delete, ownership, and the token never leaving the server in full.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FUNNELS_API, FUNNELS_PATHS, type Funnel } from '../../../contract/funnels';
import { funnels, people, personEvents, stages, tags } from '../../db/schema';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { decryptBotToken } from '../../funnels/secret-box';
import { expectJsonError } from '../../test/helpers';
import { addPerson, addRunnableStage, addStage, addTag, call, connectFunnel, newBot, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { detailError, fieldsError, SCHEMA } from './expected-errors';

const env = useFunnelsTestEnv();

describe('POST /api/funnels/ (connect a bot)', () => {
  it('verifies the token with getMe, names the funnel after the bot, and keeps the token encrypted', async () => {
    const key = await user(env);
    const bot = env.fake.addBot({ username: `ada_${Date.now()}_bot`, first_name: 'Ada Shop' });
    const res = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: `  ${bot.token} ` });
    const funnel = ok<Funnel>(res, 201);
    expect(funnel).toMatchObject({
      name: 'Ada Shop',
      bot_id: bot.id,
      bot_username: bot.username,
      state: 'draft',
      stop_reason: null,
      archived: false,
      stage_order_locked: false,
      people_count: 0,
      stage_count: 0,
    });
    const secret = bot.token.split(':')[1];
    expect(funnel.bot_token_hint).toBe(`${bot.id}:${secret.slice(0, 2)}…${secret.slice(-3)}`);
    expect(res.body).not.toContain(secret);
    expect(env.fake.calls(bot.token, 'getMe')).toHaveLength(1);

    const [row] = await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnel.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.botTokenEncrypted).not.toContain(secret);
    expect(decryptBotToken(row, env.t.config)).toBe(bot.token);
    // The list and the single funnel do not carry it either.
    expect((await call(env, key, 'GET', FUNNELS_API.funnels)).body).not.toContain(secret);
    expect((await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id))).body).not.toContain(secret);
  });

  it('takes the given name', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, '  Spring sale ');
    expect(funnel.name).toBe('Spring sale');
  });

  it('refuses a malformed token without asking Telegram', async () => {
    const key = await user(env);
    const before = env.fake.listBots().reduce((n, b) => n + env.fake.calls(b.token).length, 0);
    for (const token of ['hello', '123456:short', 'abc:AAAAAAAAAAAAAAAAAAAAAAAAAA', '123:AAAA AAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: token });
      expect(expectJsonError(res, 400)).toEqual(fieldsError({ bot_token: [FUNNEL_ERRORS.malformedToken] }));
    }
    const after = env.fake.listBots().reduce((n, b) => n + env.fake.calls(b.token).length, 0);
    expect(after).toBe(before);
  });

  it('names missing and wrongly typed fields', async () => {
    const key = await user(env);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.funnels, {}), 400)).toEqual(fieldsError({ bot_token: [SCHEMA.required] }));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: 5 }), 400)).toEqual(fieldsError({ bot_token: [SCHEMA.notAString] }));
    const longName = 'x'.repeat(129);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: newBot(env).token, name: longName }), 400)).toEqual(fieldsError({ name: [SCHEMA.tooLong(128)] }));
  });

  it('answers a token Telegram does not know (401) with a field error', async () => {
    const key = await user(env);
    const bot = newBot(env);
    env.fake.revokeToken(bot.token);
    const res = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: bot.token });
    expect(expectJsonError(res, 400)).toEqual(fieldsError({ bot_token: [{ code: 'unknown_token', text: 'Telegram does not know this token. Copy it again from @BotFather.' }] }));
    const unknown = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: '987654321:AAnever-issued-token-xxxxxxxxxx' });
    expect(expectJsonError(unknown, 400)).toEqual(fieldsError({ bot_token: [FUNNEL_ERRORS.unknownToken] }));
  });

  it('refuses a bot already connected, by the same or another user', async () => {
    const [a, b] = [await user(env), await user(env)];
    const funnel = await connectFunnel(env, a);
    for (const key of [a, b]) {
      const res = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: funnel.token });
      expect(expectJsonError(res, 400)).toEqual(fieldsError({ bot_token: [{ code: 'already_connected', text: 'This bot is already connected.' }] }));
    }
  });

  it('answers 503 when Telegram fails (5xx) or cannot be reached', async () => {
    const key = await user(env);
    const bot = newBot(env);
    env.fake.failNextCalls(bot.token, { count: 1, error_code: 502, description: 'Bad Gateway', methods: ['getMe'] });
    const res = await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: bot.token });
    expect(expectJsonError(res, 503)).toEqual({ detail: 'Telegram is not answering. Try again in a minute.', code: 'telegram_down' });
    // Nothing was stored: the same token connects once Telegram is back.
    expect((await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: bot.token })).statusCode).toBe(201);

    const { createTestApp } = await import('../../test/helpers');
    const offline = await createTestApp(env.t.db, { config: { telegramApiRoot: 'http://127.0.0.1:1' } });
    try {
      const down = await offline.app.inject({
        method: 'POST',
        url: FUNNELS_API.funnels,
        headers: { authorization: `Token ${key}` },
        payload: { bot_token: newBot(env).token },
      });
      expect(expectJsonError(down, 503)).toEqual(detailError(FUNNEL_ERRORS.telegramDown));
    } finally {
      await offline.close();
    }
  });

  it('needs credentials', async () => {
    const res = await env.t.app.inject({ method: 'GET', url: FUNNELS_API.funnels });
    expect(expectJsonError(res, 401)).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});

describe('GET /api/funnels/ and /api/funnels/:id/', () => {
  it("lists the user's funnels, newest first, with people and stage counts; archived ones separately", async () => {
    const key = await user(env);
    const first = await connectFunnel(env, key, 'First');
    const second = await connectFunnel(env, key, 'Second');
    await addStage(env, key, first.id);
    await addStage(env, key, first.id);
    await addPerson(env, first.id);
    const list = ok<Funnel[]>(await call(env, key, 'GET', FUNNELS_API.funnels));
    expect(list.map((f) => f.name)).toEqual(['Second', 'First']);
    expect(list[1]).toMatchObject({ people_count: 1, stage_count: 2 });

    ok(await call(env, key, 'POST', FUNNELS_API.archive(second.id)));
    expect(ok<Funnel[]>(await call(env, key, 'GET', FUNNELS_API.funnels)).map((f) => f.id)).toEqual([first.id]);
    expect(ok<Funnel[]>(await call(env, key, 'GET', `${FUNNELS_API.funnels}?archived=true`)).map((f) => f.id)).toEqual([second.id]);
    expect(expectJsonError(await call(env, key, 'GET', `${FUNNELS_API.funnels}?archived=maybe`), 400)).toEqual(fieldsError({ archived: [SCHEMA.choice('maybe')] }));
    expect(ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(first.id)))).toMatchObject({ id: first.id, stage_count: 2, people_count: 1 });
  });

  it('PATCH renames; a blank or too long name is refused', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    expect(ok<Funnel>(await call(env, key, 'PATCH', FUNNELS_API.funnel(funnel.id), { name: ' Renamed ' })).name).toBe('Renamed');
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.funnel(funnel.id), { name: '' }), 400)).toEqual(fieldsError({ name: [SCHEMA.blank] }));
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.funnel(funnel.id), { name: '   ' }), 400)).toEqual(fieldsError({ name: [SCHEMA.blank] }));
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.funnel(funnel.id), { name: 'n'.repeat(129) }), 400)).toEqual(fieldsError({ name: [SCHEMA.tooLong(128)] }));
  });

  it('bad ids are 404, never 500', async () => {
    const key = await user(env);
    for (const id of ['abc', '-1', '0', '99999999999999999999', '2147483648', '1.5', '%00']) {
      // Raw, not fillPath: '%00' must reach the server as it is.
      const templates = ['funnel', 'stages', 'stage', 'tag', 'person', 'mediaFile'] as const;
      for (const url of templates.map((name) => FUNNELS_PATHS[name].replace(':id', id))) {
        const res = await call(env, key, 'GET', url);
        expect([400, 404], `${url}: ${res.body}`).toContain(res.statusCode);
      }
      expect((await call(env, key, 'POST', FUNNELS_PATHS.run.replace(':id', id))).statusCode).toBe(404);
    }
  });
});

describe('run, stop, archive, restore, delete', () => {
  it('run lists every reason it cannot run, the same as GET run/ shows before asking', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const empty = await addStage(env, key, funnel.id, { title: 'Welcome' });
    const last = await addRunnableStage(env, key, funnel.id, { title: 'Offer' });
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(last.id), { text: 'Buy', media_id: null, buttons: [], next_button: { text: 'Next' } }));
    const expected = [FUNNEL_ERRORS.stageWithoutMessage('Welcome'), FUNNEL_ERRORS.lastStageNext('Offer')];
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({
      problems: expected.map(({ code, text, detail }) => ({ code, message: text, detail })),
    });
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)), 400)).toEqual(fieldsError({ non_field_errors: expected }));
    expect(env.synced).not.toContain(funnel.id);

    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(empty.id), { text: 'Hi', media_id: null, buttons: [], next_button: { text: 'Next' } }));
    ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(last.id), { text: 'Buy', media_id: null, buttons: [], next_button: null }));
    expect(ok(await call(env, key, 'GET', FUNNELS_API.run(funnel.id)))).toEqual({ problems: [] });
    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).state).toBe('running');
  });

  it('"Run again" asks Telegram first: a revoked token is never a success, and the funnel says why', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addRunnableStage(env, key, funnel.id);
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    ok(await call(env, key, 'POST', FUNNELS_API.stop(funnel.id)));
    env.fake.revokeToken(funnel.token);
    const refused = await call(env, key, 'POST', FUNNELS_API.run(funnel.id));
    expect(expectJsonError(refused, 400)).toEqual(fieldsError({ non_field_errors: [FUNNEL_ERRORS.tokenRevoked] }));
    expect(ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id)))).toMatchObject({ state: 'stopped', stop_reason: 'token_revoked' });

    // Telegram not answering is no success either; once it answers, the run goes through.
    const other = await connectFunnel(env, key);
    await addRunnableStage(env, key, other.id);
    env.fake.failNextCalls(other.token, { count: 1, error_code: 502, description: 'Bad Gateway', methods: ['getMe'] });
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(other.id)), 400)).toEqual(fieldsError({ non_field_errors: [FUNNEL_ERRORS.telegramDown] }));
    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(other.id))).state).toBe('running');
  });

  it('a replaced token keeps the funnel with its stages, people and history; another bot\'s token is refused', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addRunnableStage(env, key, funnel.id);
    const person = await addPerson(env, funnel.id, { stageId: stage.id });
    await env.t.db.orm.insert(personEvents).values({ personId: person.id, funnelId: funnel.id, direction: 'in', kind: 'command', text: '/start' });
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const renewed = env.fake.newToken(funnel.token);
    expect((await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).statusCode).toBe(400);

    const other = newBot(env);
    expect(expectJsonError(await call(env, key, 'PUT', FUNNELS_API.token(funnel.id), { bot_token: other.token }), 400)).toEqual(
      fieldsError({ bot_token: [FUNNEL_ERRORS.otherBot(other.username)] }),
    );
    expect(expectJsonError(await call(env, key, 'PUT', FUNNELS_API.token(funnel.id), { bot_token: funnel.token }), 400)).toEqual(
      fieldsError({ bot_token: [FUNNEL_ERRORS.unknownToken] }),
    );
    expect(expectJsonError(await call(env, key, 'PUT', FUNNELS_API.token(funnel.id), { bot_token: 'nope' }), 400)).toEqual(
      fieldsError({ bot_token: [FUNNEL_ERRORS.malformedToken] }),
    );
    // Another user's funnel is not there.
    expect((await call(env, await user(env), 'PUT', FUNNELS_API.token(funnel.id), { bot_token: renewed.token })).statusCode).toBe(404);

    const replaced = ok<Funnel>(await call(env, key, 'PUT', FUNNELS_API.token(funnel.id), { bot_token: renewed.token }));
    expect(replaced).toMatchObject({ id: funnel.id, stop_reason: null, people_count: 1, stage_count: 1, bot_token_hint: expect.stringMatching(/^\d+:AA/) });
    const [row] = await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnel.id));
    expect(decryptBotToken(row, env.t.config)).toBe(renewed.token);
    expect(await env.t.db.orm.select().from(personEvents).where(eq(personEvents.personId, person.id))).toHaveLength(1);
    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).state).toBe('running');
    // Only one funnel: nothing new was made.
    expect(ok<Funnel[]>(await call(env, key, 'GET', FUNNELS_API.funnels))).toHaveLength(1);
    // The same token again is fine (idempotent); on another funnel it is "already connected".
    ok(await call(env, key, 'PUT', FUNNELS_API.token(funnel.id), { bot_token: renewed.token }));
    const second = await connectFunnel(env, key);
    expect(expectJsonError(await call(env, key, 'PUT', FUNNELS_API.token(second.id), { bot_token: renewed.token }), 400)).toEqual(
      fieldsError({ bot_token: [FUNNEL_ERRORS.alreadyConnected] }),
    );
  });

  it('run needs a stage, locks the order while it runs and tells the runtime; stop stops', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)), 400)).toEqual(fieldsError({ non_field_errors: [FUNNEL_ERRORS.runWithoutStages] }));
    expect(env.synced).not.toContain(funnel.id);
    await addRunnableStage(env, key, funnel.id);

    const ran = ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    expect(ran).toMatchObject({ state: 'running', stage_order_locked: true, was_run: true });
    expect(env.synced.filter((id) => id === funnel.id)).toHaveLength(1);
    const [row] = await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnel.id));
    const firstRun = row.firstRunAt;
    expect(firstRun).not.toBeNull();

    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.stop(funnel.id)))).toMatchObject({ state: 'stopped', stage_order_locked: false, was_run: true });
    env.t.clock.advance(60);
    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).state).toBe('running');
    const [again] = await env.t.db.orm.select().from(funnels).where(eq(funnels.id, funnel.id));
    expect(again.firstRunAt?.getTime()).toBe(firstRun?.getTime());
    expect(env.synced.filter((id) => id === funnel.id)).toHaveLength(3);
  });

  it('run clears the reason the runtime stopped it for', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addRunnableStage(env, key, funnel.id);
    await env.t.db.orm.update(funnels).set({ state: 'stopped', stopReason: 'token_revoked' }).where(eq(funnels.id, funnel.id));
    expect(ok<Funnel>(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id))).stop_reason).toBe('token_revoked');
    expect(ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.run(funnel.id))).stop_reason).toBeNull();
  });

  it('archive stops the bot; an archived funnel cannot run; restore brings it back stopped', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await addRunnableStage(env, key, funnel.id);
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const archived = ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.archive(funnel.id)));
    expect(archived).toMatchObject({ archived: true, state: 'stopped' });
    expect(env.synced.at(-1)).toBe(funnel.id);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)), 409)).toEqual(detailError(FUNNEL_ERRORS.runArchived));
    const restored = ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.restore(funnel.id)));
    expect(restored).toMatchObject({ archived: false, state: 'stopped' });
  });

  it('DELETE only removes an archived funnel, with all its data', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const tag = await addTag(env, key, funnel.id, 'vip');
    const person = await addPerson(env, funnel.id, { stageId: stage.id });
    await env.t.db.orm.insert(personEvents).values({ personId: person.id, funnelId: funnel.id, direction: 'in', kind: 'command', text: '/start' });

    expect(expectJsonError(await call(env, key, 'DELETE', FUNNELS_API.funnel(funnel.id)), 409)).toEqual(detailError(FUNNEL_ERRORS.deleteNotArchived));
    ok(await call(env, key, 'POST', FUNNELS_API.archive(funnel.id)));
    const res = await call(env, key, 'DELETE', FUNNELS_API.funnel(funnel.id));
    expect(res.statusCode).toBe(204);
    expect(env.synced.at(-1)).toBe(funnel.id);
    expect(expectJsonError(await call(env, key, 'GET', FUNNELS_API.funnel(funnel.id)), 404)).toEqual(NOT_FOUND);
    const orm = env.t.db.orm;
    expect(await orm.select().from(stages).where(eq(stages.funnelId, funnel.id))).toEqual([]);
    expect(await orm.select().from(tags).where(eq(tags.id, tag.id))).toEqual([]);
    expect(await orm.select().from(people).where(eq(people.funnelId, funnel.id))).toEqual([]);
    expect(await orm.select().from(personEvents).where(eq(personEvents.funnelId, funnel.id))).toEqual([]);
    // The bot can be connected again.
    expect((await call(env, key, 'POST', FUNNELS_API.funnels, { bot_token: funnel.token })).statusCode).toBe(201);
  });
});

describe('ownership', () => {
  it("another user's funnel is 404 on every funnel route, and nothing changes", async () => {
    const [owner, stranger] = [await user(env), await user(env)];
    const funnel = await connectFunnel(env, owner);
    await addStage(env, owner, funnel.id);
    const mine = await connectFunnel(env, stranger);
    const attempts: Array<[Parameters<typeof call>[2], string, unknown?]> = [
      ['GET', FUNNELS_API.funnel(funnel.id)],
      ['PATCH', FUNNELS_API.funnel(funnel.id), { name: 'Taken' }],
      ['DELETE', FUNNELS_API.funnel(funnel.id)],
      ['POST', FUNNELS_API.run(funnel.id)],
      ['POST', FUNNELS_API.stop(funnel.id)],
      ['POST', FUNNELS_API.archive(funnel.id)],
      ['POST', FUNNELS_API.restore(funnel.id)],
      ['POST', FUNNELS_API.copy(funnel.id), { target_funnel_id: mine.id }],
      ['GET', FUNNELS_API.description(funnel.id)],
      ['PUT', FUNNELS_API.description(funnel.id), { description: 'x', short_description: 'y' }],
      ['GET', FUNNELS_API.stages(funnel.id)],
      ['POST', FUNNELS_API.stages(funnel.id), { title: 'Mine now' }],
      ['POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids: [] }],
      ['GET', FUNNELS_API.tags(funnel.id)],
      ['POST', FUNNELS_API.tags(funnel.id), { title: 'x' }],
      ['GET', FUNNELS_API.people(funnel.id)],
    ];
    for (const [method, url, body] of attempts) {
      expect(expectJsonError(await call(env, stranger, method, url, body), 404), `${method} ${url}`).toEqual(NOT_FOUND);
    }
    const after = ok<Funnel>(await call(env, owner, 'GET', FUNNELS_API.funnel(funnel.id)));
    expect(after).toMatchObject({ name: funnel.name, state: 'draft', archived: false, stage_count: 1 });
    expect(ok<Funnel[]>(await call(env, stranger, 'GET', FUNNELS_API.funnels)).map((f) => f.id)).toEqual([mine.id]);
  });
});
