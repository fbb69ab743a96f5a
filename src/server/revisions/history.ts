import { sql } from 'kysely';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import { REVISION_COLUMNS, revisionVisibility } from '../activity/visibility.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { jsonObject } from '../db/dynamic-tables.js';
import { forbidden } from '../http/errors.js';

/** GET /api/revisions: which revisions, and the page (unknown parameters are ignored). */
export const historyQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(25),
  type: z.string().max(60).optional(),
  revisionable_type: z.string().max(60).optional(),
  revisionable_id: z.coerce.number().int().min(1).optional(),
  user_id: z.coerce.number().int().min(1).optional(),
  action: z.enum(['created', 'updated', 'deleted', 'restored', 'imported']).optional(),
  import_id: z.coerce.number().int().min(1).optional(),
  from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
  to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
});

/**
 * Who changed what and when, newest first. Needs revision:read, and shows only revisions of records the person may
 * read (category permissions included) and not incognito users' actions unless allowed: the rule shared with the
 * activity feed (activity/visibility.ts).
 */
export async function revisionHistory(ctx: AppContext, user: AuthUser, params: z.infer<typeof historyQuery>) {
  if (!can(user, 'revision:read')) throw forbidden('You do not have permission to read the history.');
  let base = ctx.db.selectFrom('revisions as r').where(await revisionVisibility(ctx, user, 'r'));
  const type = params.type ?? params.revisionable_type;
  if (type) base = base.where('r.revisionable_type', '=', type);
  if (params.revisionable_id) base = base.where('r.revisionable_id', '=', params.revisionable_id);
  if (params.user_id) base = base.where('r.user_id', '=', params.user_id);
  if (params.action) base = base.where('r.action', '=', params.action);
  if (params.import_id) base = base.where('r.import_id', '=', params.import_id);
  if (params.from) base = base.where('r.created_at', '>=', new Date(params.from));
  if (params.to) base = base.where('r.created_at', '<=', new Date(params.to));
  const total = Number((await base.select(sql<number>`count(*)`.as('count')).executeTakeFirst())?.count ?? 0);
  const data = await base
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select([
      ...REVISION_COLUMNS,
      'r.via',
      'r.created_at',
      sql<string>`u.first_name || ' ' || u.last_name`.as('user_name'),
    ])
    .orderBy('r.id', 'desc')
    .limit(params.per_page)
    .offset((params.page - 1) * params.per_page)
    .execute();
  await ctx.records.access.maskRevisions(user, data);
  const from = data.length ? (params.page - 1) * params.per_page + 1 : null;
  return {
    data: data.map((row) => ({ ...row, changes: jsonObject(row.changes) })),
    meta: {
      current_page: params.page,
      from,
      to: from && from + data.length - 1,
      per_page: params.per_page,
      total,
      last_page: Math.max(1, Math.ceil(total / params.per_page)),
    },
  };
}
