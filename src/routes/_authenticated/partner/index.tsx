// /partner/ → /partner/dashboard/ (spec §2).
import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTES } from '../../../../contract/routes';

export const Route = createFileRoute('/_authenticated/partner/')({
  beforeLoad: () => {
    throw redirect({ to: ROUTES.partnerDashboard });
  },
});
