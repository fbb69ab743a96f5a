import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import { compileTimes, rolesOf } from './lib/policy-compile.js';
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'access-policy';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

/** Each seeded role's policy compiled cold over every record type (tests/bench/lib/policy-compile.ts). */
export async function benchAccessPolicy(): Promise<BenchRow[]> {
  const { ctx, close } = await startInProcessApp('om-bench-access-');
  const rows: BenchRow[] = [];
  try {
    const roles = await rolesOf(ctx.db);
    const { types, perRoleWall, perRoleCpu, perType } = await compileTimes(ctx, roles, ROUNDS);
    const load = loadAverage();
    console.error(
      `[bench] access-policy: ${roles.length} roles (${roles.map((r) => r.slug).join(', ')}) x ${types} record types, ${ROUNDS} rounds; load ${load}`,
    );
    rows.push(
      row(
        AREA,
        `compile a role's policy, all ${types} record types, CPU p95 (load ${load})`,
        percentile(perRoleCpu, 0.95),
        'ms',
        { below: 5 },
      ),
      row(
        AREA,
        `compile a role's policy, all ${types} record types, CPU median (load ${load})`,
        percentile(perRoleCpu, 0.5),
        'ms',
      ),
      row(
        AREA,
        `compile a role's policy, all ${types} record types, wall p95 (load ${load})`,
        percentile(perRoleWall, 0.95),
        'ms',
        { below: 5 },
      ),
      row(
        AREA,
        `compile a role's policy, all ${types} record types, wall median (load ${load})`,
        percentile(perRoleWall, 0.5),
        'ms',
      ),
      row(AREA, `compile one record type's policy, wall p95 (load ${load})`, percentile(perType, 0.95), 'ms'),
    );
  } finally {
    await close();
  }
  return rows;
}
