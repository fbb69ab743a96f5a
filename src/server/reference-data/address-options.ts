import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { notFound } from '../http/errors.js';
import { escapeLike } from '../records/list-query.js';
import { knownRelationTargets } from '../schemas/schema-files.js';

const MAX_OPTIONS = 500;

/**
 * The options lists of the text relation targets (fields with a `text_target` in their schema file: the site
 * address parts): GET /api/options/site-cities?q= (and site-streets, site-counties, site-states,
 * site-postal-codes) answers `{data: [{id: value, name: value}]}`, the distinct values among the records the
 * person may read.
 */
export function registerAddressOptions(app: FastifyInstance, ctx: AppContext) {
  for (const target of Object.values(knownRelationTargets())) {
    if (target.value !== 'text' || !target.field) continue;
    const column = target.field;
    app.get<{ Querystring: { q?: string } }>(
      `/api/options/${target.options}`,
      { config: { permission: { resource: target.resource, action: 'read' } } },
      async (request) => {
        const def = ctx.resources.byType(target.type);
        if (!def) throw notFound(`There are no options for "${target.options}".`);
        ctx.records.authorize(request.user, def, 'read');
        const q = typeof request.query.q === 'string' ? request.query.q.slice(0, 100) : '';
        const value = sql.ref(`t.${column}`);
        let query = (await ctx.records.visibleRows(ctx.db, def, request.user))
          .select(sql<string>`distinct ${value}`.as('value'))
          .where(value, 'is not', null)
          .where(value, '!=', '');
        if (q) query = query.where(sql<boolean>`${value} ilike ${`%${escapeLike(q)}%`}`);
        const rows = await query.orderBy('value').limit(MAX_OPTIONS).execute();
        return { data: rows.map((row) => ({ id: row.value, name: row.value })) };
      },
    );
  }
}
