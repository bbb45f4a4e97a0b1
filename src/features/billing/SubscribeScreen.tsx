// /subscribe/ and /sbscrb/ (the card-payment variant), no login: the plans with what each includes
// and its price (Stars inside Telegram on /subscribe/, the card currency on /sbscrb/ and in a
// browser), the signed-in visitor's subscription, and paying. The payment sheet's or the checkout's
// outcome only decides what the screen says: the subscription is active when the server says so.
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STARS_CURRENCY, type PaymentMethod, type Plan, type Subscription } from '../../../contract/billing';
import { ROUTES } from '../../../contract/routes';
import { createCardCheckout, createStarsInvoice, getSubscription } from '@/api/billing';
import { runRead } from '@/api/action';
import { activeAtom, userAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { inTelegram } from '@/telegram/launch';
import { telegramShell } from '@/telegram/shell';
import { BackLink } from '@/ui/BackLink';
import { CardIcon, CheckIcon, StarIcon } from '@/ui/icons';
import { EmptyState, Section } from '@/ui/blocks';
import { Button } from '@/ui/form';
import { formatMoney } from '@/ui/money';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { hasPaidPlan, type SubscribeData } from './load';
import { PlanLimits } from './PlanLimits';
import { SubscriptionState } from './SubscriptionState';
import './billing.css';

/**
 * How the screen asks whether a payment has made the subscription active: first after
 * ACTIVATION_POLL_FIRST_MS, each wait half as long again as the one before up to
 * ACTIVATION_POLL_MAX_MS (a payment still being processed can take a while; the server is not
 * asked every second meanwhile), ACTIVATION_POLL_ATTEMPTS times in all (about two and a half minutes).
 */
export const ACTIVATION_POLL_FIRST_MS = 1_000;
export const ACTIVATION_POLL_MAX_MS = 10_000;
export const ACTIVATION_POLL_ATTEMPTS = 20;

/** The wait before the poll's ask number `attempt` + 1. */
export function activationPollDelay(attempt: number): number {
  return Math.min(ACTIVATION_POLL_MAX_MS, Math.round(ACTIVATION_POLL_FIRST_MS * 1.5 ** attempt));
}

/** What the screen says about a payment under way. */
type Progress = 'idle' | 'activating' | 'confirming' | 'active' | 'cancelled' | 'failed' | 'pending' | 'slow' | 'unavailable';

function priceOf(plan: Plan, method: PaymentMethod): { amount: number; currency: string } | null {
  if (method === 'stars') return plan.price_stars === null ? null : { amount: plan.price_stars, currency: STARS_CURRENCY };
  return plan.price_card === null || !plan.card_currency ? null : { amount: plan.price_card, currency: plan.card_currency };
}

/** Whether the subscription is on this plan and paid for (choosing it again would pay twice). */
function isCurrentPaidPlan(subscription: Subscription | null, plan: Plan): boolean {
  return Boolean(subscription && subscription.plan?.id === plan.id && (subscription.state === 'active' || subscription.state === 'cancelled'));
}

/** Asks the server until the subscription is active (on `planId`, when given); false when it never got there. */
function useActivationPoll() {
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  return async (planId: number | null): Promise<boolean | null> => {
    for (let attempt = 0; attempt < ACTIVATION_POLL_ATTEMPTS; attempt += 1) {
      if (!alive.current) return null;
      const subscription = await getSubscription().catch(() => null);
      if (subscription && subscription.state === 'active' && (planId === null || subscription.plan?.id === planId)) return true;
      await new Promise((resolve) => setTimeout(resolve, activationPollDelay(attempt)));
    }
    return alive.current ? false : null;
  };
}

export function SubscribeScreen({
  cardPayment,
  data,
  chosenPlanId,
  returnedFromCheckout,
}: {
  cardPayment: boolean;
  data: SubscribeData;
  /** The plan chosen before signing in (kept in the return address). */
  chosenPlanId?: number;
  /** Back from the card provider's checkout page (?paid=1). */
  returnedFromCheckout: boolean;
}) {
  const { t } = useTranslation();
  const title = cardPayment ? t('subscribe.cardTitle') : t('subscribe.title');
  usePageHead(title, t('subscribe.description'));
  const router = useRouter();
  const navigate = useNavigate();
  const active = useAtomValue(activeAtom);
  const user = useAtomValue(userAtom);
  const method: PaymentMethod = !cardPayment && inTelegram() ? 'stars' : 'card';
  const { plans, subscription } = data;
  const [progress, setProgress] = useState<Progress>(returnedFromCheckout ? 'confirming' : 'idle');
  /** The plan of the last payment tried (a failed one is retried with it). */
  const [triedPlan, setTriedPlan] = useState<Plan | null>(null);
  const waitForActive = useActivationPoll();

  // Back from the checkout page: the provider's webhook makes the subscription active, perhaps a moment later.
  useEffect(() => {
    if (!returnedFromCheckout || !user) return;
    void waitForActive(null).then((activated) => {
      if (activated === null) return;
      setProgress(activated ? 'active' : 'slow');
      if (activated) void router.invalidate();
    });
    // Once per arrival: the poll itself keeps the screen up to date.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [returnedFromCheckout, user?.id]);

  const gated = subscription ? subscription.gated : hasPaidPlan(plans);
  const shownPlans = plans.filter((plan) => plan.is_free || priceOf(plan, 'stars') || priceOf(plan, 'card'));

  async function payWithStars(plan: Plan) {
    const invoice = await runRead(() => createStarsInvoice(plan.id));
    if (!invoice.ok) return;
    const outcome = await telegramShell()
      ?.openInvoice(invoice.value.invoice_link)
      .catch(() => 'failed' as const);
    if (!outcome) return setProgress('unavailable');
    // Cancelled: nothing was charged and the plans stay choosable. Failed: say so, with a retry.
    if (outcome === 'cancelled' || outcome === 'failed') return setProgress(outcome);
    // Paid, or still being processed: the server's successful_payment decides; follow it until active.
    setProgress(outcome === 'paid' ? 'activating' : 'pending');
    const activated = await waitForActive(plan.id);
    if (activated === null) return;
    setProgress(activated ? 'active' : 'slow');
    if (activated) await router.invalidate();
  }

  async function payByCard(plan: Plan) {
    const checkout = await runRead(() => createCardCheckout(plan.id));
    if (checkout.ok) window.location.assign(checkout.value.url);
  }

  async function choose(plan: Plan) {
    if (!active || !user) {
      // Paying needs the account: sign in (or up), then back here with the plan chosen.
      const back = `${method === 'stars' ? ROUTES.subscribe : ROUTES.subscribeCard}?plan=${plan.id}`;
      const to = router.options.context.auth.telegramIsNew() ? ROUTES.telegramWelcome : ROUTES.signIn;
      await navigate({ to, search: { redirect: back } });
      return;
    }
    setProgress('idle');
    setTriedPlan(plan);
    if (method === 'stars') await payWithStars(plan);
    else await payByCard(plan);
  }

  return (
    <Screen>
      <ScreenHeader title={title} subtitle={gated ? t('subscribe.subtitle') : undefined} back={active ? <BackLink to={ROUTES.panel} label={t('common.back')} /> : null} />
      <PaymentProgress progress={progress} onRetry={progress === 'failed' && triedPlan ? () => void choose(triedPlan) : undefined} />
      {subscription && subscription.gated ? <SubscriptionState subscription={subscription} /> : null}
      {!gated ? (
        <Section>
          <EmptyState icon={<CheckIcon />} title={t('subscribe.ungatedTitle')}>
            <p data-testid="subscribe-ungated">{t('subscribe.ungatedText')}</p>
          </EmptyState>
        </Section>
      ) : (
        <>
          <div className="plan-card" data-payment={method}>
            <span className="plan-card-icon">{method === 'card' ? <CardIcon /> : <StarIcon />}</span>
            <p className="plan-card-text">{method === 'card' ? t('subscribe.paymentCard') : t('subscribe.paymentStars')}</p>
          </div>
          <ul className="plan-list">
            {shownPlans.map((plan) => (
              <PlanOffer
                key={plan.id}
                plan={plan}
                price={priceOf(plan, method)}
                method={method}
                chosen={plan.id === chosenPlanId}
                current={isCurrentPaidPlan(subscription, plan) || (plan.is_free && subscription?.state === 'free')}
                busy={progress === 'activating' || progress === 'pending'}
                onChoose={() => void choose(plan)}
              />
            ))}
          </ul>
          <p className="section-footer">{t('subscribe.periodNote')}</p>
        </>
      )}
    </Screen>
  );
}

function PlanOffer({
  plan,
  price,
  method,
  chosen,
  current,
  busy,
  onChoose,
}: {
  plan: Plan;
  price: { amount: number; currency: string } | null;
  method: PaymentMethod;
  chosen: boolean;
  current: boolean;
  busy: boolean;
  onChoose: () => void;
}) {
  const { t } = useTranslation();
  const itemRef = useRef<HTMLLIElement>(null);
  // Back from signing in with this plan chosen: it is the one in view.
  useEffect(() => {
    if (chosen) itemRef.current?.scrollIntoView({ block: 'center' });
  }, [chosen]);
  const priceText = plan.is_free ? t('subscribe.free') : price ? t('subscribe.perMonth', { price: formatMoney(price.amount, price.currency) }) : null;
  return (
    <li ref={itemRef} className={`plan-offer${chosen ? ' plan-offer--chosen' : ''}`} data-testid="plan-offer" data-plan={plan.id}>
      <div className="plan-offer-head">
        <h2 className="plan-offer-title">{plan.title}</h2>
        {priceText ? <span className="plan-offer-price">{priceText}</span> : null}
      </div>
      {plan.description ? <p className="plan-offer-text">{plan.description}</p> : null}
      <PlanLimits limits={plan.limits} />
      {plan.is_free ? (
        current ? <p className="plan-offer-note">{t('subscribe.currentPlan')}</p> : null
      ) : current ? (
        <p className="plan-offer-note">{t('subscribe.currentPlan')}</p>
      ) : price ? (
        <Button onClick={onChoose} disabled={busy} data-testid="choose-plan">
          {method === 'stars' ? t('subscribe.payStars', { price: formatMoney(price.amount, price.currency) }) : t('subscribe.payCard')}
        </Button>
      ) : (
        <p className="plan-offer-note">{method === 'stars' ? t('subscribe.noStarsPrice') : t('subscribe.noCardPrice')}</p>
      )}
    </li>
  );
}

function PaymentProgress({ progress, onRetry }: { progress: Progress; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (progress === 'idle') return null;
  const tone = progress === 'active' ? 'success' : progress === 'failed' || progress === 'unavailable' ? 'error' : 'info';
  return (
    <div className={`payment-progress payment-progress--${tone}`} role="status" data-testid="payment-progress" data-progress={progress}>
      {t(`subscribe.progress.${progress}`)}
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry} data-testid="retry-payment">
          {t('subscribe.retry')}
        </Button>
      ) : null}
    </div>
  );
}
