// The person's screen: their waiting timer (a stage's wait), "Moves to “Reminder” in 1 h 58 min",
// or "… if they stay silent". Nothing when none waits.
import { useTranslation } from 'react-i18next';
import type { PersonDetail, Stage } from '../../../contract/funnels';

const MINUTE_MS = 60_000;

export function PersonTimers({ timers, stages }: { timers: PersonDetail['timers']; stages: Stage[] }) {
  const { t } = useTranslation();
  if (timers.length === 0) return null;

  /** "1 d 2 h", "1 h 58 min", "5 min": the two largest parts, rounded up to a minute. */
  function left(dueAt: string): string {
    const minutes = Math.ceil((new Date(dueAt).getTime() - Date.now()) / MINUTE_MS);
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const rest = minutes % 60;
    const parts = [
      days > 0 ? t('funnels.person.leftDays', { n: days }) : null,
      hours > 0 ? t('funnels.person.leftHours', { n: hours }) : null,
      rest > 0 && days === 0 ? t('funnels.person.leftMinutes', { n: rest }) : null,
    ].filter((part): part is string => part !== null);
    return parts.join(' ');
  }

  return (
    <section className="section-block" data-testid="person-timers">
      <h2 className="section-title">{t('funnels.person.timers')}</h2>
      <div className="section">
        {timers.map((timer) => {
          const target = stages.find((stage) => stage.id === timer.to_stage_id);
          const due = new Date(timer.due_at).getTime() <= Date.now();
          const text = !target
            ? t('funnels.person.timerBroken')
            : due
              ? t('funnels.person.timerDue', { stage: target.title })
              : t(timer.only_if_silent ? 'funnels.person.timerMovesSilent' : 'funnels.person.timerMoves', { stage: target.title, left: left(timer.due_at) });
          return (
            <div key={timer.id} className="row row--static" data-testid="person-timer">
              <span className="row-body">
                <span className={`row-title${target ? '' : ' field-error'}`}>{text}</span>
              </span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
