import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { rowWith } from '../http/contracts.js';
import { filtersQuery } from '../reports/scope.js';
import { personFigures, resolveScope, siteFigures } from './figures.js';

const monthShape = {
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month must look like 2026-11.')
    .optional(),
};

/**
 * The dashboard's figures (docs/reports.md "Dashboard"):
 * - GET /api/dashboard/statistics: the person figures; without parameters it is the sidebar's cheap reload
 *   (`tasks_open`, `notifications_unread`) made on every route change.
 * - GET /api/dashboard/data: the site figures and the latest imports.
 * - GET /api/profile/statistics: the person's own figures for a month (default this one) against their goals.
 * All take `from`, `to` (YYYY-MM-DD), `region_id`, `team_id`, `user_id`.
 */
/** The figures of a dashboard (dashboard/figures.ts): each a number, null when the person may not read it. */
const figures = z.object({ data: rowWith({}) });

export function registerDashboardRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Anyone signed in: each figure counts only what the person may read (figures.ts).
  const signedIn = { permission: 'signed-in' } as const;
  const filtered = { querystring: filtersQuery({}), response: { 200: figures } };

  app.get('/api/dashboard/statistics', { schema: filtered, config: signedIn }, async (request) => {
    const user = request.user!;
    return { data: await personFigures(ctx, user, await resolveScope(ctx, user, request.query)) };
  });

  app.get('/api/dashboard/data', { schema: filtered, config: signedIn }, async (request) => {
    const user = request.user!;
    return { data: await siteFigures(ctx, user, await resolveScope(ctx, user, request.query)) };
  });

  app.get(
    '/api/profile/statistics',
    { schema: { querystring: filtersQuery(monthShape), response: { 200: figures } }, config: signedIn },
    async (request) => {
      const user = request.user!;
      const params = request.query;
      let { from, to } = params;
      if (params.month) {
        const [y, m] = params.month.split('-').map(Number);
        from = `${params.month}-01`;
        to = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      }
      return { data: await personFigures(ctx, user, await resolveScope(ctx, user, { from, to })) };
    },
  );
}
