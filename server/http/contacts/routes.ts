// The contacts API (issue 10): the people of all of the signed-in user's bots, filtered and
// searched, the same list as CSV (streamed), and tagging many at once. Only the user's own
// funnels are ever read: a filter naming someone else's funnel, stage or tag finds nobody.
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTACTS_PATHS } from '../../../contract/contacts';
import { BulkTagBodySchema, BulkTagResultSchema, ContactsExportQuerySchema, ContactsPageSchema, ContactsQuerySchema } from '../../../contract/schemas/contacts';
import type { Services } from '../../services';
import { currentUser } from '../auth/authenticate';

export type ContactRoutesDeps = Pick<Services, 'contacts' | 'now'>;

/**
 * Query values arrive as text and the server's ajv coerces nothing (server/app.ts): the filter's
 * ids become numbers and "true"/"false" booleans here, so one schema (the filter a segment stores
 * as JSON) checks both. Anything else is left as it came, for the schema to refuse with its message.
 */
async function readQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const typed: Record<string, unknown> = { ...query };
  for (const [key, value] of Object.entries(query)) {
    const type = (ContactsQuerySchema.properties as Record<string, { type?: unknown } | undefined>)[key]?.type;
    if (typeof value !== 'string') continue;
    if (type === 'integer' && /^[0-9]{1,16}$/.test(value)) typed[key] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) typed[key] = value === 'true';
  }
  request.query = typed;
}

export function contactRoutes(deps: ContactRoutesDeps) {
  const { contacts } = deps;
  return async function plugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();

    app.get(CONTACTS_PATHS.contacts, { preValidation: readQueryValues, schema: { querystring: ContactsQuerySchema, response: { 200: ContactsPageSchema } } }, async (request) =>
      contacts.list(currentUser(request).id, request.query),
    );
    app.get(CONTACTS_PATHS.export, { preValidation: readQueryValues, schema: { querystring: ContactsExportQuerySchema } }, async (request, reply) => {
      const day = deps.now().toISOString().slice(0, 10);
      const user = currentUser(request);
      // The app sends its own language and time zone; without them, the account's language and UTC.
      const { lang, tz, ...query } = request.query;
      // Awaited before any header: a failure is still an answer with its status, not a cut stream.
      const csv = await contacts.exportCsv(user.id, query, { language: lang ?? user.language, timeZone: tz ?? 'UTC' });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="contacts-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv));
    });
    app.post(CONTACTS_PATHS.tags, { schema: { body: BulkTagBodySchema, response: { 200: BulkTagResultSchema } } }, async (request) =>
      contacts.bulkTag(currentUser(request).id, request.body),
    );
  };
}
