/** GET /api/exports/download URL for a list's state: the same filter/sort parameters the dataProvider sends for the list. */
export function exportUrl(
  resource: string,
  state: {
    filter?: Record<string, unknown>;
    sort?: { field: string; order: string };
    columns?: readonly string[];
    background?: boolean;
    /** A saved view's id (`view=`): its filters and sort, with the list's own. */
    view?: number | null;
  },
): string {
  const params = new URLSearchParams({ resource });
  const { q, ...filter } = state.filter ?? {};
  if (typeof q === 'string' && q.trim()) params.set('search', q.trim());
  if (Object.keys(filter).length) params.set('filter', JSON.stringify(filter));
  if (state.sort?.field) {
    params.set('sort', state.sort.field);
    params.set('order', String(state.sort.order).toLowerCase() === 'desc' ? 'desc' : 'asc');
  }
  if (state.columns?.length) params.set('columns', state.columns.join(','));
  if (state.background) params.set('background', '1');
  if (state.view) params.set('view', String(state.view));
  return `/api/exports/download?${params.toString()}`;
}
