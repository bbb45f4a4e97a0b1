import { createFileRoute } from '@tanstack/react-router';
import { PartnerLinkScreen } from '../../../../features/partner/PartnerLinkScreen';

export const Route = createFileRoute('/_authenticated/partner/dashboard/$uid')({ component: PartnerLinkRoute });

function PartnerLinkRoute() {
  const { uid } = Route.useParams();
  return <PartnerLinkScreen uid={uid} />;
}
