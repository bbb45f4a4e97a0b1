import { createFileRoute } from '@tanstack/react-router';
import { PartnerTransactionsScreen } from '@/features/partner/PartnerTransactionsScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/partner/transactions')({
  loader: () => loadMessages('partner'),
  component: PartnerTransactionsScreen,
});
