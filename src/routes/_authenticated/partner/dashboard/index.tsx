import { createFileRoute } from '@tanstack/react-router';
import { PartnerDashboardScreen } from '../../../../features/partner/PartnerDashboardScreen';

export const Route = createFileRoute('/_authenticated/partner/dashboard/')({ component: PartnerDashboardScreen });
