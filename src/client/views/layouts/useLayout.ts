import { useLocation } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import type { SavedView } from '../useSavedView';
import { isKanbanField } from './kanbanColumns';

/** A list's layout other than the grid, with the field it is laid out by. */
export type ListLayout = { kind: 'kanban'; field: FieldDescriptor };

/**
 * The layout a list shows: the URL's (`?layout=kanban&by=<field>`, so a board can be opened and kept as a link),
 * else the saved view's (`layout` with `settings.field`). Null: the grid. A field that is gone or cannot lay out
 * a board gives the grid.
 */
export function useListLayout(view: SavedView | undefined, descriptors: FieldDescriptor[]): ListLayout | null {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const kind = params.get('layout') ?? view?.layout;
  const by = params.get('by') ?? (typeof view?.settings?.field === 'string' ? view.settings.field : null);
  if (kind !== 'kanban' || !by) return null;
  const field = descriptors.find((descriptor) => descriptor.slug === by);
  return field && isKanbanField(field) ? { kind, field } : null;
}
