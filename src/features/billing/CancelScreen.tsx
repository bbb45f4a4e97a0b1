// /cancel/ (no login): the signed link from the e-mail or the service bot. It shows the plan, how
// it is paid and until when, and cancels the renewal after a confirmation; access lasts to the end
// of the paid period. A forged link, or one made for an earlier subscription, is refused.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CancelInfo } from '../../../contract/billing';
import { ROUTES } from '../../../contract/routes';
import { confirmCancel } from '@/api/billing';
import { runRead } from '@/api/action';
import { usePageHead } from '@/state/ui';
import { ConfirmDialog } from '@/ui/Dialog';
import { EmptyState, RowContent, Section } from '@/ui/blocks';
import { Button } from '@/ui/form';
import { StarIcon } from '@/ui/icons';
import { formatDay } from '@/ui/money';
import { Screen, ScreenHeader } from '@/ui/Screen';
import './billing.css';

/** What the link gave: nothing (opened without a token), a refused token, or the subscription. */
export type CancelView = { kind: 'no-token' } | { kind: 'invalid' } | { kind: 'subscription'; token: string; info: CancelInfo };

export function CancelScreen({ view }: { view: CancelView }) {
  const { t } = useTranslation();
  usePageHead(t('cancel.title'), t('cancel.description'));
  return (
    <Screen>
      <ScreenHeader title={t('cancel.title')} subtitle={view.kind === 'subscription' ? t('cancel.subtitle') : undefined} />
      {view.kind === 'subscription' ? (
        <CancelRenewal token={view.token} initial={view.info} />
      ) : (
        <Section>
          <EmptyState icon={<StarIcon />} title={view.kind === 'invalid' ? t('cancel.invalidTitle') : t('cancel.noTokenTitle')}>
            <p data-testid="cancel-problem">{view.kind === 'invalid' ? t('cancel.invalidText') : t('cancel.noTokenText')}</p>
          </EmptyState>
        </Section>
      )}
      <Link to={ROUTES.subscribe} className="button button--plain">
        {t('cancel.plans')}
      </Link>
    </Screen>
  );
}

function CancelRenewal({ token, initial }: { token: string; initial: CancelInfo }) {
  const { t } = useTranslation();
  const [info, setInfo] = useState(initial);
  const [confirming, setConfirming] = useState(false);
  const [cancelledNow, setCancelledNow] = useState(false);
  const [refused, setRefused] = useState(false);
  const paidUntil = info.paid_until ? formatDay(info.paid_until) : '';

  async function cancelRenewal() {
    setConfirming(false);
    const result = await runRead(() => confirmCancel(token));
    if (result.ok) {
      setInfo(result.value);
      setCancelledNow(true);
    } else if (result.failure.kind === 'http' && result.failure.status === 400) {
      setRefused(true); // a newer subscription since the page opened: this link is old now
    }
  }

  if (refused) {
    return (
      <Section>
        <EmptyState icon={<StarIcon />} title={t('cancel.invalidTitle')}>
          <p data-testid="cancel-problem">{t('cancel.invalidText')}</p>
        </EmptyState>
      </Section>
    );
  }
  const method = info.method === 'stars' ? t('subscribe.methodStars') : info.method === 'card' ? t('subscribe.methodCard') : '—';
  return (
    <>
      {cancelledNow ? (
        <div className="payment-progress payment-progress--success" role="status" data-testid="cancel-done">
          {t('cancel.done', { date: paidUntil })}
        </div>
      ) : null}
      <Section>
        <div className="row row--static">
          <RowContent title={t('cancel.plan')} value={info.plan?.title ?? t('subscribe.freePlan')} chevron={false} />
        </div>
        <div className="row row--static">
          <RowContent title={t('cancel.method')} value={method} chevron={false} />
        </div>
        <div className="row row--static">
          <RowContent title={t('cancel.paidUntil')} value={<span data-testid="cancel-paid-until">{paidUntil || '—'}</span>} chevron={false} />
        </div>
        <div className="row row--static">
          <RowContent title={t('cancel.renewal')} value={<span data-testid="cancel-renewal">{info.renews ? t('cancel.renewalOn') : t('cancel.renewalOff')}</span>} chevron={false} />
        </div>
      </Section>
      {info.renews ? (
        <Button variant="destructive" onClick={() => setConfirming(true)} data-testid="cancel-renewal-button">
          {t('cancel.button')}
        </Button>
      ) : !cancelledNow ? (
        <p className="section-footer">{t('cancel.alreadyCancelled', { date: paidUntil })}</p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('cancel.confirmTitle')}
          confirmLabel={t('cancel.confirm')}
          cancelLabel={t('cancel.keep')}
          destructive
          onConfirm={() => void cancelRenewal()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('cancel.confirmText', { date: paidUntil })}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
