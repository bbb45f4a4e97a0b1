// CRM folders and lists (issue 10). Every statement names the owner, so another user's folder or
// list is "not found". A folder groups funnels (funnels.folder_id: one folder at most), chosen
// templates and lists; its contacts are the people of its funnels. Copying a folder copies its
// name, pictures, templates and lists (a static list's people are not copied; a segment keeps its
// filter, pointed at the copy when it named the folder); its funnels stay where they are.
import type { ContactsFilter } from '../../contract/contacts';
import {
  FOLDER_IMAGE_MAX_BYTES,
  FOLDER_IMAGE_TYPES,
  type ContactList,
  type Folder,
  type FolderBody,
  type FolderFunnel,
  type FolderImageKind,
  type FolderSummary,
  type ListBody,
  type ListMembersResult,
  type ListPatch,
} from '../../contract/crm';
import { ownedPeopleWhere } from '../contacts/criteria';
import { requireContentOfType } from '../funnels/media';
import type { Db } from '../db';
import { isoTime, rawSql } from '../db/raw';
import { COMMON_ERRORS, invalid, invalidField, notFound, tooLarge, unsupported } from '../domain-error';
import { CRM_ERRORS } from './errors';
import { FUNNEL_ERRORS } from '../funnels/errors';


export interface CrmServiceDeps {
  db: Db;
  now: () => Date;
}

interface FolderRow {
  id: number;
  name: string;
  has_picture: boolean;
  has_background: boolean;
  updated_at: Date | string;
  archived_at: Date | string | null;
  created_at: Date | string;
  funnel_count: number;
  list_count: number;
  contact_count: number;
}

interface ListRow {
  id: number;
  name: string;
  kind: 'static' | 'segment';
  folder_id: number | null;
  filter: ContactsFilter | null;
  created_at: Date | string;
  /** A static list's people (a segment's are counted from its filter). */
  member_count: number;
}

const LIST_SELECT = `select l.id, l.name, l.kind, l.folder_id, l.filter, l.created_at,
       (select count(*)::int from contact_list_members m where m.list_id = l.id) as member_count
  from contact_lists l`;

const FOLDER_SELECT = `select fo.id, fo.name, fo.picture is not null as has_picture, fo.background is not null as has_background,
       fo.updated_at, fo.archived_at, fo.created_at,
       (select count(*)::int from funnels f where f.folder_id = fo.id and f.archived_at is null) as funnel_count,
       (select count(*)::int from contact_lists l where l.folder_id = fo.id) as list_count,
       (select count(*)::int from people p join funnels f on f.id = p.funnel_id where f.folder_id = fo.id) as contact_count
  from crm_folders fo`;

function toSummary(r: FolderRow): FolderSummary {
  return {
    id: r.id,
    name: r.name,
    has_picture: r.has_picture,
    has_background: r.has_background,
    image_version: isoTime(r.updated_at),
    archived: r.archived_at !== null,
    funnel_count: Number(r.funnel_count),
    list_count: Number(r.list_count),
    contact_count: Number(r.contact_count),
    created_at: isoTime(r.created_at),
  };
}

