import { useGetOne } from 'react-admin';
import { useLocation } from 'react-router-dom';

/** A saved view as GET /api/views/{id} answers it (docs/views.md). */
export interface SavedView {
  id: number;
  name: string;
  record_type: string;
  filters: unknown;
  sorts?: Array<{ field: string; order: 'asc' | 'desc' }> | null;
  /** The visible columns in order, with their widths (viewColumns.ts). */
  columns?: unknown;
  /** The field the grid groups by (grouping.ts). */
  group_by?: string | null;
  /** grid, kanban, calendar, gallery or map (layouts/useLayout.ts). */
  layout?: string;
  /** The layout's own settings (a kanban's `field`). */
  settings?: Record<string, unknown> | null;
  user_id: number | null;
  role_ids: number[];
  team_ids: number[];
  /** The roles whose default view of the type it is (useDefaultView.ts). */
  default_role_ids?: number[];
  shared: boolean;
  url: string | null;
}

/** The id of the view the list's URL names (`?view=12`), or null. */
export function useViewParam(): number | null {
  const { search } = useLocation();
  const raw = new URLSearchParams(search).get('view');
  const id = raw ? Number(raw) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The view the list's URL names, read as the person (a view they may not read is an error, shown by the list). */
export function useSavedView() {
  const id = useViewParam();
  const { data, error } = useGetOne<SavedView>('views', { id: id ?? 0 }, { enabled: id !== null });
  return { id, view: id !== null ? data : undefined, error };
}
