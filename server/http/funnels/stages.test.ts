// Stages and their messages: create/list/update/delete, the order and its lock after the first
// run, Telegram HTML and its limits, URL and next-step buttons, media of the same funnel only.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CAPTION_MAX,
  FUNNELS_API,
  MESSAGE_TEXT_MAX,
  PALETTE,
  STAGES_MAX,
  URL_BUTTONS_MAX,
  type Funnel,
  type MessageContent,
  type MessageMedia,
  type Stage,
} from '../../../contract/funnels';
import { people, stages } from '../../db/schema';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { COMMON_ERRORS } from '../../domain-error';
import { MESSAGE_ERRORS } from '../../messages/errors';
import { expectJsonError } from '../../test/helpers';
import { addPerson, addStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { detailError, fieldsError, SCHEMA } from './expected-errors';

const env = useFunnelsTestEnv();

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
async function uploadPhoto(key: string, funnelId: number): Promise<MessageMedia> {
  const res = await env.t.app.inject({
    method: 'POST',
    url: `${FUNNELS_API.media(funnelId)}?filename=dot.png`,
    headers: { authorization: `Token ${key}`, 'content-type': 'image/png' },
    payload: PNG,
  });
  return ok<MessageMedia>(res, 201);
}

describe('stages', () => {
  it('are appended in order with defaults, listed by position with people counts', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const tag = await addTag(env, key, funnel.id, 'lead');
    const a = await addStage(env, key, funnel.id, { title: ' Welcome ' });
    const b = await addStage(env, key, funnel.id, { title: 'Offer', icon: 'gift', color: '#FF9500', tag_id: tag.id });
    expect(a).toEqual({
      id: a.id,
      funnel_id: funnel.id,
      title: 'Welcome',
      icon: 'flag',
      color: PALETTE[0],
      position: 0,
      tag_id: null,
      message: { text: '', media: null, buttons: [], next_button: null, choices: [] },
      wait: null,
      payment: null,
      ask: null,
      people_count: 0,
    });
    expect(b).toMatchObject({ position: 1, icon: 'gift', color: '#FF9500', tag_id: tag.id });
    await addPerson(env, funnel.id, { stageId: b.id });
    const list = ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id)));
    expect(list.map((s) => [s.title, s.people_count])).toEqual([
      ['Welcome', 0],
      ['Offer', 1],
    ]);
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(b.id))).people_count).toBe(1);
  });

  it('refuses a missing, blank or long title, an unknown icon, a bad colour and a tag of another funnel', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const other = await connectFunnel(env, key);
    const foreignTag = await addTag(env, key, other.id, 'x');
    const post = (body: unknown) => call(env, key, 'POST', FUNNELS_API.stages(funnel.id), body);
    expect(expectJsonError(await post({}), 400)).toEqual(fieldsError({ title: [SCHEMA.required] }));
    expect(expectJsonError(await post({ title: '' }), 400)).toEqual(fieldsError({ title: [SCHEMA.blank] }));
    expect(expectJsonError(await post({ title: '  ' }), 400)).toEqual(fieldsError({ title: [SCHEMA.blank] }));
    expect(expectJsonError(await post({ title: 't'.repeat(129) }), 400)).toEqual(fieldsError({ title: [SCHEMA.tooLong(128)] }));
    expect(expectJsonError(await post({ title: 'ok', icon: 'rocket', color: 'red' }), 400)).toEqual(fieldsError({ icon: [SCHEMA.choice('rocket')], color: [SCHEMA.invalid('Enter a valid colour: #rrggbb.')] }));
    expect(expectJsonError(await post({ title: 'ok', tag_id: foreignTag.id }), 400)).toEqual(fieldsError({ tag_id: [COMMON_ERRORS.doesNotExist(foreignTag.id)] }));
    expect(expectJsonError(await post({ title: 'ok', tag_id: 'one' }), 400)).toEqual(fieldsError({ tag_id: [SCHEMA.notAnInteger] }));
    expect(ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id)))).toEqual([]);
  });

  it(`stops at ${STAGES_MAX} stages`, async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    await env.t.db.orm.insert(stages).values(Array.from({ length: STAGES_MAX }, (_, i) => ({ funnelId: funnel.id, title: `S${i}`, position: i })));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'one more' }), 400)).toEqual(detailError(FUNNEL_ERRORS.tooManyStages));
  });

  it('PATCH changes fields; null clears the tag; DELETE leaves its people without a stage', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const tag = await addTag(env, key, funnel.id, 'lead');
    const stage = await addStage(env, key, funnel.id, { tag_id: tag.id });
    const patched = ok<Stage>(await call(env, key, 'PATCH', FUNNELS_API.stage(stage.id), { title: 'New', icon: 'star', color: '#000000', tag_id: null }));
    expect(patched).toMatchObject({ title: 'New', icon: 'star', color: '#000000', tag_id: null });
    expect(expectJsonError(await call(env, key, 'PATCH', FUNNELS_API.stage(stage.id), { title: '' }), 400)).toEqual(fieldsError({ title: [SCHEMA.blank] }));
    const person = await addPerson(env, funnel.id, { stageId: stage.id });
    expect((await call(env, key, 'DELETE', FUNNELS_API.stage(stage.id))).statusCode).toBe(204);
    expect(expectJsonError(await call(env, key, 'GET', FUNNELS_API.stage(stage.id)), 404)).toEqual(NOT_FOUND);
    const [row] = await env.t.db.orm.select().from(people).where(eq(people.id, person.id));
    expect(row.stageId).toBeNull();
  });
});

