// A funnel's webhooks, as its owner manages them (issue 24): the incoming URL (its secret made when
// first shown, rotated on request), and the outgoing webhooks (list, create, change, switch on or
// off, delete, rotate the secret, the delivery log, "Send a test"). Every statement names the
// owner in its own WHERE: another user's funnel or webhook is "not found" and nothing of theirs is
// touched. Secrets are kept encrypted with SECRET_KEY; an outgoing webhook's secret is shown only
// in the answer that made it (create, rotate).
import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_LOG_SIZE,
  WEBHOOK_TEST_EVENT,
  WEBHOOKS_API,
  WEBHOOKS_MAX,
  type FunnelWebhook,
  type FunnelWebhookWithSecret,
  type WebhookBody,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookPatch,
  type WebhookSettings,
} from '../../contract/webhooks';
import type { Db } from '../db';
import { isoTime } from '../db/raw';
import { invalid, invalidField, notFound, type DomainMessage } from '../domain-error';
import { postWebhook, WEBHOOK_LEASE_S } from '../outbox/webhook-sender';
import { RECORD_WEBHOOK_FAILED, RECORD_WEBHOOK_SENT } from '../outbox/webhook-sql';
import { decryptSecret, encryptSecret } from './secret-box';
import { webhookUrlProblem, type WebhookUrlProblem } from '../outbox/webhook-url';

export const WEBHOOK_ERRORS = {
  badUrl: { code: 'bad_webhook_url', text: 'Enter a valid URL, like https://example.com/hooks/funnel.' },
  notHttps: { code: 'webhook_not_https', text: 'The URL must start with https://.' },
  privateAddress: { code: 'webhook_private_address', text: 'The URL must be a public address, not this server or a private network.' },
  tooMany: { code: 'too_many_webhooks', count: WEBHOOKS_MAX, text: `A funnel can have no more than ${WEBHOOKS_MAX} webhooks.` },
} as const satisfies Record<string, DomainMessage>;

const URL_PROBLEMS: Record<WebhookUrlProblem, DomainMessage> = {
  not_a_url: WEBHOOK_ERRORS.badUrl,
  not_https: WEBHOOK_ERRORS.notHttps,
  private_address: WEBHOOK_ERRORS.privateAddress,
};

export interface WebhookServiceDeps {
  db: Db;
  /** The base of the incoming URL (PUBLIC_URL). */
  publicUrl: string;
  secretKey: string;
  allowLocal: boolean;
  /** A receiver's time to answer a test (tests shorten it). */
  timeoutMs?: number;
}

interface WebhookRow {
  id: number;
  funnel_id: number;
  url: string;
  secret: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | string | null;
  created_at: Date | string;
}

interface DeliveryRow {
  id: number | string;
  event_id: string;
  event: string;
  state: WebhookDelivery['state'];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  next_attempt_at: Date | string;
}

const newSecret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

const toWebhook = (r: WebhookRow): FunnelWebhook => ({
  id: r.id,
  funnel_id: r.funnel_id,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  disabled_reason: r.disabled_reason,
  failing_since: r.failing_since === null ? null : isoTime(r.failing_since),
  created_at: isoTime(r.created_at),
});

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: Number(r.id),
  event_id: r.event_id,
  event: r.event,
  state: r.state,
  attempts: r.attempts,
  last_status: r.last_status,
  last_error: r.last_error,
  created_at: isoTime(r.created_at),
  sent_at: r.sent_at === null ? null : isoTime(r.sent_at),
  next_attempt_at: r.state === 'waiting' ? isoTime(r.next_attempt_at) : null,
});

/** The owner's webhooks ($1 the owner, $2 the funnel). */
const SELECT_WEBHOOKS = `select w.* from funnel_webhooks w join funnels f on f.id = w.funnel_id where f.owner_id = $1 and w.funnel_id = $2`;
/** `and` this to a write over funnel_webhooks w: only the owner's ($1), of the funnel ($2). */
const OWNED_WEBHOOK = `w.funnel_id = $2 and w.funnel_id in (select f.id from funnels f where f.owner_id = $1)`;

