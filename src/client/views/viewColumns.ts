/**
 * A saved view's `columns` (its visible columns in order, with their widths: `[{field, width?}]`, views-resource.ts)
 * and the grid's column preferences (records/grid/preferences.ts) as each other.
 */
import { type GridPreferences, shownColumns } from '../records/grid/preferences';

export interface ViewColumn {
  field: string;
  width?: number;
}

/** The server keeps widths between these (views-resource.ts viewColumns). */
const MIN_WIDTH = 20;
const MAX_WIDTH = 2000;

export function preferencesOfColumns(columns: readonly ViewColumn[]): GridPreferences {
  const fields = columns.map((column) => column.field);
  const widths = Object.fromEntries(
    columns.flatMap((column) => (typeof column.width === 'number' ? [[column.field, column.width]] : [])),
  );
  return { visible: fields, order: fields, ...(Object.keys(widths).length ? { widths } : {}) };
}

/** The columns a grid with these preferences shows, in order, with the widths the person gave them. */
export function columnsOfPreferences(
  fields: readonly string[],
  defaults: readonly string[],
  preferences: GridPreferences,
): ViewColumn[] {
  return shownColumns(fields, defaults, preferences).map((field) => {
    const width = preferences.widths?.[field];
    return typeof width === 'number'
      ? { field, width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(width))) }
      : { field };
  });
}

export const sameColumns = (a: readonly ViewColumn[], b: readonly ViewColumn[]) =>
  a.length === b.length &&
  a.every((column, index) => column.field === b[index].field && column.width === b[index].width);

/** A view's saved `columns`, when it has any. */
export function savedColumnsOf(columns: unknown): ViewColumn[] | null {
  if (!Array.isArray(columns) || columns.length === 0) return null;
  return columns.filter(
    (column): column is ViewColumn => typeof column === 'object' && column !== null && typeof column.field === 'string',
  );
}
