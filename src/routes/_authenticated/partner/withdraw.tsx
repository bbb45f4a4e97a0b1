import { createFileRoute } from '@tanstack/react-router';
import { PartnerWithdrawScreen } from '@/features/partner/PartnerWithdrawScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/partner/withdraw')({
  loader: () => loadMessages('partner'),
  component: PartnerWithdrawScreen,
});
