// The product API: every area's plugin behind one sign-in check, registered once here (as the
// Fastify demo's autohooks do), and with one error mapping that gives schema errors their codes
// (http/errors.ts). What must stay public — the auth API, health, webhooks, the SPA, and a
// published template's files — is registered outside the signed-in scope.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Services } from '../services';
import { requireAuth } from './auth/authenticate';
import { cardCheckoutRoutes, cardPortalRoutes, cardWebhookRoutes } from './billing/card';
import { billingPublicRoutes, billingRoutes } from './billing/routes';
import { starsRoutes } from './billing/stars';
import { contactRoutes } from './contacts/routes';
import { crmRoutes } from './crm/routes';
import { codedErrorHandling } from './errors';
import { funnelWebhookRoutes, inboundWebhookRoutes } from './funnel-webhooks/routes';
import { funnelRoutes } from './funnels/routes';
import { letterRoutes } from './letters/routes';
import { mailingRoutes } from './mailings/routes';
import { partnerClickRoutes, partnerRoutes } from './partner/routes';
import { sourceRoutes } from './sources/routes';
import { timerRoutes } from './timers/routes';
import { paymentRoutes } from './payments/routes';
import { fieldRoutes } from './fields/routes';
import { templateFileRoutes, templateRoutes } from './templates/routes';

export function productApi(services: Services, config: Pick<Config, 'rateLimit'>) {
  return async function productApiPlugin(app: FastifyInstance): Promise<void> {
    codedErrorHandling(app);
    await app.register(async function signedIn(scope: FastifyInstance) {
      scope.addHook('onRequest', requireAuth(services.sessions));
      await scope.register(funnelRoutes(services));
      await scope.register(sourceRoutes(services));
      await scope.register(timerRoutes(services));
      await scope.register(funnelWebhookRoutes(services));
      await scope.register(paymentRoutes(services));
      await scope.register(fieldRoutes(services));
      await scope.register(mailingRoutes(services));
      await scope.register(letterRoutes(services));
      await scope.register(templateRoutes(services));
      await scope.register(contactRoutes(services));
      await scope.register(crmRoutes(services));
      await scope.register(partnerRoutes(services));
      await scope.register(billingRoutes(services));
      await scope.register(cardCheckoutRoutes(services));
      await scope.register(starsRoutes(services));
    });
    await app.register(templateFileRoutes(services));
    await app.register(partnerClickRoutes({ ...services, config }));
    await app.register(billingPublicRoutes(services));
    await app.register(cardPortalRoutes(services));
    // The provider's signature is its login; the plugin reads its body raw to check it.
    await app.register(cardWebhookRoutes(services));
    // A funnel's incoming webhook: the secret in its path is its login.
    await app.register(inboundWebhookRoutes(services));
  };
}
