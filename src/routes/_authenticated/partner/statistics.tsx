import { createFileRoute } from '@tanstack/react-router';
import { PartnerStatisticsScreen } from '@/features/partner/PartnerStatisticsScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/partner/statistics')({
  loader: () => loadMessages('partner'),
  component: PartnerStatisticsScreen,
});
