// The frame of the auth screens: the product mark, a heading and the form card.
import type { ReactNode } from 'react';
import { FunnelIcon } from '@/ui/brandIcon';
import { Screen } from '@/ui/Screen';

export function AuthLayout({
  heading,
  subtitle,
  children,
  footer,
  icon,
  tone = 'brand',
}: {
  heading: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  icon?: ReactNode;
  /** The colour of the mark: the brand's, or a success / warning outcome. */
  tone?: 'brand' | 'success' | 'warning';
}) {
  return (
    <Screen className="auth">
      <div className="auth-hero">
        <div className={`auth-mark${tone === 'brand' ? '' : ` auth-mark--${tone}`}`} aria-hidden="true">
          {icon ?? <FunnelIcon />}
        </div>
        <h1 className="auth-heading">{heading}</h1>
        {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
      </div>
      {children}
      {footer ? <div className="auth-footer">{footer}</div> : null}
    </Screen>
  );
}
