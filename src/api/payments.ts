// The payments API's calls (contract/payments.ts), on the authenticated client: a stage's Stars
// invoice and the owner's refund. Only the funnel screens import this.
import { PAYMENTS_API, type PersonPayment, type StagePayment } from '../../contract/payments';
import type { Stage } from '../../contract/funnels';
import { apiPath, authClient } from './clients';

export const setStagePayment = (funnelId: number, stageId: number, body: StagePayment) =>
  authClient.put(apiPath(PAYMENTS_API.stagePayment(funnelId, stageId)), { json: body }).json<Stage>();
export const clearStagePayment = (funnelId: number, stageId: number) => authClient.delete(apiPath(PAYMENTS_API.stagePayment(funnelId, stageId))).json<Stage>();
export const refundPayment = (funnelId: number, personId: number, paymentId: number) =>
  authClient.post(apiPath(PAYMENTS_API.refund(funnelId, personId, paymentId))).json<PersonPayment>();
