// The top notice (spec §2): success (with a check icon), error or info, with optional text.
import type { TopInfo } from '@/state/ui';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './statusIcons';

export function TopNotice({ info, fallbackText }: { info: TopInfo; fallbackText: string }) {
  const Icon = info.type === 'success' ? CheckCircleIcon : info.type === 'error' ? AlertIcon : InfoIcon;
  return (
    <div className="top-notice-wrap">
      <div
        className={`top-notice top-notice--${info.type}`}
        role={info.type === 'error' ? 'alert' : 'status'}
        data-testid="top-notice"
        data-type={info.type}
      >
        <Icon className="top-notice-icon" data-testid={info.type === 'success' ? 'top-notice-check' : undefined} />
        <span className="top-notice-text">{info.text ?? fallbackText}</span>
      </div>
    </div>
  );
}
