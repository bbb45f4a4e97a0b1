import { createFileRoute } from '@tanstack/react-router';
import { PartnerLinkScreen } from '@/features/partner/PartnerLinkScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/partner/dashboard/$uid')({
  loader: () => loadMessages('partner'),
  component: PartnerLinkRoute,
});

function PartnerLinkRoute() {
  const { uid } = Route.useParams();
  return <PartnerLinkScreen uid={uid} />;
}
