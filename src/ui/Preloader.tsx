// Full-screen loading overlay (spec §2): a spinner and a 'loading' label for assistive tech.
export function Preloader({ label }: { label: string }) {
  return (
    <div className="preloader" role="status" aria-label={label} aria-live="polite">
      <div className="preloader-card">
        <div className="spinner" aria-hidden="true" />
        <span className="preloader-label" aria-hidden="true">
          {label}
        </span>
      </div>
    </div>
  );
}

/** The same spinner inline, for a screen's own pending state. */
export function Spinner({ label }: { label: string }) {
  return (
    <div className="inline-spinner" role="status" aria-label={label}>
      <div className="spinner" aria-hidden="true" />
    </div>
  );
}
