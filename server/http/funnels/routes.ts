// The product API (issue 3): funnels, stages and their messages, media, tags, people and the
// dashboard. Handlers only parse ids and call the services in server/funnels (shared with the
// bot runtime); every lookup names the signed-in owner, so other users' objects are 404.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  FUNNELS_API,
  MEDIA_MAX_BYTES,
  MEDIA_TYPES,
  type BotDescription,
  type CopyFunnelBody,
  type CreateFunnelBody,
  type MessageContentBody,
  type StageBody,
  type StageOrderBody,
  type TagBody,
  type UpdateFunnelBody,
} from '../../../contract/funnels';
import type { Sessions } from '../../accounts/sessions';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { ownedFunnel, parseId } from '../../funnels/access';
import { createDashboardService, isTimeZone } from '../../funnels/dashboard';
import { FunnelError } from '../../funnels/errors';
import { createFunnelService } from '../../funnels/funnels';
import { createMediaService, MEDIA_MESSAGES, mediaKindOf } from '../../funnels/media';
import { createPeopleService } from '../../funnels/people';
import type { FunnelRuntimePort } from '../../funnels/runtime-port';
import { createStageService } from '../../funnels/stages';
import { ApiError, codedDetailBody, codedFieldsBody, fieldError, loggableError } from '../errors';
import { currentUser, requireAuth } from '../auth/authenticate';
import * as schemas from './schemas';

export interface FunnelRoutesDeps {
  config: Config;
  db: Db;
  sessions: Sessions;
  now: () => Date;
  runtime: FunnelRuntimePort;
}

const STATUS: Record<FunnelError['kind'], number> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  too_large: 413,
  unsupported: 415,
};

/** A FunnelError as the Djoser-shaped answer with its codes; anything else goes on to the central handler. */
function toApiError(error: unknown): unknown {
  if (!(error instanceof FunnelError)) return error;
  return new ApiError(STATUS[error.kind], error.fields ? codedFieldsBody(error.fields) : codedDetailBody(error.detail));
}

type IdParams = { Params: { id: string } };
const ownerOf = (request: FastifyRequest) => currentUser(request).id;
const idOf = (request: FastifyRequest<IdParams>) => parseId(request.params.id);

