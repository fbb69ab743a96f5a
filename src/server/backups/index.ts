import type { Feature, FeaturePlugin } from '../app-context.js';
import { failInterruptedRuns } from './runs.js';
import { scheduleBackups } from './schedule.js';
import { registerBackupStatusRoute } from './status-route.js';

/**
 * Backups (docs/operations.md "Backups"): scheduled ones (BACKUP_CRON) made by this process while it serves, and
 * the last backup's time and result on the administrator's system status. `npm run backup` reaches a running
 * embedded server through its control socket (control-socket.ts, started by main.ts).
 */
const backupsPlugin: FeaturePlugin = async (app, { ctx }) => {
  registerBackupStatusRoute(app, ctx);
  let schedule: { stop(): void } | null = null;
  app.addHook('onReady', async () => {
    await failInterruptedRuns(ctx.db, ctx.database.kind === 'pglite');
    schedule = scheduleBackups({ database: ctx.database, files: ctx.files, config: ctx.config }, (error) =>
      app.log.error({ err: error }, 'The scheduled backup failed'),
    );
  });
  app.addHook('onClose', async () => schedule?.stop());
};

export const backupsFeature: Feature = { plugin: backupsPlugin };
