// /content/funnels/$funnelId/webhooks/: the funnel talks with other systems. Incoming: the
// funnel's signed URL (copy it, copy a curl example, make a new one) that another system (the
// owner's course platform, card processor) POSTs to, naming a person by the id their links carry
// ({person_id}). Outgoing: URLs the funnel POSTs its events to, signed; each with its events, on or
// off, whether it is failing, its delivery log and "Send a test". A webhook's secret is shown once,
// when made or renewed.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type FunnelWebhook, type WebhookDelivery, type WebhookEvent, type WebhookSettings } from '../../../contract/webhooks';
import { createWebhook, deleteWebhook, listWebhookDeliveries, rotateInboundUrl, rotateWebhookSecret, testWebhook, updateWebhook } from '@/api/funnels';
import { runChange, runRead } from '@/api/action';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { copyText } from '@/telegram/share';
import { BackLink } from '@/ui/BackLink';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { CopyIcon, EditIcon, SendIcon, TrashIcon } from '@/ui/glyphs';
import { EditDialog } from './EditDialog';
import './funnels.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** The example's body: a person moved to a stage once per event id. */
export function curlExample(settings: WebhookSettings): string {
  const body = { event_id: 'order-1001', person_id: settings.example_person_id ?? '{person_id}', action: 'go_to_stage', stage_id: settings.example_stage_id ?? 1 };
  return `curl -X POST '${settings.inbound_url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(body)}'`;
}

