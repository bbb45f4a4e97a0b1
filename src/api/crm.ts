// The CRM folders and lists API (contract/crm.ts), on the authenticated client. A folder's
// pictures are private: they are fetched with the Authorization header and shown as object URLs.
import {
  CRM_API,
  type ContactList,
  type Folder,
  type FolderImageKind,
  type FolderSummary,
  type ListBody,
  type ListMembersResult,
  type ListPatch,
} from '../../contract/crm';
import { apiPath, authClient } from './clients';

export const listFolders = (archived = false) => authClient.get(apiPath(CRM_API.folders), { searchParams: archived ? { archived: 'true' } : {} }).json<FolderSummary[]>();
export const getFolder = (id: number) => authClient.get(apiPath(CRM_API.folder(id))).json<Folder>();
export const createFolder = (name: string) => authClient.post(apiPath(CRM_API.folders), { json: { name } }).json<Folder>();
export const renameFolder = (id: number, name: string) => authClient.patch(apiPath(CRM_API.folder(id)), { json: { name } }).json<Folder>();
export const copyFolder = (id: number, name: string) => authClient.post(apiPath(CRM_API.copy(id)), { json: { name } }).json<Folder>();
export const archiveFolder = (id: number) => authClient.post(apiPath(CRM_API.archive(id))).json<Folder>();
export const restoreFolder = (id: number) => authClient.post(apiPath(CRM_API.restore(id))).json<Folder>();
export const uploadFolderImage = (id: number, kind: FolderImageKind, file: File) =>
  authClient.put(apiPath(CRM_API.image(id, kind)), { body: file, headers: { 'content-type': file.type || 'application/octet-stream' }, timeout: 5 * 60 * 1000 }).json<Folder>();
export const removeFolderImage = (id: number, kind: FolderImageKind) => authClient.delete(apiPath(CRM_API.image(id, kind))).json<Folder>();
export const fetchFolderImage = (id: number, kind: FolderImageKind) => authClient.get(apiPath(CRM_API.image(id, kind))).blob();
export const addFolderFunnel = (id: number, funnelId: number) => authClient.post(apiPath(CRM_API.funnels(id)), { json: { funnel_id: funnelId } }).json<Folder>();
export const removeFolderFunnel = (id: number, funnelId: number) => authClient.delete(apiPath(CRM_API.funnel(id, funnelId))).json<Folder>();
export const addFolderTemplate = (id: number, templateId: number) => authClient.post(apiPath(CRM_API.templates(id)), { json: { template_id: templateId } }).json<Folder>();
export const removeFolderTemplate = (id: number, templateId: number) => authClient.delete(apiPath(CRM_API.template(id, templateId))).json<Folder>();

export const listLists = (folder?: number) => authClient.get(apiPath(CRM_API.lists), { searchParams: folder ? { folder: String(folder) } : {} }).json<ContactList[]>();
export const getList = (id: number) => authClient.get(apiPath(CRM_API.list(id))).json<ContactList>();
export const createList = (body: ListBody) => authClient.post(apiPath(CRM_API.lists), { json: body }).json<ContactList>();
export const updateList = (id: number, body: ListPatch) => authClient.patch(apiPath(CRM_API.list(id)), { json: body }).json<ContactList>();
export const deleteList = (id: number) => authClient.delete(apiPath(CRM_API.list(id)));
export const addListMembers = (id: number, personIds: number[]) => authClient.post(apiPath(CRM_API.members(id)), { json: { person_ids: personIds } }).json<ListMembersResult>();
export const removeListMembers = (id: number, personIds: number[]) =>
  authClient.post(apiPath(CRM_API.removeMembers(id)), { json: { person_ids: personIds } }).json<ListMembersResult>();
