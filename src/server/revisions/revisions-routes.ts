import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { pageMeta, timestamp } from '../http/contracts.js';
import { historyQuery, revisionHistory } from './history.js';

const revision = z.object({
  id: z.number().int(),
  revisionable_type: z.string(),
  revisionable_id: z.number().int(),
  action: z.string(),
  user_id: z.number().int().nullable(),
  /** Each changed field's [before, after]. */
  changes: z.record(z.string(), z.unknown()).nullable(),
  import_id: z.number().int().nullable(),
  via: z.string().nullable(),
  created_at: timestamp,
  user_name: z.string().nullable(),
});

/** GET /api/revisions: the history (revisions/history.ts). */
export function registerRevisionRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/revisions',
    {
      schema: { querystring: historyQuery, response: { 200: z.object({ data: z.array(revision), meta: pageMeta }) } },
      config: { permission: 'revision:read' },
    },
    async (request) => revisionHistory(ctx, request.user!, request.query),
  );
}
