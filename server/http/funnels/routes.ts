// The product API (issue 3): funnels, stages and their messages, media, tags, people and the
// dashboard. Handlers only parse ids and call the services in server/funnels (shared with the
// bot runtime); every lookup names the signed-in owner, so other users' objects are 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FUNNELS_PATHS, MEDIA_MAX_BYTES, MEDIA_TYPES, NO_STAGE, type MessageContentBody } from '../../../contract/funnels';
import { NO_SOURCE } from '../../../contract/sources';
import { parseId } from '../../funnels/access';
import { isTimeZone } from '../../funnels/time-zone';
import { FUNNEL_ERRORS } from '../../funnels/errors';
import { MEDIA_MESSAGES, mediaKindOf } from '../../funnels/media';
import type { Services } from '../../services';
import { invalidField, unsupported } from '../../domain-error';
import { loggableError } from '../../db/errors';
import { currentUser } from '../auth/authenticate';
import * as schemas from './schemas';

export type FunnelRoutesDeps = Pick<Services, 'runtime' | 'funnels' | 'stages' | 'keywords' | 'people' | 'media' | 'dashboard' | 'stats' | 'inbox'>;

const ownerOf = (request: FastifyRequest) => currentUser(request).id;
const idOf = (request: { params: { id: string } }) => parseId(request.params.id);

