// Pieces the funnel screens share: the state badge, run/stop with its confirmation, tag chips,
// the colour and icon pickers.
import { useState } from 'react';
import { PALETTE, STAGE_ICONS, type Funnel, type StageIcon, type Tag } from '../../../contract/funnels';
import type { ApiErrorCode } from '../../../contract/errors';
import { checkRun, runFunnel, stopFunnel } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/form';
import { ConfirmDialog } from '@/ui/Dialog';
import { StageGlyph } from './StageIcon';
import { runChange, runRead } from '@/api/action';
import { describeFailure, noticeFailure, success, translateServerMessage, useRefresh } from '@/api/useApi';
import './funnels.css';

type FunnelStateFields = Pick<Funnel, 'state'> & Partial<Pick<Funnel, 'stop_reason' | 'telegram_unreachable_since'>>;

export const isRevoked = (funnel: FunnelStateFields) => funnel.state === 'stopped' && funnel.stop_reason === 'token_revoked';
/** A running funnel whose bot has not reached Telegram for a while: since when (else null). */
export const unreachableSince = (funnel: FunnelStateFields) => (funnel.state === 'running' ? (funnel.telegram_unreachable_since ?? null) : null);

/** "14:05" (or "2:05 PM") today, "26 Nov, 14:05" on another day: in the app's language and the device's time zone. */
export function useMomentLabel() {
  const { i18n } = useTranslation();
  return (iso: string) => {
    const at = new Date(iso);
    const today = at.toDateString() === new Date().toDateString();
    const options: Intl.DateTimeFormatOptions = today
      ? { hour: 'numeric', minute: '2-digit' }
      : { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' };
    return new Intl.DateTimeFormat(i18n.language, options).format(at);
  };
}

/** `short`: a badge beside a name (a card) says only "No connection"; the card says since when below. */
export function useStateLabel() {
  const { t } = useTranslation();
  const moment = useMomentLabel();
  return (funnel: FunnelStateFields, { short = false }: { short?: boolean } = {}) => {
    const since = unreachableSince(funnel);
    if (since) return short ? t('funnels.health.unreachable') : t('funnels.health.unreachableSince', { time: moment(since) });
    return isRevoked(funnel) ? t('funnels.state.revoked') : t(`funnels.state.${funnel.state}`);
  };
}

export function StateBadge({ funnel, short = false }: { funnel: FunnelStateFields; short?: boolean }) {
  const label = useStateLabel()(funnel, { short });
  const tone = unreachableSince(funnel) ? 'unreachable' : isRevoked(funnel) ? 'revoked' : funnel.state;
  return (
    <span className={`state-badge state-badge--${tone}`} data-testid="funnel-state">
      <span className="state-badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

type RunDialog = { kind: 'run'; problems: string[] | null; busy: boolean } | { kind: 'stop'; busy: boolean } | null;

/**
 * 'Run the bot' and 'Stop', each after a confirmation. Before a run the server checks the funnel
 * and asks Telegram about the token; what stands in the way is listed on the confirmation itself
 * (and the run button stays off). Success is said only once the server has the new state (and
 * the screen reloads with it); a check or a refused run may have found the token revoked, which
 * the screen reloads to show.
 */
export function RunControls({ funnel, compact = false }: { funnel: Funnel; compact?: boolean }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [dialog, setDialog] = useState<RunDialog>(null);
  const running = funnel.state === 'running';

  async function openRun() {
    setDialog({ kind: 'run', problems: null, busy: false });
    const result = await runRead(() => checkRun(funnel.id));
    if (!result.ok) {
      setDialog(null);
      return noticeFailure(result.failure);
    }
    const problems = result.value.problems.map((p) => translateServerMessage(p.message, { code: p.code as ApiErrorCode, detail: p.detail }));
    setDialog({ kind: 'run', problems, busy: false });
    // The check may have found the token revoked: the screen shows it at once.
    if (result.value.problems.some((p) => p.code === 'token_revoked')) void refresh();
  }

  async function run() {
    setDialog({ kind: 'run', problems: [], busy: true });
    const result = await runChange(() => runFunnel(funnel.id));
    if (!result.ok) {
      const { fields, messages } = describeFailure(result.failure);
      const problems = [...messages, ...Object.values(fields).flat()];
      if (problems.length === 0) {
        setDialog(null);
        return noticeFailure(result.failure);
      }
      void refresh();
      return setDialog({ kind: 'run', problems, busy: false });
    }
    setDialog(null);
    success(t('funnels.run.started', { username: result.value.bot_username }));
  }

  async function stop() {
    setDialog({ kind: 'stop', busy: true });
    const result = await runChange(() => stopFunnel(funnel.id));
    setDialog(null);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.run.stopped'));
  }

  const runLabel = funnel.state === 'stopped' ? t('funnels.run.again') : t('funnels.run.run');
  const problems = dialog?.kind === 'run' ? dialog.problems : null;
  return (
    <>
      {running ? (
        <Button variant="secondary" className={compact ? 'button--small' : undefined} onClick={() => setDialog({ kind: 'stop', busy: false })}>
          {t('funnels.run.stop')}
        </Button>
      ) : (
        <Button className={compact ? 'button--small' : undefined} onClick={() => void openRun()}>
          {runLabel}
        </Button>
      )}
      {dialog?.kind === 'run' ? (
        <ConfirmDialog
          title={problems && problems.length > 0 ? t('funnels.run.cannotTitle') : t('funnels.run.confirmTitle')}
          confirmLabel={runLabel}
          cancelLabel={t('funnels.common.cancel')}
          confirmDisabled={problems === null || problems.length > 0 || dialog.busy}
          onConfirm={() => void run()}
          onCancel={() => setDialog(null)}
        >
          {problems === null ? (
            <p role="status">{t('funnels.run.checking')}</p>
          ) : problems.length > 0 ? (
            <>
              <p>{t('funnels.run.cannotText')}</p>
              <ul className="sheet-problems" data-testid="run-problems">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <p>{funnel.was_run ? t('funnels.run.confirmAgain', { username: funnel.bot_username }) : t('funnels.run.confirmFirst', { username: funnel.bot_username })}</p>
              {funnel.was_run ? null : <p className="sheet-warning">{t('funnels.run.warning')}</p>}
            </>
          )}
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'stop' ? (
        <ConfirmDialog
          title={t('funnels.run.stopTitle')}
          confirmLabel={t('funnels.run.stop')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          confirmDisabled={dialog.busy}
          onConfirm={() => void stop()}
          onCancel={() => setDialog(null)}
        >
          <p>{t('funnels.run.stopText', { username: funnel.bot_username })}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

export function TagChip({ tag, onRemove, removeLabel }: { tag: Pick<Tag, 'title' | 'color'>; onRemove?: () => void; removeLabel?: string }) {
  return (
    <span className="tag-chip" style={{ '--tag-color': tag.color } as React.CSSProperties}>
      <span className="tag-chip-dot" aria-hidden="true" />
      {tag.title}
      {onRemove ? (
        <button type="button" className="tag-chip-remove" aria-label={removeLabel} onClick={onRemove}>
          ×
        </button>
      ) : null}
    </span>
  );
}

export function ColorPicker({ value, onChange, label }: { value: string; onChange: (color: string) => void; label: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="picker">
      <legend className="field-label">{label}</legend>
      <div className="swatches">
        {PALETTE.map((color, index) => (
          <label key={color} className="swatch" style={{ background: color }}>
            <input type="radio" name={`color-${label}`} value={color} checked={value.toLowerCase() === color} onChange={() => onChange(color)} />
            <span className="visually-hidden">{t(`funnels.colors.${index}` as 'funnels.colors.0')}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function IconPicker({ value, color, onChange, label }: { value: StageIcon; color: string; onChange: (icon: StageIcon) => void; label: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="picker">
      <legend className="field-label">{label}</legend>
      <div className="icon-grid">
        {STAGE_ICONS.map((icon) => (
          <label key={icon} className="icon-option" style={{ '--option-color': color } as React.CSSProperties}>
            <input type="radio" name="stage-icon" value={icon} checked={value === icon} onChange={() => onChange(icon)} />
            <StageGlyph icon={icon} />
            <span className="visually-hidden">{t(`funnels.icons.${icon}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function personName(person: { first_name: string; last_name: string; username: string | null }): string {
  return `${person.first_name} ${person.last_name}`.trim() || (person.username ? `@${person.username}` : '—');
}

