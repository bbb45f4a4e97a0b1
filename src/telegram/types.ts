// What the app needs from Telegram: the SDK module implements it, the rest of the app uses it
// (its own module, so that neither side imports the other for the type).
export interface TelegramShell {
  setBackButtonVisible(visible: boolean): void;
  /** Subscribes to the native back button; returns the unsubscribe function. */
  onBackButton(listener: () => void): () => void;
  /** Tells Telegram the app is ready to be shown (after the first render). */
  ready(): void;
  /** Opens a t.me link in Telegram itself; false when this client can't (use a normal link). */
  openTelegramLink(url: string): boolean;
  /** Asks before the Mini App is closed (unsaved changes), or stops asking. */
  setClosingConfirmation(enabled: boolean): void;
  /**
   * Opens a Stars invoice link in Telegram's payment sheet and resolves with how the sheet closed
   * (paid, cancelled, failed, pending); null when this client cannot open invoices. Advisory only:
   * access changes on the server's successful_payment.
   */
  openInvoice(url: string): Promise<InvoiceOutcome | null>;
}

export type InvoiceOutcome = 'paid' | 'cancelled' | 'failed' | 'pending';
