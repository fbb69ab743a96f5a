/**
 * What a list shows compared with its open saved view (docs/views.md "Changing a view"): filters added on the list,
 * a sort of its own, another layout or grouping in the URL, or columns resized, moved or hidden (useViewColumns.tsx).
 * Gives the whole of what it shows (for "Save as view"/"Save as new") and only what changed (to save over the view).
 */
import { useListContext } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { FieldDescriptor } from '../records/fieldTypes';
import { GROUP_PARAM, groupSlugOf } from './grouping';
import { useLayoutToSave } from './layouts/useLayout';
import { sortsOf } from './listSorts';
import type { SavedView } from './useSavedView';
import { useViewColumns } from './useViewColumns';
import { andFilters, listViewFilters } from './viewFilters';

export type ViewChange = 'filters' | 'sorts' | 'layout' | 'grouping' | 'columns';

export function useViewDraft(
  resource: string,
  view: SavedView | undefined,
  descriptors: FieldDescriptor[],
  fields: ReadonlySet<string>,
) {
  const { filterValues, sort } = useListContext();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const layout = useLayoutToSave();
  const columns = useViewColumns(view, resource, descriptors);
  const added = listViewFilters(filterValues ?? {}, fields);
  const group = groupSlugOf(params, view);
  const whole = {
    filters: andFilters(view?.filters, added),
    sorts: sort?.field ? sortsOf(sort) : (view?.sorts ?? []),
    columns: columns.columns,
    group_by: group,
    ...layout,
  };
  const changes: ViewChange[] = [];
  if (view) {
    if (added) changes.push('filters');
    if (sort?.field) changes.push('sorts');
    const savedLayout = JSON.stringify([view.layout ?? 'grid', view.settings ?? {}]);
    if (params.has('layout') && JSON.stringify([layout.layout, layout.settings]) !== savedLayout)
      changes.push('layout');
    if (params.has(GROUP_PARAM) && group !== (view.group_by ?? null)) changes.push('grouping');
    if (columns.changed) changes.push('columns');
  }
  /** Only what changed, so that what the view keeps is not checked again (a deleted field still opens). */
  const update: Record<string, unknown> = {};
  if (changes.includes('filters')) update.filters = whole.filters;
  if (changes.includes('sorts')) update.sorts = whole.sorts;
  if (changes.includes('layout')) Object.assign(update, layout);
  if (changes.includes('grouping')) update.group_by = group;
  if (changes.includes('columns')) update.columns = whole.columns;
  return { changes, whole, update, resetColumns: columns.reset };
}