describe('POST stages/order/', () => {
  it('reorders and inserts while the bot is not running; a running bot answers 409 and nothing moves', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const [a, b, c] = [await addStage(env, key, funnel.id, { title: 'A' }), await addStage(env, key, funnel.id, { title: 'B' }), await addStage(env, key, funnel.id, { title: 'C' })];
    const reordered = ok<Stage[]>(await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids: [c.id, a.id, b.id] }));
    expect(reordered.map((s) => [s.title, s.position])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ]);
    // A new stage goes after the last one.
    const d = await addStage(env, key, funnel.id, { title: 'D' });
    expect(d.position).toBe(3);

    for (const stage of [a, b, c, d]) {
      ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(stage.id), { text: stage.title, media_id: null, buttons: [], next_button: null }));
    }
    ok(await call(env, key, 'POST', FUNNELS_API.run(funnel.id)));
    const titles = async () => ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id))).map((s) => s.title);
    const locked = await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids: [a.id, b.id, c.id, d.id] });
    expect(expectJsonError(locked, 409)).toEqual({ detail: 'Stop the bot to change the order of stages.', code: 'order_locked' });
    const between = await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'X', position: 1 });
    expect(expectJsonError(between, 409)).toEqual({ detail: 'Stop the bot to change the order of stages.', code: 'order_locked' });
    // Appending is fine while it runs.
    expect(ok<Stage>(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'E', position: 5 }), 201).position).toBe(4);
    expect(await titles()).toEqual(['C', 'A', 'B', 'D', 'E']);

    // Stopped (after a run): reorder and insert between others.
    const stopped = ok<Funnel>(await call(env, key, 'POST', FUNNELS_API.stop(funnel.id)));
    expect(stopped).toMatchObject({ stage_order_locked: false, was_run: true });
    ok(await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids: [a.id, b.id, c.id, d.id, (await titlesIds())[4]] }));
    const x = ok<Stage>(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'X', position: 1 }), 201);
    expect(x.position).toBe(1);
    expect(await titles()).toEqual(['A', 'X', 'B', 'C', 'D', 'E']);
    const first = ok<Stage>(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'First', position: 0 }), 201);
    expect(ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id))).map((s) => [s.title, s.position])).toEqual([
      ['First', 0],
      ['A', 1],
      ['X', 2],
      ['B', 3],
      ['C', 4],
      ['D', 5],
      ['E', 6],
    ]);
    expect(first.position).toBe(0);
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.stages(funnel.id), { title: 'Y', position: -1 }), 400)).toHaveProperty('position');

    async function titlesIds() {
      return ok<Stage[]>(await call(env, key, 'GET', FUNNELS_API.stages(funnel.id))).map((s) => s.id);
    }
  });

  it("must name exactly the funnel's stages", async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const other = await connectFunnel(env, key);
    const [a, b] = [await addStage(env, key, funnel.id), await addStage(env, key, funnel.id)];
    const foreign = await addStage(env, key, other.id);
    for (const stage_ids of [[a.id], [a.id, a.id], [a.id, b.id, foreign.id], [a.id, foreign.id], []]) {
      const res = await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids });
      expect(expectJsonError(res, 400)).toEqual(fieldsError({ stage_ids: [FUNNEL_ERRORS.orderMismatch] }));
    }
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), {}), 400)).toEqual(fieldsError({ stage_ids: [SCHEMA.required] }));
    expect(expectJsonError(await call(env, key, 'POST', FUNNELS_API.stageOrder(funnel.id), { stage_ids: ['x'] }), 400)).toEqual(fieldsError({ stage_ids: [SCHEMA.notAnInteger] }));
  });
});