export function createWebhookService({ db, publicUrl, secretKey, allowLocal, timeoutMs }: WebhookServiceDeps) {
  function cleanUrl(url: string): string {
    const clean = url.trim();
    const problem = webhookUrlProblem(clean, allowLocal);
    if (problem) throw invalidField('url', URL_PROBLEMS[problem]);
    return clean;
  }

  /** Events once each, in the contract's order. */
  const cleanEvents = (events: WebhookEvent[]): WebhookEvent[] => [...new Set(events)];

  async function requireFunnel(ownerId: number, funnelId: number): Promise<{ id: number; name: string; inbound_secret: string | null }> {
    const [funnel] = await db.query<{ id: number; name: string; inbound_secret: string | null }>(
      'select id, name, inbound_secret from funnels where id = $1 and owner_id = $2',
      [funnelId, ownerId],
    );
    if (!funnel) throw notFound();
    return funnel;
  }

  async function settings(ownerId: number, funnelId: number): Promise<WebhookSettings> {
    let funnel = await requireFunnel(ownerId, funnelId);
    if (funnel.inbound_secret === null) {
      // Made when first shown; two first looks at once keep whichever wrote first.
      await db.query('update funnels set inbound_secret = $3 where id = $1 and owner_id = $2 and inbound_secret is null', [funnelId, ownerId, encryptSecret(newSecret(''), secretKey)]);
      funnel = await requireFunnel(ownerId, funnelId);
    }
    const [example] = await db.query<{ person_id: number | null; stage_id: number | null }>(
      `select (select p.id from people p where p.funnel_id = $1 order by p.joined_at desc, p.id desc limit 1) as person_id,
              (select s.id from stages s where s.funnel_id = $1 order by s.position, s.id limit 1) as stage_id`,
      [funnelId],
    );
    return {
      inbound_url: `${publicUrl}${WEBHOOKS_API.inbound(funnelId, decryptSecret(funnel.inbound_secret!, secretKey))}`,
      example_person_id: example?.person_id ?? null,
      example_stage_id: example?.stage_id ?? null,
    };
  }

  /** A new incoming secret: the old URL stops working at once. */
  async function rotateInbound(ownerId: number, funnelId: number): Promise<WebhookSettings> {
    const rotated = await db.query('update funnels set inbound_secret = $3 where id = $1 and owner_id = $2 returning id', [funnelId, ownerId, encryptSecret(newSecret(''), secretKey)]);
    if (rotated.length === 0) throw notFound();
    return settings(ownerId, funnelId);
  }

  async function list(ownerId: number, funnelId: number): Promise<FunnelWebhook[]> {
    await requireFunnel(ownerId, funnelId);
    const rows = await db.query<WebhookRow>(`${SELECT_WEBHOOKS} order by w.created_at, w.id`, [ownerId, funnelId]);
    return rows.map(toWebhook);
  }

  async function get(ownerId: number, funnelId: number, webhookId: number): Promise<WebhookRow> {
    const [row] = await db.query<WebhookRow>(`${SELECT_WEBHOOKS} and w.id = $3`, [ownerId, funnelId, webhookId]);
    if (!row) throw notFound();
    return row;
  }

  const withSecret = (row: WebhookRow, secret: string): FunnelWebhookWithSecret => ({ ...toWebhook(row), secret });

  async function create(ownerId: number, funnelId: number, body: WebhookBody): Promise<FunnelWebhookWithSecret> {
    await requireFunnel(ownerId, funnelId);
    const url = cleanUrl(body.url);
    const secret = newSecret('whsec_');
    const [row] = await db.query<WebhookRow>(
      `insert into funnel_webhooks (funnel_id, url, secret, events)
       select f.id, $3, $4, $5::jsonb from funnels f
        where f.id = $2 and f.owner_id = $1 and (select count(*) from funnel_webhooks w where w.funnel_id = f.id) < $6
       returning *`,
      [ownerId, funnelId, url, encryptSecret(secret, secretKey), JSON.stringify(cleanEvents(body.events)), WEBHOOKS_MAX],
    );
    if (!row) {
      await requireFunnel(ownerId, funnelId);
      throw invalid(WEBHOOK_ERRORS.tooMany);
    }
    return withSecret(row, secret);
  }

  async function update(ownerId: number, funnelId: number, webhookId: number, patch: WebhookPatch): Promise<FunnelWebhook> {
    // Another user's webhook is 404 whatever the body says (the write below names the owner too).
    await get(ownerId, funnelId, webhookId);
    const url = patch.url === undefined ? null : cleanUrl(patch.url);
    const events = patch.events === undefined ? null : JSON.stringify(cleanEvents(patch.events));
    // Switched on by the owner: no longer "failing" (the day of failures counts again from the next one).
    const updated = await db.query<WebhookRow>(
      `update funnel_webhooks w set
         url = coalesce($4, w.url),
         events = coalesce($5::jsonb, w.events),
         enabled = coalesce($6, w.enabled),
         disabled_reason = case when $6::boolean is null then w.disabled_reason else null end,
         failing_since = case when $6::boolean and not w.enabled then null else w.failing_since end
        where w.id = $3 and ${OWNED_WEBHOOK}
       returning w.*`,
      [ownerId, funnelId, webhookId, url, events, patch.enabled ?? null],
    );
    if (updated.length === 0) throw notFound();
    return toWebhook(updated[0]);
  }

  async function rotateSecret(ownerId: number, funnelId: number, webhookId: number): Promise<FunnelWebhookWithSecret> {
    const secret = newSecret('whsec_');
    const [row] = await db.query<WebhookRow>(`update funnel_webhooks w set secret = $4 where w.id = $3 and ${OWNED_WEBHOOK} returning w.*`, [
      ownerId,
      funnelId,
      webhookId,
      encryptSecret(secret, secretKey),
    ]);
    if (!row) throw notFound();
    return withSecret(row, secret);
  }

  /** Deletes the webhook and its log; what it had still to send is not sent. */
  async function remove(ownerId: number, funnelId: number, webhookId: number): Promise<void> {
    const deleted = await db.query(`delete from funnel_webhooks w where w.id = $3 and ${OWNED_WEBHOOK} returning w.id`, [ownerId, funnelId, webhookId]);
    if (deleted.length === 0) throw notFound();
  }

  async function deliveries(ownerId: number, funnelId: number, webhookId: number): Promise<WebhookDelivery[]> {
    await get(ownerId, funnelId, webhookId);
    const rows = await db.query<DeliveryRow>(
      `select d.id, d.event_id, d.event, d.state, d.attempts, d.last_status, d.last_error, d.created_at, d.sent_at, d.next_attempt_at
         from webhook_deliveries d join funnel_webhooks w on w.id = d.webhook_id
        where d.webhook_id = $3 and ${OWNED_WEBHOOK}
        order by d.created_at desc, d.id desc limit ${WEBHOOK_LOG_SIZE}`,
      [ownerId, funnelId, webhookId],
    );
    return rows.map(toDelivery);
  }

  /**
   * Sends a test event now (even while the webhook is off) and answers with its delivery, as the
   * log shows it. Tried once; it does not count towards "failing".
   */
  async function test(ownerId: number, funnelId: number, webhookId: number): Promise<WebhookDelivery> {
    const funnel = await requireFunnel(ownerId, funnelId);
    const webhook = await get(ownerId, funnelId, webhookId);
    const eventId = randomUUID();
    const body = { id: eventId, event: WEBHOOK_TEST_EVENT, created_at: new Date().toISOString(), funnel: { id: funnel.id, name: funnel.name }, person: null, data: {} };
    const [row] = await db.query<{ id: number | string }>(
      `insert into webhook_deliveries (webhook_id, funnel_id, event_id, event, body, state, attempts, lease_owner, lease_until, next_attempt_at)
       select w.id, w.funnel_id, $4, $5, $6::jsonb, 'sending', 1, 'test', now() + make_interval(secs => $7), now() + make_interval(secs => $7)
         from funnel_webhooks w where w.id = $3 and ${OWNED_WEBHOOK}
       returning id`,
      [ownerId, funnelId, webhookId, eventId, WEBHOOK_TEST_EVENT, JSON.stringify(body), WEBHOOK_LEASE_S],
    );
    if (!row) throw notFound();
    const outcome = await postWebhook(webhook.url, decryptSecret(webhook.secret, secretKey), eventId, WEBHOOK_TEST_EVENT, body, { allowLocal, timeoutMs });
    if (outcome.ok) await db.query(RECORD_WEBHOOK_SENT, [row.id, outcome.status]);
    else await db.query(RECORD_WEBHOOK_FAILED, [row.id, outcome.status, outcome.error, [60], 86_400, true]);
    const [delivery] = await db.query<DeliveryRow>(
      'select id, event_id, event, state, attempts, last_status, last_error, created_at, sent_at, next_attempt_at from webhook_deliveries where id = $1',
      [row.id],
    );
    return toDelivery(delivery);
  }

  return { settings, rotateInbound, list, get: async (ownerId: number, funnelId: number, webhookId: number) => toWebhook(await get(ownerId, funnelId, webhookId)), create, update, rotateSecret, remove, deliveries, test };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
