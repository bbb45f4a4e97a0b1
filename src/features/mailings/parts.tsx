// Pieces the mailing screens share: the state badge, the progress bar with its legend, and how a
// duration and a moment are written.
import { useTranslation } from 'react-i18next';
import type { Mailing, MailingProgress } from '../../../contract/mailings';
import { fillPlaceholders } from '../../../contract/personalise';
import { currentLanguage } from '@/i18n/i18n';
import './mailings.css';

/** The mailing's state; one deleted from the chats says so rather than "Finished". */
export function MailingStateBadge({ mailing }: { mailing: Pick<Mailing, 'state' | 'unsent_at'> }) {
  const { t } = useTranslation();
  const state = mailing.unsent_at ? 'unsent' : mailing.state;
  return (
    <span className={`mailing-state mailing-state--${state}`} data-testid="mailing-state">
      {t(`mailings.state.${state}`)}
    </span>
  );
}

const SEGMENTS = ['sent', 'failed', 'blocked', 'unknown'] as const;

/** Sent, failed, blocked, unknown and waiting as one bar; the numbers under it. */
export function ProgressBar({ progress, legend = true }: { progress: MailingProgress; legend?: boolean }) {
  const { t } = useTranslation();
  const total = Math.max(progress.total, 1);
  const done = progress.total - progress.waiting - progress.sending - progress.cancelled;
  const percent = progress.total === 0 ? 0 : Math.floor((done / progress.total) * 100);
  return (
    <div className="mailing-progress">
      <div
        className="mailing-bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('mailings.progress.label', { percent })}
        data-testid="mailing-progress"
      >
        {SEGMENTS.map((key) =>
          progress[key] > 0 ? <span key={key} className={`mailing-bar-part mailing-bar-part--${key}`} style={{ width: `${(progress[key] / total) * 100}%` }} /> : null,
        )}
      </div>
      {legend ? (
        <ul className="mailing-legend">
          <li className="mailing-legend-item mailing-legend-item--percent" data-testid="mailing-percent">
            {percent}%
          </li>
          {(['sent', 'waiting', 'failed', 'blocked', 'unknown', 'cancelled'] as const).map((key) =>
            key === 'sent' || progress[key] + (key === 'waiting' ? progress.sending : 0) > 0 ? (
              <li key={key} className={`mailing-legend-item mailing-legend-item--${key}`} data-testid={`progress-${key}`}>
                {t(`mailings.progress.${key}`, { count: key === 'waiting' ? progress.waiting + progress.sending : progress[key] })}
              </li>
            ) : null,
          )}
        </ul>
      ) : null}
    </div>
  );
}

/** "about 6 min", "about 2 h 5 min", "under a minute". */
export function useDuration(): (seconds: number) => string {
  const { t } = useTranslation();
  return (seconds) => {
    if (seconds < 60) return t('mailings.duration.seconds');
    const minutes = Math.ceil(seconds / 60);
    if (minutes < 60) return t('mailings.duration.minutes', { count: minutes });
    return t('mailings.duration.hours', { count: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
}

export const formatMoment = (iso: string) => new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The message with a sample person's fields in its name chips, as the editor's preview shows it. */
export function useSampleFill(): (html: string) => string {
  const { t } = useTranslation();
  const sample = { first_name: t('editor.sample.first_name'), last_name: t('editor.sample.last_name'), username: t('editor.sample.username') };
  return (html) => fillPlaceholders(html, sample);
}

/** What the owner wrote, as a line: the HTML's visible words. */
export function plainText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}
