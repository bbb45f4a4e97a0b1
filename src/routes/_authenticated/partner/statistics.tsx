import { createFileRoute } from '@tanstack/react-router';
import { PartnerStatisticsScreen } from '../../../features/partner/PartnerStatisticsScreen';

export const Route = createFileRoute('/_authenticated/partner/statistics')({ component: PartnerStatisticsScreen });
