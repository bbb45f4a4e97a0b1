// The arrows of a funnel's diagram, worked out from its stages and keywords: one pure function, so
// the drawing (DiagramScreen) knows edges only, and a new way of moving people (an ask's answer, a
// wait, a payment) is one more kind here and one more style there.
import type { Keyword, Stage } from '../../../../contract/funnels';
import type { StagePayment } from '../../../../contract/payments';
import type { StageWait } from '../../../../contract/timers';

/**
 * How a person goes along an edge: the next-step button, a choice button, a keyword written
 * anywhere, an answer to the stage's question (on to the next stage), a wait run out, a Stars
 * payment of the stage's invoice, or its refund.
 */
export const EDGE_KINDS = ['next', 'choice', 'keyword', 'answer', 'wait', 'payment', 'refund'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface DiagramEdge {
  /** The stage the person is in; null: from anywhere in the funnel (a keyword). */
  from: number | null;
  /** The stage they go to; null: it leads nowhere (its stage was deleted, or a next step from the last stage). */
  to: number | null;
  kind: EdgeKind;
  /** The button's text or the keyword's phrase. */
  label: string;
  /** It cannot move anyone now (running the funnel is refused until it is fixed). */
  broken: boolean;
}

/** The labels of the edges that have no text of their own (the screens pass them in the owner's language). */
export interface EdgeWords {
  answer: string;
  wait: (wait: StageWait) => string;
  payment: (payment: StagePayment) => string;
  refund: string;
}

const PLAIN_WORDS: EdgeWords = {
  answer: 'answer',
  wait: (wait) => `${wait.amount} ${wait.unit}`,
  payment: (payment) => `${payment.amount} XTR`,
  refund: 'refund',
};

/**
 * Every edge of a funnel, stage by stage in `stages`' order (each stage's next step, its choice
 * buttons in their order, its answer, wait, payment and refund), then the keywords. `stages` must
 * be in their funnel order.
 */
export function edgesOf(stages: readonly Stage[], keywords: readonly Keyword[], words: EdgeWords = PLAIN_WORDS): DiagramEdge[] {
  const stageIds = new Set(stages.map((stage) => stage.id));
  const target = (id: number | null) => (id !== null && stageIds.has(id) ? id : null);
  const edges: DiagramEdge[] = [];
  stages.forEach((stage, index) => {
    const { next_button: nextButton, choices } = stage.message;
    if (nextButton) {
      const to = stages[index + 1]?.id ?? null;
      edges.push({ from: stage.id, to, kind: 'next', label: nextButton.text, broken: to === null });
    }
    for (const choice of choices) {
      const to = target(choice.stage_id);
      edges.push({ from: stage.id, to, kind: 'choice', label: choice.text, broken: to === null });
    }
    // An answer moves the person on to the next stage (none: they stay, which is not broken);
    // broken while its field is deleted.
    const next = stages[index + 1]?.id ?? null;
    if (stage.ask && next !== null) edges.push({ from: stage.id, to: next, kind: 'answer', label: words.answer, broken: stage.ask.field_id === null });
    if (stage.wait) {
      const to = target(stage.wait.to_stage_id);
      edges.push({ from: stage.id, to, kind: 'wait', label: words.wait(stage.wait), broken: to === null });
    }
    if (stage.payment) {
      const paid = target(stage.payment.paid_stage_id);
      const refunded = target(stage.payment.refund_stage_id);
      edges.push({ from: stage.id, to: paid, kind: 'payment', label: words.payment(stage.payment), broken: paid === null });
      edges.push({ from: stage.id, to: refunded, kind: 'refund', label: words.refund, broken: refunded === null });
    }
  });
  for (const keyword of keywords) {
    const to = target(keyword.stage_id);
    edges.push({ from: null, to, kind: 'keyword', label: keyword.phrase, broken: to === null });
  }
  return edges;
}

/** The edges that leave `stageId` (its own buttons). */
export function edgesFrom(edges: readonly DiagramEdge[], stageId: number): DiagramEdge[] {
  return edges.filter((edge) => edge.from === stageId);
}

/** The edges that lead to `stageId`, from other stages or from anywhere. */
export function edgesTo(edges: readonly DiagramEdge[], stageId: number): DiagramEdge[] {
  return edges.filter((edge) => edge.to === stageId);
}
