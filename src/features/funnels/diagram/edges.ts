// The arrows of a funnel's diagram, worked out from its stages and keywords: one pure function, so
// the drawing (DiagramScreen) knows edges only, and a new way of moving people (an ask's answer, a
// wait, a payment) is one more kind here and one more style there.
import type { Keyword, Stage } from '../../../../contract/funnels';

/** How a person goes along an edge: the next-step button, a choice button, a keyword written anywhere. */
export const EDGE_KINDS = ['next', 'choice', 'keyword'] as const;
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

/**
 * Every edge of a funnel, stage by stage in `stages`' order (each stage's next step, then its
 * choice buttons in their order), then the keywords. `stages` must be in their funnel order.
 */
export function edgesOf(stages: readonly Stage[], keywords: readonly Keyword[]): DiagramEdge[] {
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
