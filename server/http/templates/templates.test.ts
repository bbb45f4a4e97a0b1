// Templates through the API: an admin publishes a funnel (stages, messages with media, tags, a
// series of letters) as a snapshot; others preview and add it as a draft funnel without a bot,
// connect their own bot and run it; a new version never changes funnels already made, whose
// owners are told what changed and may take it while their funnel has never run. Admin-only calls
// are 403 for everyone else; an unpublished template is 404 to others.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CRM_API, type Folder } from '../../../contract/crm';
import { FIELDS_API, type FunnelField } from '../../../contract/fields';
import { FUNNELS_API, type Funnel, type MessageMedia, type Stage } from '../../../contract/funnels';
import { LETTERS_API, type Series } from '../../../contract/letters';
import { TEMPLATES_API, type FunnelTemplate, type Template, type TemplateStats, type TemplateSummary } from '../../../contract/templates';
import { setRole } from '../../accounts/roles';
import { funnels, media, stages } from '../../db/schema';
import { addPerson, addRunnableStage, addTag, call, connectFunnel, NOT_FOUND, newBot, ok, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError, signedInUser } from '../../test/helpers';

const env = useFunnelsTestEnv();
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };

async function admin(): Promise<string> {
  const account = await signedInUser(env.t);
  await setRole(env.t.db, account.email, 'admin');
  return account.key;
}
const someone = async () => (await signedInUser(env.t)).key;

async function upload(key: string, url: string, type: string, body: Buffer, method: 'POST' | 'PUT' = 'POST') {
  return env.t.app.inject({ method, url, headers: { authorization: `Token ${key}`, 'content-type': type }, payload: body });
}

/** An admin's funnel: two stages (the first with a photo and the tag 'lead'), a series with a letter. */
async function sourceFunnel(key: string) {
  const funnel = await connectFunnel(env, key, 'Course launch');
  const tag = await addTag(env, key, funnel.id, 'lead');
  const photo = ok<MessageMedia>(await upload(key, `${FUNNELS_API.media(funnel.id)}?filename=dot.png`, 'image/png', PNG), 201);
  const first = await addRunnableStage(env, key, funnel.id, { title: 'Welcome', tag_id: tag.id });
  ok(await call(env, key, 'PUT', FUNNELS_API.stageMessage(first.id), { text: 'Hi {first_name|friend}!', media_id: photo.id, buttons: [{ text: 'Site', url: 'https://example.com' }], next_button: { text: 'Next' } }));
  const second = await addRunnableStage(env, key, funnel.id, { title: 'Offer' });
  const series = ok<Series>(await call(env, key, 'POST', LETTERS_API.series(funnel.id), { name: 'Warm-up', join_on: { on: 'stage', stage_id: second.id, tag_id: null }, leave_on: { stage_id: null, tag_id: tag.id } }), 201);
  ok(await call(env, key, 'POST', LETTERS_API.letters(series.id), { name: 'Day 1', message: { text: 'Day one' }, sending_time: { kind: 'through', every: 1, unit: 'days', time_of_day: '10:00' }, enabled: true }), 201);
  return { funnel, first, second, photo, tag, series };
}

