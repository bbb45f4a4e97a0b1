// /content/funnels/$funnelId/mailings/$mailingId/: one mailing — its state and live progress, the
// message as the chat will show it, and what can be done now: edit and send (after the pre-send
// check, now or at a moment), pause, resume, cancel, delete, and delete from the chats within
// Telegram's 48 hours; then each recipient's outcome.
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import { DELETE_FROM_CHATS_HOURS, type Mailing, type MailingCheck, type RecipientsPage } from '../../../contract/mailings';
import { runChange, runRead } from '@/api/action';
import { cancelMailing, checkMailing, deleteMailing, pauseMailing, resumeMailing, sendMailing, unsendMailing } from '@/api/mailings';
import { describeFailure, noticeFailure, success, translateServerMessage, useRefreshWhile } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { ConfirmDialog } from '@/ui/Dialog';
import { DateTimeField } from '@/ui/DateTimeField';
import { Button } from '@/ui/form';
import { MessagePreview } from '@/ui/message-editor/MessagePreview';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useWideLayout } from '@/ui/useWideLayout';
import { NO_NAMES, useAudienceWords, type AudienceNames } from './audienceWords';
import { formatMoment, MailingStateBadge, ProgressBar, useDuration, useSampleFill } from './parts';
import { RecipientProblem, RecipientState, shownProblem } from './RecipientState';
import { RecipientsTable } from './RecipientsTable';

export const RECIPIENTS_PAGE = 50;
export type RecipientFilter = 'sent' | 'waiting' | 'failed' | 'blocked' | 'unknown';

type Dialog =
  | { kind: 'send'; check: MailingCheck | null; when: 'now' | 'later'; at: string; error: string | null; busy: boolean }
  | { kind: 'cancel' | 'delete' | 'unsend'; busy: boolean }
  | null;

/** The screen refreshes this often while something about the mailing can change by itself. */
const LIVE_REFRESH_MS = 1_500;
/** A mailing scheduled further off than this is looked at again only this seldom, until it nears. */
const SCHEDULED_SOON_MS = 5 * 60_000;
const SCHEDULED_REFRESH_MS = 60_000;

/** Something about the mailing changes without its owner: it sends, it starts soon, or its messages are being deleted. */
function changesNow(mailing: Mailing, now: number): boolean {
  const { state, progress, deletion } = mailing;
  if (state === 'sending' || progress.sending > 0 || (deletion?.deleting ?? 0) > 0) return true;
  return state === 'scheduled' && mailing.scheduled_at !== null && Date.parse(mailing.scheduled_at) - now < SCHEDULED_SOON_MS;
}

