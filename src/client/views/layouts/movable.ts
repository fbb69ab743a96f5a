/**
 * What the kanban's cards and the calendar's events share to be moved: dnd-kit's sensors (a drag starts after 6 px,
 * so a click still opens; Space and the arrows drag by keyboard), a draggable item whose Ctrl+arrow keys move it at
 * once (the layout says where to), its look while dragged, and the moves waiting for the server's answer.
 */
import { KeyboardSensor, PointerSensor, useDraggable, useSensor, useSensors } from '@dnd-kit/core';
import type { KeyboardEvent } from 'react';
import { useCallback, useState } from 'react';

export function useMoveSensors() {
  return useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor));
}

/** The look of every movable item at rest. */
export const MOVABLE_SX = { cursor: 'grab', touchAction: 'manipulation' } as const;

/**
 * A draggable item: `ref`, the props to spread on it and its style. `onCtrlArrow` gets the arrow key pressed with
 * Ctrl (or ⌘), and whether Shift was held too, and answers whether it moved the item; other keys go to dnd-kit.
 */
export function useMovable(
  id: string,
  data: Record<string, unknown>,
  onCtrlArrow: (key: string, shift: boolean) => boolean,
) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id, data });
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.startsWith('Arrow') && onCtrlArrow(event.key, event.shiftKey)) {
      event.preventDefault();
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  return {
    ref: setNodeRef,
    props: {
      ...attributes,
      ...listeners,
      onKeyDown,
      // Inline, so a drag restyles one element and the many items at rest share one class (MOVABLE_SX).
      style: {
        opacity: isDragging ? 0.6 : undefined,
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        position: isDragging ? 'relative' : undefined,
        zIndex: isDragging ? 10 : undefined,
      },
    },
    sx: MOVABLE_SX,
  } as const;
}

/** Items moved on screen whose write is not answered yet, by id, with where they are shown meanwhile. */
export function usePendingMoves<Id, Move>() {
  const [pending, setPending] = useState<ReadonlyMap<Id, Move>>(new Map());
  const begin = useCallback((id: Id, move: Move) => setPending((current) => new Map(current).set(id, move)), []);
  const end = useCallback(
    (id: Id) =>
      setPending((current) => {
        const next = new Map(current);
        next.delete(id);
        return next;
      }),
    [],
  );
  return { pending, begin, end };
}
