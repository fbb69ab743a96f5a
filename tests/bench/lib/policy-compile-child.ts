/**
 * The policy compile timed as the server runs it (tests/bench/lib/policy-compile.ts `compileTimesAsShipped`): this
 * file is bundled by esbuild as `npm start` bundles the server, without tsx's helpers (tsx names every function it
 * compiles, which the server's bundle does not do), and run in a process of its own on a prepared data folder or
 * PostgreSQL database. Settings come in `BENCH_COMPILE_ENV` (JSON), the number of rounds in `BENCH_COMPILE_ROUNDS`;
 * the figures go out as one line of JSON.
 */
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config/config.js';
import { openDatabase } from '../../../src/server/db/database.js';
import { ensureAppKey } from '../../../src/server/seed/seed.js';
import { compileTimes, rolesOf } from './policy-compile.js';

const config = loadConfig(JSON.parse(process.env.BENCH_COMPILE_ENV ?? '{}'));
const database = await openDatabase(config);
try {
  config.appKey ??= await ensureAppKey(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false, sendMail: async () => undefined });
  try {
    const roles = await rolesOf(ctx.db);
    const times = await compileTimes(ctx, roles, Number(process.env.BENCH_COMPILE_ROUNDS ?? 30));
    process.stdout.write(`${JSON.stringify({ ...times, roles: roles.map((role) => role.slug) })}\n`);
  } finally {
    await app.close();
  }
} finally {
  await database.close();
}
