// Where each part of a funnel's diagram goes, in pixels: pure, so the drawing is a plain map over
// it and the rules (an arrow in a lane of its own while it runs beside another) are unit-tested.
// The stages are a vertical list; under each stage, one row per edge that leaves it (its label);
// keywords hang from an "anywhere" block on top. Each arrow runs from its row, left into a side
// lane, along the lane, and right into the stage it leads to: lanes on the left keep every x
// coordinate a fixed distance from the left edge, so the list takes whatever width is left (a
// 390 px phone never scrolls sideways).
import type { DiagramEdge } from './edges';

export const STAGE_HEIGHT = 56;
export const EDGE_ROW_HEIGHT = 30;
export const BLOCK_GAP = 18;
/** The lanes' area: at most this wide, lanes as far apart as LANE_STEP while they fit. */
export const LANES_MAX_WIDTH = 84;
export const LANE_STEP = 12;
const LANE_MIN_STEP = 4;
/** Where the first lane (the nearest the stages) runs, left of the blocks. */
const LANE_MARGIN = 10;
const MAX_LANES = Math.floor((LANES_MAX_WIDTH - LANE_MARGIN) / LANE_MIN_STEP);

export interface EdgeRow {
  edge: DiagramEdge;
  /** The row's top, from the diagram's top. */
  top: number;
}

export interface DiagramBlock {
  /** The stage's id; null: the "anywhere" block of keywords. */
  stageId: number | null;
  top: number;
  /** The block's own row (the stage, or "anywhere"); its edge rows follow. */
  headHeight: number;
  rows: EdgeRow[];
}

/**
 * The arrows into one stage: a trunk in a lane of its own, from the highest to the lowest point
 * it joins; each edge's row meets it with a branch, and one arrowhead enters the stage. Arrows
 * that share their stage share their trunk, so a funnel needs at most one lane per stage.
 */
export interface Trunk {
  to: number;
  /** 0 is the lane nearest the blocks. */
  lane: number;
  /** The point of the stage the arrowhead enters. */
  toY: number;
  /** The middle of each edge's row. */
  branches: Array<{ edge: DiagramEdge; fromY: number }>;
  top: number;
  bottom: number;
}

export interface DiagramLayout {
  blocks: DiagramBlock[];
  trunks: Trunk[];
  /** The blocks' left edge; a lane's x is laneX(lane). */
  blocksLeft: number;
  laneX: (lane: number) => number;
  height: number;
}

const ANYWHERE_HEIGHT = EDGE_ROW_HEIGHT;

/**
 * Lays out `stageIds` (in order) with `edges`: every edge gets a row under the block it leaves
 * (its stage's, or "anywhere" for an edge from no stage), and every stage that edges lead to a
 * trunk in the lowest lane free along its whole run, shortest runs first (a next step hugs the
 * blocks; a long jump goes outside).
 */
export function layoutDiagram(stageIds: readonly number[], edges: readonly DiagramEdge[]): DiagramLayout {
  const blocks: DiagramBlock[] = [];
  let top = 0;
  const place = (stageId: number | null, headHeight: number, own: DiagramEdge[]) => {
    const rows = own.map((edge, index) => ({ edge, top: top + headHeight + index * EDGE_ROW_HEIGHT }));
    blocks.push({ stageId, top, headHeight, rows });
    top += headHeight + rows.length * EDGE_ROW_HEIGHT + BLOCK_GAP;
  };
  const fromAnywhere = edges.filter((edge) => edge.from === null);
  if (fromAnywhere.length > 0) place(null, ANYWHERE_HEIGHT, fromAnywhere);
  for (const id of stageIds) place(id, STAGE_HEIGHT, edges.filter((edge) => edge.from === id));
  const height = Math.max(0, top - BLOCK_GAP);

  const stageTop = new Map(blocks.flatMap((block) => (block.stageId === null ? [] : [[block.stageId, block.top] as const])));
  const trunkOf = new Map<number, Trunk>();
  for (const block of blocks) {
    for (const row of block.rows) {
      const to = row.edge.to;
      const targetTop = to === null ? undefined : stageTop.get(to);
      if (to === null || targetTop === undefined) continue;
      const toY = targetTop + STAGE_HEIGHT / 2;
      const trunk = trunkOf.get(to) ?? { to, lane: 0, toY, branches: [], top: toY, bottom: toY };
      const fromY = row.top + EDGE_ROW_HEIGHT / 2;
      trunk.branches.push({ edge: row.edge, fromY });
      trunk.top = Math.min(trunk.top, fromY);
      trunk.bottom = Math.max(trunk.bottom, fromY);
      trunkOf.set(to, trunk);
    }
  }
  const trunks = [...trunkOf.values()];
  const byLength = [...trunks].sort((a, b) => a.bottom - a.top - (b.bottom - b.top) || a.top - b.top);
  const laneRuns: Trunk[][] = [];
  for (const trunk of byLength) {
    // A gap of a few pixels keeps two trunks' corners apart.
    let lane = laneRuns.findIndex((taken) => taken.every((other) => trunk.bottom < other.top - 3 || trunk.top > other.bottom + 3));
    if (lane === -1) lane = laneRuns.push([]) - 1;
    laneRuns[lane].push(trunk);
    trunk.lane = lane;
  }
  // Past what fits, lanes are drawn over each other (only a funnel of dozens of stages, each with
  // an arrow past all the others, gets there): the page must never scroll sideways.
  const laneCount = Math.min(laneRuns.length, MAX_LANES);
  const step = laneCount === 0 ? LANE_STEP : Math.max(LANE_MIN_STEP, Math.min(LANE_STEP, (LANES_MAX_WIDTH - LANE_MARGIN) / laneCount));
  const blocksLeft = laneCount === 0 ? 0 : Math.ceil(LANE_MARGIN + laneCount * step);
  return {
    blocks,
    trunks,
    blocksLeft,
    laneX: (lane) => blocksLeft - LANE_MARGIN - (lane % MAX_LANES) * step,
    height,
  };
}
