// The labels of the diagram's edges that have no text of their own (an answer, a wait, a payment,
// a refund), in the owner's language: one place for the diagram and the stage screen.
import { useTranslation } from 'react-i18next';
import { useWaitAfter } from '@/features/funnels/StageWaitSection';
import type { EdgeWords } from './edges';

export function useEdgeWords(): EdgeWords {
  const { t } = useTranslation();
  const waitAfter = useWaitAfter();
  return {
    answer: t('funnels.diagram.answerLabel'),
    wait: (wait) => waitAfter(wait),
    payment: (payment) => t('funnels.payments.stars', { amount: payment.amount }),
    refund: t('funnels.diagram.refundLabel'),
  };
}
