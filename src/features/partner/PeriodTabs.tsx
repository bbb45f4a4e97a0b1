// 7 days · 30 days · 90 days · All time; the route keeps the choice in the address (?period=),
// so Back and a shared link keep it.
import { useTranslation } from 'react-i18next';
import { PARTNER_PERIODS, type PartnerPeriod } from '../../../contract/partner';

export function PeriodTabs({ period, onChange }: { period: PartnerPeriod; onChange: (period: PartnerPeriod) => void }) {
  const { t } = useTranslation();
  return (
    <div className="partner-period-tabs" role="tablist" aria-label={t('partner.period')}>
      {PARTNER_PERIODS.map((value) => (
        <button
          key={value}
          type="button"
          role="tab"
          aria-selected={value === period}
          className={`partner-period-tab${value === period ? ' partner-period-tab--on' : ''}`}
          onClick={() => onChange(value)}
        >
          {t(`partner.periods.${value}`)}
        </button>
      ))}
    </div>
  );
}
