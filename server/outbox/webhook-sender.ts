// Outgoing webhooks on the wire: claims due deliveries (webhook-sql.ts says why each is POSTed at
// most once after its 2xx), POSTs each as JSON signed with the webhook's secret, records the
// outcome, retries with backoff for a day after the event, and switches off a webhook whose
// deliveries failed for a day (its owner is told once). It runs beside the delivery engine: the
// engine's tick pokes it, and a pass runs in the background (a slow receiver never holds up the
// engine's sends).
//
// On the wire this is at-least-once: a process killed between the receiver's 2xx and the record
// leaves the delivery 'sending'; when its lease runs out it is POSTed again with the same
// X-Funnel-Delivery id, which the receiver uses to drop the repeat.
import { createHmac, randomUUID } from 'node:crypto';
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TEST_EVENT } from '../../contract/webhooks';
import type { Db } from '../db';
import { resolvesToPrivateAddress } from './webhook-url';
import type { OutboxLog } from './ports';
import { CLAIM_WEBHOOK_DELIVERIES, DISABLE_FAILING_WEBHOOK, RECORD_WEBHOOK_FAILED, RECORD_WEBHOOK_SENT } from './webhook-sql';

/** A receiver has this long to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Waits before each retry, by attempts so far (the last repeats), in seconds: 1 min, 5, 15, 1 h, 3 h, 6 h… */
export const WEBHOOK_RETRY_DELAYS_S = [60, 300, 900, 3_600, 10_800, 21_600] as const;
/** Retries stop this long after the event (a last try is made then); a webhook failing this long is switched off. */
export const WEBHOOK_GIVE_UP_S = 86_400;
/** A claimed delivery is this process's for this long (more than the timeout); then another may take it. */
export const WEBHOOK_LEASE_S = 60;
/** Deliveries claimed (and POSTed side by side) per pass. */
const WEBHOOK_BATCH = 20;
/** What of a receiver's error answer is kept for the log. */
const ERROR_BODY_MAX = 300;

/** The header value of a body signed with a secret: `sha256=<hex HMAC-SHA256>`. */
export function webhookSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

export interface WebhookPostOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export interface WebhookPostOptions {
  timeoutMs?: number;
  /** false (production): a host that resolves to a private address is refused before the POST. */
  allowLocal: boolean;
}

/** One signed POST of a delivery's body; never throws. */
export async function postWebhook(url: string, secret: string, eventId: string, event: string, body: unknown, options: WebhookPostOptions): Promise<WebhookPostOutcome> {
  const raw = JSON.stringify(body);
  try {
    if (!options.allowLocal && (await resolvesToPrivateAddress(url))) {
      return { ok: false, status: null, error: 'The address is on a private network: not sent.' };
    }
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Funnels-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, raw),
        [WEBHOOK_EVENT_HEADER]: event,
        [WEBHOOK_DELIVERY_HEADER]: eventId,
      },
      body: raw,
      // A redirect is an answer, not a place to follow a signed body to.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, status: response.status, error: null };
    }
    const text = await response.text().catch(() => '');
    return { ok: false, status: response.status, error: `HTTP ${response.status}${text ? `: ${text.slice(0, ERROR_BODY_MAX)}` : ''}` };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, status: null, error: `No answer within ${Math.round((options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} s.` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, status: null, error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

export interface WebhookSenderOptions {
  db: Db;
  /** A webhook's secret from its stored (encrypted) form: the process knows SECRET_KEY, the engine does not. */
  secretOf(sealed: string): string;
  allowLocal: boolean;
  log: OutboxLog;
  /** Told once when a webhook switched itself off (the owner's notice). */
  onDisabled?(webhookId: number): Promise<void>;
  timeoutMs?: number;
}

interface ClaimedDelivery {
  id: number | string;
  webhook_id: number;
  event_id: string;
  event: string;
  body: unknown;
  attempts: number;
  url: string;
  secret: string;
}

export class WebhookSender {
  readonly owner = randomUUID();
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Runs a pass in the background unless one is running (then one more follows it). */
  poke(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = undefined;
    });
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopping && (await this.pass()) === WEBHOOK_BATCH);
      } catch (error) {
        this.options.log.error(`webhook sender: ${error instanceof Error ? error.message : String(error)}`);
      }
    } while (this.again && !this.stopping);
  }

  /** One batch: claim, POST side by side, record. Returns how many were claimed. */
  async pass(): Promise<number> {
    const { db } = this.options;
    const claimed = await db.query<ClaimedDelivery>(CLAIM_WEBHOOK_DELIVERIES, [WEBHOOK_BATCH, this.owner, WEBHOOK_LEASE_S]);
    await Promise.all(claimed.map((delivery) => this.send(delivery)));
    return claimed.length;
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    let secret: string;
    try {
      secret = this.options.secretOf(delivery.secret);
    } catch {
      await this.record(delivery, { ok: false, status: null, error: 'The webhook secret cannot be read (SECRET_KEY changed): rotate it.' }, false);
      return;
    }
    const outcome = await postWebhook(delivery.url, secret, delivery.event_id, delivery.event, delivery.body, {
      allowLocal: this.options.allowLocal,
      timeoutMs: this.options.timeoutMs,
    });
    // A test is tried once: the owner is watching its answer.
    await this.record(delivery, outcome, delivery.event === WEBHOOK_TEST_EVENT);
  }

  /** Writes the outcome; a failure may switch the webhook off (told once). */
  async record(delivery: { id: number | string; webhook_id: number }, outcome: WebhookPostOutcome, final: boolean): Promise<void> {
    const { db } = this.options;
    if (outcome.ok) {
      await db.query(RECORD_WEBHOOK_SENT, [delivery.id, outcome.status]);
      return;
    }
    await db.query(RECORD_WEBHOOK_FAILED, [delivery.id, outcome.status, outcome.error, [...WEBHOOK_RETRY_DELAYS_S], WEBHOOK_GIVE_UP_S, final]);
    const off = await db.query<{ id: number }>(DISABLE_FAILING_WEBHOOK, [delivery.webhook_id, WEBHOOK_GIVE_UP_S, 'The webhook was switched off: its deliveries failed for a day.']);
    for (const row of off) {
      this.options.log.warn({ webhook_id: row.id }, 'webhook switched off: its deliveries failed for a day');
      void this.options.onDisabled?.(row.id).catch(() => undefined);
    }
  }

  /** Stops starting passes and waits for the one running (its POSTs end within the timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** Resolves when the pass running now (if any) and the ones it asked for are done: for tests. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
