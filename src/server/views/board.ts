import type { AuthUser } from '../auth/auth-user.js';
import { ValidationError } from '../http/errors.js';
import { resolveField } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';

/** A column's value: a choice's key, a related record's id, or null for the records without one. */
export type BoardValue = string | number | null;

export interface BoardColumn {
  value: BoardValue;
  /** How many records the list finds in this column. */
  total: number;
  /** Its first page, as the list presents records. */
  data: Array<Record<string, unknown>>;
}

/** Cards a column holds at first unless the request says otherwise (the kanban's first page). */
export const BOARD_PAGE = 50;

/**
 * A kanban's first page of every column at once (docs/views.md "Kanban"): for each value of `values`, the list query
 * `rawQuery` (its filters, saved view, search and sort) with the column's own condition added (`filter[by]=value`,
 * `filter[by_null]` for the column without one), read by the record service's list as that person, so the access
 * rules, the filter compiler and the presentation are the list's. 422 on `by` for a field the person may not filter by.
 */
export async function readBoard(
  records: RecordService,
  user: AuthUser | null,
  def: ResourceDefinition,
  rawQuery: Record<string, unknown>,
  by: string,
  values: readonly BoardValue[],
): Promise<BoardColumn[]> {
  try {
    resolveField(by, await records.visibleFields(user, def), 'filter');
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError({ by: Object.values(error.errors).flat() });
    throw error;
  }
  const { cursor: _cursor, ...query } = rawQuery;
  const page = { page: '1', per_page: String(rawQuery.per_page ?? BOARD_PAGE) };
  return Promise.all(
    values.map(async (value) => {
      const column = value === null ? { [`filter[${by}_null]`]: true } : { [`filter[${by}]`]: value };
      const list = await records.list(user, def, { ...query, ...page, ...column });
      return { value, total: list.meta.total, data: list.data };
    }),
  );
}
