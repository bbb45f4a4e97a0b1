// Password reset from the e-mail link; no guard (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { ResetPassScreen } from '../../../features/auth/ResetPassScreen';

export const Route = createFileRoute('/reset-pass/$uid/$token')({ component: ResetPassRoute });

function ResetPassRoute() {
  const { uid, token } = Route.useParams();
  return <ResetPassScreen key={`${uid}/${token}`} uid={uid} token={token} />;
}
