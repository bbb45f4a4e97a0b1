// The funnel screen's line under its series link: how many series are off and, when they are off
// for one reason that is not just the switch, that reason — so a drip nobody joins is not a surprise.
import { useTranslation } from 'react-i18next';
import type { Series } from '../../../contract/letters';
import { seriesStatus } from './parts';
import './letters.css';

export function SeriesOffNote({ series }: { series: Series[] }) {
  const { t } = useTranslation();
  const offStatuses = series.map(seriesStatus).filter((status) => status !== 'on');
  if (offStatuses.length === 0) return null;
  const reasons = new Set(offStatuses);
  const [reason] = reasons;
  const count = t('letters.seriesOff', { count: offStatuses.length });
  return (
    <span className="series-off-note" data-testid="series-off-note">
      {reasons.size === 1 && reason !== 'switchedOff' ? t('letters.seriesOffBecause', { count, reason: t(`letters.whyOffInLine.${reason}`) }) : count}
    </span>
  );
}
