// One recipient of a mailing: their state (sent, blocked, deleted from the chat…) and, when
// something went wrong, what happened to them in words (Telegram's own text only as a tooltip).
// Shared by the recipients list and the wide table.
import { useTranslation } from 'react-i18next';
import type { Recipient } from '../../../contract/mailings';
import { useDeliveryErrorWords } from '@/ui/deliveryErrors';

export function RecipientState({ recipient }: { recipient: Pick<Recipient, 'state'> }) {
  const { t } = useTranslation();
  return (
    <span className={`recipient-state recipient-state--${recipient.state}`} data-testid="recipient-state">
      {t(`mailings.recipients.state.${recipient.state}`)}
    </span>
  );
}

type RecipientOutcome = Pick<Recipient, 'state' | 'error' | 'error_reason'>;

/** The reason worth showing for this person, if any: a blocked person's state already says it. */
export function shownProblem(recipient: RecipientOutcome): Recipient['error_reason'] {
  const reason = recipient.error_reason;
  return reason === 'blocked' && recipient.state === 'blocked' ? null : reason;
}

/** What went wrong for this person in words, or nothing (shownProblem). */
export function RecipientProblem({ recipient }: { recipient: RecipientOutcome }) {
  const words = useDeliveryErrorWords();
  const reason = shownProblem(recipient);
  if (!reason) return null;
  return (
    <span className="recipient-problem" title={recipient.error ?? undefined} data-testid="recipient-problem">
      {words(reason)}
    </span>
  );
}
