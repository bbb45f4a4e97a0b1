import { describe, expect, it } from 'vitest';
import type { Keyword, Stage, StageMessage } from '../../../../contract/funnels';
import { edgesFrom, edgesOf, edgesTo } from './edges';
import { LANES_MAX_WIDTH, layoutDiagram } from './layout';

function stage(id: number, message: Partial<StageMessage> = {}): Stage {
  return {
    id,
    funnel_id: 1,
    title: `Stage ${id}`,
    icon: 'flag',
    color: '#2f8cf0',
    position: id,
    tag_id: null,
    wait: null,
    payment: null,
    ask: null,
    message: { text: 'Hi', media: null, buttons: [], next_button: null, choices: [], ...message },
    people_count: 0,
  };
}
const keyword = (id: number, phrase: string, stageId: number): Keyword => ({ id, funnel_id: 1, phrase, stage_id: stageId, created_at: '' });

describe('edgesOf', () => {
  it('gives an answer to the next stage, a wait to its stage, a payment to its paid and refund stages; a deleted field or stage is broken', () => {
    const stages = [
      { ...stage(10), ask: { field_id: 5, reask_text: '' }, wait: { amount: 2, unit: 'hours' as const, to_stage_id: 30, only_if_silent: true } },
      { ...stage(20), payment: { title: 'Course', description: 'Six lessons', amount: 500, paid_stage_id: 30, refund_stage_id: null } },
      { ...stage(30), ask: { field_id: null, reask_text: '' } },
    ];
    expect(edgesOf(stages, [])).toEqual([
      { from: 10, to: 20, kind: 'answer', label: 'answer', broken: false },
      { from: 10, to: 30, kind: 'wait', label: '2 hours', broken: false },
      { from: 20, to: 30, kind: 'payment', label: '500 XTR', broken: false },
      { from: 20, to: null, kind: 'refund', label: 'refund', broken: true },
    ]);
    // The last stage's answer leads nowhere and is not broken (the person stays), so no edge; its deleted field shows on its own section.
  });

  it('gives a next step to the following stage, each choice to its stage (also upward), and keywords from anywhere', () => {
    const stages = [
      stage(10, { next_button: { text: 'Go on' } }),
      stage(20, { choices: [{ text: 'Cheap', stage_id: 30 }, { text: 'Back to start', stage_id: 10 }] }),
      stage(30),
    ];
    expect(edgesOf(stages, [keyword(1, 'price', 30)])).toEqual([
      { from: 10, to: 20, kind: 'next', label: 'Go on', broken: false },
      { from: 20, to: 30, kind: 'choice', label: 'Cheap', broken: false },
      { from: 20, to: 10, kind: 'choice', label: 'Back to start', broken: false },
      { from: null, to: 30, kind: 'keyword', label: 'price', broken: false },
    ]);
  });

  it('marks as broken a choice whose stage was deleted, and a next step from the last stage', () => {
    const stages = [stage(10, { choices: [{ text: 'Gone', stage_id: null }, { text: 'Elsewhere', stage_id: 99 }] }), stage(20, { next_button: { text: 'Next' } })];
    expect(edgesOf(stages, [])).toEqual([
      { from: 10, to: null, kind: 'choice', label: 'Gone', broken: true },
      { from: 10, to: null, kind: 'choice', label: 'Elsewhere', broken: true },
      { from: 20, to: null, kind: 'next', label: 'Next', broken: true },
    ]);
  });

  it('follows the order of the stages given, not their ids', () => {
    const edges = edgesOf([stage(30, { next_button: { text: 'On' } }), stage(10)], []);
    expect(edges).toEqual([{ from: 30, to: 10, kind: 'next', label: 'On', broken: false }]);
  });

  it('tells what leaves a stage and what leads to it', () => {
    const edges = edgesOf([stage(1, { next_button: { text: 'On' }, choices: [{ text: 'Skip', stage_id: 3 }] }), stage(2), stage(3)], [keyword(1, 'buy', 3)]);
    expect(edgesFrom(edges, 1).map((edge) => edge.label)).toEqual(['On', 'Skip']);
    expect(edgesTo(edges, 3).map((edge) => [edge.from, edge.label])).toEqual([
      [1, 'Skip'],
      [null, 'buy'],
    ]);
    expect(edgesTo(edges, 1)).toEqual([]);
  });
});