describe('templates', () => {
  it('an admin publishes a funnel; another user previews it, adds it, connects a bot and runs it', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Launch a course', description: 'Two stages and a warm-up' }), 201);
    expect(template).toMatchObject({ name: 'Launch a course', description: 'Two stages and a warm-up', version: 1, stage_count: 2, published: true, mine: true, source_funnel_id: source.funnel.id, cover_url: null });
    expect(template.stages.map((s) => [s.title, s.tag, s.message.text, s.message.next_button])).toEqual([
      ['Welcome', 'lead', 'Hi {first_name|friend}!', { text: 'Next' }],
      ['Offer', null, 'Hello from Offer', null],
    ]);
    expect(template.tags).toEqual([{ title: 'lead', color: expect.any(String) }]);
    expect(template.series).toEqual([{ name: 'Warm-up', letters: [{ name: 'Day 1' }] }]);
    // The preview's photo is a copy, served without credentials.
    const picture = template.stages[0].message.media!;
    expect(picture.kind).toBe('photo');
    const file = await env.t.app.inject({ method: 'GET', url: picture.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);

    const affiliate = await someone();
    const listed = ok<TemplateSummary[]>(await call(env, affiliate, 'GET', TEMPLATES_API.templates));
    expect(listed.find((t) => t.id === template.id)).toMatchObject({ name: 'Launch a course', mine: false, source_funnel_id: null, stage_count: 2 });
    expect(ok<Template>(await call(env, affiliate, 'GET', TEMPLATES_API.template(template.id))).stages).toHaveLength(2);

    const made = ok<Funnel>(await call(env, affiliate, 'POST', TEMPLATES_API.add(template.id)), 201);
    expect(made).toMatchObject({ name: 'Launch a course', state: 'draft', bot_id: null, bot_username: null, bot_token_hint: null, stage_count: 2, template_id: template.id });
    // Its own copies: stages, the tag on the first stage, the photo, the series and its letter.
    const madeStages = ok<Stage[]>(await call(env, affiliate, 'GET', FUNNELS_API.stages(made.id)));
    expect(madeStages.map((s) => s.title)).toEqual(['Welcome', 'Offer']);
    expect(madeStages[0].message.media?.id).not.toBe(source.photo.id);
    expect(madeStages[0].message.buttons).toEqual([{ text: 'Site', url: 'https://example.com' }]);
    const [copied] = await env.t.db.orm.select().from(media).where(eq(media.funnelId, made.id));
    expect(Buffer.from(copied.data).equals(PNG)).toBe(true);
    const madeSeries = ok<Series[]>(await call(env, affiliate, 'GET', LETTERS_API.series(made.id)));
    expect(madeSeries).toHaveLength(1);
    expect(madeSeries[0].join_on).toEqual({ on: 'stage', stage_id: madeStages[1].id, tag_id: null });

    // No bot yet: it cannot run, and says why; then the affiliate connects their own bot and runs it.
    const check = ok<{ problems: Array<{ code: string }> }>(await call(env, affiliate, 'GET', `${FUNNELS_API.run(made.id)}`));
    expect(check.problems.map((p) => p.code)).toEqual(['no_bot']);
    const bot = newBot(env);
    const connected = ok<Funnel>(await call(env, affiliate, 'PUT', FUNNELS_API.token(made.id), { bot_token: bot.token }));
    expect(connected.bot_username).toBe(bot.username);
    expect(ok<Funnel>(await call(env, affiliate, 'POST', FUNNELS_API.run(made.id))).state).toBe('running');

    const stats = ok<TemplateStats>(await call(env, adminKey, 'GET', TEMPLATES_API.stats(template.id)));
    expect(stats).toMatchObject({ added: 1, connected: 1, running: 1, people: 0 });
    expect(stats.days).toHaveLength(30);
    expect(stats.days.at(-1)).toMatchObject({ added: 1 });
  });

  it('a new version leaves funnels already made alone; their owners see what changed and may take it until they run', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Versions' }), 201);
    const owner = await someone();
    const early = ok<Funnel>(await call(env, owner, 'POST', TEMPLATES_API.add(template.id)), 201);
    const ran = ok<Funnel>(await call(env, owner, 'POST', TEMPLATES_API.add(template.id)), 201);
    await env.t.db.orm.update(funnels).set({ firstRunAt: new Date() }).where(eq(funnels.id, ran.id));
    expect(ok<FunnelTemplate>(await call(env, owner, 'GET', TEMPLATES_API.funnelTemplate(early.id)))).toMatchObject({ version: 1, latest_version: 1, update_available: false, changes: [] });

    // The source funnel changes after publishing: nothing leaks into the template or its funnels.
    ok(await call(env, adminKey, 'PATCH', FUNNELS_API.stage(source.first.id), { title: 'Hello there' }));
    await addRunnableStage(env, adminKey, source.funnel.id, { title: 'Bonus' });
    expect(ok<Template>(await call(env, owner, 'GET', TEMPLATES_API.template(template.id))).stages.map((s) => s.title)).toEqual(['Welcome', 'Offer']);

    const v2 = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.versions(template.id)), 201);
    expect(v2).toMatchObject({ version: 2, stage_count: 3 });
    expect(ok<Stage[]>(await call(env, owner, 'GET', FUNNELS_API.stages(early.id))).map((s) => s.title)).toEqual(['Welcome', 'Offer']);

    const status = ok<FunnelTemplate>(await call(env, owner, 'GET', TEMPLATES_API.funnelTemplate(early.id)));
    expect(status).toEqual({ template_id: template.id, name: 'Versions', version: 1, latest_version: 2, update_available: true, changes: ['stages_added', 'stages_changed'], can_apply: true });
    expect(ok<FunnelTemplate>(await call(env, owner, 'GET', TEMPLATES_API.funnelTemplate(ran.id)))).toMatchObject({ update_available: true, can_apply: false });

    const applied = ok<FunnelTemplate>(await call(env, owner, 'POST', TEMPLATES_API.funnelTemplateUpdate(early.id)));
    expect(applied).toMatchObject({ version: 2, update_available: false });
    expect(ok<Stage[]>(await call(env, owner, 'GET', FUNNELS_API.stages(early.id))).map((s) => s.title)).toEqual(['Hello there', 'Offer', 'Bonus']);
    expect(await env.t.db.orm.select().from(media).where(eq(media.funnelId, early.id))).toHaveLength(1); // the old copy went with the old stages

    expect(expectJsonError(await call(env, owner, 'POST', TEMPLATES_API.funnelTemplateUpdate(ran.id)), 409)).toEqual({ detail: 'This funnel has been run: take a fresh copy of the template instead.', code: 'funnel_was_run' });
    expect(expectJsonError(await call(env, owner, 'POST', TEMPLATES_API.funnelTemplateUpdate(early.id)), 409)).toMatchObject({ code: 'template_up_to_date' });
    const handMade = await connectFunnel(env, owner);
    expect(expectJsonError(await call(env, owner, 'GET', TEMPLATES_API.funnelTemplate(handMade.id)), 400)).toMatchObject({ code: 'not_from_template' });
    // The stages of the funnel that ran are untouched.
    expect(await env.t.db.orm.select({ title: stages.title }).from(stages).where(eq(stages.funnelId, ran.id))).toHaveLength(2);
  });

  it('a funnel made from a template keeps its fields and what each stage asks for, and a newer version brings its own', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const email = ok<FunnelField>(await call(env, adminKey, 'POST', FIELDS_API.fields(source.funnel.id), { title: 'E-mail', key: 'email_address', kind: 'email' }), 201);
    ok(await call(env, adminKey, 'POST', FIELDS_API.fields(source.funnel.id), { title: 'Plan', kind: 'choice', options: ['Basic', 'Pro'] }), 201);
    ok(await call(env, adminKey, 'PUT', FIELDS_API.stageAsk(source.funnel.id, source.first.id), { field_id: email.id, reask_text: 'That is not an e-mail.' }));
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Asks' }), 201);

    const owner = await someone();
    const made = ok<Funnel>(await call(env, owner, 'POST', TEMPLATES_API.add(template.id)), 201);
    const madeFields = ok<FunnelField[]>(await call(env, owner, 'GET', FIELDS_API.fields(made.id)));
    expect(madeFields.map(({ key, title, kind, options }) => ({ key, title, kind, options }))).toEqual([
      { key: 'email_address', title: 'E-mail', kind: 'email', options: [] },
      { key: 'plan', title: 'Plan', kind: 'choice', options: ['Basic', 'Pro'] },
    ]);
    const [welcome, offer] = ok<Stage[]>(await call(env, owner, 'GET', FUNNELS_API.stages(made.id)));
    // The ask names the new funnel's own field, not the source's.
    expect(welcome.ask).toEqual({ field_id: madeFields[0].id, reask_text: 'That is not an e-mail.' });
    expect(madeFields[0].asked_by).toEqual([{ id: welcome.id, title: 'Welcome' }]);
    expect(offer.ask).toBeNull();

    // A newer version, applied to the funnel that never ran, replaces the fields (no clash of keys).
    ok(await call(env, adminKey, 'PATCH', FIELDS_API.field(source.funnel.id, email.id), { title: 'Your e-mail' }));
    ok(await call(env, adminKey, 'POST', TEMPLATES_API.versions(template.id)), 201);
    ok<FunnelTemplate>(await call(env, owner, 'POST', TEMPLATES_API.funnelTemplateUpdate(made.id)));
    const updated = ok<FunnelField[]>(await call(env, owner, 'GET', FIELDS_API.fields(made.id)));
    expect(updated.map((f) => [f.key, f.title])).toEqual([
      ['email_address', 'Your e-mail'],
      ['plan', 'Plan'],
    ]);
    const [welcomeAgain] = ok<Stage[]>(await call(env, owner, 'GET', FUNNELS_API.stages(made.id)));
    expect(welcomeAgain.ask).toEqual({ field_id: updated[0].id, reask_text: 'That is not an e-mail.' });
  });

  it('admin-only calls are 403 for everyone else; publishers only touch their own templates', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Guarded' }), 201);
    const userKey = await someone();
    const own = await connectFunnel(env, userKey);
    await addRunnableStage(env, userKey, own.id);
    expect(expectJsonError(await call(env, userKey, 'POST', TEMPLATES_API.templates, { funnel_id: own.id, name: 'Mine' }), 403)).toEqual(FORBIDDEN);
    expect(expectJsonError(await call(env, userKey, 'PATCH', TEMPLATES_API.template(template.id), { published: false }), 403)).toEqual(FORBIDDEN);
    expect(expectJsonError(await call(env, userKey, 'POST', TEMPLATES_API.versions(template.id)), 403)).toEqual(FORBIDDEN);
    expect(expectJsonError(await call(env, userKey, 'GET', TEMPLATES_API.stats(template.id)), 403)).toEqual(FORBIDDEN);
    expect(expectJsonError(await upload(userKey, TEMPLATES_API.cover(template.id), 'image/png', PNG, 'PUT'), 403)).toEqual(FORBIDDEN);

    // Another admin: someone else's template is 404, and their funnel cannot be published.
    const otherAdmin = await admin();
    expect(expectJsonError(await call(env, otherAdmin, 'PATCH', TEMPLATES_API.template(template.id), { name: 'Taken' }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, otherAdmin, 'GET', TEMPLATES_API.stats(template.id)), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, otherAdmin, 'POST', TEMPLATES_API.templates, { funnel_id: own.id, name: 'Not mine' }), 400)).toEqual({
      funnel_id: [`Invalid pk "${own.id}" - object does not exist.`],
      codes: { funnel_id: [{ code: 'does_not_exist' }] },
    });
    const empty = await connectFunnel(env, adminKey);
    expect(expectJsonError(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: empty.id, name: 'Empty' }), 400)).toMatchObject({ codes: { funnel_id: [{ code: 'template_without_stages' }] } });
    expect(expectJsonError(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: '' }), 400)).toHaveProperty('name');

    // Unpublished: gone from everyone else's list, 404 to preview or add; funnels made stay.
    const made = ok<Funnel>(await call(env, userKey, 'POST', TEMPLATES_API.add(template.id)), 201);
    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: false }));
    expect(ok<TemplateSummary[]>(await call(env, userKey, 'GET', TEMPLATES_API.templates)).map((t) => t.id)).not.toContain(template.id);
    expect(ok<TemplateSummary[]>(await call(env, adminKey, 'GET', TEMPLATES_API.templates)).find((t) => t.id === template.id)).toMatchObject({ published: false });
    expect(expectJsonError(await call(env, userKey, 'GET', TEMPLATES_API.template(template.id)), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, userKey, 'POST', TEMPLATES_API.add(template.id)), 404)).toEqual(NOT_FOUND);
    expect(ok<Funnel>(await call(env, userKey, 'GET', FUNNELS_API.funnel(made.id)))).toMatchObject({ template_id: template.id, stage_count: 2 });
    expect(expectJsonError(await call(env, userKey, 'GET', TEMPLATES_API.template(999_999)), 404)).toEqual(NOT_FOUND);
  });

  it('takes a cover picture (JPEG, PNG or WebP up to 5 MB) and serves it to anyone', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Covered' }), 201);
    const covered = ok<Template>(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/png', PNG, 'PUT'));
    expect(covered.cover_url).toMatch(new RegExp(`^${TEMPLATES_API.cover(template.id)}\\?v=\\d+$`));
    const picture = await env.t.app.inject({ method: 'GET', url: covered.cover_url! });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.equals(PNG)).toBe(true);

    expect(expectJsonError(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/png', Buffer.alloc(5 * 1024 * 1024 + 1), 'PUT'), 413)).toEqual({ detail: 'File too big', code: 'file_too_big', count: 5 });
    expect(expectJsonError(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/gif', PNG, 'PUT'), 415)).toEqual({ detail: 'Upload a JPEG, PNG or WebP picture.', code: 'unsupported_file' });
    expect(expectJsonError(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/png', Buffer.alloc(0), 'PUT'), 400)).toMatchObject({ code: 'empty_file' });
    // Checked by content: a text file sent as a JPEG is 'Incorrect data', and the cover stays the PNG.
    const text = Buffer.from('plain text, renamed cover.jpg');
    expect(expectJsonError(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/jpeg', text, 'PUT'), 400)).toEqual({ detail: 'Incorrect data', code: 'incorrect_data' });
    expect((await env.t.app.inject({ method: 'GET', url: TEMPLATES_API.cover(template.id) })).rawPayload.equals(PNG)).toBe(true);
  });

  it("a published template's public card is read without credentials, with only what the card shows; unpublished or unknown is 404", async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Public card', description: 'Warms people up in two stages' }), 201);
    ok(await upload(adminKey, TEMPLATES_API.cover(template.id), 'image/png', PNG, 'PUT'));
    const res = await env.t.app.inject({ method: 'GET', url: TEMPLATES_API.card(template.id) });
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json();
    expect(card).toEqual({ id: template.id, name: 'Public card', description: 'Warms people up in two stages', cover_url: expect.stringContaining(TEMPLATES_API.cover(template.id)), stage_count: 2, letter_count: 1 });
    expect((await env.t.app.inject({ method: 'GET', url: card.cover_url })).statusCode).toBe(200);

    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: false }));
    expect(expectJsonError(await env.t.app.inject({ method: 'GET', url: TEMPLATES_API.card(template.id) }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await env.t.app.inject({ method: 'GET', url: TEMPLATES_API.card(987_654) }), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await env.t.app.inject({ method: 'GET', url: TEMPLATES_API.card(0) }), 404)).toEqual(NOT_FOUND);
  });

  it('counts people reached through the funnels made from a template', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Reach' }), 201);
    const a = ok<Funnel>(await call(env, await someone(), 'POST', TEMPLATES_API.add(template.id)), 201);
    const b = ok<Funnel>(await call(env, await someone(), 'POST', TEMPLATES_API.add(template.id)), 201);
    await addPerson(env, a.id);
    await addPerson(env, a.id);
    await addPerson(env, b.id);
    await addPerson(env, source.funnel.id); // the source's own people are not the template's reach
    const stats = ok<TemplateStats>(await call(env, adminKey, 'GET', TEMPLATES_API.stats(template.id)));
    expect(stats).toMatchObject({ added: 2, connected: 0, running: 0, people: 3 });
    expect(stats.days.at(-1)).toMatchObject({ added: 2, people: 3 });
  });

  it('checks the role before the body: a non-admin gets 403 for every admin-only call, whatever its body or id', async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Guarded body' }), 201);
    const userKey = await someone();
    const json = (method: 'POST' | 'PATCH' | 'GET' | 'PUT', url: string, payload?: unknown) => call(env, userKey, method, url, payload);
    const calls: Array<[string, () => ReturnType<typeof json>]> = [
      ['create, empty body', () => json('POST', TEMPLATES_API.templates, {})],
      ['create, wrong types', () => json('POST', TEMPLATES_API.templates, { funnel_id: 'x', name: 5 })],
      ['update, wrong types', () => json('PATCH', TEMPLATES_API.template(template.id), { published: 'yes', name: 5 })],
      ['update, no such template', () => json('PATCH', TEMPLATES_API.template(999_999), {})],
      ['new version', () => json('POST', TEMPLATES_API.versions(template.id), {})],
      ['stats of no such template', () => json('GET', TEMPLATES_API.stats(999_999))],
      ['cover as JSON', () => json('PUT', TEMPLATES_API.cover(template.id), {})],
      ['cover of no such template', () => upload(userKey, TEMPLATES_API.cover(999_999), 'image/png', PNG, 'PUT')],
    ];
    for (const [what, send] of calls) {
      const res = await send();
      expect(res.statusCode, `${what}: ${res.body}`).toBe(403);
      expect(res.json(), what).toEqual(FORBIDDEN);
    }
    // An admin still gets the fields that are wrong.
    expect(expectJsonError(await call(env, adminKey, 'POST', TEMPLATES_API.templates, {}), 400)).toHaveProperty('funnel_id');
  });

  it("others keep seeing what was published: a funnel keeps its version's name, an unpublished template leaves their folder", async () => {
    const adminKey = await admin();
    const source = await sourceFunnel(adminKey);
    const template = ok<Template>(await call(env, adminKey, 'POST', TEMPLATES_API.templates, { funnel_id: source.funnel.id, name: 'Spring sale' }), 201);
    const userKey = await someone();
    const made = ok<Funnel>(await call(env, userKey, 'POST', TEMPLATES_API.add(template.id)), 201);
    const folder = ok<Folder>(await call(env, userKey, 'POST', CRM_API.folders, { name: 'Clients' }), 201);
    ok(await call(env, userKey, 'POST', CRM_API.templates(folder.id), { template_id: template.id }));
    expect(ok<Folder>(await call(env, userKey, 'GET', CRM_API.folder(folder.id))).templates.map((t) => t.name)).toEqual(['Spring sale']);

    // The publisher takes it down and renames it: that name was never published.
    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: false, name: 'Secret plan' }));
    expect(ok<FunnelTemplate>(await call(env, userKey, 'GET', TEMPLATES_API.funnelTemplate(made.id))).name).toBe('Spring sale');
    expect(ok<Folder>(await call(env, userKey, 'GET', CRM_API.folder(folder.id))).templates).toEqual([]);
    expect(JSON.stringify(ok(await call(env, userKey, 'GET', CRM_API.folder(folder.id))))).not.toContain('Secret plan');

    // The publisher sees their own template as it is now.
    const adminFolder = ok<Folder>(await call(env, adminKey, 'POST', CRM_API.folders, { name: 'Mine' }), 201);
    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: true }));
    ok(await call(env, adminKey, 'POST', CRM_API.templates(adminFolder.id), { template_id: template.id }));
    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: false }));
    expect(ok<Folder>(await call(env, adminKey, 'GET', CRM_API.folder(adminFolder.id))).templates).toMatchObject([{ name: 'Secret plan', published: false }]);

    // Published again under the new name: now that name is what everyone sees in the folder, and
    // a funnel made from the new version shows it; the old funnel keeps its own version's name.
    ok(await call(env, adminKey, 'PATCH', TEMPLATES_API.template(template.id), { published: true }));
    ok(await call(env, adminKey, 'POST', TEMPLATES_API.versions(template.id)), 201);
    expect(ok<Folder>(await call(env, userKey, 'GET', CRM_API.folder(folder.id))).templates.map((t) => t.name)).toEqual(['Secret plan']);
    const later = ok<Funnel>(await call(env, userKey, 'POST', TEMPLATES_API.add(template.id)), 201);
    expect(ok<FunnelTemplate>(await call(env, userKey, 'GET', TEMPLATES_API.funnelTemplate(later.id))).name).toBe('Secret plan');
    expect(ok<FunnelTemplate>(await call(env, userKey, 'GET', TEMPLATES_API.funnelTemplate(made.id))).name).toBe('Spring sale');
  });
});
