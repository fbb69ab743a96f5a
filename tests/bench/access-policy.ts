/**
 * `npm run bench -- access-policy`: compiling a role's access policy (issue 31: under 5 ms). For each seeded role,
 * every record type compiled from a cold cache (`AccessPolicy.clear()` before each round), on the embedded database
 * with the seeded schema; CPU time per role (process.cpuUsage: steadier than wall time on a shared machine) and wall
 * p95 per record type. The load average is printed beside every figure.
 *
 * Issue 31's other figures (the scoped lists on 100,000 sites and 20,000 tasks, the realtime fan-out to 200 people)
 * are `npm run bench -- access-scope`'s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RolePolicy } from '../../src/common/access-rules.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { percentile } from './lib/percentile.js';
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'access-policy';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

export async function benchAccessPolicy(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-bench-access-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-admin-password',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(config);
  const rows: BenchRow[] = [];
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    const { app, ctx } = await buildApp({ config, database, logger: false, sendMail: async () => undefined });
    try {
      const access = ctx.records.access;
      const defs = ctx.resources.all();
      const roles = (await ctx.db.selectFrom('roles').select(['id', 'slug', 'permissions', 'policy']).execute()).map(
        (role) => ({
          slug: String(role.slug),
          subject: {
            role_id: Number(role.id),
            permissions: (typeof role.permissions === 'string'
              ? JSON.parse(role.permissions)
              : role.permissions) as string[],
            policy: (typeof role.policy === 'string' ? JSON.parse(role.policy) : (role.policy ?? {})) as RolePolicy,
          },
        }),
      );
      // Warm the schema and field caches and the code: the figure is the policy's compile, not a first query.
      for (const { subject } of roles) for (const def of defs) await access.of(subject, def);
      const perRoleCpu: number[] = [];
      const perType: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const { subject } of roles) {
          access.clear();
          const cpu = process.cpuUsage();
          for (const def of defs) {
            const started = performance.now();
            await access.of(subject, def);
            perType.push(performance.now() - started);
          }
          const used = process.cpuUsage(cpu);
          perRoleCpu.push((used.user + used.system) / 1000);
        }
      }
      const load = loadAverage();
      console.error(
        `[bench] access-policy: ${roles.length} roles (${roles.map((r) => r.slug).join(', ')}) x ${defs.length} record types, ${ROUNDS} rounds; load ${load}`,
      );
      rows.push(
        row(
          AREA,
          `compile a role's policy, all ${defs.length} record types, CPU p95 (load ${load})`,
          percentile(perRoleCpu, 0.95),
          'ms',
          { below: 5 },
        ),
        row(
          AREA,
          `compile a role's policy, all ${defs.length} record types, CPU median (load ${load})`,
          percentile(perRoleCpu, 0.5),
          'ms',
        ),
        row(AREA, `compile one record type's policy, wall p95 (load ${load})`, percentile(perType, 0.95), 'ms'),
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