describe('layoutDiagram', () => {
  const stages = [
    stage(1, { next_button: { text: 'On' }, choices: [{ text: 'Far', stage_id: 4 }] }),
    stage(2, { choices: [{ text: 'Up', stage_id: 1 }, { text: 'Gone', stage_id: null }] }),
    stage(3, { next_button: { text: 'On' } }),
    stage(4),
  ];
  const edges = edgesOf(stages, [keyword(1, 'price', 3)]);
  const layout = layoutDiagram(
    stages.map((s) => s.id),
    edges,
  );

  it('puts the keywords on top, then each stage with a row per edge it starts, in order', () => {
    expect(layout.blocks.map((block) => [block.stageId, block.rows.map((row) => row.edge.label)])).toEqual([
      [null, ['price']],
      [1, ['On', 'Far']],
      [2, ['Up', 'Gone']],
      [3, ['On']],
      [4, []],
    ]);
    const tops = layout.blocks.map((block) => block.top);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
  });

  it('draws an arrow for each edge that leads somewhere, none for a broken one, one trunk per stage led to', () => {
    expect(layout.trunks.map((trunk) => [trunk.to, trunk.branches.map((branch) => branch.edge.label)]).sort()).toEqual([
      [1, ['Up']],
      [2, ['On']],
      [3, ['price']],
      [4, ['Far', 'On']],
    ]);
  });

  it('never runs two trunks in one lane where they overlap, and keeps every lane left of the stages', () => {
    for (const a of layout.trunks) {
      expect(layout.laneX(a.lane)).toBeGreaterThan(0);
      expect(layout.laneX(a.lane)).toBeLessThan(layout.blocksLeft);
      for (const branch of a.branches) {
        expect(branch.fromY).toBeGreaterThanOrEqual(a.top);
        expect(branch.fromY).toBeLessThanOrEqual(a.bottom);
      }
      for (const b of layout.trunks) {
        if (a === b || a.lane !== b.lane) continue;
        expect(a.bottom < b.top || a.top > b.bottom, `trunks to ${a.to} and ${b.to} share lane ${a.lane}`).toBe(true);
      }
    }
  });

  it('gives the nearest lane to a short next step and an outer one to a long jump', () => {
    const toTwo = layout.trunks.find((trunk) => trunk.to === 2)!;
    const toFour = layout.trunks.find((trunk) => trunk.to === 4)!;
    expect(toTwo.lane).toBe(0);
    expect(toFour.lane).toBeGreaterThan(0);
  });

  it('keeps the lanes within their width however many arrows there are', () => {
    const many = Array.from({ length: 30 }, (_, index) => stage(index + 1, { choices: [{ text: 'First', stage_id: 1 }, { text: 'Last', stage_id: 30 }] }));
    const crowded = layoutDiagram(
      many.map((s) => s.id),
      edgesOf(many, []),
    );
    expect(crowded.trunks.map((trunk) => trunk.to).sort((a, b) => a - b)).toEqual([1, 30]);
    expect(crowded.blocksLeft).toBeLessThanOrEqual(LANES_MAX_WIDTH);
    const everyone = Array.from({ length: 40 }, (_, index) => stage(index + 1, { choices: [{ text: 'Down', stage_id: 40 - index }] }));
    const tangled = layoutDiagram(
      everyone.map((s) => s.id),
      edgesOf(everyone, []),
    );
    expect(tangled.blocksLeft).toBeLessThanOrEqual(LANES_MAX_WIDTH);
    for (const trunk of tangled.trunks) expect(tangled.laneX(trunk.lane)).toBeGreaterThan(0);
  });
});
