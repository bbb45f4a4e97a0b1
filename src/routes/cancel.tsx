// No login required (spec §2).
import { createFileRoute } from '@tanstack/react-router';
import { CancelScreen } from '@/features/billing/CancelScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/cancel')({
  loader: () => loadMessages('billing'),
  component: CancelScreen,
});