export function WebhooksScreen({ funnelId, settings, webhooks }: { funnelId: number; settings: WebhookSettings; webhooks: FunnelWebhook[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.webhooks.title'));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['stage.reached']);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [rotatingInbound, setRotatingInbound] = useState(false);
  const [editing, setEditing] = useState<FunnelWebhook | null>(null);
  const [deleting, setDeleting] = useState<FunnelWebhook | null>(null);

  async function copy(text: string) {
    if (await copyText(text)) success(t('funnels.share.copied'));
    else window.prompt(t('funnels.webhooks.copy'), text); // no clipboard (an old WebView): copy by hand
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!url.trim()) return setErrors({ fields: { url: [t('funnels.serverErrors.blank')] }, messages: [] });
    if (events.length === 0) return setErrors({ fields: { events: [t('funnels.webhooks.chooseEvents')] }, messages: [] });
    const result = await runChange(() => createWebhook(funnelId, { url: url.trim(), events }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['url', 'events']));
    setErrors(NO_ERRORS);
    setUrl('');
    setSecret({ url: result.value.url, secret: result.value.secret });
  }

  async function rotateInbound() {
    setRotatingInbound(false);
    const result = await runChange(() => rotateInboundUrl(funnelId));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.webhooks.inboundRotated'));
  }

  async function remove(webhook: FunnelWebhook) {
    setDeleting(null);
    const result = await runChange(() => deleteWebhook(funnelId, webhook.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.webhooks.deleted'));
  }

  const example = curlExample(settings);
  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.webhooks.title')}
        subtitle={t('funnels.webhooks.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />

      <section className="section-block" data-testid="inbound">
        <h2 className="section-title">{t('funnels.webhooks.inboundTitle')}</h2>
        <div className="section webhook-card">
          <p className="row-description">{t('funnels.webhooks.inboundText')}</p>
          <code className="source-link" data-testid="inbound-url">
            {settings.inbound_url}
          </code>
          <div className="source-actions">
            <button type="button" className="button button--small" onClick={() => void copy(settings.inbound_url)} data-testid="inbound-copy">
              <CopyIcon aria-hidden="true" />
              {t('funnels.webhooks.copy')}
            </button>
            <button type="button" className="button button--small" onClick={() => setRotatingInbound(true)} data-testid="inbound-rotate">
              {t('funnels.webhooks.rotate')}
            </button>
          </div>
          <p className="row-description">{t('funnels.webhooks.exampleText')}</p>
          <pre className="webhook-example" data-testid="inbound-example">
            {example}
          </pre>
          <div className="source-actions">
            <button type="button" className="button button--small" onClick={() => void copy(example)} data-testid="example-copy">
              <CopyIcon aria-hidden="true" />
              {t('funnels.webhooks.copyExample')}
            </button>
          </div>
          <p className="row-description">{t('funnels.webhooks.actionsText')}</p>
        </div>
      </section>

      <section className="section-block" data-testid="outgoing">
        <h2 className="section-title">{t('funnels.webhooks.outgoingTitle')}</h2>
        {webhooks.length === 0 ? (
          <p className="section-footer" data-testid="webhooks-empty">
            {t('funnels.webhooks.emptyText')}
          </p>
        ) : (
          <ul className="section source-list">
            {webhooks.map((webhook) => (
              <WebhookItem key={webhook.id} funnelId={funnelId} webhook={webhook} onEdit={setEditing} onDelete={setDeleting} onSecret={setSecret} />
            ))}
          </ul>
        )}
      </section>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.webhooks.addTitle')}</h2>
        <form className="form" onSubmit={(event) => void add(event)} noValidate>
          <FormAlert messages={errors.messages} />
          <TextField
            label={t('funnels.webhooks.urlLabel')}
            value={url}
            maxLength={WEBHOOK_URL_MAX}
            placeholder="https://example.com/hooks/funnel"
            inputMode="url"
            onChange={(event) => setUrl(event.target.value)}
            errors={errors.fields.url}
            autoComplete="off"
            data-testid="webhook-url"
          />
          <EventSwitches value={events} onChange={setEvents} errors={errors.fields.events} />
          <Button type="submit">{t('funnels.webhooks.add')}</Button>
        </form>
      </section>

      {secret ? (
        <ConfirmDialog
          title={t('funnels.webhooks.secretTitle')}
          confirmLabel={t('funnels.webhooks.copySecret')}
          cancelLabel={t('funnels.webhooks.done')}
          onConfirm={() => void copy(secret.secret)}
          onCancel={() => setSecret(null)}
        >
          <p>{t('funnels.webhooks.secretText', { url: secret.url })}</p>
          <code className="source-link" data-testid="webhook-secret">
            {secret.secret}
          </code>
        </ConfirmDialog>
      ) : null}
      {rotatingInbound ? (
        <ConfirmDialog
          title={t('funnels.webhooks.rotateTitle')}
          confirmLabel={t('funnels.webhooks.rotate')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void rotateInbound()}
          onCancel={() => setRotatingInbound(false)}
        >
          <p>{t('funnels.webhooks.rotateText')}</p>
        </ConfirmDialog>
      ) : null}
      {editing ? <EditWebhookDialog funnelId={funnelId} webhook={editing} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.webhooks.deleteTitle')}
          confirmLabel={t('funnels.webhooks.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{t('funnels.webhooks.deleteText', { url: deleting.url })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

function EventSwitches({ value, onChange, errors }: { value: WebhookEvent[]; onChange: (events: WebhookEvent[]) => void; errors?: string[] }) {
  const { t } = useTranslation();
  return (
    <fieldset className="webhook-events" data-testid="webhook-events">
      <legend className="field-label">{t('funnels.webhooks.eventsLabel')}</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event} className="row switch-row">
          <span className="row-body">
            <span className="row-title">{t(`funnels.webhooks.events.${eventKey(event)}`)}</span>
            <span className="row-description">{event}</span>
          </span>
          <input
            type="checkbox"
            className="switch"
            role="switch"
            checked={value.includes(event)}
            onChange={(e) => onChange(e.target.checked ? WEBHOOK_EVENTS.filter((x) => x === event || value.includes(x)) : value.filter((x) => x !== event))}
            data-testid={`event-${event}`}
          />
        </label>
      ))}
      {errors?.map((error) => (
        <p key={error} className="field-error">
          {error}
        </p>
      ))}
    </fieldset>
  );
}

/** The locale key of an event: 'stage.reached' → 'stageReached'. */
const eventKey = (event: WebhookEvent) => event.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase()) as 'stageReached';

function WebhookItem({
  funnelId,
  webhook,
  onEdit,
  onDelete,
  onSecret,
}: {
  funnelId: number;
  webhook: FunnelWebhook;
  onEdit: (webhook: FunnelWebhook) => void;
  onDelete: (webhook: FunnelWebhook) => void;
  onSecret: (shown: { url: string; secret: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  const [log, setLog] = useState<WebhookDelivery[] | null>(null);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' });

  async function loadLog() {
    const result = await runRead(() => listWebhookDeliveries(funnelId, webhook.id));
    if (!result.ok) return noticeFailure(result.failure);
    setLog(result.value);
  }

  async function toggle(enabled: boolean) {
    const result = await runChange(() => updateWebhook(funnelId, webhook.id, { enabled }));
    if (!result.ok) return noticeFailure(result.failure);
  }

  async function sendTest() {
    const result = await runChange(() => testWebhook(funnelId, webhook.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(result.value.state === 'sent' ? t('funnels.webhooks.testSent', { status: result.value.last_status }) : t('funnels.webhooks.testFailed', { error: result.value.last_error ?? '' }));
    if (log) await loadLog();
  }

  async function rotate() {
    const result = await runChange(() => rotateWebhookSecret(funnelId, webhook.id));
    if (!result.ok) return noticeFailure(result.failure);
    onSecret({ url: result.value.url, secret: result.value.secret });
  }

  return (
    <li className="source-item" data-testid="webhook-row">
      <div className="source-head">
        <code className="source-link" data-testid="webhook-row-url">
          {webhook.url}
        </code>
        <input
          type="checkbox"
          className="switch"
          role="switch"
          aria-label={t('funnels.webhooks.enabled')}
          checked={webhook.enabled}
          onChange={(e) => void toggle(e.target.checked)}
          data-testid="webhook-enabled"
        />
      </div>
      <p className="row-description">{webhook.events.map((event) => t(`funnels.webhooks.events.${eventKey(event)}`)).join(', ')}</p>
      {webhook.disabled_reason === 'failing' ? (
        <p className="section-footer section-footer--warning" data-testid="webhook-switched-off">
          {t('funnels.webhooks.switchedOff')}
        </p>
      ) : webhook.failing_since ? (
        <p className="section-footer section-footer--warning" data-testid="webhook-failing">
          {t('funnels.webhooks.failingSince', { when: when(webhook.failing_since) })}
        </p>
      ) : null}
      <div className="source-actions">
        <button type="button" className="button button--small" onClick={() => void sendTest()} data-testid="webhook-test">
          <SendIcon aria-hidden="true" />
          {t('funnels.webhooks.test')}
        </button>
        <button type="button" className="button button--small" onClick={() => (log ? setLog(null) : void loadLog())} aria-expanded={log !== null} data-testid="webhook-log-toggle">
          {t('funnels.webhooks.log')}
        </button>
        <button type="button" className="button button--small" onClick={() => void rotate()} data-testid="webhook-rotate">
          {t('funnels.webhooks.newSecret')}
        </button>
        <button type="button" className="icon-button" aria-label={t('funnels.webhooks.edit')} onClick={() => onEdit(webhook)}>
          <EditIcon />
        </button>
        <button type="button" className="icon-button icon-button--danger" aria-label={t('funnels.webhooks.delete')} onClick={() => onDelete(webhook)}>
          <TrashIcon />
        </button>
      </div>
      {log ? (
        log.length === 0 ? (
          <p className="row-description" data-testid="webhook-log-empty">
            {t('funnels.webhooks.logEmpty')}
          </p>
        ) : (
          <ul className="webhook-log" data-testid="webhook-log">
            {log.map((delivery) => (
              <li key={delivery.id} className={`webhook-log-item webhook-log-item--${delivery.state}`} data-testid="delivery-row">
                <span className="row-title">
                  {delivery.event} · {t(`funnels.webhooks.states.${delivery.state}`)}
                  {delivery.last_status !== null ? ` · ${delivery.last_status}` : ''}
                </span>
                <span className="row-description">
                  {when(delivery.created_at)} · {t('funnels.webhooks.attempts', { count: delivery.attempts })}
                  {delivery.next_attempt_at ? ` · ${t('funnels.webhooks.nextAttempt', { when: when(delivery.next_attempt_at) })}` : ''}
                </span>
                {delivery.last_error && delivery.state !== 'sent' ? <span className="row-description webhook-log-error">{delivery.last_error}</span> : null}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </li>
  );
}

function EditWebhookDialog({ funnelId, webhook, onDone }: { funnelId: number; webhook: FunnelWebhook; onDone: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(webhook.url);
  const [events, setEvents] = useState<WebhookEvent[]>(webhook.events);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);

  async function save() {
    if (events.length === 0) return setErrors({ fields: { events: [t('funnels.webhooks.chooseEvents')] }, messages: [] });
    const result = await runChange(() => updateWebhook(funnelId, webhook.id, { url: url.trim(), events }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['url', 'events']));
    success(t('funnels.webhooks.saved'));
    onDone();
  }

  return (
    <EditDialog title={t('funnels.webhooks.editTitle')} errors={errors} onSave={save} onCancel={onDone}>
      <TextField label={t('funnels.webhooks.urlLabel')} value={url} maxLength={WEBHOOK_URL_MAX} inputMode="url" onChange={(e) => setUrl(e.target.value)} errors={errors.fields.url} autoComplete="off" />
      <EventSwitches value={events} onChange={setEvents} errors={errors.fields.events} />
    </EditDialog>
  );
}
