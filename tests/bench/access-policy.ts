import { IN_PROCESS_SETTINGS, startInProcessApp } from './lib/in-process-app.js';
import { compileRows, compileTimesAsShipped } from './lib/policy-compile.js';
import { loadAverage, removeTempFolder } from './lib/server.js';
import type { BenchRow } from './types.js';

const AREA = 'access-policy';
// 500 compiles (5 roles): the p95 of fewer is a handful of rounds, each one a collector's pause or not.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);

/** Each seeded role's policy compiled cold over every record type, in the server's code as it ships (lib/policy-compile.ts). */
export async function benchAccessPolicy(): Promise<BenchRow[]> {
  // A seeded data folder, closed again for the compile's own process (lib/policy-compile.ts compileTimesAsShipped).
  const { dataDir, close } = await startInProcessApp('om-bench-access-');
  await close({ keepData: true });
  const rows: BenchRow[] = [];
  try {
    const times = await compileTimesAsShipped({ ...IN_PROCESS_SETTINGS, DATA_DIR: dataDir }, ROUNDS);
    const { types, roles } = times;
    const load = loadAverage();
    console.error(
      `[bench] access-policy: ${roles.length} roles (${roles.join(', ')}) x ${types} record types, ${ROUNDS} rounds; load ${load}`,
    );
    rows.push(...compileRows(AREA, `compile a role's policy, all ${types} record types (load ${load})`, times));
  } finally {
    removeTempFolder(dataDir);
  }
  return rows;
}
