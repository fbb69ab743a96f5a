/**
 * The field a list's grid is grouped by: the URL's (`?group=<field>`, `group=` for none over a view's grouping), else
 * the open view's `group_by`. A list groups by one value of a choice (a status), a related record (a person) or a
 * yes/no field; the server counts and sums each group (GET /api/records/{resource}/groups, docs/views.md).
 */
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import type { FieldDescriptor } from '../records/fieldTypes';
import type { SavedView } from './useSavedView';

export const GROUP_PARAM = 'group';

export const isGroupField = (descriptor: FieldDescriptor) =>
  !descriptor.multiple &&
  !descriptor.computed &&
  (descriptor.choices.length > 0 || descriptor.reference?.value === 'id' || descriptor.type === 'boolean');

/** The grouping the list shows, as the field's slug (null: none); the URL's over the view's. */
export function groupSlugOf(params: URLSearchParams, view: SavedView | undefined): string | null {
  if (params.has(GROUP_PARAM)) return params.get(GROUP_PARAM) || null;
  return view?.group_by ?? null;
}

export function useListGrouping(view: SavedView | undefined, descriptors: FieldDescriptor[]): FieldDescriptor | null {
  const { search } = useLocation();
  const slug = groupSlugOf(new URLSearchParams(search), view);
  return useMemo(
    () =>
      slug ? (descriptors.find((descriptor) => descriptor.slug === slug && isGroupField(descriptor)) ?? null) : null,
    [slug, descriptors],
  );
}