export function funnelRoutes(deps: FunnelRoutesDeps) {
  const { runtime, funnels, stages, keywords, people, media: mediaFiles, dashboard, stats, inbox } = deps;
  const zoneOf = (tz: string | undefined) => {
    if (tz !== undefined && !isTimeZone(tz)) throw invalidField('tz', FUNNEL_ERRORS.unknownTimeZone);
    return tz ?? 'UTC';
  };

  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    /** Tells the bot runtime a funnel changed; its trouble is logged, the change stands. */
    async function syncRuntime(request: FastifyRequest, funnelId: number): Promise<void> {
      try {
        await runtime.sync(funnelId);
      } catch (error) {
        request.log.error({ error: loggableError(error), funnelId }, 'funnel runtime sync failed');
      }
    }

    // --- funnels -------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.funnels, { schema: schemas.listFunnelsSchema }, async (request) =>
      funnels.list(ownerOf(request), { archived: request.query.archived === 'true', folder: request.query.folder !== undefined ? Number(request.query.folder) : undefined }),
    );
    app.post(FUNNELS_PATHS.funnels, { schema: schemas.createFunnelSchema }, async (request, reply) => {
      const funnel = await funnels.connect(ownerOf(request), request.body);
      return reply.code(201).send(funnel);
    });
    app.get(FUNNELS_PATHS.funnel, { schema: schemas.funnelSchema }, async (request) => funnels.get(ownerOf(request), idOf(request)));
    app.patch(FUNNELS_PATHS.funnel, { schema: schemas.updateFunnelSchema }, async (request) =>
      funnels.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete(FUNNELS_PATHS.funnel, { schema: schemas.byIdSchema }, async (request, reply) => {
      const id = idOf(request);
      await funnels.remove(ownerOf(request), id);
      await syncRuntime(request, id);
      return reply.code(204).send();
    });
    for (const action of ['run', 'stop', 'archive', 'restore'] as const) {
      app.post(FUNNELS_PATHS[action], { schema: schemas.funnelSchema }, async (request) => {
        const id = idOf(request);
        const funnel = await funnels[action](ownerOf(request), id);
        await syncRuntime(request, id);
        return funnels.get(ownerOf(request), funnel.id);
      });
    }
    app.get(FUNNELS_PATHS.run, { schema: schemas.runCheckSchema }, async (request) => funnels.runCheck(ownerOf(request), idOf(request)));
    app.put(FUNNELS_PATHS.token, { schema: schemas.replaceTokenSchema }, async (request) => {
      const id = idOf(request);
      await funnels.replaceToken(ownerOf(request), id, request.body);
      await syncRuntime(request, id);
      return funnels.get(ownerOf(request), id);
    });
    app.post(FUNNELS_PATHS.copy, { schema: schemas.copyFunnelSchema }, async (request) =>
      funnels.copy(ownerOf(request), idOf(request), request.body.target_funnel_id),
    );
    app.get(FUNNELS_PATHS.description, { schema: schemas.descriptionSchema }, async (request) =>
      funnels.description(ownerOf(request), idOf(request)),
    );
    app.put(FUNNELS_PATHS.description, { schema: schemas.setDescriptionSchema }, async (request) =>
      funnels.setDescription(ownerOf(request), idOf(request), request.body),
    );

    // --- stages --------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.stages, { schema: schemas.listStagesSchema }, async (request) =>
      stages.list(ownerOf(request), idOf(request)),
    );
    app.post(FUNNELS_PATHS.stages, { schema: schemas.createStageSchema }, async (request, reply) =>
      reply.code(201).send(await stages.create(ownerOf(request), idOf(request), request.body)),
    );
    app.post(FUNNELS_PATHS.stageOrder, { schema: schemas.stageOrderSchema }, async (request) =>
      stages.reorder(ownerOf(request), idOf(request), request.body.stage_ids),
    );
    app.get(FUNNELS_PATHS.stage, { schema: schemas.stageSchema }, async (request) => stages.get(ownerOf(request), idOf(request)));
    app.patch(FUNNELS_PATHS.stage, { schema: schemas.updateStageSchema }, async (request) =>
      stages.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete(FUNNELS_PATHS.stage, { schema: schemas.byIdSchema }, async (request, reply) => {
      await stages.remove(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.put(
      FUNNELS_PATHS.stageMessage,
      { schema: schemas.stageMessageSchema },
      async (request) => {
        const body = request.body;
        return stages.setMessage(ownerOf(request), idOf(request), {
          text: body.text,
          media_id: body.media_id ?? null,
          // The service refuses a button without its text or url (under "buttons"): see the schema.
          buttons: (body.buttons ?? []) as MessageContentBody['buttons'],
          next_button: (body.next_button ?? null) as MessageContentBody['next_button'],
          // Likewise a choice without its text or stage (under "choices").
          choices: (body.choices ?? []) as MessageContentBody['choices'],
        });
      },
    );

    // --- keywords ------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.keywords, { schema: schemas.listKeywordsSchema }, async (request) => keywords.list(ownerOf(request), idOf(request)));
    app.post(FUNNELS_PATHS.keywords, { schema: schemas.createKeywordSchema }, async (request, reply) =>
      reply.code(201).send(await keywords.create(ownerOf(request), idOf(request), request.body)),
    );
    app.patch(FUNNELS_PATHS.keyword, { schema: schemas.updateKeywordSchema }, async (request) =>
      keywords.update(ownerOf(request), idOf(request), parseId(request.params.keywordId), request.body),
    );
    app.delete(FUNNELS_PATHS.keyword, { schema: schemas.keywordSchema }, async (request, reply) => {
      await keywords.remove(ownerOf(request), idOf(request), parseId(request.params.keywordId));
      return reply.code(204).send();
    });

    // --- tags ----------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.tags, { schema: schemas.listTagsSchema }, async (request) =>
      people.listTags(ownerOf(request), idOf(request)),
    );
    app.post(FUNNELS_PATHS.tags, { schema: schemas.createTagSchema }, async (request, reply) =>
      reply.code(201).send(await people.createTag(ownerOf(request), idOf(request), request.body)),
    );
    app.get(FUNNELS_PATHS.tag, { schema: schemas.tagSchema }, async (request) => people.getTag(ownerOf(request), idOf(request)));
    app.patch(FUNNELS_PATHS.tag, { schema: schemas.updateTagSchema }, async (request) =>
      people.updateTag(ownerOf(request), idOf(request), request.body),
    );
    app.delete(FUNNELS_PATHS.tag, { schema: schemas.byIdSchema }, async (request, reply) => {
      await people.removeTag(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });

    // --- people --------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.people, { schema: schemas.listPeopleSchema }, async (request) => {
      const q = request.query;
      const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
      return people.listPeople(ownerOf(request), idOf(request), {
        stage: q.stage === NO_STAGE ? NO_STAGE : num(q.stage),
        tag: num(q.tag),
        source: q.source === NO_SOURCE ? NO_SOURCE : num(q.source),
        field: num(q.field),
        field_value: q.field_value,
        search: q.search,
        limit: num(q.limit),
        offset: num(q.offset),
      });
    });
    app.patch(FUNNELS_PATHS.person, { schema: schemas.movePersonSchema }, async (request) => {
      const id = idOf(request);
      await people.movePerson(ownerOf(request), id, request.body.stage_id);
      return people.getPerson(ownerOf(request), id);
    });
    app.get(FUNNELS_PATHS.person, { schema: schemas.personSchema }, async (request) => people.getPerson(ownerOf(request), idOf(request)));
    app.get(FUNNELS_PATHS.contactHistory, { schema: schemas.contactHistorySchema }, async (request) => people.contactHistory(ownerOf(request), idOf(request)));
    app.post(FUNNELS_PATHS.personTags, { schema: schemas.addPersonTagSchema }, async (request, reply) =>
      reply.code(201).send(await people.addPersonTag(ownerOf(request), idOf(request), request.body.tag_id)),
    );
    app.delete(FUNNELS_PATHS.personTag, { schema: schemas.personTagSchema }, async (request, reply) => {
      await people.removePersonTag(ownerOf(request), parseId(request.params.id), parseId(request.params.tagId));
      return reply.code(204).send();
    });

    // --- inbox ---------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.inbox, { schema: schemas.inboxSchema }, async (request) => {
      const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
      return inbox.list(ownerOf(request), idOf(request), { limit: num(request.query.limit), offset: num(request.query.offset) });
    });
    app.post(FUNNELS_PATHS.personRead, { schema: schemas.byIdSchema }, async (request, reply) => {
      await inbox.markRead(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.post(FUNNELS_PATHS.personReply, { schema: schemas.replySchema }, async (request, reply) => {
      const id = idOf(request);
      await inbox.reply(ownerOf(request), id, request.body.text);
      return reply.code(201).send(await people.getPerson(ownerOf(request), id));
    });

    // --- dashboard -----------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.dashboard, { schema: schemas.dashboardSchema }, async (request) => {
      const { tz, period } = request.query;
      return dashboard.dashboard(ownerOf(request), zoneOf(tz), period ?? 'all');
    });
    app.get(FUNNELS_PATHS.stats, { schema: schemas.statsSchema }, async (request) => {
      const { tz, period } = request.query;
      return stats.funnelStats(ownerOf(request), idOf(request), period ?? 'all', zoneOf(tz));
    });

    // --- media ---------------------------------------------------------------------------------
    app.get(FUNNELS_PATHS.mediaFile, { schema: schemas.byIdSchema }, async (request, reply) => {
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
  async function mediaUpload(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    for (const [type, kind] of Object.entries(MEDIA_TYPES)) {
      app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MEDIA_MAX_BYTES[kind] }, (_request, body, done) => done(null, body));
    }
    app.post(
      FUNNELS_PATHS.media,
      {
        schema: schemas.mediaSchema,
        config: {
          refusedUpload: {
            tooLarge: (request) => {
              const kind = mediaKindOf(request.headers['content-type']);
              return kind ? MEDIA_MESSAGES.tooBig(kind) : null;
            },
            unsupported: MEDIA_MESSAGES.unsupported,
          },
        },
        // Before the body is read: someone else's funnel is 404 whatever the upload.
        preParsing: async (request) => {
          await mediaFiles.requireFunnel(ownerOf(request), idOf(request));
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        if (!Buffer.isBuffer(body)) throw unsupported(MEDIA_MESSAGES.unsupported);
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
