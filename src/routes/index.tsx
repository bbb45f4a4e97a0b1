// '' → /content/panel/ (spec §2).
import { createFileRoute, redirect } from '@tanstack/react-router';
import { ROUTES } from '../../contract/routes';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: ROUTES.panel });
  },
});
