// The mailings API's calls (contract/mailings.ts), on the authenticated client. Only the mailing
// screens import this, so it loads with their chunks.
import {
  MAILINGS_API,
  type Audience,
  type Mailing,
  type MailingBody,
  type MailingCheck,
  type MailingPatch,
  type RecipientState,
  type RecipientsPage,
} from '../../contract/mailings';
import { apiPath, authClient } from './clients';

const get = <T>(path: string, searchParams?: Record<string, string | number>) => authClient.get(apiPath(path), { searchParams }).json<T>();
const post = <T>(path: string, json?: unknown) => authClient.post(apiPath(path), { json }).json<T>();

export const listMailings = (funnelId: number) => get<Mailing[]>(MAILINGS_API.mailings(funnelId));
export const getMailing = (id: number) => get<Mailing>(MAILINGS_API.mailing(id));
export const createMailing = (funnelId: number, body: MailingBody) => post<Mailing>(MAILINGS_API.mailings(funnelId), body);
export const updateMailing = (id: number, body: MailingPatch) => authClient.patch(apiPath(MAILINGS_API.mailing(id)), { json: body }).json<Mailing>();
export const deleteMailing = async (id: number) => {
  await authClient.delete(apiPath(MAILINGS_API.mailing(id)));
};
export const countAudience = (funnelId: number, audience: Audience) => post<{ count: number }>(MAILINGS_API.audience(funnelId), audience);
export const checkMailing = (id: number) => get<MailingCheck>(MAILINGS_API.check(id));
/** Now (no moment) or at an ISO moment with its offset. */
export const sendMailing = (id: number, scheduledAt: string | null) => post<Mailing>(MAILINGS_API.send(id), { scheduled_at: scheduledAt });
export const pauseMailing = (id: number) => post<Mailing>(MAILINGS_API.pause(id));
export const resumeMailing = (id: number) => post<Mailing>(MAILINGS_API.resume(id));
export const cancelMailing = (id: number) => post<Mailing>(MAILINGS_API.cancel(id));
export const unsendMailing = (id: number) => post<Mailing>(MAILINGS_API.unsend(id));
export const listRecipients = (id: number, query: { state?: RecipientState; limit: number; offset: number }) =>
  get<RecipientsPage>(MAILINGS_API.recipients(id), { ...(query.state ? { state: query.state } : {}), limit: query.limit, offset: query.offset });
