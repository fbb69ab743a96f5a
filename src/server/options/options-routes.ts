import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { notFound } from '../http/errors.js';
import { escapeLike } from '../records/list-query.js';
import { labelSql } from '../records/representation.js';

const MAX_OPTIONS = 500;

/**
 * GET /api/options/{resource}?q=&ids[]=: `{data: [{id, name}]}` for pickers. The same row rules as lists apply
 * (soft deletes, category permissions); reading options needs the resource's read permission, in any category.
 */
export function registerOptionsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { resource: string }; Querystring: Record<string, unknown> }>(
    '/api/options/:resource',
    { config: { permission: { resource: ':resource', action: 'read' } } },
    async (request) => {
      const def = ctx.resources.get(request.params.resource);
      if (!def) throw notFound(`There are no options for "${request.params.resource}".`);
      ctx.records.authorize(request.user, def, 'read');
      // Only records with a name (or a label made of their columns) are picked from a list.
      const labelText = labelSql(def);
      if (!labelText) throw notFound(`There are no options for "${request.params.resource}".`);
      const label = sql.raw(labelText);
      const q = typeof request.query.q === 'string' ? request.query.q.slice(0, 100) : '';
      const rawIds = request.query['ids[]'] ?? request.query.ids;
      const ids = (Array.isArray(rawIds) ? rawIds : rawIds ? String(rawIds).split(',') : [])
        .map(Number)
        .filter(Number.isInteger)
        .slice(0, MAX_OPTIONS);
      let query = (await ctx.records.visibleRows(ctx.db, def, request.user)).select([
        't.id',
        sql<string>`${label}`.as('name'),
        ...(def.optionColumns ?? []).map((column) => `t.${column}`),
      ]);
      if (q) query = query.where(sql<boolean>`${label} ilike ${'%' + escapeLike(q) + '%'}`);
      if (ids.length) query = query.where('t.id', 'in', ids);
      const data = await query.orderBy(sql`${label}`).limit(MAX_OPTIONS).execute();
      return { data };
    },
  );
}