describe('PUT stages/:id/message/', () => {
  const put = (key: string, id: number, body: unknown) => call(env, key, 'PUT', FUNNELS_API.stageMessage(id), body);

  it('stores Telegram HTML, buttons, the next-step button and media', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const photo = await uploadPhoto(key, funnel.id);
    const body = {
      text: '<b>Hi</b> <i>there</i>, <a href="https://example.com/?a=1&amp;b=2">look</a> <span class="tg-spoiler">secret</span> <tg-spoiler>x</tg-spoiler> &lt;3',
      media_id: photo.id,
      buttons: [
        { text: 'Site', url: 'https://example.com' },
        { text: 'Channel', url: 'tg://resolve?domain=durov' },
      ],
      next_button: { text: 'Next ➡️' },
    };
    const message = ok<MessageContent>(await put(key, stage.id, body));
    expect(message).toEqual({ text: body.text, media: photo, buttons: body.buttons, next_button: body.next_button, choices: [] });
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stage.id))).message).toEqual(message);
    // Optional parts default to none.
    expect(ok<MessageContent>(await put(key, stage.id, { text: 'Plain' }))).toEqual({ text: 'Plain', media: null, buttons: [], next_button: null, choices: [] });
  });

  it('refuses tags Telegram does not support and unbalanced tags', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const cases: Array<[string, string]> = [
      ['<div>x</div>', 'Telegram does not support the <div> tag.'],
      ['<script>alert(1)</script>', 'Telegram does not support the <script> tag.'],
      ['<b>bold', 'The <b> tag is not closed.'],
      ['bold</b>', '</b> closes a tag that is not open.'],
      ['<b><i>x</b></i>', 'The <i> tag is closed by </b>'],
      ['<a>no link</a>', 'A link needs an address'],
      ['<b onclick="x">x</b>', 'can\'t have the "onclick" attribute'],
      ['<span>x</span>', 'Only <span class="tg-spoiler"> is allowed.'],
      ['1 < 2', 'Write "<" as &lt;'],
    ];
    for (const [text, problem] of cases) {
      const body = expectJsonError(await put(key, stage.id, { text }), 400) as { text: string[]; codes: Record<string, unknown> };
      expect(Object.keys(body), text).toEqual(['text', 'codes']);
      expect(body.text[0], text).toContain(problem);
      expect(body.codes, text).toEqual({ text: [{ code: 'bad_html', detail: body.text[0] }] });
    }
    expect(ok<Stage>(await call(env, key, 'GET', FUNNELS_API.stage(stage.id))).message.text).toBe('');
  });

  it('counts the visible text against 4096, or 1024 with media', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const photo = await uploadPhoto(key, funnel.id);
    // Tags and entities do not count: 4096 visible characters wrapped in <b> with &amp; pass.
    const full = `<b>${'a'.repeat(MESSAGE_TEXT_MAX - 1)}&amp;</b>`;
    ok(await put(key, stage.id, { text: full }));
    expect(expectJsonError(await put(key, stage.id, { text: 'a'.repeat(MESSAGE_TEXT_MAX + 1) }), 400)).toEqual(fieldsError({ text: [SCHEMA.tooLong(4096)] }));
    ok(await put(key, stage.id, { text: `<i>${'c'.repeat(CAPTION_MAX)}</i>`, media_id: photo.id }));
    expect(expectJsonError(await put(key, stage.id, { text: 'c'.repeat(CAPTION_MAX + 1), media_id: photo.id }), 400)).toEqual(fieldsError({ text: [SCHEMA.tooLong(1024)] }));
    // Telegram counts UTF-16 code units: an emoji is two.
    expect(expectJsonError(await put(key, stage.id, { text: '😀'.repeat(CAPTION_MAX / 2) + 'x', media_id: photo.id }), 400)).toEqual(fieldsError({ text: [SCHEMA.tooLong(1024)] }));
    // A caption may be empty; a text message may not.
    ok(await put(key, stage.id, { text: '', media_id: photo.id }));
    expect(expectJsonError(await put(key, stage.id, { text: '<b> </b>' }), 400)).toEqual(fieldsError({ text: [SCHEMA.blank] }));
  });

  it('checks buttons, the next-step button and media', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key);
    const other = await connectFunnel(env, key);
    const stage = await addStage(env, key, funnel.id);
    const foreignPhoto = await uploadPhoto(key, other.id);
    const button = { text: 'Go', url: 'https://example.com' };
    expect(expectJsonError(await put(key, stage.id, { text: 'x', buttons: Array(URL_BUTTONS_MAX + 1).fill(button) }), 400)).toEqual(fieldsError({ buttons: [SCHEMA.invalid(`Ensure this field has no more than ${URL_BUTTONS_MAX} elements.`, URL_BUTTONS_MAX)] }));
    expect(expectJsonError(await put(key, stage.id, { text: 'x', buttons: [{ text: 'g'.repeat(65), url: button.url }] }), 400)).toEqual(fieldsError({ buttons: [SCHEMA.tooLong(64)] }));
    for (const url of ['javascript:alert(1)', 'ftp://example.com', 'example.com', 'https://']) {
      expect(expectJsonError(await put(key, stage.id, { text: 'x', buttons: [{ text: 'Go', url }] }), 400), url).toEqual(fieldsError({ buttons: [MESSAGE_ERRORS.badButtonUrl] }));
    }
    expect(expectJsonError(await put(key, stage.id, { text: 'x', buttons: [{ text: ' ', url: button.url }] }), 400)).toEqual(fieldsError({ buttons: [COMMON_ERRORS.blank] }));
    expect(expectJsonError(await put(key, stage.id, { text: 'x', next_button: { text: 'n'.repeat(65) } }), 400)).toEqual(fieldsError({ next_button: [SCHEMA.tooLong(64)] }));
    expect(expectJsonError(await put(key, stage.id, { text: 'x', next_button: {} }), 400)).toEqual(fieldsError({ next_button: [COMMON_ERRORS.required] }));
    expect(expectJsonError(await put(key, stage.id, { text: 'x', media_id: foreignPhoto.id }), 400)).toEqual(fieldsError({ media_id: [COMMON_ERRORS.doesNotExist(foreignPhoto.id)] }));
    expect(expectJsonError(await put(key, stage.id, { text: 'x', buttons: [{ text: 'Go' }] }), 400)).toEqual(fieldsError({ buttons: [COMMON_ERRORS.required] }));
    expect(expectJsonError(await put(key, stage.id, {}), 400)).toEqual(fieldsError({ text: [SCHEMA.required] }));
  });
});

