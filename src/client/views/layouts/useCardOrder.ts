/**
 * Reordering a kanban's cards within their column by its order field (kanbanOrder.ts says which values to write).
 * The column shows the new order at once; the values are written one by one through the data provider's update (the
 * record service's rules and validation apply to each); a refused write says the server's reason, and the column
 * reads its cards again, so they go back to the order the server keeps.
 */
import { useCallback, useMemo, useRef } from 'react';
import { useNotify } from 'react-admin';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { useAppDataProvider } from '../../records/hooks';
import { useInvalidateResource } from '../../records/mutations';
import { recordLabel } from '../../records/schema';
import type { CardRecord } from './kanbanColumns';
import { ranksAfterMove } from './kanbanOrder';
import { usePendingMoves } from './movable';

const rankOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function useCardOrder(resource: string, rank: FieldDescriptor | null) {
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const invalidate = useInvalidateResource();
  const { pending, begin, end } = usePendingMoves<string, ReadonlyArray<CardRecord['id']>>();
  /** Each column's cards as last shown, in order. */
  const shownCards = useRef(new Map<string, CardRecord[]>());

  const setShown = useCallback((key: string, cards: CardRecord[]) => {
    shownCards.current.set(key, cards);
  }, []);
  const shown = useCallback((key: string) => shownCards.current.get(key) ?? [], []);

  const reorder = useCallback(
    async (key: string, record: CardRecord, to: number) => {
      const cards = shownCards.current.get(key) ?? [];
      if (!rank || to < 0 || to >= cards.length) return;
      const writes = ranksAfterMove(
        cards.map((card) => ({ id: card.id, rank: rankOf(card[rank.slug]) })),
        record.id,
        to,
        rank.step,
      );
      if (!writes.length) return;
      const others = cards.filter((card) => card.id !== record.id);
      begin(
        key,
        [...others.slice(0, to), record, ...others.slice(to)].map((card) => card.id),
      );
      const byId = new Map(cards.map((card) => [card.id, card]));
      try {
        for (const write of writes)
          await dataProvider.update(resource, {
            id: write.id,
            data: { [rank.slug]: write.rank },
            previousData: byId.get(write.id),
          });
        notify(`${recordLabel(record) || `#${record.id}`} moved to place ${to + 1}.`, { type: 'success' });
      } catch (error) {
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
      await invalidate(resource);
      end(key);
    },
    [rank, resource, dataProvider, notify, invalidate, begin, end],
  );

  return useMemo(() => ({ pending, reorder, setShown, shown }), [pending, reorder, setShown, shown]);
}
