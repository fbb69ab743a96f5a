import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { BackupRun, SystemStatus } from '../../common/system-status.js';
import type { AppContext } from '../app-context.js';
import { noQuery } from '../http/contracts.js';
import { forbidden } from '../http/errors.js';
import { lastRun } from './runs.js';
import { nextScheduled } from './schedule.js';

const backupRun = z.object({
  id: z.number().int(),
  trigger: z.enum(['schedule', 'manual']),
  status: z.enum(['running', 'succeeded', 'failed']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  file: z.string().nullable(),
  size_bytes: z.number().nullable(),
  file_count: z.number().int().nullable(),
  message: z.string().nullable(),
}) satisfies z.ZodType<BackupRun>;

const systemStatus = z.object({
  database: z.enum(['pglite', 'postgres']),
  files: z.enum(['folder', 's3']),
  backup: z.object({
    last: backupRun.nullable(),
    schedule: z.string().nullable().describe('BACKUP_CRON, or null: no scheduled backups.'),
    keep: z.number().int(),
    next_at: z.string().nullable(),
  }),
}) satisfies z.ZodType<SystemStatus>;

/**
 * GET /api/system/status (administrators: `feature:update`): the state of the installation an administrator
 * watches. `backup.last` is the last backup made (scheduled or by `npm run backup`): when, how it ended, its size.
 */
export function registerBackupStatusRoute(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/system/status',
    {
      schema: { querystring: noQuery, response: { 200: z.object({ data: systemStatus }) } },
      config: { permission: 'feature:update' },
    },
    async (request) => {
      if (!can(request.user, 'feature:update')) throw forbidden('Only an administrator sees the system status.');
      const next = nextScheduled(ctx.config.backup.cron);
      const data: SystemStatus = {
        database: ctx.database.kind,
        files: ctx.files.kind,
        backup: {
          last: await lastRun(ctx.db),
          schedule: ctx.config.backup.cron ?? null,
          keep: ctx.config.backup.keep,
          next_at: next ? next.toISOString() : null,
        },
      };
      return { data };
    },
  );
}
