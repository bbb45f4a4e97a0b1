import { createFileRoute } from '@tanstack/react-router';
import { ArchiveScreen } from '@/features/funnels/ArchiveScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/archive')({
  loader: () => loadMessages('funnels'),
  component: ArchiveScreen,
});
