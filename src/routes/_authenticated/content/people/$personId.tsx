import { createFileRoute } from '@tanstack/react-router';
import { PersonScreen } from '@/features/funnels/PersonScreen';
import { idParam } from '@/features/funnels/parts';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/people/$personId')({
  loader: () => loadMessages('funnels'),
  component: PersonRoute,
});

function PersonRoute() {
  const { personId } = Route.useParams();
  return <PersonScreen key={personId} personId={idParam(personId)} />;
}
