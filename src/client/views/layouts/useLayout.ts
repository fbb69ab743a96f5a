import { useLocation } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import type { SavedView } from '../useSavedView';
import { isKanbanField } from './kanbanColumns';

/** A list's layout other than the grid, with the field it is laid out by. */
export type ListLayout = { kind: 'kanban' | 'map'; field: FieldDescriptor };

/**
 * Whether a field can lay a list out as the layout: a board by one choice or relation, a map by a geo point or by
 * addresses (the first address's coordinates).
 */
const FITS: Record<ListLayout['kind'], (field: FieldDescriptor) => boolean> = {
  kanban: isKanbanField,
  map: (field) => field.type === 'geo-point' || field.type === 'addresses',
};

/**
 * The layout a list shows: the URL's (`?layout=kanban&by=<field>`, `?layout=map`, so a layout can be opened and kept
 * as a link), else the saved view's (`layout` with `settings.field`). Null: the grid. A map without a field is by the
 * type's first geo point or addresses field. A field that is gone or cannot lay out the layout gives the grid.
 */
export function useListLayout(view: SavedView | undefined, descriptors: FieldDescriptor[]): ListLayout | null {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const kind = params.get('layout') ?? view?.layout;
  const by = params.get('by') ?? (typeof view?.settings?.field === 'string' ? view.settings.field : null);
  if (kind !== 'kanban' && kind !== 'map') return null;
  const fits = FITS[kind];
  const field = by ? descriptors.find((descriptor) => descriptor.slug === by) : descriptors.find(fits);
  return field && fits(field) ? { kind, field } : null;
}
