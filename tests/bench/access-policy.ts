import { performance } from 'node:perf_hooks';
import type { RolePolicy } from '../../src/common/access-rules.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'access-policy';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

export async function benchAccessPolicy(): Promise<BenchRow[]> {
  const { ctx, close } = await startInProcessApp('om-bench-access-');
  const rows: BenchRow[] = [];
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
    await close();
  }
  return rows;
}