/** The value of a datetime-local input an hour from now, in the device's time zone. */
function inAnHour(): string {
  const d = new Date(Date.now() + 60 * 60_000);
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A datetime-local value as an instant with its offset (the device's zone is the user's). */
function withOffset(local: string): string | null {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

export function MailingScreen({
  funnel,
  mailing,
  recipients,
  filter,
  page,
  onFilter,
  names = NO_NAMES,
}: {
  funnel: Funnel;
  mailing: Mailing;
  /** The funnel's stages and tags and the user's lists, to say who the mailing goes to. */
  names?: AudienceNames;
  recipients: RecipientsPage;
  filter: RecipientFilter | undefined;
  page: number;
  onFilter: (next: { state?: RecipientFilter; page?: number }) => void;
}) {
  const { t } = useTranslation();
  usePageHead(mailing.title);
  const ids = useId();
  const wide = useWideLayout();
  const navigate = useNavigate();
  const duration = useDuration();
  const fill = useSampleFill();
  const words = useAudienceWords();
  const audienceLine = t('mailings.audienceLine', { audience: words(mailing.audience, names) });
  const [dialog, setDialog] = useState<Dialog>(null);
  const funnelId = String(funnel.id);
  const mailingId = String(mailing.id);
  const { state, progress } = mailing;
  // Only while something can change: a finished, cancelled or deleted mailing is not asked again.
  const live = changesNow(mailing, Date.now());
  useRefreshWhile(live, LIVE_REFRESH_MS);
  useRefreshWhile(!live && state === 'scheduled', SCHEDULED_REFRESH_MS);

  const canEdit = state === 'draft' || state === 'scheduled';
  const sentRecently =
    state === 'finished' && mailing.finished_at !== null && Date.now() - Date.parse(mailing.finished_at) < DELETE_FROM_CHATS_HOURS * 3600_000 && progress.sent > 0;

  async function openSend() {
    setDialog({ kind: 'send', check: null, when: 'now', at: inAnHour(), error: null, busy: false });
    const result = await runRead(() => checkMailing(mailing.id));
    if (!result.ok) {
      setDialog(null);
      return noticeFailure(result.failure);
    }
    setDialog((d) => (d?.kind === 'send' ? { ...d, check: result.value } : d));
  }

  async function confirmSend() {
    if (dialog?.kind !== 'send') return;
    const at = dialog.when === 'later' ? withOffset(dialog.at) : null;
    if (dialog.when === 'later' && !at) return setDialog({ ...dialog, error: t('funnels.serverErrors.invalid') });
    setDialog({ ...dialog, busy: true, error: null });
    const result = await runChange(() => sendMailing(mailing.id, at));
    if (!result.ok) {
      const { fields, messages } = describeFailure(result.failure);
      return setDialog({ ...dialog, busy: false, error: [...messages, ...Object.values(fields).flat()].join(' ') || null });
    }
    setDialog(null);
    success(result.value.state === 'scheduled' ? t('mailings.scheduledNotice') : t('mailings.sendingNotice'));
  }

  async function act(work: () => Promise<unknown>, done: string) {
    const result = await runChange(work, { notice: done });
    setDialog(null);
    if (!result.ok) return noticeFailure(result.failure);
  }

  async function remove() {
    const result = await runChange(() => deleteMailing(mailing.id));
    setDialog(null);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('mailings.deleted'));
    await navigate({ to: '/content/funnels/$funnelId/mailings/', params: { funnelId } });
  }

  const pages = Math.max(1, Math.ceil(recipients.count / RECIPIENTS_PAGE));
  const check = dialog?.kind === 'send' ? dialog.check : null;

  return (
    <Screen wide={!canEdit}>
      <ScreenHeader
        title={mailing.title}
        subtitle={<MailingStateBadge mailing={mailing} />}
        back={<BackLink to="/content/funnels/$funnelId/mailings/" params={{ funnelId }} label={t('mailings.title')} />}
      />

      {state === 'paused' && mailing.pause_reason ? (
        <p className="mailing-notice" role="status" data-testid="pause-reason">
          {t(`mailings.pauseReason.${mailing.pause_reason}`)}
        </p>
      ) : null}
      <MailingStateLine mailing={mailing} />

      <section className="section-block" aria-labelledby={`${ids}-progress`}>
        <h2 className="section-title" id={`${ids}-progress`}>
          {canEdit ? t('mailings.audience.title') : t('mailings.progress.title')}
        </h2>
        <div className="section section--padded">
          <p className="mailing-audience" data-testid="mailing-audience">
            {audienceLine}
          </p>
          {canEdit ? (
            <p className="mailing-facts" data-testid="audience-size">
              {t('mailings.audienceCount', { count: mailing.audience_size })}
              {state === 'scheduled' && mailing.scheduled_at ? ` · ${t('mailings.scheduledFor', { at: formatMoment(mailing.scheduled_at) })}` : null}
            </p>
          ) : (
            <ProgressBar progress={progress} />
          )}
          {mailing.started_at ? (
            <p className="mailing-facts">
              {t('mailings.startedAt', { at: formatMoment(mailing.started_at) })}
              {mailing.finished_at ? ` · ${t('mailings.finishedAt', { at: formatMoment(mailing.finished_at) })}` : null}
            </p>
          ) : null}
        </div>
      </section>

      <div className="mailing-actions">
        {canEdit ? (
          <>
            <Button onClick={() => void openSend()} data-testid="send-mailing">
              {state === 'scheduled' ? t('mailings.actions.sendOrReschedule') : t('mailings.actions.send')}
            </Button>
            <Link
              to="/content/funnels/$funnelId/mailings/$mailingId/edit/"
              params={{ funnelId, mailingId }}
              className="button button--secondary"
              data-testid="edit-mailing"
            >
              {t('mailings.actions.edit')}
            </Link>
          </>
        ) : null}
        {state === 'sending' ? (
          <Button variant="secondary" onClick={() => void act(() => pauseMailing(mailing.id), t('mailings.pausedNotice'))} data-testid="pause-mailing">
            {t('mailings.actions.pause')}
          </Button>
        ) : null}
        {state === 'paused' ? (
          <Button onClick={() => void act(() => resumeMailing(mailing.id), t('mailings.resumedNotice'))} data-testid="resume-mailing">
            {t('mailings.actions.resume')}
          </Button>
        ) : null}
        {state === 'sending' || state === 'paused' || state === 'scheduled' ? (
          <Button variant="secondary" onClick={() => setDialog({ kind: 'cancel', busy: false })} data-testid="cancel-mailing">
            {t('mailings.actions.cancel')}
          </Button>
        ) : null}
        {sentRecently && !mailing.unsent_at ? (
          <Button variant="secondary" onClick={() => setDialog({ kind: 'unsend', busy: false })} data-testid="unsend-mailing">
            {t('mailings.actions.unsend')}
          </Button>
        ) : null}
        <Button variant="destructive" onClick={() => setDialog({ kind: 'delete', busy: false })} data-testid="delete-mailing">
          {t('mailings.actions.delete')}
        </Button>
      </div>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.message.preview')}</h2>
        <MessagePreview
          text={fill(mailing.message.text)}
          media={mailing.message.media ? { kind: mailing.message.media.kind, id: mailing.message.media.id, src: null } : null}
          buttons={mailing.message.buttons}
          nextButton={null}
          botName={funnel.name}
        />
      </section>

      {canEdit ? null : (
        <section className="section-block" aria-labelledby={`${ids}-recipients`}>
          <h2 className="section-title" id={`${ids}-recipients`}>
            {t('mailings.recipients.title')}
          </h2>
          <div className="filter-tabs" role="tablist">
            {([undefined, 'sent', 'waiting', 'failed', 'blocked', 'unknown'] as const).map((value) => (
              <button
                key={value ?? 'all'}
                type="button"
                role="tab"
                aria-selected={filter === value}
                className={`filter-tab${filter === value ? ' filter-tab--active' : ''}`}
                onClick={() => onFilter({ state: value, page: 1 })}
              >
                {value ? t(`mailings.recipients.filter.${value}`) : t('mailings.recipients.filter.all')}
              </button>
            ))}
          </div>
          {recipients.results.length === 0 ? (
            <p className="section-footer">{t('mailings.recipients.none')}</p>
          ) : wide ? (
            <RecipientsTable recipients={recipients.results} />
          ) : (
            <div className="section">
              {recipients.results.map((r) => (
                <Link
                  key={r.person_id}
                  to="/content/people/$personId/"
                  params={{ personId: String(r.person_id) }}
                  className="row recipient-row"
                  data-testid="recipient-row"
                >
                  <span className="row-body">
                    <span className="row-title">{[r.first_name, r.last_name].filter(Boolean).join(' ') || r.username || '—'}</span>
                    <span className="row-description">
                      {formatMoment(r.at)}
                      {shownProblem(r) ? ' · ' : null}
                      <RecipientProblem recipient={r} />
                    </span>
                  </span>
                  <RecipientState recipient={r} />
                </Link>
              ))}
            </div>
          )}
          {pages > 1 ? (
            <nav className="pager" aria-label={t('funnels.people.pageOf', { page, pages })}>
              <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => onFilter({ state: filter, page: page - 1 })}>
                {t('funnels.people.prev')}
              </button>
              <span className="pager-text">{t('funnels.people.pageOf', { page, pages })}</span>
              <button type="button" className="button button--secondary button--small" disabled={page >= pages} onClick={() => onFilter({ state: filter, page: page + 1 })}>
                {t('funnels.people.next')}
              </button>
            </nav>
          ) : null}
        </section>
      )}

      {dialog?.kind === 'send' ? (
        <ConfirmDialog
          title={t('mailings.confirm.sendTitle')}
          confirmLabel={dialog.when === 'later' ? t('mailings.confirm.schedule') : t('mailings.confirm.sendNow')}
          cancelLabel={t('funnels.common.cancel')}
          confirmDisabled={!check || check.problems.length > 0 || dialog.busy}
          onConfirm={() => void confirmSend()}
          onCancel={() => setDialog(null)}
        >
          {!check ? (
            <p>{t('mailings.confirm.checking')}</p>
          ) : check.problems.length > 0 ? (
            <div data-testid="send-problems">
              <p>{t('mailings.confirm.cannotSend')}</p>
              <ul className="sheet-problems">
                {check.problems.map((p, i) => (
                  <li key={i}>{translateServerMessage(p.message, { code: p.code as never, count: p.count })}</li>
                ))}
              </ul>
            </div>
          ) : (
            <div className="send-check" data-testid="send-check">
              <p data-testid="send-audience">{audienceLine}</p>
              <p data-testid="send-estimate">
                {t('mailings.confirm.estimate', { count: check.audience_size, duration: duration(check.estimated_seconds), rate: check.messages_per_second })}
              </p>
              {check.stars > 0 ? <p data-testid="send-stars">{t('mailings.confirm.stars', { count: check.stars })}</p> : null}
              <fieldset className="send-when">
                <label className="send-when-option">
                  <input type="radio" name={`${ids}-when`} checked={dialog.when === 'now'} onChange={() => setDialog({ ...dialog, when: 'now' })} />
                  {t('mailings.confirm.now')}
                </label>
                <label className="send-when-option">
                  <input type="radio" name={`${ids}-when`} checked={dialog.when === 'later'} onChange={() => setDialog({ ...dialog, when: 'later' })} data-testid="send-later" />
                  {t('mailings.confirm.later')}
                </label>
                {dialog.when === 'later' ? (
                  <DateTimeField
                    value={dialog.at}
                    dateLabel={t('mailings.confirm.momentDate')}
                    timeLabel={t('mailings.confirm.momentTime')}
                    onChange={(at) => setDialog({ ...dialog, at })}
                    testId="send-at"
                  />
                ) : null}
              </fieldset>
              {dialog.error ? <p className="field-error" role="alert">{dialog.error}</p> : null}
            </div>
          )}
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'cancel' ? (
        <ConfirmDialog
          title={t('mailings.confirm.cancelTitle')}
          confirmLabel={t('mailings.actions.cancel')}
          cancelLabel={t('common.back')}
          destructive
          onConfirm={() => void act(() => cancelMailing(mailing.id), t('mailings.cancelledNotice'))}
          onCancel={() => setDialog(null)}
        >
          <p>{t('mailings.confirm.cancelText')}</p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'unsend' ? (
        <ConfirmDialog
          title={t('mailings.confirm.unsendTitle')}
          confirmLabel={t('mailings.actions.unsend')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void act(() => unsendMailing(mailing.id), t('mailings.unsentNotice'))}
          onCancel={() => setDialog(null)}
        >
          <p>{t('mailings.confirm.unsendText', { count: progress.sent })}</p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={t('mailings.confirm.deleteTitle')}
          confirmLabel={t('mailings.actions.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove()}
          onCancel={() => setDialog(null)}
        >
          <p>{state === 'sending' || state === 'paused' ? t('mailings.confirm.deleteSending') : t('mailings.confirm.deleteText')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

/** What became of an ended mailing: deleted from the chats (with the counts), or cancelled after how many were sent. */
function MailingStateLine({ mailing }: { mailing: Mailing }) {
  const { t } = useTranslation();
  const { deletion } = mailing;
  if (deletion) {
    const counts = [
      t('mailings.stateLine.deleted', { count: deletion.deleted }),
      ...(deletion.deleting > 0 ? [t('mailings.stateLine.deleting', { count: deletion.deleting })] : []),
      ...(deletion.too_old > 0 ? [t('mailings.stateLine.too_old', { count: deletion.too_old })] : []),
      ...(deletion.failed > 0 ? [t('mailings.stateLine.failed', { count: deletion.failed })] : []),
    ];
    return (
      <p className="mailing-state-line" role="status" data-testid="mailing-state-line">
        <strong>{t('mailings.stateLine.unsent')}</strong>
        <span>{counts.join(' · ')}</span>
      </p>
    );
  }
  if (mailing.state === 'cancelled') {
    return (
      <p className="mailing-state-line" role="status" data-testid="mailing-state-line">
        {t('mailings.stateLine.cancelled', { count: mailing.progress.sent })}
      </p>
    );
  }
  return null;
}
