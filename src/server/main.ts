import { sql } from 'kysely';
import { buildApp } from './app.js';
import { serveControlSocket } from './backups/control-socket.js';
import { ConfigError, loadConfig } from './config/config.js';
import { DataFolderLockedError, openDatabase } from './db/database.js';
import { startEmbeddedMaintenance } from './db/embedded-maintenance.js';
import { migrate } from './db/migrate.js';
import { seedReadyMadeImporters } from './imports/ready-made.js';
import { startJobWorker } from './jobs/index.js';
import { ensureAppKey, seedDatabase, seedDemoHistory } from './seed/seed.js';
import { deployVersion } from './system/system-routes.js';
import { announceDeploy } from './system/system-updated.js';

const SHUTDOWN_GRACE_MS = 20_000;

/** Starts the one process: migrations, first-start seeding, then the app, /api and the websocket on PORT. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(
      `\n${signal.startsWith('SIG') ? `${signal} received` : signal}: finishing requests and closing the database...`,
    );
    try {
      // Requests in hand get this long to finish; then the process goes anyway (a browser told to reconnect may
      // come straight back to this process and hold its websocket server open).
      await Promise.race([app?.close(), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
    } finally {
      // A backup being made through it is cut off (its run is marked failed at the next start).
      await control?.close();
      await database.close();
      process.exit(0);
    }
  };
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | undefined;
  let control: { close(): Promise<void> } | null = null;
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // Under `npm start`'s supervisor (supervisor.mjs): if it dies, stop as gracefully as on SIGTERM.
  process.on('disconnect', () => void shutdown('The supervisor is gone'));

  // Processes started together on one PostgreSQL take turns: the first migrates and seeds, the others find it done.
  const seeded = await database.exclusively(async () => {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    const result = await seedDatabase(database.db, config);
    // The embedded database has no autovacuum: planner statistics at once after seeding, so list queries use their
    // indexes; after start, db/embedded-maintenance.ts keeps them and vacuums.
    if (result.seeded) await sql`analyze`.execute(database.db);
    await seedReadyMadeImporters(database.db);
    const built = await buildApp({ config, database });
    app = built.app;
    await seedDemoHistory(built.ctx);
    return { ...result, ...built };
  });
  const { ctx } = seeded;
  app = seeded.app;
  await app.listen({ port: config.port, host: config.host });
  await announceDeploy(ctx, deployVersion(config.version));
  await startJobWorker(app); // imports, undo, exports; stopped by app.close() (onClose hook in jobs/index.ts)
  await ctx.uploadWorkers.start(); // the threads that read uploads, ready before the first (workers/)
  if (database.kind === 'pglite') {
    startEmbeddedMaintenance(database, (error, what) => app?.log.warn({ err: error }, `${what} failed`));
    // `npm run backup` while this server runs: it asks this process, the database's only user (backups/).
    control = await serveControlSocket({ database, files: ctx.files, config });
    if (!control)
      app.log.warn(
        'The data folder path is too long for the backup control socket: npm run backup needs the server stopped.',
      );
  }

  // Tells the supervisor this start succeeded: a later crash is restarted without limit (supervisor.mjs).
  process.send?.({ type: 'ready' });

  const address = config.appUrlSet
    ? config.appUrl
    : `http://localhost:${(app.server.address() as { port: number }).port}`;
  const lines = [
    ``,
    `  ${config.appName} is running at ${address}`,
    `  Database: ${database.kind === 'pglite' ? `embedded (PGlite) in ${config.dataDir}` : 'PostgreSQL'}`,
  ];
  if (!config.appUrlSet)
    lines.push(
      `  Links in mails point to ${config.appUrl}: set APP_URL to the address people open (docs/settings.md).`,
    );
  if (seeded.admin) {
    lines.push(
      `  Sign in as ${seeded.admin.email} with password ${seeded.admin.password ?? '(the ADMIN_PASSWORD you set)'}`,
    );
    if (seeded.admin.password)
      lines.push(`  This password is shown only once: write it down or change it under Profile.`);
    if (config.seedDemo)
      lines.push(`  Demo accounts (leader@, organizer@, assistant@example.com) share that password.`);
  } else {
    lines.push(`  Sign in with your account (the first administrator is ${config.admin.email}).`);
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataFolderLockedError) {
    console.error(`\nCannot start: ${error.message}\n`);
  } else {
    console.error('\nCannot start:', error);
  }
  process.exit(1);
});
