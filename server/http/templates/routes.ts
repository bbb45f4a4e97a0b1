// The templates API (issue 10). Everyone signed in lists, previews and adds published templates,
// and sees where their funnel stands against its template; publishing, new versions, the cover,
// unpublishing and the figures are for admins (403 for anyone else, before anything is looked
// up). The cover and the preview's media are served without credentials (an <img> shows them),
// for published templates only.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { FunnelSchema } from '../../../contract/schemas/funnels';
import {
  CreateTemplateBodySchema,
  FunnelTemplateSchema,
  TemplateCardSchema,
  TemplateSchema,
  TemplateStatsSchema,
  TemplateSummarySchema,
  UpdateTemplateBodySchema,
} from '../../../contract/schemas/templates';
import { TEMPLATE_COVER_MAX_BYTES, TEMPLATE_COVER_TYPES, TEMPLATES_PATHS } from '../../../contract/templates';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { TEMPLATE_ERRORS } from '../../templates/errors';
import { currentAdmin, currentUser } from '../auth/authenticate';

export type TemplateRoutesDeps = Pick<Services, 'templates'>;

const params = Type.Object({ id: Type.String() });
const idOf = (request: { params: { id: string } }) => parseId(request.params.id);

export function templateRoutes(deps: TemplateRoutesDeps) {
  const { templates: service } = deps;

  async function signedIn(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    // On the request, before its body is read or validated: a non-admin learns nothing about an
    // admin call's fields (DRF checks permissions first).
    const admin = async (request: FastifyRequest) => {
      currentAdmin(request);
    };

    app.get(TEMPLATES_PATHS.templates, { schema: { response: { 200: Type.Array(TemplateSummarySchema) } } }, async (request) => service.list(currentUser(request)));
    app.post(TEMPLATES_PATHS.templates, { onRequest: admin, schema: { body: CreateTemplateBodySchema, response: { 201: TemplateSchema } } }, async (request, reply) =>
      reply.code(201).send(await service.create(currentAdmin(request), request.body)),
    );
    app.get(TEMPLATES_PATHS.template, { schema: { params, response: { 200: TemplateSchema } } }, async (request) => service.get(currentUser(request), idOf(request)));
    app.patch(TEMPLATES_PATHS.template, { onRequest: admin, schema: { params, body: UpdateTemplateBodySchema, response: { 200: TemplateSchema } } }, async (request) =>
      service.update(currentAdmin(request), idOf(request), request.body),
    );
    app.post(TEMPLATES_PATHS.versions, { onRequest: admin, schema: { params, response: { 201: TemplateSchema } } }, async (request, reply) =>
      reply.code(201).send(await service.publishVersion(currentAdmin(request), idOf(request))),
    );
    app.get(TEMPLATES_PATHS.stats, { onRequest: admin, schema: { params, response: { 200: TemplateStatsSchema } } }, async (request) =>
      service.stats(currentAdmin(request), idOf(request)),
    );
    app.post(TEMPLATES_PATHS.add, { schema: { params, response: { 201: FunnelSchema } } }, async (request, reply) =>
      reply.code(201).send(await service.add(currentUser(request), idOf(request))),
    );
    app.get(TEMPLATES_PATHS.funnelTemplate, { schema: { params, response: { 200: FunnelTemplateSchema } } }, async (request) =>
      service.funnelTemplate(currentUser(request), idOf(request)),
    );
    app.post(TEMPLATES_PATHS.funnelTemplateUpdate, { schema: { params, response: { 200: FunnelTemplateSchema } } }, async (request) =>
      service.applyUpdate(currentUser(request), idOf(request)),
    );
    await app.register(coverUpload);
  }

  /** PUT templates/:id/cover/ takes the raw picture as the body (JPEG, PNG or WebP, 5 MB). */
  async function coverUpload(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    for (const type of TEMPLATE_COVER_TYPES) {
      app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: TEMPLATE_COVER_MAX_BYTES }, (_request, body, done) => done(null, body));
    }
    app.put(
      TEMPLATES_PATHS.cover,
      {
        schema: { params, response: { 200: TemplateSchema } },
        config: { refusedUpload: { tooLarge: () => TEMPLATE_ERRORS.coverTooBig, unsupported: TEMPLATE_ERRORS.coverType } },
        // Before the body is read: a non-admin is refused, and another publisher's template is 404, whatever the upload.
        onRequest: async (request) => {
          currentAdmin(request);
        },
        preParsing: async (request) => {
          await service.requirePublisher(currentAdmin(request), idOf(request));
        },
      },
      async (request) => {
        const body = request.body as unknown;
        return service.setCover(currentAdmin(request), idOf(request), {
          contentType: request.headers['content-type'] ?? '',
          data: Buffer.isBuffer(body) ? body : null,
        });
      },
    );
  }

  return signedIn;
}

/**
 * A published template's public card (its link, for a visitor who is not signed in), its cover
 * and its preview's media, served without credentials (an <img>
 * shows them): registered outside the signed-in API.
 */
export function templateFileRoutes(deps: TemplateRoutesDeps) {
  const { templates: service } = deps;
  return async function files(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    app.get(TEMPLATES_PATHS.card, { schema: { params, response: { 200: TemplateCardSchema } } }, async (request) => service.card(idOf(request)));
    app.get(TEMPLATES_PATHS.cover, { schema: { params } }, async (request, reply) => {
      const file = await service.cover(idOf(request));
      return reply.header('content-type', file.contentType).header('cache-control', 'public, max-age=86400').send(file.data);
    });
    app.get(TEMPLATES_PATHS.media, { schema: { params } }, async (request, reply) => {
      const file = await service.mediaFile(idOf(request));
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `inline; filename="${encodeURIComponent(file.filename)}"`)
        .header('cache-control', 'public, max-age=86400')
        .send(file.data);
    });
  };
}
