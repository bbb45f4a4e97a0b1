import { createFileRoute } from '@tanstack/react-router';
import { PartnerDashboardScreen } from '@/features/partner/PartnerDashboardScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/partner/dashboard/')({
  loader: () => loadMessages('partner'),
  component: PartnerDashboardScreen,
});