describe('ownership', () => {
  it("another user's stage is 404 on every stage route", async () => {
    const [owner, stranger] = [await user(env), await user(env)];
    const funnel = await connectFunnel(env, owner);
    const stage = await addStage(env, owner, funnel.id, { title: 'Mine' });
    const attempts: Array<[Parameters<typeof call>[2], string, unknown?]> = [
      ['GET', FUNNELS_API.stage(stage.id)],
      ['PATCH', FUNNELS_API.stage(stage.id), { title: 'Stolen' }],
      ['PUT', FUNNELS_API.stageMessage(stage.id), { text: 'Stolen' }],
      ['DELETE', FUNNELS_API.stage(stage.id)],
    ];
    for (const [method, url, body] of attempts) {
      expect(expectJsonError(await call(env, stranger, method, url, body), 404), `${method} ${url}`).toEqual(NOT_FOUND);
    }
    const after = ok<Stage>(await call(env, owner, 'GET', FUNNELS_API.stage(stage.id)));
    expect(after).toMatchObject({ title: 'Mine', message: { text: '' } });
    // A stage of another user's funnel cannot be named in one's own order either.
    const mine = await connectFunnel(env, stranger);
    const res = await call(env, stranger, 'POST', FUNNELS_API.stageOrder(mine.id), { stage_ids: [stage.id] });
    expect(expectJsonError(res, 400)).toEqual(fieldsError({ stage_ids: [FUNNEL_ERRORS.orderMismatch] }));
  });
});
