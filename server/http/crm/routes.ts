// The CRM API (issue 10): folders (with their picture and background, funnels, templates,
// copy, archive and restore) and lists of contacts. Another user's folder or list is 404.
// Pictures go up as the raw body (JPEG, PNG or WebP) and come back with the Authorization header.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CRM_PATHS, FOLDER_IMAGE_KINDS, FOLDER_IMAGE_MAX_BYTES, FOLDER_IMAGE_TYPES, type FolderImageKind } from '../../../contract/crm';
import {
  ContactListSchema,
  FolderBodySchema,
  FolderFunnelBodySchema,
  FolderSchema,
  FoldersQuerySchema,
  FolderSummarySchema,
  FolderTemplateBodySchema,
  ListBodySchema,
  ListMembersBodySchema,
  ListMembersResultSchema,
  ListPatchSchema,
  ListsQuerySchema,
} from '../../../contract/schemas/crm';
import { CRM_ERRORS } from '../../crm/errors';
import { notFound } from '../../domain-error';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type CrmRoutesDeps = Pick<Services, 'crm'>;

const params = Type.Object({ id: Type.String() });
const imageParams = Type.Object({ id: Type.String(), kind: Type.String() });
const funnelParams = Type.Object({ id: Type.String(), funnelId: Type.String() });
const templateParams = Type.Object({ id: Type.String(), templateId: Type.String() });
const idOf = (request: { params: { id: string } }) => parseId(request.params.id);
function kindOf(request: { params: { kind: string } }): FolderImageKind {
  const kind = request.params.kind as FolderImageKind;
  if (!FOLDER_IMAGE_KINDS.includes(kind)) throw notFound();
  return kind;
}
const ownerOf = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

export function crmRoutes(deps: CrmRoutesDeps) {
  const { crm } = deps;

  async function json(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(CRM_PATHS.folders, { schema: { querystring: FoldersQuerySchema, response: { 200: Type.Array(FolderSummarySchema) } } }, async (request) =>
      crm.listFolders(ownerOf(request), request.query.archived === 'true'),
    );
    app.post(CRM_PATHS.folders, { schema: { body: FolderBodySchema, response: { 201: FolderSchema } } }, async (request, reply) =>
      reply.code(201).send(await crm.createFolder(ownerOf(request), request.body)),
    );
    app.get(CRM_PATHS.folder, { schema: { params, response: { 200: FolderSchema } } }, async (request) => crm.getFolder(ownerOf(request), idOf(request)));
    app.patch(CRM_PATHS.folder, { schema: { params, body: FolderBodySchema, response: { 200: FolderSchema } } }, async (request) =>
      crm.updateFolder(ownerOf(request), idOf(request), request.body),
    );
    app.post(CRM_PATHS.copy, { schema: { params, body: FolderBodySchema, response: { 201: FolderSchema } } }, async (request, reply) =>
      reply.code(201).send(await crm.copyFolder(ownerOf(request), idOf(request), request.body)),
    );
    app.post(CRM_PATHS.archive, { schema: { params, response: { 200: FolderSchema } } }, async (request) => crm.archiveFolder(ownerOf(request), idOf(request), true));
    app.post(CRM_PATHS.restore, { schema: { params, response: { 200: FolderSchema } } }, async (request) => crm.archiveFolder(ownerOf(request), idOf(request), false));
    app.post(CRM_PATHS.funnels, { schema: { params, body: FolderFunnelBodySchema, response: { 200: FolderSchema } } }, async (request) =>
      crm.addFunnel(ownerOf(request), idOf(request), request.body.funnel_id),
    );
    app.delete(CRM_PATHS.funnel, { schema: { params: funnelParams, response: { 200: FolderSchema } } }, async (request) =>
      crm.removeFunnel(ownerOf(request), idOf(request), parseId(request.params.funnelId)),
    );
    app.post(CRM_PATHS.templates, { schema: { params, body: FolderTemplateBodySchema, response: { 200: FolderSchema } } }, async (request) =>
      crm.addTemplate(ownerOf(request), idOf(request), request.body.template_id),
    );
    app.delete(CRM_PATHS.template, { schema: { params: templateParams, response: { 200: FolderSchema } } }, async (request) =>
      crm.removeTemplate(ownerOf(request), idOf(request), parseId(request.params.templateId)),
    );
    app.get(CRM_PATHS.image, { schema: { params: imageParams } }, async (request, reply) => {
      const file = await crm.image(ownerOf(request), idOf(request), kindOf(request));
      return reply.header('content-type', file.contentType).header('cache-control', 'private, max-age=86400').send(file.data);
    });
    app.delete(CRM_PATHS.image, { schema: { params: imageParams, response: { 200: FolderSchema } } }, async (request) =>
      crm.removeImage(ownerOf(request), idOf(request), kindOf(request)),
    );

    app.get(CRM_PATHS.lists, { schema: { querystring: ListsQuerySchema, response: { 200: Type.Array(ContactListSchema) } } }, async (request) =>
      crm.listLists(ownerOf(request), request.query.folder !== undefined ? Number(request.query.folder) : undefined),
    );
    app.post(CRM_PATHS.lists, { schema: { body: ListBodySchema, response: { 201: ContactListSchema } } }, async (request, reply) =>
      reply.code(201).send(await crm.createList(ownerOf(request), request.body)),
    );
    app.get(CRM_PATHS.list, { schema: { params, response: { 200: ContactListSchema } } }, async (request) => crm.getList(ownerOf(request), idOf(request)));
    app.patch(CRM_PATHS.list, { schema: { params, body: ListPatchSchema, response: { 200: ContactListSchema } } }, async (request) =>
      crm.updateList(ownerOf(request), idOf(request), request.body),
    );
    app.delete(CRM_PATHS.list, { schema: { params } }, async (request, reply) => {
      await crm.deleteList(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.post(CRM_PATHS.members, { schema: { params, body: ListMembersBodySchema, response: { 200: ListMembersResultSchema } } }, async (request) =>
      crm.changeMembers(ownerOf(request), idOf(request), request.body.person_ids, true),
    );
    app.post(CRM_PATHS.removeMembers, { schema: { params, body: ListMembersBodySchema, response: { 200: ListMembersResultSchema } } }, async (request) =>
      crm.changeMembers(ownerOf(request), idOf(request), request.body.person_ids, false),
    );
  }

  /** PUT folders/:id/picture/ or background/ takes the raw picture as the body. */
  async function upload(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const largest = Math.max(...Object.values(FOLDER_IMAGE_MAX_BYTES));
    for (const type of FOLDER_IMAGE_TYPES) {
      app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: largest }, (_request, body, done) => done(null, body));
    }
    app.put(
      CRM_PATHS.image,
      {
        schema: { params: imageParams, response: { 200: FolderSchema } },
        config: {
          refusedUpload: {
            tooLarge: (request) => CRM_ERRORS.imageTooBig((request.params as { kind?: string }).kind === 'picture' ? 'picture' : 'background'),
            unsupported: CRM_ERRORS.imageType,
          },
        },
        // Before the body is read: someone else's folder (or a path that names no picture) is 404 whatever the upload.
        preParsing: async (request) => {
          kindOf(request);
          await crm.requireFolder(ownerOf(request), idOf(request));
        },
      },
      async (request) => {
        const body = request.body as unknown;
        return crm.setImage(ownerOf(request), idOf(request), kindOf(request), {
          contentType: request.headers['content-type'] ?? '',
          data: Buffer.isBuffer(body) ? body : null,
        });
      },
    );
  }

  return async function plugin(app: FastifyInstance): Promise<void> {
    await app.register(json);
    await app.register(upload);
  };
}
