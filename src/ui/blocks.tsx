// The blocks signed-in screens are made of: sections (cards on the secondary background) with
// rows, empty states and statistics, in the look of a native Telegram Mini App.
import type { ReactNode } from 'react';

export function Section({ title, footer, children }: { title?: string; footer?: ReactNode; children: ReactNode }) {
  return (
    <section className="section-block">
      {title ? <h2 className="section-title">{title}</h2> : null}
      <div className="section">{children}</div>
      {footer ? <p className="section-footer">{footer}</p> : null}
    </section>
  );
}

export type Tint = 'blue' | 'green' | 'orange' | 'purple' | 'red' | 'teal' | 'gray';

export function RowIcon({ tint, children }: { tint: Tint; children: ReactNode }) {
  return <span className={`row-icon row-icon--${tint}`}>{children}</span>;
}

/** The inside of a list row; wrap it in a link or a button. */
export function RowContent({
  icon,
  title,
  titleId,
  description,
  descriptionId,
  value,
  chevron = true,
}: {
  icon?: ReactNode;
  title: ReactNode;
  titleId?: string;
  description?: ReactNode;
  descriptionId?: string;
  value?: ReactNode;
  chevron?: boolean;
}) {
  return (
    <>
      {icon}
      <span className="row-body">
        <span className="row-title" id={titleId}>
          {title}
        </span>
        {description ? (
          <span className="row-description" id={descriptionId}>
            {description}
          </span>
        ) : null}
      </span>
      {value ? <span className="row-value">{value}</span> : null}
      {chevron ? <ChevronGlyph /> : null}
    </>
  );
}

function ChevronGlyph() {
  return (
    <svg className="row-chevron" viewBox="0 0 8 14" width="8" height="14" aria-hidden="true" focusable="false">
      <path d="M1 1l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="empty-state-icon">{icon}</div>
      <h2 className="empty-state-title">{title}</h2>
      {children ? <div className="empty-state-text">{children}</div> : null}
    </div>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="stat-grid">{children}</div>;
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="stat">
      <span className="stat-value" data-testid={testId}>
        {value}
      </span>
      <span className="stat-label">{label}</span>
    </div>
  );
}
