// The top notice (spec §2): success (with a check icon), error or info, with optional text. While
// it shows, the page moves down by its height (--top-notice-space on the root, used by #app's
// padding), so that it never covers the page's title or back link.
import { useLayoutEffect, useRef } from 'react';
import type { TopInfo } from '@/state/ui';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './statusIcons';

const NOTICE_SPACE = '--top-notice-space';
/** Between the notice and the page under it (px). */
const NOTICE_GAP = 8;

export function TopNotice({ info, fallbackText }: { info: TopInfo; fallbackText: string }) {
  const Icon = info.type === 'success' ? CheckCircleIcon : info.type === 'error' ? AlertIcon : InfoIcon;
  const notice = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = notice.current;
    if (!element) return;
    const root = document.documentElement;
    const reserve = () => root.style.setProperty(NOTICE_SPACE, `${element.offsetHeight + NOTICE_GAP}px`);
    reserve();
    if (typeof ResizeObserver === 'undefined') return () => root.style.removeProperty(NOTICE_SPACE);
    const observer = new ResizeObserver(reserve);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(NOTICE_SPACE);
    };
  }, []);

  return (
    <div className="top-notice-wrap">
      <div
        ref={notice}
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
