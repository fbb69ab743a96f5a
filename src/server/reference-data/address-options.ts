import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { escapeLike } from '../records/list-query.js';
import { sitesResource } from '../sites/sites-resource.js';

/** Options lists of the site address parts (relation fields with target site-city, ...): their distinct values. */
const PARTS: Record<string, string> = {
  'site-streets': 'street',
  'site-cities': 'city',
  'site-counties': 'county',
  'site-states': 'state',
  'site-postal-codes': 'postal_code',
};
const MAX_OPTIONS = 500;

/**
 * GET /api/options/site-cities?q= (and site-streets, site-counties, site-states, site-postal-codes):
 * `{data: [{id: value, name: value}]}`, the distinct values among the sites the person may read.
 */
export function registerAddressOptions(app: FastifyInstance, ctx: AppContext) {
  for (const [name, column] of Object.entries(PARTS)) {
    app.get<{ Querystring: { q?: string } }>(`/api/options/${name}`, { config: { permission: { resource: 'sites', action: 'read' } } }, async (request) => {
      const sites = ctx.resources.get('sites') ?? sitesResource;
      ctx.records.authorize(request.user, sites, 'read');
      const q = typeof request.query.q === 'string' ? request.query.q.slice(0, 100) : '';
      const value = sql.ref(`t.${column}`);
      let query = ctx.records.visibleRows(ctx.db, sites, request.user).select(sql<string>`distinct ${value}`.as('value')).where(value, 'is not', null).where(value, '!=', '');
      if (q) query = query.where(sql<boolean>`${value} ilike ${`%${escapeLike(q)}%`}`);
      const rows = await query.orderBy('value').limit(MAX_OPTIONS).execute();
      return { data: rows.map((row) => ({ id: row.value, name: row.value })) };
    });
  }
}
