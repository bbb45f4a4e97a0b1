// The signed-in user's subscription in a sentence or two: the plan, until when it is paid and
// whether it renews, the grace period's end, or that it ended (nothing is lost; it resumes on payment).
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../../contract/billing';
import { formatDay } from '@/ui/money';

export function SubscriptionState({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const plan = subscription.plan?.title ?? t('subscribe.freePlan');
  const paidUntil = subscription.paid_until ? formatDay(subscription.paid_until) : '';
  const method = subscription.method === 'stars' ? t('subscribe.methodStars') : subscription.method === 'card' ? t('subscribe.methodCard') : '';
  let text: string;
  switch (subscription.state) {
    case 'active':
      text = t('subscribe.stateActive', { date: paidUntil, method });
      break;
    case 'cancelled':
      text = t('subscribe.stateCancelled', { date: paidUntil });
      break;
    case 'grace':
      text = t('subscribe.stateGrace', { date: subscription.grace_until ? formatDay(subscription.grace_until) : '' });
      break;
    case 'ended':
      text = t('subscribe.stateEnded');
      break;
    default:
      text = t('subscribe.stateFree');
  }
  const warn = subscription.state === 'grace' || subscription.state === 'ended';
  return (
    <div className={`subscription-state${warn ? ' subscription-state--warn' : ''}`} data-testid="subscription-state" data-state={subscription.state}>
      <span className="subscription-state-plan">{t('subscribe.yourPlan', { plan })}</span>
      <span className="subscription-state-text">{text}</span>
    </div>
  );
}
