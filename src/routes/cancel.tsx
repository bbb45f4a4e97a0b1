// No login required (spec §2): the signed link (?token=) is the credential.
import { createFileRoute } from '@tanstack/react-router';
import type { CancelView } from '@/features/billing/CancelScreen';
import { CancelScreen } from '@/features/billing/CancelScreen';
import { loadMessages } from '@/i18n/i18n';

export const Route = createFileRoute('/cancel')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' && search.token ? { token: search.token } : {}),
  loaderDeps: ({ search }) => ({ token: search.token }),
  loader: async ({ deps: { token } }): Promise<CancelView> => {
    const [api] = await Promise.all([import('@/api/billing'), loadMessages('billing')]);
    if (!token) return { kind: 'no-token' };
    try {
      return { kind: 'subscription', token, info: await api.readCancel(token) };
    } catch (error) {
      // 400 {"token": [...]}: forged, or made for an earlier subscription.
      if (error instanceof Error && error.name === 'HTTPError' && (error as Error & { response?: Response }).response?.status === 400) return { kind: 'invalid' };
      throw error;
    }
  },
  component: CancelRoute,
});

function CancelRoute() {
  return <CancelScreen view={Route.useLoaderData()} />;
}
