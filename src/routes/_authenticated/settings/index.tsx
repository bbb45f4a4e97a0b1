import { createFileRoute } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { SubscriptionSettings } from '@/features/billing/SubscriptionSettings';
import { SettingsScreen } from '@/features/settings/SettingsScreen';
import { loadMessages } from '@/i18n/i18n';
import { userAtom } from '@/state/auth';

export const Route = createFileRoute('/_authenticated/settings/')({
  loader: async () => {
    const [api] = await Promise.all([import('@/api/billing'), loadMessages('settings', 'billing')]);
    // Settings open even when billing cannot answer: the section is then left out.
    return { subscription: await api.getSubscription().catch(() => null) };
  },
  component: SettingsRoute,
});

function SettingsRoute() {
  const { subscription } = Route.useLoaderData();
  const isAdmin = useAtomValue(userAtom)?.role === 'admin';
  return <SettingsScreen subscription={<SubscriptionSettings subscription={subscription} isAdmin={isAdmin} />} />;
}
