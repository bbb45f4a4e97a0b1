// /subscribe/ and /sbscrb/ (the card-payment variant): what the subscription gives, and how it is paid.
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { activeAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { CardIcon, CheckIcon, StarIcon } from '@/ui/icons';
import { Section } from '@/ui/blocks';
import { Screen, ScreenHeader } from '@/ui/Screen';

export function SubscribeScreen({ cardPayment }: { cardPayment: boolean }) {
  const { t } = useTranslation();
  const title = cardPayment ? t('subscribe.cardTitle') : t('subscribe.title');
  usePageHead(title, t('subscribe.description'));
  const active = useAtomValue(activeAtom);
  const features = [t('subscribe.featureFunnels'), t('subscribe.featureMailings'), t('subscribe.featureLetters'), t('subscribe.featureCrm')];
  return (
    <Screen>
      <ScreenHeader
        title={title}
        subtitle={t('subscribe.subtitle')}
        back={active ? <BackLink to={ROUTES.panel} label={t('common.back')} /> : null}
      />
      <div className="plan-card" data-payment={cardPayment ? 'card' : 'default'}>
        <span className="plan-card-icon">{cardPayment ? <CardIcon /> : <StarIcon />}</span>
        <p className="plan-card-text">{cardPayment ? t('subscribe.paymentCard') : t('subscribe.paymentStars')}</p>
      </div>
      <Section title={t('subscribe.includes')} footer={t('subscribe.plansNote')}>
        <ul className="check-list">
          {features.map((feature) => (
            <li key={feature} className="row row--static">
              <CheckIcon className="check-list-icon" />
              <span className="row-body">
                <span className="row-title">{feature}</span>
              </span>
            </li>
          ))}
        </ul>
      </Section>
      {!active ? (
        <Link to={ROUTES.signIn} className="button button--plain">
          {t('signIn.submit')}
        </Link>
      ) : null}
    </Screen>
  );
}
