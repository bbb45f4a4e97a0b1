import { describe, expect, it } from 'vitest';
import { dropIndex, initialReorder, moveItem, reorderReducer, sameOrder, type ReorderAction, type ReorderState } from './reorder';

// Rows 60 px high: middles at 30, 90, 150, 210.
const slots = [30, 90, 150, 210];
const run = (state: ReorderState, ...actions: ReorderAction[]) => actions.reduce(reorderReducer, state);

describe('moveItem', () => {
  it('moves an item and clamps the target', () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2, 3], 0, 10)).toEqual([2, 3, 1]);
  });
});

describe('dropIndex', () => {
  it('counts the other rows whose middle the dragged row has passed', () => {
    expect(dropIndex(0, 30, slots)).toBe(0);
    expect(dropIndex(0, 95, slots)).toBe(1);
    expect(dropIndex(0, 300, slots)).toBe(3);
    expect(dropIndex(3, 0, slots)).toBe(0);
    expect(dropIndex(2, 140, slots)).toBe(2);
  });
});

describe('reorderReducer', () => {
  it('follows the pointer while dragging and commits on drop', () => {
    let state = run(initialReorder([11, 12, 13, 14]), { type: 'start', id: 11, y: 30 }, { type: 'move', y: 100, slots });
    expect(state.order).toEqual([12, 11, 13, 14]);
    expect(state.dragging?.offsetY).toBe(70);
    state = run(state, { type: 'move', y: 190, slots });
    expect(state.order).toEqual([12, 13, 11, 14]);
    state = run(state, { type: 'drop' });
    expect(state.dragging).toBeNull();
    expect(state.committed).toEqual([12, 13, 11, 14]);
  });

  it('moves up again when the finger goes back', () => {
    const state = run(initialReorder([1, 2, 3]), { type: 'start', id: 3, y: 150 }, { type: 'move', y: 40, slots: [30, 90, 150] }, { type: 'move', y: 150, slots: [30, 90, 150] });
    expect(state.order).toEqual([1, 2, 3]);
  });

  it('puts everything back on cancel', () => {
    const state = run(initialReorder([1, 2, 3]), { type: 'start', id: 1, y: 30 }, { type: 'move', y: 200, slots: [30, 90, 150] }, { type: 'cancel' });
    expect(state.order).toEqual([1, 2, 3]);
    expect(state.dragging).toBeNull();
  });

  it('ignores moves and drops when nothing is dragged, and unknown ids', () => {
    const start = initialReorder([1, 2]);
    expect(run(start, { type: 'move', y: 100, slots: [30, 90] })).toBe(start);
    expect(run(start, { type: 'drop' })).toBe(start);
    expect(run(start, { type: 'start', id: 9, y: 0 })).toBe(start);
  });

  it('moves one step with the buttons, not past the ends', () => {
    const start = initialReorder([1, 2, 3]);
    expect(run(start, { type: 'moveBy', id: 2, delta: -1 }).committed).toEqual([2, 1, 3]);
    expect(run(start, { type: 'moveBy', id: 2, delta: 1 }).committed).toEqual([1, 3, 2]);
    expect(run(start, { type: 'moveBy', id: 1, delta: -1 })).toBe(start);
    expect(run(start, { type: 'moveBy', id: 3, delta: 1 })).toBe(start);
  });

  it('starts over from a new order from the server', () => {
    expect(run(initialReorder([1, 2]), { type: 'reset', order: [2, 1] }).order).toEqual([2, 1]);
  });
});

describe('sameOrder', () => {
  it('compares orders', () => {
    expect(sameOrder([1, 2], [1, 2])).toBe(true);
    expect(sameOrder([1, 2], [2, 1])).toBe(false);
    expect(sameOrder([1], [1, 2])).toBe(false);
  });
});
