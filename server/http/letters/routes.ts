// The series-of-letters API (issue 9): handlers parse ids and call server/letters; every lookup
// names the signed-in owner through the series' funnel, so another user's series is 404.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { LETTERS_PATHS } from '../../../contract/letters';
import {
  LetterBodySchema,
  LetterHistorySchema,
  LetterPatchSchema,
  LetterSchema,
  MemberBodySchema,
  PersonSeriesSchema,
  SeriesBodySchema,
  SeriesPatchSchema,
  SeriesSchema,
} from '../../../contract/schemas/letters';
import { parseId } from '../../funnels/access';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type LetterRoutesDeps = Pick<Services, 'series' | 'letterScheduler'>;

const params = Type.Object({ id: Type.String() });
const memberParams = Type.Object({ id: Type.String(), personId: Type.String() });
const ownerOf = (request: FastifyRequest) => currentUser(request).id;
const idOf = (request: { params: { id: string } }) => parseId(request.params.id);

export function letterRoutes(deps: LetterRoutesDeps) {
  const { series, letterScheduler: scheduler } = deps;
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(LETTERS_PATHS.series, { schema: { params, response: { 200: Type.Array(SeriesSchema) } } }, async (request) => series.list(ownerOf(request), idOf(request)));
    app.post(LETTERS_PATHS.series, { schema: { params, body: SeriesBodySchema, response: { 201: SeriesSchema } } }, async (request, reply) =>
      reply.code(201).send(await series.create(ownerOf(request), idOf(request), request.body)),
    );
    app.get(LETTERS_PATHS.oneSeries, { schema: { params, response: { 200: SeriesSchema } } }, async (request) => series.get(ownerOf(request), idOf(request)));
    // A PATCH with no fields changes nothing and answers the series as it is (as DRF does).
    app.patch(LETTERS_PATHS.oneSeries, { schema: { params, body: SeriesPatchSchema, response: { 200: SeriesSchema } } }, async (request) =>
      Object.keys(request.body).length === 0 ? series.get(ownerOf(request), idOf(request)) : series.update(ownerOf(request), idOf(request), request.body),
    );
    app.delete(LETTERS_PATHS.oneSeries, { schema: { params } }, async (request, reply) => {
      await series.remove(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.post(LETTERS_PATHS.enable, { schema: { params, response: { 200: SeriesSchema } } }, async (request) => series.setEnabled(ownerOf(request), idOf(request), true));
    app.post(LETTERS_PATHS.disable, { schema: { params, response: { 200: SeriesSchema } } }, async (request) => series.setEnabled(ownerOf(request), idOf(request), false));

    app.post(LETTERS_PATHS.letters, { schema: { params, body: LetterBodySchema, response: { 201: LetterSchema } } }, async (request, reply) =>
      reply.code(201).send(await series.addLetter(ownerOf(request), idOf(request), request.body)),
    );
    app.get(LETTERS_PATHS.letter, { schema: { params, response: { 200: LetterSchema } } }, async (request) => series.getLetter(ownerOf(request), idOf(request)));
    app.patch(LETTERS_PATHS.letter, { schema: { params, body: LetterPatchSchema, response: { 200: LetterSchema } } }, async (request) =>
      series.updateLetter(ownerOf(request), idOf(request), request.body),
    );
    app.delete(LETTERS_PATHS.letter, { schema: { params } }, async (request, reply) => {
      await series.removeLetter(ownerOf(request), idOf(request));
      return reply.code(204).send();
    });
    app.get(LETTERS_PATHS.history, { schema: { params, response: { 200: LetterHistorySchema } } }, async (request) => series.history(ownerOf(request), idOf(request)));

    app.get(LETTERS_PATHS.personSeries, { schema: { params, response: { 200: PersonSeriesSchema } } }, async (request) => series.ofPerson(ownerOf(request), idOf(request)));
    app.post(LETTERS_PATHS.members, { schema: { params, body: MemberBodySchema } }, async (request, reply) => {
      await series.addMember(ownerOf(request), idOf(request), request.body.person_id, async (candidate) => {
        await scheduler.addMembers([candidate]);
      });
      return reply.code(204).send();
    });
    app.delete(LETTERS_PATHS.member, { schema: { params: memberParams } }, async (request, reply) => {
      await series.removeMember(ownerOf(request), parseId(request.params.id), parseId(request.params.personId));
      return reply.code(204).send();
    });
  };
}
