/**
 * `npm run bench -- xlsx-exports` (issue 32): the XLSX export of 100,000 sites, every field (relations, choices and
 * people by name, dates and money typed), written by the export job's own code (ExportService.writeXlsx, the same
 * path as GET /api/exports/download?format=xlsx and a background export) to a file, in this process with the embedded
 * database (PGlite) in it too, as a single-machine install runs. Target: the process's peak resident memory during
 * the export under 300 MB (Linux's VmHWM, reset just before the export through /proc/self/clear_refs). CPU time per
 * 1,000 rows is printed beside the wall time (steadier on a shared machine), with the load average.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import type { DB } from '../../src/server/db/schema.generated.js';
import { ExportService } from '../../src/server/exports/export-service.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { loadAverage, procStatusMb } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'xlsx-exports';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const CONTRACTORS = 2_000;
const TARGET_MB = 300;
const ADMIN_EMAIL = 'admin@example.com';

async function fill(db: Kysely<DB>) {
  await sql`insert into contractors (name, type, city)
    select 'Contractor ' || g, (array['union', 'non-union', 'general'])[1 + g % 3], 'City ' || g % 50
    from generate_series(1, ${CONTRACTORS}) g`.execute(db);
  await sql`insert into sites (name, type, site_status_id, building_type_id, estimated_value, general_contractor_id,
      city, county, street, bid_date, kickoff_date, created_at, updated_at)
    select 'Site ' || g, (array['union', 'non-union', 'pla', 'public-works'])[1 + g % 4],
      (select min(id) from site_statuses) + g % 6, (select min(id) from building_types) + g % 8,
      (g % 400 + 1) * 25000.25,
      case when g % 3 = 0 then null else (select min(id) from contractors) + g % ${CONTRACTORS} end,
      'City ' || g % 50, 'County ' || g % 12, g || ' Main Street',
      (date '2026-01-01' + (g % 700)), (date '2026-02-01' + (g % 700)), now(), now()
    from generate_series(1, ${SITES}) g`.execute(db);
  await sql`insert into site_trades (site_id, trade_id) select s.id, (select min(id) from trades) + s.id % 15 from sites s`.execute(
    db,
  );
}

export async function benchXlsxExports(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-bench-xlsx-export-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD: 'bench-admin-password',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
  });
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | null = null;
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    await fill(database.db);
    const built = await buildApp({ config, database, logger: false });
    app = built.app;
    await app.ready();
    const exports = new ExportService(built.ctx, () => {});
    const adminId = (
      await database.db.selectFrom('users').select('id').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()
    ).id;
    const user = await loadAuthUser(database.db, adminId);
    const def = exports.definition('sites');
    const file = path.join(dataDir, 'sites.xlsx');
    global.gc?.();
    const before = procStatusMb(process.pid, 'VmRSS');
    writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current resident size
    const cpu = process.cpuUsage();
    const started = performance.now();
    const written = await exports.writeXlsx(
      user,
      def,
      { resource: 'sites', params: {}, columns: [] },
      createWriteStream(file),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const peak = procStatusMb(process.pid, 'VmHWM');
    const load = loadAverage();
    const cpuPerThousand = (used.user + used.system) / 1000 / (written / 1000);
    console.error(
      `[bench] xlsx-exports: ${written} rows, ${(statSync(file).size / 1e6).toFixed(1)} MB file, ${seconds.toFixed(1)} s, ` +
        `RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, load ${load} (${readFileSync('/proc/loadavg', 'utf8').trim()})`,
    );
    return [
      row(AREA, `XLSX export of ${SITES.toLocaleString('en')} sites, every field: rows written`, written, 'count', {
        atLeast: SITES,
      }),
      row(AREA, `peak resident memory during the export (load ${load})`, peak, 'MB', { below: TARGET_MB }),
      row(AREA, `wall time (load ${load})`, seconds, 's'),
      row(AREA, 'CPU time per 1,000 rows', cpuPerThousand, 'ms'),
    ];
  } finally {
    await app?.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
