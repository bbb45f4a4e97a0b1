// Page scaffolding: a screen with an optional back control and title block, in the look of a
// native Telegram Mini App. What goes inside the signed-in screens is in blocks.tsx, so that the
// account screens' first paint does not carry it.
import type { ReactNode } from 'react';

/** `wide`: the screen lists people as a table on a desktop-wide window, so the column widens there. */
export function Screen({ children, className, wide = false }: { children: ReactNode; className?: string; wide?: boolean }) {
  return <main className={`screen${wide ? ' screen--wide' : ''}${className ? ` ${className}` : ''}`}>{children}</main>;
}

export function ScreenHeader({ title, subtitle, back }: { title: string; subtitle?: ReactNode; back?: ReactNode }) {
  return (
    <header className="screen-header">
      {back}
      <h1 className="screen-title">{title}</h1>
      {subtitle ? <p className="screen-subtitle">{subtitle}</p> : null}
    </header>
  );
}
