import { createFileRoute } from '@tanstack/react-router';
import { PartnerTransactionsScreen } from '../../../features/partner/PartnerTransactionsScreen';

export const Route = createFileRoute('/_authenticated/partner/transactions')({ component: PartnerTransactionsScreen });
