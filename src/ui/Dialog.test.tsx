// The app's 'Subscription isn't active' alert closes the screen's dialog it was raised from: the
// alert is the one thing on screen, also when the screen opens its dialog again with the error.
import { act, cleanup, render, screen } from '@testing-library/react';
import { createStore, Provider, useAtom } from 'jotai';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { showSubscriptionAlert, subscriptionAlertAtom } from '@/state/ui';
import { ConfirmDialog } from './Dialog';

afterEach(cleanup);

/** A screen with a send sheet whose action fails with 402: it shows the sheet again, with the error (as MailingScreen does). */
function SendScreen({ onRefused }: { onRefused: (reopen: () => void) => void }) {
  const [sheet, setSheet] = useState<{ error: string | null } | null>({ error: null });
  if (!sheet) return <p>screen</p>;
  return (
    <ConfirmDialog
      title="Send the mailing?"
      confirmLabel="Send now"
      cancelLabel="Cancel"
      onConfirm={() => onRefused(() => setSheet({ error: "Subscription isn't active" }))}
      onCancel={() => setSheet(null)}
    >
      <p>{sheet.error ?? 'To everyone'}</p>
    </ConfirmDialog>
  );
}

/** The app's alert, as AppChrome mounts it while the atom is set. */
function AppAlert() {
  const [open, setOpen] = useAtom(subscriptionAlertAtom);
  if (!open) return null;
  return (
    <ConfirmDialog layer="app" title="Subscription isn't active" confirmLabel="More details" cancelLabel="Close" onConfirm={() => {}} onCancel={() => setOpen(false)}>
      <p>Subscribe to use all features</p>
    </ConfirmDialog>
  );
}

describe('a dialog under the subscription alert', () => {
  it('closes when the alert opens, and stays closed when its screen shows it again', async () => {
    const store = createStore();
    let reopenWithError = () => {};
    render(
      <Provider store={store}>
        <SendScreen onRefused={(reopen) => (reopenWithError = reopen)} />
        <AppAlert />
      </Provider>,
    );
    expect(screen.getByRole('alertdialog', { name: 'Send the mailing?' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Send now' }).click());

    await act(async () => {
      showSubscriptionAlert(store);
      reopenWithError();
    });
    expect(screen.queryByRole('alertdialog', { name: 'Send the mailing?' })).toBeNull();
    expect(screen.getByText('screen')).toBeTruthy();
    // The alert is the one dialog left, and a second refusal leaves it open.
    expect(screen.getAllByRole('alertdialog').map((dialog) => dialog.querySelector('h2')?.textContent)).toEqual(["Subscription isn't active"]);
    await act(async () => showSubscriptionAlert(store));
    expect(screen.getByRole('alertdialog', { name: "Subscription isn't active" })).toBeTruthy();
  });
});
