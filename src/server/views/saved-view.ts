import type { AuthUser } from '../auth/auth-user.js';
import { parseFilterTree } from '../filters/filter-tree.js';
import { fieldError, HttpError, notFound } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';

/**
 * A list query with its saved view applied (`view=<id>` on a list, count or export of `def`): the view's filters,
 * and besides them the query's own `filters=` (both hold), and the view's sorts unless the query sorts. The
 * view is read as the person (404 when they may not read it); its records are then read with their own access, so
 * a shared view never shows anyone more than they may see.
 */
export async function withSavedView(
  records: RecordService,
  user: AuthUser | null,
  def: ResourceDefinition,
  raw: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { view: viewParam, ...query } = raw;
  if (viewParam === undefined || viewParam === '') return raw;
  const id = Number(viewParam);
  if (!Number.isInteger(id) || id < 1) throw fieldError('view', 'The view must be the id of a saved view.');
  const views = records.targetOf({ table: 'views' });
  if (!views) throw notFound('There are no saved views.');
  let view: { name?: unknown; record_type?: unknown; filters?: unknown; sorts?: unknown };
  try {
    view = await records.show(user, views, id);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) throw notFound(`No view has the id ${id}.`);
    throw error;
  }
  if (view.record_type !== def.type)
    throw fieldError(
      'view',
      `The view "${String(view.name)}" shows ${String(view.record_type)} records, not ${def.type} records.`,
    );
  const own = query.filters !== undefined && query.filters !== '' ? parseFilterTree(query.filters) : null;
  const saved = view.filters ? parseFilterTree(view.filters) : null;
  const filters = saved && own ? { all: [saved, own] } : (saved ?? own);
  if (filters) query.filters = JSON.stringify(filters);
  const sorts = ((view.sorts as unknown[] | null) ?? []) as Array<{ field: string; order: 'asc' | 'desc' }>;
  if (sorts.length && query.sort === undefined) {
    query.sort = sorts.map(({ field, order }) => (order === 'desc' ? `-${field}` : field)).join(',');
    delete query.order;
  }
  return query;
}