export function funnelRoutes(deps: FunnelRoutesDeps) {
  const { db, config, now, runtime } = deps;
  const funnels = createFunnelService({ db, config, now });
  const stages = createStageService({ db });
  const people = createPeopleService({ db, now });
  const mediaFiles = createMediaService({ db });
  const dashboard = createDashboardService({ db, now });

  return async function plugin(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', requireAuth(deps.sessions));
    // Any write here may change what the bots send (stages, messages, tags, copies): the runtime
    // reads them again at once instead of when its copy runs out.
    app.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) runtime.contentChanged();
    });
    app.setErrorHandler(async (error: FastifyError, _request, _reply) => {
      throw toApiError(error);
    });

    /** Tells the bot runtime a funnel changed; its trouble is logged, the change stands. */
    async function syncRuntime(request: FastifyRequest, funnelId: number): Promise<void> {
      try {
        await runtime.sync(funnelId);
      } catch (error) {
        request.log.error({ error: loggableError(error), funnelId }, 'funnel runtime sync failed');
      }
    }

    // --- funnels -------------------------------------------------------------------------------
    app.get<{ Querystring: { archived?: 'true' | 'false' } }>(FUNNELS_API.funnels, { schema: schemas.listFunnelsSchema }, async (request) =>
      funnels.list(ownerOf(request), { archived: request.query.archived === 'true' }),
    );
    app.post<{ Body: CreateFunnelBody }>(FUNNELS_API.funnels, { schema: schemas.createFunnelSchema }, async (request, reply) => {
      const funnel = await funnels.connect(ownerOf(request), request.body);
      return reply.code(201).send(funnel);
    });
    app.get<IdParams>('/api/funnels/:id/', { schema: schemas.funnelSchema }, async (request) => funnels.get(ownerOf(request), idOf(request)));
    app.patch<IdParams & { Body: UpdateFunnelBody }>('/api/funnels/:id/', { schema: schemas.updateFunnelSchema }, async (request) =>
      funnels.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete<IdParams>('/api/funnels/:id/', async (request, reply) => {
      const id = idOf(request);
      await funnels.remove(ownerOf(request), id);
      await syncRuntime(request, id);
      return reply.code(204).send();
    });
    for (const action of ['run', 'stop', 'archive', 'restore'] as const) {
      app.post<IdParams>(`/api/funnels/:id/${action}/`, { schema: schemas.funnelSchema }, async (request) => {
        const id = idOf(request);
        const funnel = await funnels[action](ownerOf(request), id);
        await syncRuntime(request, id);
        return funnels.get(ownerOf(request), funnel.id);
      });
    }
    app.post<IdParams & { Body: CopyFunnelBody }>('/api/funnels/:id/copy/', { schema: schemas.copyFunnelSchema }, async (request) =>
      funnels.copy(ownerOf(request), idOf(request), request.body.target_funnel_id),
    );
    app.get<IdParams>('/api/funnels/:id/description/', { schema: schemas.descriptionSchema }, async (request) =>
      funnels.description(ownerOf(request), idOf(request)),
    );
    app.put<IdParams & { Body: BotDescription }>('/api/funnels/:id/description/', { schema: schemas.setDescriptionSchema }, async (request) =>
      funnels.setDescription(ownerOf(request), idOf(request), request.body),
    );

    // --- stages --------------------------------------------------------------------------------
    app.get<IdParams>('/api/funnels/:id/stages/', { schema: schemas.listStagesSchema }, async (request) =>
      stages.list(ownerOf(request), idOf(request)),
    );
    app.post<IdParams & { Body: StageBody }>('/api/funnels/:id/stages/', { schema: schemas.createStageSchema }, async (request, reply) =>
      reply.code(201).send(await stages.create(ownerOf(request), idOf(request), request.body)),
    );
    app.post<IdParams & { Body: StageOrderBody }>('/api/funnels/:id/stages/order/', { schema: schemas.stageOrderSchema }, async (request) =>
      stages.reorder(ownerOf(request), idOf(request), request.body.stage_ids),
    );
    app.get<IdParams>('/api/stages/:id/', { schema: schemas.stageSchema }, async (request) => stages.get(ownerOf(request), idOf(request)));
    app.patch<IdParams & { Body: Partial<StageBody> }>('/api/stages/:id/', { schema: schemas.updateStageSchema }, async (request) =>
      stages.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete<IdParams>('/api/stages/:id/', async (request, reply) => {
      await stages.remove(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.put<IdParams & { Body: Partial<MessageContentBody> & { text: string } }>(
      '/api/stages/:id/message/',
      { schema: schemas.stageMessageSchema },
      async (request) => {
        const body = request.body;
        return stages.setMessage(ownerOf(request), idOf(request), {
          text: body.text,
          media_id: body.media_id ?? null,
          buttons: body.buttons ?? [],
          next_button: body.next_button ?? null,
        });
      },
    );

    // --- tags ----------------------------------------------------------------------------------
    app.get<IdParams>('/api/funnels/:id/tags/', { schema: schemas.listTagsSchema }, async (request) =>
      people.listTags(ownerOf(request), idOf(request)),
    );
    app.post<IdParams & { Body: TagBody }>('/api/funnels/:id/tags/', { schema: schemas.createTagSchema }, async (request, reply) =>
      reply.code(201).send(await people.createTag(ownerOf(request), idOf(request), request.body)),
    );
    app.get<IdParams>('/api/tags/:id/', { schema: schemas.tagSchema }, async (request) => people.getTag(ownerOf(request), idOf(request)));
    app.patch<IdParams & { Body: Partial<TagBody> }>('/api/tags/:id/', { schema: schemas.updateTagSchema }, async (request) =>
      people.updateTag(ownerOf(request), idOf(request), request.body),
    );
    app.delete<IdParams>('/api/tags/:id/', async (request, reply) => {
      await people.removeTag(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });

    // --- people --------------------------------------------------------------------------------
    type PeopleQuery = { stage?: string; tag?: string; limit?: string; offset?: string };
    app.get<IdParams & { Querystring: PeopleQuery }>('/api/funnels/:id/people/', { schema: schemas.listPeopleSchema }, async (request) => {
      const q = request.query;
      const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
      return people.listPeople(ownerOf(request), idOf(request), { stage: num(q.stage), tag: num(q.tag), limit: num(q.limit), offset: num(q.offset) });
    });
    app.get<IdParams>('/api/people/:id/', { schema: schemas.personSchema }, async (request) => people.getPerson(ownerOf(request), idOf(request)));
    app.post<IdParams & { Body: { tag_id: number } }>('/api/people/:id/tags/', { schema: schemas.addPersonTagSchema }, async (request, reply) =>
      reply.code(201).send(await people.addPersonTag(ownerOf(request), idOf(request), request.body.tag_id)),
    );
    app.delete<{ Params: { id: string; tagId: string } }>('/api/people/:id/tags/:tagId/', async (request, reply) => {
      await people.removePersonTag(ownerOf(request), parseId(request.params.id), parseId(request.params.tagId));
      return reply.code(204).send();
    });

    // --- dashboard -----------------------------------------------------------------------------
    app.get<{ Querystring: { tz?: string } }>(FUNNELS_API.dashboard, { schema: schemas.dashboardSchema }, async (request) => {
      const { tz } = request.query;
      if (tz !== undefined && !isTimeZone(tz)) throw fieldError('tz', 'Unknown time zone.');
      return dashboard.dashboard(ownerOf(request), tz);
    });

    // --- media ---------------------------------------------------------------------------------
    app.get<IdParams>('/api/media/:id/', async (request, reply) => {
      const file = await mediaFiles.download(ownerOf(request), idOf(request));
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', `inline; filename="${encodeURIComponent(file.filename)}"`)
        .header('cache-control', 'private, max-age=3600')
        .send(file.data);
    });
    await app.register(mediaUpload);
  };

  /**
   * POST funnels/:id/media/ takes the raw file as the body. Its own scope: only here are images
   * and videos parsed, each type with its Telegram size limit.
   */
  async function mediaUpload(app: FastifyInstance): Promise<void> {
    for (const [type, kind] of Object.entries(MEDIA_TYPES)) {
      app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MEDIA_MAX_BYTES[kind] }, (_request, body, done) => done(null, body));
    }
    app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, _reply: FastifyReply) => {
      const kind = mediaKindOf(request.headers['content-type']);
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && kind) throw new ApiError(413, codedDetailBody(MEDIA_MESSAGES.tooBig(kind)));
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new ApiError(415, codedDetailBody(MEDIA_MESSAGES.unsupported));
      throw toApiError(error);
    });
    app.post<IdParams & { Querystring: { filename?: string } }>(
      '/api/funnels/:id/media/',
      {
        schema: { ...schemas.mediaSchema, querystring: { type: 'object', properties: { filename: { type: 'string', maxLength: 1000 } } } },
        // Before the body is read: someone else's funnel is 404 whatever the upload.
        preParsing: async (request: FastifyRequest<IdParams>) => {
          await ownedFunnel(db.orm, ownerOf(request), idOf(request)).catch((error: unknown) => {
            throw toApiError(error);
          });
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        if (!Buffer.isBuffer(body)) throw new ApiError(415, codedDetailBody(MEDIA_MESSAGES.unsupported));
        const media = await mediaFiles.upload(ownerOf(request), idOf(request), {
          contentType: request.headers['content-type'] ?? '',
          data: body,
          filename: request.query.filename,
        });
        return reply.code(201).send(media);
      },
    );
  }
}
