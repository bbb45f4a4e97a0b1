// CRM folders and lists through the API: a folder's picture and background ('File too big' past
// the limit), its funnels (one folder each), templates and lists, copy (lists, not people),
// archive and restore; contacts and funnels filtered by folder; static lists and live segments
// with their counts, a list as a mailing's audience (only its people get the message), the
// contact across bots, and ownership: another user's folders and lists are 404.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONTACTS_API, type ContactsPage } from '../../../contract/contacts';
import { CRM_API, type ContactList, type Folder, type FolderSummary, type ListMembersResult } from '../../../contract/crm';
import { FUNNELS_API, type ContactHistoryEntry, type Funnel, type PersonDetail } from '../../../contract/funnels';
import { MAILINGS_API, type AudienceCount, type Mailing } from '../../../contract/mailings';
import { funnels, people, personEvents } from '../../db/schema';
import { eventually } from '../../test/eventually';
import { addPerson, addRunnableStage, addStage, addTag, call, connectFunnel, NOT_FOUND, ok, user, useFunnelsTestEnv } from '../../test/funnels-api';
import { expectJsonError, signedInUser } from '../../test/helpers';
import { setRole } from '../../accounts/roles';
import { TEMPLATES_API, type Template } from '../../../contract/templates';
import { addSubscribers, useOutboxSenders } from '../../test/mailings';

const env = useFunnelsTestEnv();
const startSender = useOutboxSenders(env);

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const upload = (key: string, url: string, data: Buffer, type = 'image/png') =>
  env.t.app.inject({ method: 'PUT', url, headers: { authorization: `Token ${key}`, 'content-type': type }, payload: data });
const names = (page: ContactsPage) => page.results.map((c) => c.first_name).sort();

