// The partner programme's API (issue 23). A partner sees only their own links, figures, ledger
// and withdrawals (every service call names them; another partner's link is 404). Admins see
// every withdrawal request and decide on it (403 for anyone else, before anything is looked
// up). A web click is reported without credentials, rate-limited per IP.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PARTNER_PATHS, type WithdrawalAction } from '../../../contract/partner';
import {
  AdminWithdrawalSchema,
  AdminWithdrawalsQuerySchema,
  AdminWithdrawalsSchema,
  CreatePartnerLinkBodySchema,
  CreateWithdrawalBodySchema,
  PartnerBalancesSchema,
  PartnerClickBodySchema,
  PartnerLinkSchema,
  PartnerLinksSchema,
  PartnerLinkStatsSchema,
  PartnerStatisticsSchema,
  PartnerStatsQuerySchema,
  PartnerTransactionsPageSchema,
  PartnerTransactionsQuerySchema,
  WithdrawalSchema,
  WithdrawalsSchema,
} from '../../../contract/schemas/partner';
import { parseId } from '../../funnels/access';
import type { Config } from '../../config';
import type { Services } from '../../services';
import { currentAdmin, currentUser } from '../auth/authenticate';
import { ApiError } from '../errors';

export type PartnerRoutesDeps = Pick<Services, 'partner' | 'limiter'>;

/** Web clicks one address may report per rate-limit window: a page open each, so more than sign-in's (shared NATs). */
export const PARTNER_CLICKS_PER_SIGN_IN = 4;

const idParams = Type.Object({ id: Type.String() });
const uidParams = Type.Object({ uid: Type.String() });

function throttled(retryAfterS: number): ApiError {
  const unit = retryAfterS === 1 ? 'second' : 'seconds';
  return new ApiError(429, { detail: `Request was throttled. Expected available in ${retryAfterS} ${unit}.` }, { 'Retry-After': String(retryAfterS) });
}

/** The signed-in partner's calls and the admins' withdrawal queue (registered in the signed-in scope). */
export function partnerRoutes(deps: PartnerRoutesDeps) {
  const { partner } = deps;
  return async function partnerPlugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const admin = async (request: FastifyRequest) => {
      currentAdmin(request);
    };

    app.get(PARTNER_PATHS.links, { schema: { response: { 200: PartnerLinksSchema } } }, async (request) => partner.links(currentUser(request).id));
    app.post(PARTNER_PATHS.links, { schema: { body: CreatePartnerLinkBodySchema, response: { 201: PartnerLinkSchema } } }, async (request, reply) =>
      reply.code(201).send(await partner.createLink(currentUser(request).id, request.body.label)),
    );
    app.get(PARTNER_PATHS.linkStats, { schema: { params: uidParams, querystring: PartnerStatsQuerySchema, response: { 200: PartnerLinkStatsSchema } } }, async (request) =>
      partner.linkStats(currentUser(request).id, request.params.uid, request.query.period ?? '30d'),
    );
    app.get(PARTNER_PATHS.statistics, { schema: { querystring: PartnerStatsQuerySchema, response: { 200: PartnerStatisticsSchema } } }, async (request) =>
      partner.statistics(currentUser(request).id, request.query.period ?? '30d'),
    );
    app.get(PARTNER_PATHS.balance, { schema: { response: { 200: PartnerBalancesSchema } } }, async (request) => partner.balance(currentUser(request).id));
    app.get(PARTNER_PATHS.transactions, { schema: { querystring: PartnerTransactionsQuerySchema, response: { 200: PartnerTransactionsPageSchema } } }, async (request) =>
      partner.transactions(currentUser(request).id, Number(request.query.page ?? '1') || 1),
    );
    app.get(PARTNER_PATHS.withdrawals, { schema: { response: { 200: WithdrawalsSchema } } }, async (request) => partner.withdrawals(currentUser(request).id));
    app.post(PARTNER_PATHS.withdrawals, { schema: { body: CreateWithdrawalBodySchema, response: { 201: WithdrawalSchema } } }, async (request, reply) =>
      reply.code(201).send(await partner.requestWithdrawal(currentUser(request).id, request.body)),
    );

    app.get(PARTNER_PATHS.adminWithdrawals, { onRequest: admin, schema: { querystring: AdminWithdrawalsQuerySchema, response: { 200: AdminWithdrawalsSchema } } }, async (request) =>
      partner.adminWithdrawals(request.query.state),
    );
    const actions: Array<[string, WithdrawalAction]> = [
      [PARTNER_PATHS.adminWithdrawalApprove, 'approve'],
      [PARTNER_PATHS.adminWithdrawalReject, 'reject'],
      [PARTNER_PATHS.adminWithdrawalPaid, 'paid'],
    ];
    for (const [path, action] of actions) {
      app.post(path, { onRequest: admin, schema: { params: idParams, response: { 200: AdminWithdrawalSchema } } }, async (request) =>
        partner.actOnWithdrawal(parseId(request.params.id), action),
      );
    }
  };
}

/** POST clicks/ without credentials: the app reports a visit through a web link. */
export function partnerClickRoutes(deps: PartnerRoutesDeps & { config: Pick<Config, 'rateLimit'> }) {
  const { partner, limiter } = deps;
  const perIp = deps.config.rateLimit.perIp * PARTNER_CLICKS_PER_SIGN_IN;
  return async function partnerClickPlugin(untyped: FastifyInstance): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    // Rate-limited per IP in the sign-in limiter's window: clicks cannot be pumped from one address.
    app.post(PARTNER_PATHS.clicks, { schema: { body: PartnerClickBodySchema } }, async (request, reply) => {
      const result = await limiter.hit([{ key: `partner_click:ip:${request.ip}`, limit: perIp }]);
      if (!result.allowed) throw throttled(result.retryAfterS);
      await partner.recordWebClick(request.body.uid);
      return reply.code(204).send();
    });
  };
}
