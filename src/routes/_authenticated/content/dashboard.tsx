import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '../../../features/funnels/DashboardScreen';

export const Route = createFileRoute('/_authenticated/content/dashboard')({ component: DashboardScreen });
