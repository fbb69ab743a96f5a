/**
 * An open view's columns: the view's own (`columns`) when it has them, else the person's; resizing, moving or hiding a
 * column changes a draft kept in this browser (react-admin's store, per view), not the view, and marks the view
 * changed until it is saved or reset (ViewBar.tsx).
 */
import { type ReactNode, useCallback, useMemo } from 'react';
import { useStore } from 'react-admin';
import { defaultColumns, type FieldDescriptor } from '../records/fieldTypes';
import { ColumnsOverrideContext, type GridPreferences, usePersonGridPreferences } from '../records/grid/preferences';
import type { SavedView } from './useSavedView';
import { columnsOfPreferences, preferencesOfColumns, sameColumns, savedColumnsOf } from './viewColumns';

export function useViewColumns(view: SavedView | undefined, resource: string, descriptors: FieldDescriptor[]) {
  const [person] = usePersonGridPreferences(resource);
  const [draft, setDraft] = useStore<GridPreferences | null>(`view-columns.${view?.id ?? 0}`, null);
  const fields = useMemo(() => descriptors.map((descriptor) => descriptor.slug), [descriptors]);
  const defaults = useMemo(() => defaultColumns(descriptors), [descriptors]);
  const viewColumns = view?.columns;
  const saved = useMemo(() => {
    const savedColumns = savedColumnsOf(viewColumns);
    return savedColumns ? preferencesOfColumns(savedColumns) : person;
  }, [viewColumns, person]);
  const preferences = view && draft ? draft : saved;
  const columns = useMemo(() => columnsOfPreferences(fields, defaults, preferences), [fields, defaults, preferences]);
  const changed = Boolean(view && draft) && !sameColumns(columns, columnsOfPreferences(fields, defaults, saved));
  const set = useCallback((next: GridPreferences | undefined) => setDraft(next ?? null), [setDraft]);
  const reset = useCallback(() => setDraft(null), [setDraft]);
  return { preferences, columns, changed, set, reset };
}

/** Gives the list's grid (and its export and "Reset columns") the open view's columns. */
export function ViewColumnsProvider({
  view,
  resource,
  descriptors,
  children,
}: {
  view: SavedView | undefined;
  resource: string;
  descriptors: FieldDescriptor[];
  children: ReactNode;
}) {
  const { preferences, set } = useViewColumns(view, resource, descriptors);
  const value = useMemo(() => ({ listKey: resource, preferences, set }), [resource, preferences, set]);
  if (!view) return <>{children}</>;
  return <ColumnsOverrideContext.Provider value={value}>{children}</ColumnsOverrideContext.Provider>;
}
