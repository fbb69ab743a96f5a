import type { FastifyInstance } from 'fastify';
import { can } from '../../common/permissions.js';
import type { SystemStatus } from '../../common/system-status.js';
import type { AppContext } from '../app-context.js';
import { forbidden } from '../http/errors.js';
import { lastRun } from './runs.js';
import { nextScheduled } from './schedule.js';

/**
 * GET /api/system/status (administrators: `feature:update`): the state of the installation an administrator
 * watches. `backup.last` is the last backup made (scheduled or by `npm run backup`): when, how it ended, its size.
 */
export function registerBackupStatusRoute(app: FastifyInstance, ctx: AppContext) {
  app.get('/api/system/status', { config: { permission: 'feature:update' } }, async (request) => {
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
  });
}