export function createCrmService({ db, now }: CrmServiceDeps) {
  async function ownFolder(ownerId: number, id: number): Promise<FolderRow> {
    const [row] = await db.query<FolderRow>(`${FOLDER_SELECT} where fo.id = $1 and fo.owner_id = $2`, [id, ownerId]);
    if (!row) throw notFound();
    return row;
  }

  async function ownList(ownerId: number, id: number): Promise<ListRow> {
    const [row] = await db.query<ListRow>(`${LIST_SELECT} where l.id = $1 and l.owner_id = $2`, [id, ownerId]);
    if (!row) throw notFound();
    return row;
  }

  /** A folder named in a body must be the user's own (400 otherwise, as for any id in a body). */
  async function checkFolderField(ownerId: number, folderId: number | null | undefined, field: string): Promise<void> {
    if (folderId === null || folderId === undefined) return;
    const [row] = await db.query('select 1 from crm_folders where id = $1 and owner_id = $2', [folderId, ownerId]);
    if (!row) throw invalidField(field, COMMON_ERRORS.doesNotExist(folderId));
  }

  /** The ids a segment's filter names must be the user's own. */
  async function checkFilter(ownerId: number, filter: ContactsFilter): Promise<void> {
    await checkFolderField(ownerId, filter.folder, 'filter');
    if (filter.field_value !== undefined && filter.field === undefined) throw invalidField('filter', FUNNEL_ERRORS.fieldRequiredForValue);
    const checks: Array<[number | undefined, string]> = [
      [filter.funnel, 'select 1 from funnels where id = $1 and owner_id = $2'],
      [filter.tag, 'select 1 from tags t join funnels f on f.id = t.funnel_id where t.id = $1 and f.owner_id = $2'],
      [filter.field, 'select 1 from funnel_fields ff join funnels f on f.id = ff.funnel_id where ff.id = $1 and f.owner_id = $2'],
      [filter.stage !== undefined && filter.stage !== 'none' ? Number(filter.stage) : undefined, 'select 1 from stages s join funnels f on f.id = s.funnel_id where s.id = $1 and f.owner_id = $2'],
    ];
    for (const [id, text] of checks) {
      if (id === undefined) continue;
      const [row] = await db.query(text, [id, ownerId]);
      if (!row) throw invalidField('filter', COMMON_ERRORS.doesNotExist(id));
    }
  }

  async function countOf(ownerId: number, list: ListRow): Promise<number> {
    if (list.kind === 'static') return Number(list.member_count);
    const params: unknown[] = [ownerId];
    const where = ownedPeopleWhere(list.filter ?? {}, params);
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from people p join funnels f on f.id = p.funnel_id where ${where}`, params);
    return Number(row.n);
  }

  async function toList(ownerId: number, r: ListRow): Promise<ContactList> {
    return { id: r.id, name: r.name, kind: r.kind, folder_id: r.folder_id, filter: r.kind === 'segment' ? (r.filter ?? {}) : null, count: await countOf(ownerId, r), created_at: isoTime(r.created_at) };
  }

  // Folders

  async function listFolders(ownerId: number, archived: boolean): Promise<FolderSummary[]> {
    const rows = await db.query<FolderRow>(`${FOLDER_SELECT} where fo.owner_id = $1 and (fo.archived_at is not null) = $2 order by fo.name, fo.id`, [ownerId, archived]);
    return rows.map(toSummary);
  }

  async function getFolder(ownerId: number, id: number): Promise<Folder> {
    const folder = await ownFolder(ownerId, id);
    const funnelRows = await db.query<FolderFunnel & { archived: boolean }>(
      `select f.id, f.name, f.bot_username, f.state, f.archived_at is not null as archived,
              (select count(*)::int from people p where p.funnel_id = f.id) as people_count
         from funnels f where f.folder_id = $1 and f.owner_id = $2 order by f.created_at desc, f.id desc`,
      [id, ownerId],
    );
    // Someone else's template that is no longer published is hidden (its pin stays, should it come back):
    // its later name, description or cover were never published.
    const templateRows = await db.query<{ id: number; name: string; has_cover: boolean; published: boolean }>(
      `select t.id, t.name, t.cover is not null as has_cover, t.published
         from folder_templates ft join templates t on t.id = ft.template_id
        where ft.folder_id = $1 and (t.published or t.publisher_id = $2) order by t.name, t.id`,
      [id, ownerId],
    );
    const listRows = await db.query<ListRow>(`${LIST_SELECT} where l.folder_id = $1 and l.owner_id = $2 order by l.name, l.id`, [id, ownerId]);
    const strip = ({ archived: _archived, ...f }: FolderFunnel & { archived: boolean }): FolderFunnel => ({ ...f, people_count: Number(f.people_count) });
    return {
      ...toSummary(folder),
      funnels: funnelRows.filter((f) => !f.archived).map(strip),
      archived_funnels: funnelRows.filter((f) => f.archived).map(strip),
      templates: templateRows,
      lists: await Promise.all(listRows.map((l) => toList(ownerId, l))),
    };
  }

  async function createFolder(ownerId: number, body: FolderBody): Promise<Folder> {
    const [row] = await db.query<{ id: number }>('insert into crm_folders (owner_id, name) values ($1, $2) returning id', [ownerId, body.name.trim()]);
    return getFolder(ownerId, row.id);
  }

  async function updateFolder(ownerId: number, id: number, body: FolderBody): Promise<Folder> {
    await ownFolder(ownerId, id);
    await db.query('update crm_folders set name = $1 where id = $2 and owner_id = $3', [body.name.trim(), id, ownerId]);
    return getFolder(ownerId, id);
  }

  async function copyFolder(ownerId: number, id: number, body: FolderBody): Promise<Folder> {
    await ownFolder(ownerId, id);
    const copyId = await db.orm.transaction(async (tx) => {
      const made = (await tx.execute(
        rawSql(
          `insert into crm_folders (owner_id, name, picture_type, picture, background_type, background)
           select owner_id, $3, picture_type, picture, background_type, background from crm_folders where id = $1 and owner_id = $2 returning id`,
          [id, ownerId, body.name.trim()],
        ),
      )) as unknown as { rows: Array<{ id: number }> };
      const newId = Number(made.rows[0].id);
      await tx.execute(
        rawSql(
          `insert into folder_templates (folder_id, template_id)
           select $2, ft.template_id from folder_templates ft join crm_folders fo on fo.id = ft.folder_id where ft.folder_id = $1 and fo.owner_id = $3`,
          [id, newId, ownerId],
        ),
      );
      await tx.execute(
        rawSql(
          `insert into contact_lists (owner_id, folder_id, name, kind, filter)
           select owner_id, $2, name, kind,
                  case when (filter->>'folder')::int = $1 then jsonb_set(filter, '{folder}', to_jsonb($2::int)) else filter end
             from contact_lists where folder_id = $1 and owner_id = $3 order by id`,
          [id, newId, ownerId],
        ),
      );
      return newId;
    });
    return getFolder(ownerId, copyId);
  }

  async function archiveFolder(ownerId: number, id: number, archived: boolean): Promise<Folder> {
    await ownFolder(ownerId, id);
    await db.query(`update crm_folders set archived_at = ${archived ? 'coalesce(archived_at, $3)' : 'null'} where id = $1 and owner_id = $2`, archived ? [id, ownerId, now()] : [id, ownerId]);
    return getFolder(ownerId, id);
  }

  /** `data` is null when the body was not a picture: another user's folder is still 404 first. */
  async function setImage(ownerId: number, id: number, kind: FolderImageKind, file: { contentType: string; data: Buffer | null }): Promise<Folder> {
    await ownFolder(ownerId, id);
    const type = file.contentType.split(';')[0].trim().toLowerCase();
    if (!file.data || !(FOLDER_IMAGE_TYPES as readonly string[]).includes(type)) throw unsupported(CRM_ERRORS.imageType);
    if (file.data.length === 0) throw invalid(CRM_ERRORS.emptyFile);
    if (file.data.length > FOLDER_IMAGE_MAX_BYTES[kind]) throw tooLarge(CRM_ERRORS.imageTooBig(kind));
    requireContentOfType(type, file.data);
    await db.query(`update crm_folders set ${kind}_type = $1, ${kind} = $2, updated_at = $3 where id = $4 and owner_id = $5`, [type, file.data, now(), id, ownerId]);
    return getFolder(ownerId, id);
  }

  async function removeImage(ownerId: number, id: number, kind: FolderImageKind): Promise<Folder> {
    await ownFolder(ownerId, id);
    await db.query(`update crm_folders set ${kind}_type = null, ${kind} = null, updated_at = $1 where id = $2 and owner_id = $3`, [now(), id, ownerId]);
    return getFolder(ownerId, id);
  }

  async function image(ownerId: number, id: number, kind: FolderImageKind): Promise<{ contentType: string; data: Buffer }> {
    const [row] = await db.query<{ type: string | null; data: Buffer | null }>(`select ${kind}_type as type, ${kind} as data from crm_folders where id = $1 and owner_id = $2`, [id, ownerId]);
    if (!row?.type || !row.data) throw notFound();
    return { contentType: row.type, data: Buffer.from(row.data) };
  }

  /** Puts the user's funnel in the folder (out of any other: a funnel is in one folder at most). */
  async function addFunnel(ownerId: number, id: number, funnelId: number): Promise<Folder> {
    await ownFolder(ownerId, id);
    const moved = await db.query('update funnels set folder_id = $1 where id = $2 and owner_id = $3 returning id', [id, funnelId, ownerId]);
    if (moved.length === 0) throw invalidField('funnel_id', COMMON_ERRORS.doesNotExist(funnelId));
    return getFolder(ownerId, id);
  }

  async function removeFunnel(ownerId: number, id: number, funnelId: number): Promise<Folder> {
    await ownFolder(ownerId, id);
    const moved = await db.query('update funnels set folder_id = null where id = $1 and owner_id = $2 and folder_id = $3 returning id', [funnelId, ownerId, id]);
    if (moved.length === 0) throw notFound();
    return getFolder(ownerId, id);
  }

  /** Pins a published template (or one already pinned) to the folder. */
  async function addTemplate(ownerId: number, id: number, templateId: number): Promise<Folder> {
    await ownFolder(ownerId, id);
    const [template] = await db.query('select 1 from templates where id = $1 and published', [templateId]);
    if (!template) throw invalidField('template_id', COMMON_ERRORS.doesNotExist(templateId));
    await db.query(
      'insert into folder_templates (folder_id, template_id) select fo.id, $2 from crm_folders fo where fo.id = $1 and fo.owner_id = $3 on conflict do nothing',
      [id, templateId, ownerId],
    );
    return getFolder(ownerId, id);
  }

  async function removeTemplate(ownerId: number, id: number, templateId: number): Promise<Folder> {
    await ownFolder(ownerId, id);
    const removed = await db.query(
      'delete from folder_templates ft using crm_folders fo where ft.folder_id = $1 and ft.template_id = $2 and fo.id = ft.folder_id and fo.owner_id = $3 returning ft.template_id',
      [id, templateId, ownerId],
    );
    if (removed.length === 0) throw notFound();
    return getFolder(ownerId, id);
  }

  // Lists

  async function listLists(ownerId: number, folderId: number | undefined): Promise<ContactList[]> {
    const rows = await db.query<ListRow>(
      `${LIST_SELECT} where l.owner_id = $1 and ($2::int is null or l.folder_id = $2::int) order by l.name, l.id`,
      [ownerId, folderId ?? null],
    );
    return Promise.all(rows.map((r) => toList(ownerId, r)));
  }

  async function getList(ownerId: number, id: number): Promise<ContactList> {
    return toList(ownerId, await ownList(ownerId, id));
  }

  /** Adds the user's people among `personIds` to a static list; others' ids are left out. */
  async function addMembers(ownerId: number, listId: number, personIds: number[]): Promise<ListMembersResult> {
    const ids = [...new Set(personIds)];
    const added = await db.query(
      `insert into contact_list_members (list_id, person_id)
       select l.id, p.id from contact_lists l, people p join funnels f on f.id = p.funnel_id
        where l.id = $1 and l.owner_id = $3 and p.id = any($2::int[]) and f.owner_id = $3
       on conflict do nothing returning person_id`,
      [listId, ids, ownerId],
    );
    return { changed: added.length, unchanged: ids.length - added.length };
  }

  async function createList(ownerId: number, body: ListBody): Promise<ContactList> {
    await checkFolderField(ownerId, body.folder_id, 'folder_id');
    if (body.kind === 'segment' && !body.filter) throw invalidField('filter', CRM_ERRORS.segmentWithoutFilter);
    if (body.filter) await checkFilter(ownerId, body.filter);
    const [row] = await db.query<{ id: number }>('insert into contact_lists (owner_id, folder_id, name, kind, filter) values ($1, $2, $3, $4, $5) returning id', [
      ownerId,
      body.folder_id ?? null,
      body.name.trim(),
      body.kind,
      body.kind === 'segment' ? JSON.stringify(body.filter) : null,
    ]);
    if (body.kind === 'static' && body.person_ids?.length) await addMembers(ownerId, row.id, body.person_ids);
    // A static list made from a filtered view: who matches now, kept (later matches are not added).
    if (body.kind === 'static' && body.filter) {
      const params: unknown[] = [ownerId, row.id];
      const where = ownedPeopleWhere(body.filter, params);
      await db.query(
        `insert into contact_list_members (list_id, person_id)
         select $2, p.id from people p join funnels f on f.id = p.funnel_id
          where ${where} and exists (select 1 from contact_lists l where l.id = $2 and l.owner_id = $1) on conflict do nothing`,
        params,
      );
    }
    return getList(ownerId, row.id);
  }

  async function updateList(ownerId: number, id: number, body: ListPatch): Promise<ContactList> {
    const list = await ownList(ownerId, id);
    await checkFolderField(ownerId, body.folder_id, 'folder_id');
    if (body.filter !== undefined) {
      if (list.kind !== 'segment') throw invalidField('filter', CRM_ERRORS.staticListFilter);
      await checkFilter(ownerId, body.filter);
    }
    await db.query(
      `update contact_lists set name = coalesce($2, name), folder_id = case when $3::boolean then $4::int else folder_id end,
              filter = coalesce($5::jsonb, filter), updated_at = $6 where id = $1 and owner_id = $7`,
      [id, body.name?.trim() ?? null, body.folder_id !== undefined, body.folder_id ?? null, body.filter !== undefined ? JSON.stringify(body.filter) : null, now(), ownerId],
    );
    return getList(ownerId, id);
  }

  async function deleteList(ownerId: number, id: number): Promise<void> {
    await ownList(ownerId, id);
    await db.query('delete from contact_lists where id = $1 and owner_id = $2', [id, ownerId]);
  }

  async function changeMembers(ownerId: number, id: number, personIds: number[], add: boolean): Promise<ListMembersResult> {
    const list = await ownList(ownerId, id);
    if (list.kind !== 'static') throw invalidField('person_ids', CRM_ERRORS.segmentMembers);
    if (add) return addMembers(ownerId, id, personIds);
    const ids = [...new Set(personIds)];
    const removed = await db.query(
      'delete from contact_list_members m using contact_lists l where m.list_id = $1 and m.person_id = any($2::int[]) and l.id = m.list_id and l.owner_id = $3 returning m.person_id',
      [id, ids, ownerId],
    );
    return { changed: removed.length, unchanged: ids.length - removed.length };
  }

  /** 404 unless the folder is the user's (before an upload's body is read). */
  async function requireFolder(ownerId: number, id: number): Promise<void> {
    await ownFolder(ownerId, id);
  }

  return {
    requireFolder,
    listFolders,
    getFolder,
    createFolder,
    updateFolder,
    copyFolder,
    archiveFolder,
    setImage,
    removeImage,
    image,
    addFunnel,
    removeFunnel,
    addTemplate,
    removeTemplate,
    listLists,
    getList,
    createList,
    updateList,
    deleteList,
    changeMembers,
  };
}

export type CrmService = ReturnType<typeof createCrmService>;
