// Reordering stages by drag and drop (finger or mouse, pointer events on a handle) and by the
// move up/down buttons. A reducer: the screen feeds it pointer positions, it keeps the order.

export interface ReorderState {
  /** Stage ids in their shown order (while dragging: as they would drop now). */
  order: number[];
  /** The order before the drag started, to tell whether anything changed and to cancel. */
  committed: number[];
  dragging: { id: number; startY: number; offsetY: number } | null;
}

export type ReorderAction =
  | { type: 'reset'; order: number[] }
  | { type: 'start'; id: number; y: number }
  /** `y`: the pointer; `slots`: the vertical middles of the rows in the committed order. */
  | { type: 'move'; y: number; slots: number[] }
  | { type: 'drop' }
  | { type: 'cancel' }
  | { type: 'moveBy'; id: number; delta: number };

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  if (from < 0 || from >= list.length) return next;
  const clamped = Math.max(0, Math.min(list.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(clamped, 0, item);
  return next;
}

/**
 * Where a row dragged from `from` lands when its middle is at `middle`: the number of other
 * rows whose middles it has passed.
 */
export function dropIndex(from: number, middle: number, slots: readonly number[]): number {
  let index = 0;
  for (let i = 0; i < slots.length; i += 1) {
    if (i === from) continue;
    if (middle > slots[i]) index += 1;
  }
  return index;
}

export function initialReorder(order: number[]): ReorderState {
  return { order, committed: order, dragging: null };
}

export function reorderReducer(state: ReorderState, action: ReorderAction): ReorderState {
  switch (action.type) {
    case 'reset':
      return initialReorder(action.order);
    case 'start':
      if (!state.committed.includes(action.id)) return state;
      return { ...state, order: state.committed, dragging: { id: action.id, startY: action.y, offsetY: 0 } };
    case 'move': {
      if (!state.dragging) return state;
      const from = state.committed.indexOf(state.dragging.id);
      const offsetY = action.y - state.dragging.startY;
      const to = dropIndex(from, (action.slots[from] ?? 0) + offsetY, action.slots);
      const order = moveItem(state.committed, from, to);
      const same = order.every((id, i) => id === state.order[i]);
      return { ...state, order: same ? state.order : order, dragging: { ...state.dragging, offsetY } };
    }
    case 'drop':
      if (!state.dragging) return state;
      return { order: state.order, committed: state.order, dragging: null };
    case 'cancel':
      return { ...state, order: state.committed, dragging: null };
    case 'moveBy': {
      const from = state.committed.indexOf(action.id);
      const to = from + action.delta;
      if (from === -1 || to < 0 || to >= state.committed.length) return state;
      const order = moveItem(state.committed, from, to);
      return { order, committed: order, dragging: null };
    }
  }
}

export function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
