import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import { activityFeed, feedAnswer, feedQuery } from './feed.js';

/** GET /api/actions: the activity feed (activity/feed.ts, docs/reports.md "Activity"). */
export function registerActivityRoutes(app: FastifyInstance, ctx: AppContext) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/actions',
      { schema: { querystring: feedQuery, response: { 200: feedAnswer } }, config: { permission: 'signed-in' } },
      async (request) => activityFeed(ctx, request.user!, request.query),
    );
}