describe('CRM folders', () => {
  it('groups funnels, templates and lists; pictures with limits; copy, archive and restore; filters by folder', async () => {
    const key = await user(env);
    const shop = await connectFunnel(env, key, 'Shop');
    const school = await connectFunnel(env, key, 'School');
    const ann = await addPerson(env, shop.id, { firstName: 'Ann' });
    await addPerson(env, school.id, { firstName: 'Bob' });

    const folder = ok<Folder>(await call(env, key, 'POST', CRM_API.folders, { name: '  Spring sale ' }), 201);
    expect(folder).toMatchObject({ name: 'Spring sale', has_picture: false, has_background: false, archived: false, funnels: [], lists: [], contact_count: 0 });
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.folders, { name: '' }), 400)).toHaveProperty('name');

    // Picture and background: stored, served back, too big is 'File too big' with the limit.
    const withPicture = ok<Folder>(await upload(key, CRM_API.image(folder.id, 'picture'), PNG));
    expect(withPicture.has_picture).toBe(true);
    const served = await call(env, key, 'GET', CRM_API.image(folder.id, 'picture'));
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(expectJsonError(await upload(key, CRM_API.image(folder.id, 'picture'), Buffer.alloc(3 * 1024 * 1024, 1)), 413)).toEqual({
      detail: 'File too big',
      code: 'file_too_big',
      count: 2,
    });
    expect(expectJsonError(await upload(key, CRM_API.image(folder.id, 'background'), Buffer.alloc(6 * 1024 * 1024, 1)), 413)).toMatchObject({ detail: 'File too big', count: 5 });
    expect(expectJsonError(await upload(key, CRM_API.image(folder.id, 'background'), PNG, 'image/gif'), 415)).toMatchObject({ code: 'unsupported_file' });
    // Checked by content: a text file (or a PNG) sent as a WebP is 'Incorrect data', and no background is stored.
    for (const data of [Buffer.from('plain text, renamed bg.webp'), PNG]) {
      expect(expectJsonError(await upload(key, CRM_API.image(folder.id, 'background'), data, 'image/webp'), 400)).toEqual({ detail: 'Incorrect data', code: 'incorrect_data' });
    }
    expect(ok<Folder>(await call(env, key, 'GET', CRM_API.folder(folder.id))).has_background).toBe(false);
    expect(ok<Folder>(await upload(key, CRM_API.image(folder.id, 'background'), WEBP, 'image/webp')).has_background).toBe(true);

    // A funnel is in one folder at most: putting it in another takes it out of the first.
    ok(await call(env, key, 'POST', CRM_API.funnels(folder.id), { funnel_id: shop.id }));
    const other = ok<Folder>(await call(env, key, 'POST', CRM_API.folders, { name: 'Other' }), 201);
    ok(await call(env, key, 'POST', CRM_API.funnels(other.id), { funnel_id: shop.id }));
    expect(ok<Folder>(await call(env, key, 'GET', CRM_API.folder(folder.id))).funnels).toEqual([]);
    ok(await call(env, key, 'POST', CRM_API.funnels(folder.id), { funnel_id: shop.id }));
    const grouped = ok<Folder>(await call(env, key, 'GET', CRM_API.folder(folder.id)));
    expect(grouped).toMatchObject({ funnel_count: 1, contact_count: 1, funnels: [{ id: shop.id, name: 'Shop', people_count: 1 }] });
    expect(ok<Folder>(await call(env, key, 'GET', CRM_API.folder(other.id))).funnels).toEqual([]);

    // The funnels list and the contacts list filtered by folder.
    const inFolder = ok<Funnel[]>(await call(env, key, 'GET', `${FUNNELS_API.funnels}?folder=${folder.id}`));
    expect(inFolder.map((f) => f.name)).toEqual(['Shop']);
    expect(inFolder[0].folder_id).toBe(folder.id);
    expect(names(ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?folder=${folder.id}`)))).toEqual(['Ann']);

    // An archived funnel shows under the folder's archive.
    ok(await call(env, key, 'POST', FUNNELS_API.archive(shop.id)));
    expect(ok<Folder>(await call(env, key, 'GET', CRM_API.folder(folder.id)))).toMatchObject({ funnels: [], archived_funnels: [{ id: shop.id }] });
    ok(await call(env, key, 'POST', FUNNELS_API.restore(shop.id)));

    // A published template pinned to the folder (an admin published it).
    const publisher = await signedInUser(env.t);
    await setRole(env.t.db, publisher.email, 'admin');
    const source = await connectFunnel(env, publisher.key, 'Course');
    await addRunnableStage(env, publisher.key, source.id, { title: 'Hello' });
    const template = ok<Template>(await call(env, publisher.key, 'POST', TEMPLATES_API.templates, { funnel_id: source.id, name: 'Course' }), 201);
    expect(ok<Folder>(await call(env, key, 'POST', CRM_API.templates(folder.id), { template_id: template.id })).templates).toEqual([
      { id: template.id, name: 'Course', has_cover: false, published: true },
    ]);

    // Lists of the folder; a copy has the lists (a static one without its people) and pictures, not the funnels.
    const picked = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'Picked', kind: 'static', folder_id: folder.id, person_ids: [ann.id] }), 201);
    expect(picked.count).toBe(1);
    ok(await call(env, key, 'POST', CRM_API.lists, { name: 'Everyone here', kind: 'segment', folder_id: folder.id, filter: { folder: folder.id } }), 201);
    const copy = ok<Folder>(await call(env, key, 'POST', CRM_API.copy(folder.id), { name: 'Spring sale (copy)' }), 201);
    expect(copy).toMatchObject({ name: 'Spring sale (copy)', has_picture: true, has_background: true, funnels: [], contact_count: 0, templates: [{ id: template.id }] });
    expect(ok<Folder>(await call(env, key, 'DELETE', CRM_API.template(copy.id, template.id))).templates).toEqual([]);
    expect(copy.lists.map((l) => [l.name, l.kind, l.count, l.filter])).toEqual([
      ['Everyone here', 'segment', 0, { folder: copy.id }],
      ['Picked', 'static', 0, null],
    ]);
    expect((await call(env, key, 'GET', CRM_API.image(copy.id, 'background'))).rawPayload.equals(WEBP)).toBe(true);

    // Archive and restore.
    ok(await call(env, key, 'POST', CRM_API.archive(copy.id)));
    const active = ok<FolderSummary[]>(await call(env, key, 'GET', CRM_API.folders));
    expect(active.map((f) => f.name)).toEqual(['Other', 'Spring sale']);
    expect(ok<FolderSummary[]>(await call(env, key, 'GET', `${CRM_API.folders}?archived=true`)).map((f) => f.name)).toEqual(['Spring sale (copy)']);
    expect(ok<Folder>(await call(env, key, 'POST', CRM_API.restore(copy.id))).archived).toBe(false);

    // Ownership: another user's folder is 404 everywhere; their funnel cannot be put in a folder.
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    for (const [method, url, body] of [
      ['GET', CRM_API.folder(folder.id)],
      ['PATCH', CRM_API.folder(folder.id), { name: 'Mine' }],
      ['POST', CRM_API.copy(folder.id), { name: 'Mine' }],
      ['POST', CRM_API.archive(folder.id)],
      ['GET', CRM_API.image(folder.id, 'picture')],
      ['POST', CRM_API.funnels(folder.id), { funnel_id: theirs.id }],
    ] as const) {
      expect(expectJsonError(await call(env, stranger, method, url, body), 404)).toEqual(NOT_FOUND);
    }
    expect(expectJsonError(await upload(stranger, CRM_API.image(folder.id, 'picture'), PNG), 404)).toEqual(NOT_FOUND);
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.funnels(folder.id), { funnel_id: theirs.id }), 400)).toMatchObject({ funnel_id: [`Invalid pk "${theirs.id}" - object does not exist.`] });
    const [row] = await env.t.db.orm.select({ folderId: funnels.folderId }).from(funnels).where(eq(funnels.id, theirs.id));
    expect(row.folderId).toBeNull();
  });
});

describe('lists', () => {
  it('static lists and live segments, with counts; a list is a mailing audience; 404 for another user', async () => {
    const key = await user(env);
    const funnel = await connectFunnel(env, key, 'Shop');
    const stage = await addStage(env, key, funnel.id, { title: 'Paid' });
    const vip = await addTag(env, key, funnel.id, 'vip');
    const subscribers = await addSubscribers(env.t.db, env.fake, funnel.token, funnel.id, 6);
    const [a, b, c, d] = subscribers;

    const picked = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'Picked', kind: 'static', person_ids: [a.id, b.id] }), 201);
    expect(picked).toMatchObject({ kind: 'static', count: 2, filter: null });
    expect(ok<ListMembersResult>(await call(env, key, 'POST', CRM_API.members(picked.id), { person_ids: [b.id, c.id] }))).toEqual({ changed: 1, unchanged: 1 });
    expect(ok<ListMembersResult>(await call(env, key, 'POST', CRM_API.removeMembers(picked.id), { person_ids: [b.id] }))).toEqual({ changed: 1, unchanged: 0 });
    expect(names(ok<ContactsPage>(await call(env, key, 'GET', `${CONTACTS_API.contacts}?list=${picked.id}`)))).toEqual([a.firstName, c.firstName].sort());

    // A segment follows its filter: someone getting the stage later is in it at once.
    const paid = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'Paid', kind: 'segment', filter: { stage: String(stage.id) } }), 201);
    expect(paid.count).toBe(0);
    await env.t.db.orm.update(people).set({ stageId: stage.id }).where(eq(people.id, d.id));
    expect(ok<ContactList>(await call(env, key, 'GET', CRM_API.list(paid.id))).count).toBe(1);
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.members(paid.id), { person_ids: [a.id] }), 400)).toMatchObject({ person_ids: [expect.stringMatching(/segment/)] });
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.lists, { name: 'No filter', kind: 'segment' }), 400)).toMatchObject({ filter: ['A saved segment needs a filter.'] });
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.lists, { name: 'Bad', kind: 'segment', filter: { blocked: 'maybe' } }), 400)).toHaveProperty('filter');
    const renamed = ok<ContactList>(await call(env, key, 'PATCH', CRM_API.list(paid.id), { name: 'Paid customers', filter: { tag: vip.id } }));
    expect(renamed).toMatchObject({ name: 'Paid customers', count: 0, filter: { tag: vip.id } });
    ok(await call(env, key, 'PATCH', CRM_API.list(paid.id), { filter: { stage: String(stage.id) } }));

    // A static list made from a filtered view keeps who matched then, not who matches later.
    const snapshot = ok<ContactList>(await call(env, key, 'POST', CRM_API.lists, { name: 'Paid then', kind: 'static', filter: { stage: String(stage.id) } }), 201);
    expect(snapshot).toMatchObject({ kind: 'static', count: 1, filter: null });
    await env.t.db.orm.update(people).set({ stageId: stage.id }).where(eq(people.id, c.id));
    expect(ok<ContactList>(await call(env, key, 'GET', CRM_API.list(snapshot.id))).count).toBe(1);
    await env.t.db.orm.update(people).set({ stageId: null }).where(eq(people.id, c.id));
    expect((await call(env, key, 'DELETE', CRM_API.list(snapshot.id))).statusCode).toBe(204);

    // A list as a mailing's audience: the live count, then only its people get the message.
    const everyone = { stages_in: [], stages_out: [], tags_in: [], tags_out: [] };
    const count = async (lists_in: number[]) => ok<AudienceCount>(await call(env, key, 'POST', MAILINGS_API.audience(funnel.id), { ...everyone, lists_in })).count;
    expect(await count([])).toBe(6);
    expect(await count([picked.id])).toBe(2);
    expect(await count([picked.id, paid.id])).toBe(3);
    const m = ok<Mailing>(
      await call(env, key, 'POST', MAILINGS_API.mailings(funnel.id), { title: 'To the list', message: { text: 'Only for you' }, audience: { ...everyone, lists_in: [picked.id, paid.id] } }),
      201,
    );
    expect(m.audience_size).toBe(3);
    startSender();
    ok(await call(env, key, 'POST', MAILINGS_API.send(m.id), {}));
    await eventually(async () => ok<Mailing>(await call(env, key, 'GET', MAILINGS_API.mailing(m.id))), (x) => x.state === 'finished', 'the mailing finishes', 30_000);
    const got = subscribers.map((s) => env.fake.botMessages(funnel.token, s.telegramId).length);
    expect(got).toEqual([1, 0, 1, 1, 0, 0]);

    // Ownership: another user's list is 404, names nobody in a contacts filter, and is refused in an audience.
    const stranger = await user(env);
    const theirFunnel = await connectFunnel(env, stranger, 'Theirs');
    for (const [method, url, body] of [
      ['GET', CRM_API.list(picked.id)],
      ['PATCH', CRM_API.list(picked.id), { name: 'Mine' }],
      ['DELETE', CRM_API.list(picked.id)],
      ['POST', CRM_API.members(picked.id), { person_ids: [a.id] }],
    ] as const) {
      expect(expectJsonError(await call(env, stranger, method, url, body), 404)).toEqual(NOT_FOUND);
    }
    expect(ok<ContactsPage>(await call(env, stranger, 'GET', `${CONTACTS_API.contacts}?list=${picked.id}`)).count).toBe(0);
    expect(expectJsonError(await call(env, stranger, 'POST', MAILINGS_API.audience(theirFunnel.id), { ...everyone, lists_in: [picked.id] }), 400)).toMatchObject({
      audience: [`Invalid pk "${picked.id}" - object does not exist.`],
    });
    // Their people cannot be put in my list, nor can my segment name their funnel.
    const theirPerson = await addPerson(env, theirFunnel.id);
    expect(ok<ListMembersResult>(await call(env, key, 'POST', CRM_API.members(picked.id), { person_ids: [theirPerson.id] }))).toEqual({ changed: 0, unchanged: 1 });
    expect(expectJsonError(await call(env, key, 'POST', CRM_API.lists, { name: 'Theirs', kind: 'segment', filter: { funnel: theirFunnel.id } }), 400)).toHaveProperty('filter');

    expect((await call(env, key, 'DELETE', CRM_API.list(picked.id))).statusCode).toBe(204);
    expect(ok<ContactList[]>(await call(env, key, 'GET', CRM_API.lists)).map((l) => l.name)).toEqual(['Paid customers']);
  });

  it('shows one contact across the owner\'s bots on their screen', async () => {
    const key = await user(env);
    const shop = await connectFunnel(env, key, 'Shop');
    const school = await connectFunnel(env, key, 'School');
    const tag = await addTag(env, key, school.id, 'student');
    const inShop = await addPerson(env, shop.id, { firstName: 'Ann', telegramId: 777_001 });
    const inSchool = await addPerson(env, school.id, { firstName: 'Ann', telegramId: 777_001 });
    ok(await call(env, key, 'POST', FUNNELS_API.personTags(inSchool.id), { tag_id: tag.id }), 201);
    const stranger = await user(env);
    const theirs = await connectFunnel(env, stranger, 'Theirs');
    const inTheirs = await addPerson(env, theirs.id, { firstName: 'Ann', telegramId: 777_001 });
    const detail = ok<PersonDetail>(await call(env, key, 'GET', FUNNELS_API.person(inShop.id)));
    expect(detail.other_funnels).toEqual([
      expect.objectContaining({ person_id: inSchool.id, funnel_id: school.id, funnel_name: 'School', tags: ['student'], series: [], blocked: false }),
    ]);

    // The whole history across the owner's bots, newest first, each entry naming its funnel; never another owner's.
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 10, minute));
    await env.t.db.orm.insert(personEvents).values([
      { personId: inShop.id, funnelId: shop.id, direction: 'in', kind: 'command', text: '/start', createdAt: at(1) },
      { personId: inSchool.id, funnelId: school.id, direction: 'in', kind: 'command', text: '/start', createdAt: at(2) },
      { personId: inSchool.id, funnelId: school.id, direction: 'out', kind: 'mailing', text: 'Lesson one', createdAt: at(3) },
      { personId: inTheirs.id, funnelId: theirs.id, direction: 'out', kind: 'mailing', text: 'Not yours', createdAt: at(4) },
    ]);
    const history = ok<ContactHistoryEntry[]>(await call(env, key, 'GET', FUNNELS_API.contactHistory(inShop.id)));
    expect(history.map((h) => [h.funnel_name, h.kind, h.text])).toEqual([
      ['School', 'mailing', 'Lesson one'],
      ['School', 'command', '/start'],
      ['Shop', 'command', '/start'],
    ]);
    expect(expectJsonError(await call(env, stranger, 'GET', FUNNELS_API.contactHistory(inShop.id)), 404)).toEqual(NOT_FOUND);
  });
});
