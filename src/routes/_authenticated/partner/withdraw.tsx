import { createFileRoute } from '@tanstack/react-router';
import { PartnerWithdrawScreen } from '../../../features/partner/PartnerWithdrawScreen';

export const Route = createFileRoute('/_authenticated/partner/withdraw')({ component: PartnerWithdrawScreen });
