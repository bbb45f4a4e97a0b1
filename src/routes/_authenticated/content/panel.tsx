import { createFileRoute } from '@tanstack/react-router';
import { PanelScreen } from '@/features/panel/PanelScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/_authenticated/content/panel')({
  loader: () => loadMessages('panel'),
  component: PanelScreen,
});
