import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { parseFilters } from '../reports/scope.js';
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
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext) {
  // Anyone signed in: each figure counts only what the person may read (figures.ts).
  const signedIn = { config: { permission: 'signed-in' } } as const;
  app.get('/api/dashboard/statistics', signedIn, async (request) => {
    const user = request.user!;
    const params = parseFilters({}, request.query);
    return { data: await personFigures(ctx, user, await resolveScope(ctx, user, params)) };
  });

  app.get('/api/dashboard/data', signedIn, async (request) => {
    const user = request.user!;
    const params = parseFilters({}, request.query);
    const scope = await resolveScope(ctx, user, params);
    return { data: await siteFigures(ctx, user, scope) };
  });

  app.get('/api/profile/statistics', signedIn, async (request) => {
    const user = request.user!;
    const params = parseFilters(monthShape, request.query);
    let { from, to } = params;
    if (params.month) {
      const [y, m] = params.month.split('-').map(Number);
      from = `${params.month}-01`;
      to = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    }
    return { data: await personFigures(ctx, user, await resolveScope(ctx, user, { from, to })) };
  });
}
