// The stage screen's "Wait" section: after how long, and to which stage, a person still in this
// stage moves on by themselves (and whether only if they stayed silent); a wait whose stage was
// deleted shows as broken. Set, changed (StageWaitDialog) and removed here.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stage } from '../../../contract/funnels';
import type { StageWait } from '../../../contract/timers';
import { runChange } from '@/api/action';
import { clearStageWait } from '@/api/timers';
import { noticeFailure, success } from '@/api/useApi';
import { EditIcon } from '@/ui/glyphs';
import { StageWaitDialog } from './StageWaitDialog';

/** "After 2 hours" in the language of the app. */
export function useWaitAfter(): (wait: Pick<StageWait, 'amount' | 'unit'>) => string {
  const { t } = useTranslation();
  return (wait) =>
    wait.unit === 'minutes'
      ? t('funnels.wait.afterMinutes', { count: wait.amount })
      : wait.unit === 'hours'
        ? t('funnels.wait.afterHours', { count: wait.amount })
        : t('funnels.wait.afterDays', { count: wait.amount });
}

export function StageWaitSection({ stage, stages }: { stage: Stage; stages: Stage[] }) {
  const { t } = useTranslation();
  const after = useWaitAfter();
  const [editing, setEditing] = useState(false);
  const { wait } = stage;
  const target = wait ? stages.find((other) => other.id === wait.to_stage_id) : undefined;
  const others = stages.filter((other) => other.id !== stage.id);

  async function remove() {
    const result = await runChange(() => clearStageWait(stage.funnel_id, stage.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.wait.removed'));
  }

  return (
    <section className="section-block" data-testid="stage-wait">
      <h2 className="section-title">{t('funnels.wait.title')}</h2>
      {!wait ? (
        <p className="section-footer">{t('funnels.wait.none')}</p>
      ) : target ? (
        <p className="stage-wait-summary" data-testid="stage-wait-summary">
          {t(wait.only_if_silent ? 'funnels.wait.summarySilent' : 'funnels.wait.summary', { after: after(wait), stage: target.title })}
        </p>
      ) : (
        <p className="field-error" data-testid="stage-wait-broken">
          {t('funnels.wait.broken', { after: after(wait) })}
        </p>
      )}
      {others.length === 0 && !wait ? (
        <p className="section-footer">{t('funnels.wait.noOtherStages')}</p>
      ) : (
        <div className="stage-wait-actions">
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)} data-testid="stage-wait-edit">
            <EditIcon />
            {wait ? t('funnels.wait.change') : t('funnels.wait.set')}
          </button>
          {wait ? (
            <button type="button" className="button button--secondary" onClick={() => void remove()} data-testid="stage-wait-remove">
              {t('funnels.wait.remove')}
            </button>
          ) : null}
        </div>
      )}
      {editing ? <StageWaitDialog stage={stage} stages={others} onDone={() => setEditing(false)} /> : null}
    </section>
  );
}
