// Password reset from the e-mail link; no guard (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { ResetPassScreen } from '@/features/auth/ResetPassScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/reset-pass/$uid/$token')({
  loader: () => loadMessages('auth', 'account'),
  component: ResetPassRoute,
});

function ResetPassRoute() {
  const { uid, token } = Route.useParams();
  return <ResetPassScreen key={`${uid}/${token}`} uid={uid} token={token} />;
}
