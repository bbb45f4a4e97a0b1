// What a plan includes: running funnels and people (a number or no limit), mailings and letters
// (included or not); with `usage`, what the user has against each limit ("1 / 1", "320 / 500").
import { useTranslation } from 'react-i18next';
import type { PlanLimits as Limits, Usage } from '../../../contract/billing';
import { CheckIcon } from '@/ui/icons';

function CrossGlyph() {
  return (
    <svg className="plan-limit-icon plan-limit-icon--no" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function PlanLimits({ limits, usage }: { limits: Limits; usage?: Usage }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const amount = (limit: number | null, used: number | undefined) => {
    const cap = limit === null ? t('subscribe.unlimited') : number(limit);
    return used === undefined ? cap : `${number(used)} / ${cap}`;
  };
  const countRows = [
    { key: 'running_funnels', label: t('subscribe.limitFunnels'), value: amount(limits.running_funnels, usage?.running_funnels), full: limits.running_funnels !== null && usage !== undefined && usage.running_funnels >= limits.running_funnels },
    { key: 'people', label: t('subscribe.limitPeople'), value: amount(limits.people, usage?.people), full: limits.people !== null && usage !== undefined && usage.people >= limits.people },
  ];
  const featureRows = [
    { key: 'mailings', label: t('subscribe.limitMailings'), included: limits.mailings },
    { key: 'letters', label: t('subscribe.limitLetters'), included: limits.letters },
  ];
  return (
    <ul className="plan-limits">
      {countRows.map((row) => (
        <li key={row.key} className="plan-limit" data-testid={`limit-${row.key}`}>
          <CheckIcon className="plan-limit-icon" />
          <span className="plan-limit-label">{row.label}</span>
          <span className={`plan-limit-value${row.full ? ' plan-limit-value--full' : ''}`}>{row.value}</span>
        </li>
      ))}
      {featureRows.map((row) => (
        <li key={row.key} className={`plan-limit${row.included ? '' : ' plan-limit--off'}`} data-testid={`limit-${row.key}`}>
          {row.included ? <CheckIcon className="plan-limit-icon" /> : <CrossGlyph />}
          <span className="plan-limit-label">{row.label}</span>
          <span className="plan-limit-value">{row.included ? t('subscribe.included') : t('subscribe.notIncluded')}</span>
        </li>
      ))}
    </ul>
  );
}
