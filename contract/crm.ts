// CRM folders and lists (issue 10). A folder is a workspace with a picture and a background that
// groups funnels (each in at most one folder), chosen templates and lists; its contacts are the
// people of its funnels. A list is static (people picked by hand) or a saved segment (a contacts
// filter that stays live); either is an audience for a mailing. Limits and API paths; the shapes
// are TypeBox schemas in ./schemas/crm.ts (types re-exported here).
import { BULK_TAG_MAX } from './constants';
import { fillPath } from './paths';

export type * from './schemas/crm';

export const FOLDER_NAME_MAX = 128;
export const LIST_NAME_MAX = 128;
/** The folder's picture (an avatar) and its background: JPEG, PNG or WebP. */
export const FOLDER_IMAGE_KINDS = ['picture', 'background'] as const;
export type FolderImageKind = (typeof FOLDER_IMAGE_KINDS)[number];
export const FOLDER_IMAGE_MAX_BYTES: Record<FolderImageKind, number> = { picture: 2 * 1024 * 1024, background: 5 * 1024 * 1024 };
export const FOLDER_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** People added to or removed from a static list at once. */
export const LIST_MEMBERS_MAX = BULK_TAG_MAX;
export const LIST_KINDS = ['static', 'segment'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const CRM_PATHS = {
  folders: '/api/folders/',
  folder: '/api/folders/:id/',
  copy: '/api/folders/:id/copy/',
  archive: '/api/folders/:id/archive/',
  restore: '/api/folders/:id/restore/',
  image: '/api/folders/:id/:kind/',
  funnels: '/api/folders/:id/funnels/',
  funnel: '/api/folders/:id/funnels/:funnelId/',
  templates: '/api/folders/:id/templates/',
  template: '/api/folders/:id/templates/:templateId/',
  lists: '/api/lists/',
  list: '/api/lists/:id/',
  members: '/api/lists/:id/members/',
  removeMembers: '/api/lists/:id/members/remove/',
} as const;

export const CRM_API = {
  folders: CRM_PATHS.folders,
  folder: (id: number) => fillPath(CRM_PATHS.folder, { id }),
  copy: (id: number) => fillPath(CRM_PATHS.copy, { id }),
  archive: (id: number) => fillPath(CRM_PATHS.archive, { id }),
  restore: (id: number) => fillPath(CRM_PATHS.restore, { id }),
  image: (id: number, kind: FolderImageKind) => fillPath(CRM_PATHS.image, { id, kind }),
  funnels: (id: number) => fillPath(CRM_PATHS.funnels, { id }),
  funnel: (id: number, funnelId: number) => fillPath(CRM_PATHS.funnel, { id, funnelId }),
  templates: (id: number) => fillPath(CRM_PATHS.templates, { id }),
  template: (id: number, templateId: number) => fillPath(CRM_PATHS.template, { id, templateId }),
  lists: CRM_PATHS.lists,
  list: (id: number) => fillPath(CRM_PATHS.list, { id }),
  members: (id: number) => fillPath(CRM_PATHS.members, { id }),
  removeMembers: (id: number) => fillPath(CRM_PATHS.removeMembers, { id }),
} as const;
