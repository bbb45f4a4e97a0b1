// A confirmation in a sheet over the screen (phone first): a title, what will happen, and the
// buttons. Escape and a tap outside cancel; focus goes to the safe choice.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '@/ui/form';
import './dialog.css';

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  destructive = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  destructive?: boolean;
  /** The action can't be taken now (the dialog says why). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCancel();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, [onCancel]);

  return createPortal(
    <div className="sheet-backdrop" onClick={onCancel}>
      <div
        className="sheet"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children ? textId : undefined}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 className="sheet-title" id={titleId}>
          {title}
        </h2>
        {children ? (
          <div className="sheet-text" id={textId}>
            {children}
          </div>
        ) : null}
        <div className="sheet-actions">
          <Button variant={destructive ? 'destructive' : 'primary'} className={destructive ? 'button--destructive-strong' : undefined} onClick={onConfirm} disabled={confirmDisabled}>
            {confirmLabel}
          </Button>
          <button type="button" className="button button--secondary" ref={cancelRef} onClick={onCancel}>
            {cancelLabel}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
