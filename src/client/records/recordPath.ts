/** Where a record opens: its show page, or its edit page (the first column of lists whose rows open the form). */
export type RecordPage = 'show' | 'edit';

/** The path that opens a record (its show or edit page). */
export const recordPath = (resource: string, id: unknown, page: RecordPage = 'show') =>
  `/${resource}/${encodeURIComponent(String(id))}${page === 'show' ? '/show' : ''}`;
