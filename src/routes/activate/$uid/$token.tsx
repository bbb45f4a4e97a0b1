// Account activation from the e-mail link; no guard.
import { createFileRoute } from '@tanstack/react-router';
import { ActivateScreen } from '../../../features/auth/ActivateScreen';

export const Route = createFileRoute('/activate/$uid/$token')({ component: ActivateRoute });

function ActivateRoute() {
  const { uid, token } = Route.useParams();
  return <ActivateScreen uid={uid} token={token} />;
}
