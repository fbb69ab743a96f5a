/**
 * Reordering a kanban column (docs/views.md "Kanban"): the values of its order field written to show a card where it
 * was dropped: one value between its neighbours when there is room, else the fewest cards after (or, for cards without
 * a value, before) it renumbered; nothing when it stays. And the order field a URL or a view names.
 */
import { describe, expect, it } from 'vitest';
import type { FieldDescriptor } from '../../../src/client/records/fieldTypes';
import { type RankedCard, ranksAfterMove } from '../../../src/client/views/layouts/kanbanOrder';
import { layoutOf } from '../../../src/client/views/layouts/useLayout';
import type { SavedView } from '../../../src/client/views/useSavedView';

const cards = (...ranks: Array<number | null>): RankedCard[] => ranks.map((rank, index) => ({ id: index + 1, rank }));

/** The column's ranks in its new order, after the writes. */
function reordered(column: RankedCard[], id: number, to: number, step?: number) {
  const writes = ranksAfterMove(column, id, to, step);
  const ranks = new Map(column.map((card) => [card.id, card.rank]));
  for (const write of writes) ranks.set(write.id, write.rank);
  const ordered = [...ranks].sort(
    ([a, x], [b, y]) => (x ?? Number.POSITIVE_INFINITY) - (y ?? Number.POSITIVE_INFINITY) || Number(a) - Number(b),
  );
  return { writes, order: ordered.map(([cardId]) => cardId) };
}

describe('a card moved within its column', () => {
  it('takes a value between its new neighbours when there is room: one write', () => {
    expect(reordered(cards(10, 20, 30), 3, 1)).toEqual({ writes: [{ id: 3, rank: 15 }], order: [1, 3, 2] });
    expect(reordered(cards(1, 2, 3), 3, 1)).toEqual({ writes: [{ id: 3, rank: 1.5 }], order: [1, 3, 2] });
    expect(reordered(cards(1, 2, 3), 3, 0).writes).toEqual([{ id: 3, rank: 0 }]);
    expect(reordered(cards(1, 2, 3), 1, 2).writes).toEqual([{ id: 1, rank: 4 }]);
  });

  it('renumbers the cards after it when whole numbers leave no room, and stops at the first in order', () => {
    const moved = reordered(cards(1, 2, 3, 10), 4, 1, 1);
    expect(moved.order).toEqual([1, 4, 2, 3]);
    expect(moved.writes).toEqual([
      { id: 4, rank: 2 },
      { id: 2, rank: 3 },
      { id: 3, rank: 4 },
    ]);
    expect(reordered(cards(0, 10, 20, 30), 4, 1, 1).writes).toEqual([{ id: 4, rank: 5 }]);
    expect(reordered(cards(0, 0.5, 1), 3, 1, 0.5).order).toEqual([1, 3, 2]);
  });

  it('gives the cards without a value before it theirs, and leaves those after it without', () => {
    const moved = reordered(cards(null, null, null, null), 4, 1);
    expect(moved.writes).toEqual([
      { id: 1, rank: 1 },
      { id: 4, rank: 2 },
    ]);
    expect(moved.order).toEqual([1, 4, 2, 3]);
    expect(reordered(cards(5, null, null), 3, 1).order).toEqual([1, 3, 2]);
  });

  it('writes nothing when the card stays where it is or is not in the column', () => {
    expect(ranksAfterMove(cards(1, 2, 3), 2, 1, undefined)).toEqual([]);
    expect(ranksAfterMove(cards(1, 2, 3), 9, 0, undefined)).toEqual([]);
  });

  it('keeps any order the shown cards can be put in', () => {
    for (const start of [cards(1, 2, 3, 4, 5), cards(1, 1, 1, null, null), cards(null, null, null, null, null)])
      for (let id = 1; id <= 5; id++)
        for (let to = 0; to < 5; to++) {
          const expected = start.map((card) => card.id).filter((cardId) => cardId !== id);
          expected.splice(to, 0, id);
          expect(reordered(start, id, to, 1).order).toEqual(expected);
        }
  });
});

describe("a kanban's order field", () => {
  const field = (slug: string, type: string, extra: Partial<FieldDescriptor> = {}) =>
    ({
      slug,
      label: slug,
      type,
      readOnly: false,
      multiple: false,
      choices: [],
      sortable: true,
      ...extra,
    }) as FieldDescriptor;
  const fields = [
    field('stage', 'dropdown', { choices: [{ id: 'lead', name: 'Lead' }] }),
    field('position', 'number'),
    field('score', 'number', { readOnly: true }),
  ];
  it('comes from the URL or the view, and only a number the person may change', () => {
    expect(layoutOf(new URLSearchParams('layout=kanban&by=stage&rank=position'), undefined, fields)?.rank?.slug).toBe(
      'position',
    );
    expect(layoutOf(new URLSearchParams('layout=kanban&rank=score'), undefined, fields)?.rank).toBeNull();
    const view = { id: 1, layout: 'kanban', settings: { field: 'stage', rank: 'position' } } as unknown as SavedView;
    expect(layoutOf(new URLSearchParams(''), view, fields)?.rank?.slug).toBe('position');
  });
});
