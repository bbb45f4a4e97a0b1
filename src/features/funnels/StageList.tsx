// The stages of a funnel in order. Until the bot has been run they can be reordered: dragged by
// the handle (pointer events, so a finger works as well as a mouse) or moved one step with the
// up/down buttons; each change goes to the server at once. Afterwards the order is locked.
import { Link } from '@tanstack/react-router';
import { useEffect, useReducer, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import type { Stage } from '../../../contract/funnels';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon, GripIcon } from '@/ui/glyphs';
import { initialReorder, reorderReducer } from './reorder';
import { StageBadge } from './StageIcon';

export function StageList({
  funnelId,
  stages,
  locked,
  onReorder,
}: {
  funnelId: number;
  stages: Stage[];
  locked: boolean;
  /** Saves the order; resolves false when the server refused it (the list then goes back). */
  onReorder: (stageIds: number[]) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const serverOrder = stages.map((s) => s.id);
  const serverKey = serverOrder.join(',');
  const [state, dispatch] = useReducer(reorderReducer, serverOrder, initialReorder);
  const rows = useRef(new Map<number, HTMLLIElement>());
  const slots = useRef<number[]>([]);
  const draggedHeight = useRef(0);

  useEffect(() => {
    dispatch({ type: 'reset', order: serverKey ? serverKey.split(',').map(Number) : [] });
  }, [serverKey]);

  // A new committed order (a drop or a button) is saved; a refusal puts the server's back.
  const saving = useRef<string | null>(null);
  useEffect(() => {
    const key = state.committed.join(',');
    if (state.dragging || key === serverKey || saving.current === key) return;
    saving.current = key;
    void onReorder(state.committed).then((ok) => {
      saving.current = null;
      if (!ok) dispatch({ type: 'reset', order: serverKey.split(',').map(Number) });
    });
  }, [state.committed, state.dragging, serverKey, onReorder]);

  const byId = new Map(stages.map((s) => [s.id, s]));
  const committed = state.committed.filter((id) => byId.has(id));

  function startDrag(event: ReactPointerEvent<HTMLElement>, id: number) {
    if (locked || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    slots.current = committed.map((stageId) => {
      const rect = rows.current.get(stageId)?.getBoundingClientRect();
      return rect ? rect.top + rect.height / 2 : 0;
    });
    draggedHeight.current = rows.current.get(id)?.getBoundingClientRect().height ?? 0;
    dispatch({ type: 'start', id, y: event.clientY });
  }

  const dragging = state.dragging;
  return (
    <ol className={`stage-list${dragging ? ' stage-list--dragging' : ''}`} data-testid="stage-list">
      {committed.map((id, index) => {
        const stage = byId.get(id)!;
        const shownAt = state.order.indexOf(id);
        const isDragged = dragging?.id === id;
        const offset = isDragged ? dragging.offsetY : (shownAt - index) * draggedHeight.current;
        return (
          <li
            key={id}
            ref={(node) => {
              if (node) rows.current.set(id, node);
              else rows.current.delete(id);
            }}
            className={`stage-row${isDragged ? ' stage-row--dragged' : ''}`}
            style={offset ? { transform: `translateY(${offset}px)` } : undefined}
            data-testid="stage-row"
          >
            {locked ? null : (
              <span
                className="stage-handle"
                role="presentation"
                title={t('funnels.stages.dragHint')}
                onPointerDown={(event) => startDrag(event, id)}
                onPointerMove={(event) => dragging && dispatch({ type: 'move', y: event.clientY, slots: slots.current })}
                onPointerUp={() => dispatch({ type: 'drop' })}
                onPointerCancel={() => dispatch({ type: 'cancel' })}
                data-testid="stage-handle"
              >
                <GripIcon />
              </span>
            )}
            <Link
              to="/content/funnels/$funnelId/stages/$stageId/"
              params={{ funnelId: String(funnelId), stageId: String(id) }}
              className="stage-row-link"
              draggable={false}
            >
              <span className="stage-position" aria-hidden="true">
                {index + 1}
              </span>
              <StageBadge icon={stage.icon} color={stage.color} />
              <span className="stage-row-body">
                <span className="stage-row-title">{stage.title}</span>
                <span className="stage-row-meta">{stage.message.text || stage.message.media ? t('funnels.stages.hasMessage') : t('funnels.stages.noMessage')}</span>
              </span>
              <span className="stage-people" data-testid="stage-people" aria-label={t('funnels.list.people', { count: stage.people_count })}>
                {stage.people_count}
              </span>
            </Link>
            {locked ? null : (
              <span className="stage-move">
                <button
                  type="button"
                  className="icon-button"
                  disabled={index === 0}
                  aria-label={t('funnels.stages.moveUp', { title: stage.title })}
                  onClick={() => dispatch({ type: 'moveBy', id, delta: -1 })}
                >
                  <ArrowUpIcon />
                </button>
                <button
                  type="button"
                  className="icon-button"
                  disabled={index === committed.length - 1}
                  aria-label={t('funnels.stages.moveDown', { title: stage.title })}
                  onClick={() => dispatch({ type: 'moveBy', id, delta: 1 })}
                >
                  <ArrowDownIcon />
                </button>
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

