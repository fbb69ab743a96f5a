import { sql } from 'kysely';
import { buildApp } from './app.js';
import type { AppContext } from './app-context.js';
import { serveControlSocket } from './backups/control-socket.js';
import { ConfigError, loadConfig } from './config/config.js';
import { isDatabaseUnavailable } from './db/connection-errors.js';
import { DataFolderLockedError, openDatabase } from './db/database.js';
import { startEmbeddedMaintenance } from './db/embedded-maintenance.js';
import { migrate } from './db/migrate.js';
import { seedReadyMadeImporters } from './imports/ready-made.js';
import { startJobWorker } from './jobs/index.js';
import { ensureAppKey, seedDatabase, seedDemoHistory } from './seed/seed.js';
import { keepFirstPassword, keptFirstPassword } from './system/first-password.js';
import { deployVersion } from './system/system-routes.js';
import { announceDeploy } from './system/system-updated.js';

/** After the drain, requests in hand get this long to finish; then the process goes anyway. */
const SHUTDOWN_GRACE_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the one process: migrations, first-start seeding, then the app, /api and the websocket on PORT. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | undefined;
  let ctx: AppContext | undefined;
  let control: { close(): Promise<void> } | null = null;
  let listening = false;
  let closing = false;
  // SIGTERM is a drain (docs/operations.md "Stopping and rolling restarts"): /api/ready answers 503 at once and the job
  // in hand goes back to the queue for another process, while requests are still served for SHUTDOWN_DRAIN_SECONDS so
  // the balancer takes this process out; then it stops listening, finishes the requests it holds, tells websockets to
  // reconnect (4200) and exits.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const drainSeconds = listening ? config.shutdownDrainSeconds : 0;
    console.log(
      `\n${signal.startsWith('SIG') ? `${signal} received` : signal}: ${drainSeconds ? `draining for ${drainSeconds} s (/api/ready answers 503), then ` : ''}finishing requests and closing the database...`,
    );
    try {
      const released = ctx?.lifecycle.drain();
      await sleep(drainSeconds * 1000);
      // A browser told to reconnect may come straight back to this process and hold its websocket server open: the
      // grace period ends the wait.
      await Promise.race([Promise.all([released, app?.close()]), sleep(SHUTDOWN_GRACE_MS)]);
    } finally {
      // A backup being made through it is cut off (its run is marked failed at the next start).
      await control?.close();
      await database.close();
      process.exit(0);
    }
  };
  // Under `npm start` the supervisor (supervisor.mjs) passes these on and waits for this process's exit 0: a drain is
  // never taken for a crash.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // Under `npm start`'s supervisor (supervisor.mjs): if it dies, stop as gracefully as on SIGTERM.
  process.on('disconnect', () => void shutdown('The supervisor is gone'));
  // A query nobody waited for that failed because the database went away (or the embedded database's thread is starting
  // again) must not end the process (Node's default for an unhandled rejection); anything else still does.
  process.on('unhandledRejection', (reason) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    const message = 'a background query failed: the database does not answer';
    if (app) app.log.warn({ reason: String(reason) }, message);
    else console.warn(`${message} (${String(reason)})`);
  });

  // Processes started together on one PostgreSQL take turns: the first migrates, seeds and makes the indexes the app
  // makes at start (its onReady hooks: search, sort and custom field indexes), the others find them made.
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
    ctx = built.ctx;
    await seedDemoHistory(built.ctx);
    await app.ready();
    return { ...result, ...built };
  });
  app = seeded.app;
  await app.listen({ port: config.port, host: config.host });
  listening = true;
  await announceDeploy(seeded.ctx, deployVersion(config.version));
  await startJobWorker(app); // imports, undo, exports; stopped by app.close() (onClose hook in jobs/index.ts)
  await seeded.ctx.uploadWorkers.start(); // the threads that read uploads, ready before the first (workers/)
  if (database.kind === 'pglite') {
    startEmbeddedMaintenance(database, (error, what) => app?.log.warn({ err: error }, `${what} failed`));
    // `npm run backup` while this server runs: it asks this process, the database's only user (backups/).
    control = await serveControlSocket({ database, files: seeded.ctx.files, config });
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
    if (seeded.admin.password) {
      const file = keepFirstPassword(config.dataDir, seeded.admin.email, seeded.admin.password);
      lines.push(`  The password is kept in ${file} (readable by you only): change it under Profile, then delete it.`);
    }
    if (config.seedDemo)
      lines.push(`  Demo accounts (leader@, organizer@, assistant@example.com) share that password.`);
  } else {
    const kept = keptFirstPassword(config.dataDir);
    lines.push(
      kept
        ? `  The first administrator (${config.admin.email}): the password is in ${kept}.`
        : `  Sign in with your account (the first administrator is ${config.admin.email}).`,
    );
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
