// 7 days · 30 days · 90 days · All time; the route keeps the choice in the address (?period=),
// so Back and a shared link keep it.
import { useTranslation } from 'react-i18next';
import { PARTNER_PERIODS, type PartnerPeriod } from '../../../contract/partner';
import { SegmentedTabs } from '@/ui/SegmentedTabs';

export function PeriodTabs({ period, onChange }: { period: PartnerPeriod; onChange: (period: PartnerPeriod) => void }) {
  const { t } = useTranslation();
  const options = PARTNER_PERIODS.map((value) => ({ value, label: t(`partner.periods.${value}`) }));
  return <SegmentedTabs label={t('partner.period')} options={options} value={period} onChange={onChange} />;
}
