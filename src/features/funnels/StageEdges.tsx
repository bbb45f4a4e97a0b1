// On a stage's screen: where each of its buttons leads (the next step to the next stage, each
// choice button to its stage, the stages as links; a broken one marked), and what leads to it
// (other stages' buttons, keywords, /start for the first stage). Both from the diagram's edgesOf,
// so the screen and the diagram never disagree, and an ask, a wait or a payment added there shows
// here too.
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { Keyword, Stage } from '../../../contract/funnels';
import { TextIcon } from '@/ui/glyphs';
import { edgesFrom, edgesOf, edgesTo, type DiagramEdge } from './diagram/edges';
import { useEdgeWords } from './diagram/edgeWords';

/** The stage's title as a link to its screen (after the words, in both languages: no markup in the strings, so no title is read as markup). */
function StageLink({ stage }: { stage: Stage }) {
  return (
    <Link to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(stage.funnel_id), stageId: String(stage.id) }} data-testid="edge-stage-link">
      {stage.title}
    </Link>
  );
}

/** Under the stage's message: each button that leaves it, and where it leads. */
export function StageExits({ stage, stages, keywords }: { stage: Stage; stages: Stage[]; keywords: Keyword[] }) {
  const { t } = useTranslation();
  // Its buttons only: the stage's ask, wait and payment say where they lead in their own sections.
  const exits = edgesFrom(edgesOf(stages, keywords), stage.id).filter((edge) => edge.kind === 'next' || edge.kind === 'choice');
  if (exits.length === 0) return null;
  const stageById = new Map(stages.map((s) => [s.id, s]));
  return (
    <ul className="choice-targets" data-testid="choice-targets">
      {exits.map((edge, index) => {
        const target = edge.to === null ? undefined : stageById.get(edge.to);
        if (!target) {
          return (
            <li key={index} className="field-error" data-testid={edge.kind === 'next' ? 'next-broken' : 'choice-broken'}>
              {edge.kind === 'next' ? t('funnels.stage.nextFromLast', { text: edge.label }) : t('funnels.stage.choiceBroken', { text: edge.label })}
            </li>
          );
        }
        return (
          <li key={index} data-testid={edge.kind === 'next' ? 'next-target' : 'choice-target'}>
            {t(edge.kind === 'next' ? 'funnels.stage.nextLeadsTo' : 'funnels.stage.choiceLeadsTo', { text: edge.label })} <StageLink stage={target} />
          </li>
        );
      })}
    </ul>
  );
}

/** How an edge from another stage reads, before that stage's name. */
const ENTRANCE_WORDS = {
  next: 'funnels.stage.nextLeadsHere',
  choice: 'funnels.stage.choiceLeadsHere',
  keyword: 'funnels.stage.choiceLeadsHere',
  answer: 'funnels.stage.answerLeadsHere',
  wait: 'funnels.stage.waitLeadsHere',
  payment: 'funnels.stage.paymentLeadsHere',
  refund: 'funnels.stage.refundLeadsHere',
} as const satisfies Record<DiagramEdge['kind'], string>;

/** What leads to the stage: other stages' buttons, keywords, and /start for the first stage. */
export function StageEntrances({ stage, stages, keywords }: { stage: Stage; stages: Stage[]; keywords: Keyword[] }) {
  const { t } = useTranslation();
  const entrances = edgesTo(edgesOf(stages, keywords, useEdgeWords()), stage.id);
  const first = stages[0]?.id === stage.id;
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const describe = (edge: DiagramEdge) => {
    const from = edge.from === null ? undefined : stageById.get(edge.from);
    if (edge.kind === 'keyword' || !from) return t('funnels.stage.keywordLeadsHere', { phrase: edge.label });
    return (
      <>
        {t(ENTRANCE_WORDS[edge.kind], { text: edge.label })} <StageLink stage={from} />
      </>
    );
  };
  return (
    <section className="section-block" data-testid="stage-keywords">
      <h2 className="section-title">{t('funnels.stage.leadsHere')}</h2>
      {entrances.length > 0 || first ? (
        <ul className="choice-targets">
          {first ? <li data-testid="stage-entrance">{t('funnels.stage.startLeadsHere')}</li> : null}
          {entrances.map((edge, index) => (
            <li key={index} data-testid={edge.kind === 'keyword' ? 'stage-keyword' : 'stage-entrance'}>
              {describe(edge)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="section-footer" data-testid="stage-unreachable">
          {t('funnels.stage.nothingLeadsHere')}
        </p>
      )}
      <Link to="/content/funnels/$funnelId/keywords/" params={{ funnelId: String(stage.funnel_id) }} className="button button--secondary" data-testid="stage-keywords-link">
        <TextIcon />
        {t('funnels.stage.manageKeywords')}
      </Link>
    </section>
  );
}
