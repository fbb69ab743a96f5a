import { sql } from 'kysely';
import { z } from 'zod';
import { canAny } from '../../common/permissions.js';
import type { Feature } from '../app-context.js';
import { forbidden } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { escapeLike } from '../records/list-query.js';
import { hiddenPeopleCondition } from '../reports/people.js';

/** Who may name someone to do a piece of work: whoever adds tasks or logs conversations (their next steps). */
export const ASSIGNING_PERMISSIONS = ['task:create', 'task:update', 'conversation:create'] as const;

const query = z
  .object({
    q: z.string().max(100).optional(),
    ids: z.union([z.coerce.number().int().min(1), z.array(z.coerce.number().int().min(1)).max(100)]).optional(),
  })
  .strip();

/**
 * GET /api/assignees?q=&ids=: the people a task or a conversation's next step can be given to, `{data: [{id, name}]}`
 * by name, at most 50. Names only: an organizer assigns a colleague without reading the users' records
 * (`user:read`); people of incognito roles are listed only for those who see them (reports/people.ts).
 */
export const assigneesFeature: Feature = {
  plugin: async (app, { ctx }) => {
    app.get('/api/assignees', { config: { permission: { anyOf: ASSIGNING_PERMISSIONS } } }, async (request) => {
      const user = request.user!;
      if (!canAny(user, [...ASSIGNING_PERMISSIONS])) throw forbidden('You cannot give work to anyone.');
      const params = parseBody(query, request.query);
      const ids = params.ids === undefined ? [] : Array.isArray(params.ids) ? params.ids : [params.ids];
      const name = sql<string>`trim(u.first_name || ' ' || u.last_name)`;
      let rows = ctx.db
        .selectFrom('users as u')
        .select(['u.id', name.as('name')])
        .where('u.deleted_at', 'is', null)
        .where(hiddenPeopleCondition(user, sql.ref('u.id')));
      if (params.q) rows = rows.where(sql<boolean>`${name} ilike ${`%${escapeLike(params.q)}%`}`);
      if (ids.length) rows = rows.where('u.id', 'in', ids);
      return { data: await rows.orderBy('u.last_name').orderBy('u.first_name').orderBy('u.id').limit(50).execute() };
    });
  },
};
