// /content/funnels/$funnelId/mailings/: the funnel's mailings, newest first, each with its state,
// audience and progress (refreshed while one is sending), and "New mailing".
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import type { Mailing } from '../../../contract/mailings';
import { useRefreshWhile } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { SendIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { NO_NAMES, useAudienceWords, type AudienceNames } from './audienceWords';
import { formatMoment, MailingStateBadge, plainText, ProgressBar, useSampleFill } from './parts';

export function MailingsScreen({
  funnel,
  mailings,
  names = NO_NAMES,
}: {
  funnel: Funnel;
  mailings: Mailing[];
  /** The funnel's stages and tags and the user's lists, to say who each mailing goes to. */
  names?: AudienceNames;
}) {
  const { t } = useTranslation();
  const words = useAudienceWords();
  usePageHead(t('mailings.title'));
  const funnelId = String(funnel.id);
  const fill = useSampleFill();
  useRefreshWhile(
    mailings.some((m) => m.state === 'sending' || m.state === 'scheduled'),
    2_000,
  );
  return (
    <Screen>
      <ScreenHeader
        title={t('mailings.title')}
        subtitle={funnel.name}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId }} label={funnel.name} />}
      />
      <Link to="/content/funnels/$funnelId/mailings/new/" params={{ funnelId }} className="button button--primary" data-testid="new-mailing">
        {t('mailings.new')}
      </Link>
      {mailings.length === 0 ? (
        <EmptyState icon={<SendIcon />} title={t('mailings.emptyTitle')}>
          {t('mailings.emptyText')}
        </EmptyState>
      ) : (
        <ul className="mailing-list">
          {mailings.map((m) => (
            <li key={m.id}>
              <Link
                to="/content/funnels/$funnelId/mailings/$mailingId/"
                params={{ funnelId, mailingId: String(m.id) }}
                className="mailing-card"
                data-testid="mailing-card"
              >
                <span className="mailing-card-head">
                  <span className="mailing-card-title">{m.title}</span>
                  <MailingStateBadge mailing={m} />
                </span>
                <span className="mailing-card-text">{plainText(fill(m.message.text)) || t('mailings.mediaOnly')}</span>
                {m.state === 'draft' || m.state === 'scheduled' ? null : <ProgressBar progress={m.progress} legend={false} />}
                <span className="mailing-card-audience" data-testid="mailing-card-audience">
                  {t('mailings.audienceLine', { audience: words(m.audience, names) })}
                </span>
                <span className="mailing-card-meta">
                  {t('mailings.audienceCount', { count: m.audience_size })}
                  {m.state === 'scheduled' && m.scheduled_at ? ` · ${t('mailings.scheduledFor', { at: formatMoment(m.scheduled_at) })}` : null}
                  {m.started_at ? ` · ${t('mailings.startedAt', { at: formatMoment(m.started_at) })}` : null}
                  {m.finished_at ? ` · ${t('mailings.finishedAt', { at: formatMoment(m.finished_at) })}` : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}
