// Settings' subscription section: the plan, usage against its limits (running funnels 1 / 1,
// people 320 / 500, mailings and letters included or not), the grace period's end, the way to
// change plan, "Cancel renewal" (the signed cancel link) while it renews; and, for admins, the
// plans editor.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../../contract/billing';
import { ROUTES } from '../../../contract/routes';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { ListIcon, StarIcon } from '@/ui/icons';
import { PlanLimits } from './PlanLimits';
import { SubscriptionState } from './SubscriptionState';
import './billing.css';

export function SubscriptionSettings({ subscription, isAdmin }: { subscription: Subscription | null; isAdmin: boolean }) {
  const { t } = useTranslation();
  const paid = subscription?.state === 'active' || subscription?.state === 'cancelled' || subscription?.state === 'grace';
  // The server's signed link, opened inside the app (its origin can differ from PUBLIC_URL in dev).
  const cancelToken = subscription?.cancel_url ? new URL(subscription.cancel_url).searchParams.get('token') : null;
  return (
    <>
      {subscription ? (
        <Section title={t('subscribe.settingsTitle')} footer={subscription.gated ? undefined : t('subscribe.ungatedSettings')}>
          {subscription.gated ? (
            <div className="subscription-settings" data-testid="settings-subscription">
              <SubscriptionState subscription={subscription} />
              <PlanLimits limits={subscription.limits} usage={subscription.usage} />
            </div>
          ) : null}
          <Link to={ROUTES.subscribe} className="row" data-testid="settings-change-plan">
            <RowContent
              icon={
                <RowIcon tint="orange">
                  <StarIcon />
                </RowIcon>
              }
              title={paid ? t('subscribe.changePlan') : t('subscribe.choosePlan')}
            />
          </Link>
          {cancelToken ? (
            <Link to={ROUTES.cancel} search={{ token: cancelToken }} className="row" data-testid="settings-cancel-renewal">
              <RowContent
                icon={
                  <RowIcon tint="red">
                    <StarIcon />
                  </RowIcon>
                }
                title={t('subscribe.cancelRenewal')}
                description={t('subscribe.cancelRenewalText')}
              />
            </Link>
          ) : null}
        </Section>
      ) : null}
      {isAdmin ? (
        <Section>
          <Link to="/settings/plans/" className="row" data-testid="settings-plans">
            <RowContent
              icon={
                <RowIcon tint="purple">
                  <ListIcon />
                </RowIcon>
              }
              title={t('subscribe.plansAdmin')}
              description={t('subscribe.plansAdminText')}
            />
          </Link>
        </Section>
      ) : null}
    </>
  );
}
