import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.js';
import type { AppContext } from '../../../src/server/app-context.js';
import { loadConfig } from '../../../src/server/config/config.js';
import { openDatabase } from '../../../src/server/db/database.js';
import { migrate } from '../../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../../src/server/seed/seed.js';
import { makeTempFolder, removeTempFolder } from './server.js';

export interface InProcessApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The data folder (the embedded database's files, uploads): the real server can be started on it after `close`. */
  dataDir: string;
  /**
   * Closes the app, then its database, and removes its data folder, or leaves it (`keepData`) for the caller to
   * start the real server on and remove with `removeTempFolder`.
   */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** The settings of the in-process app (its data folder aside). */
export const IN_PROCESS_SETTINGS: Record<string, string> = {
  NODE_ENV: 'production',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'bench-admin-password',
  SEED_DEMO: '0',
  LOG_LEVEL: 'silent',
};

/**
 * The app built in the bench's own process on a fresh embedded database, migrated and seeded (no demo), for the
 * benches that time the data service itself rather than HTTP. `env` adds settings; mails go nowhere.
 */
export async function startInProcessApp(prefix: string, env: Record<string, string> = {}): Promise<InProcessApp> {
  const dataDir = makeTempFolder(prefix);
  const config = loadConfig({ ...IN_PROCESS_SETTINGS, DATA_DIR: dataDir, ...env });
  const database = await openDatabase(config);
  const release = async (keepData = false) => {
    await database.close();
    if (!keepData) removeTempFolder(dataDir);
  };
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    const { app, ctx } = await buildApp({ config, database, logger: false, sendMail: async () => undefined });
    return {
      app,
      ctx,
      dataDir,
      close: async (options) => {
        try {
          await app.close();
        } finally {
          await release(options?.keepData);
        }
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
