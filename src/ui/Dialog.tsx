// A confirmation in a sheet over the screen (phone first): a title, what will happen, and the
// buttons. Escape and a tap outside cancel; focus goes to the safe choice.
//
// Two layers: a screen's dialogs, and the app's own alert over everything (the 'Subscription isn't
// active' alert, opened wherever a call is refused with 402). While the app's alert is open, every
// screen dialog is cancelled, also one that a screen opens again after its failed call: the alert
// is the one thing on screen, and the refused action is not left half-way in a sheet under it.
import { useAtomValue } from 'jotai';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { subscriptionAlertAtom } from '@/state/ui';
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
  layer = 'screen',
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
  /** 'app': the app's alert, over every screen dialog (which it closes). */
  layer?: 'screen' | 'app';
}) {
  const titleId = useId();
  const textId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const sheetRef = useRef<HTMLDivElement>(null);
  const closedByAppAlert = useAtomValue(subscriptionAlertAtom) && layer === 'screen';
  useEffect(() => {
    if (closedByAppAlert) onCancel();
  }, [closedByAppAlert, onCancel]);
  useEffect(() => {
    if (closedByAppAlert) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCancel();
    };
    document.addEventListener('keydown', onKey);
    const sheet = sheetRef.current;
    return () => {
      document.removeEventListener('keydown', onKey);
      // Back to where focus was, unless another dialog (the app's alert) has taken it meanwhile.
      const focus = document.activeElement;
      if (!focus || focus === document.body || sheet?.contains(focus)) previous?.focus();
    };
  }, [onCancel, closedByAppAlert]);

  if (closedByAppAlert) return null;
  return createPortal(
    <div className="sheet-backdrop" onClick={onCancel}>
      <div
        className="sheet"
        ref={sheetRef}
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
