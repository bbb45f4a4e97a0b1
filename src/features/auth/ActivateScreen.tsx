// /activate/{uid}/{token}/: posts the pair once and says how it went.
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { activate } from '@/api/users';
import { toApiFailure } from '@/api/errors';
import { notifyFailure } from '@/api/action';
import { usePageHead, withPreloader } from '@/state/ui';
import { AlertIcon, CheckCircleIcon, InfoIcon } from '@/ui/statusIcons';
import { Button } from '@/ui/form';
import { AuthLayout } from './AuthLayout';

type Outcome = 'pending' | 'success' | 'stale' | 'invalid' | 'failed';

// One request per link and page life: a re-render or a second effect run must not send it again
// (the second answer would be "stale").
const requests = new Map<string, Promise<Outcome>>();

async function activateOnce(uid: string, token: string): Promise<Outcome> {
  try {
    await withPreloader(() => activate({ uid, token }));
    return 'success';
  } catch (error) {
    const failure = await toApiFailure(error);
    if (failure.kind === 'http' && failure.status === 403) return 'stale';
    if (failure.kind === 'http' && failure.status < 500) return 'invalid';
    notifyFailure(failure);
    return 'failed';
  }
}

function outcomeOf(uid: string, token: string, retry = false): Promise<Outcome> {
  const key = `${uid}/${token}`;
  let request = requests.get(key);
  if (!request || retry) {
    request = activateOnce(uid, token);
    requests.set(key, request);
  }
  return request;
}

export function ActivateScreen({ uid, token }: { uid: string; token: string }) {
  const { t } = useTranslation();
  usePageHead(t('activate.title'));
  const [outcome, setOutcome] = useState<Outcome>('pending');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setOutcome('pending');
    void outcomeOf(uid, token, attempt > 0).then((result) => {
      if (live) setOutcome(result);
    });
    return () => {
      live = false;
    };
  }, [uid, token, attempt]);

  if (outcome === 'pending') {
    return (
      <AuthLayout heading={t('activate.title')} subtitle={t('activate.activating')}>
        {null}
      </AuthLayout>
    );
  }

  const view = ({
    success: { icon: <CheckCircleIcon />, tone: 'success', heading: t('activate.successHeading'), text: t('activate.successText') },
    stale: { icon: <InfoIcon />, tone: 'brand', heading: t('activate.staleHeading'), text: t('activate.staleText') },
    invalid: { icon: <AlertIcon />, tone: 'warning', heading: t('activate.invalidHeading'), text: t('activate.invalidText') },
    failed: { icon: <AlertIcon />, tone: 'warning', heading: t('activate.failedHeading'), text: t('errors.network') },
  } as const)[outcome];

  return (
    <AuthLayout heading={view.heading} subtitle={view.text} icon={view.icon} tone={view.tone}>
      <div className="stack" data-testid={`activation-${outcome}`}>
        {outcome === 'failed' ? (
          <Button onClick={() => setAttempt((n) => n + 1)}>{t('common.tryAgain')}</Button>
        ) : (
          <Link to={ROUTES.signIn} className="button button--primary">
            {t('activate.signIn')}
          </Link>
        )}
        {outcome === 'invalid' ? (
          <Link to={ROUTES.signUp} className="button button--plain">
            {t('activate.signUp')}
          </Link>
        ) : null}
      </div>
    </AuthLayout>
  );
}
