// Account activation from the e-mail link; no guard.
import { createFileRoute } from '@tanstack/react-router';
import { ActivateScreen } from '@/features/auth/ActivateScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/activate/$uid/$token')({
  loader: () => loadMessages('account'),
  component: ActivateRoute,
});

function ActivateRoute() {
  const { uid, token } = Route.useParams();
  return <ActivateScreen uid={uid} token={token} />;
}
