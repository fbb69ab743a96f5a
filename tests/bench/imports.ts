/**
 * The import benchmark: a generated 100,000-row vendor CSV (the job-site layout of tests/fixtures/vendor-sites.csv:
 * 23 columns, coordinates on 70% of rows, mixed date and money forms, 12 general contractors, rules setting
 * trades) imported end to end on the embedded database (parse, map, rules, related records, upsert, revisions,
 * undo entries) through the import job, as the server runs it. Figures: rows per second, the whole file's time,
 * peak resident memory of the process doing it, and a second import of the same file (every row matched on its
 * key and unchanged).
 *
 * The work runs in a child process (`tsx bench/imports.ts --child`) on a data folder prepared by another child
 * first, so the embedded database's one-off initialisation is not counted in the memory figure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { row, type BenchRow } from './types.js';

const AREA = 'imports';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  rssBeforeMb: number;
  peakMb: number;
  secondSeconds: number;
  secondSkipped: number;
}

export async function benchImports(): Promise<BenchRow[]> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'om-bench-imports-'));
  try {
    const { vendorSitesCsv } = await import('../fixtures/generate.js');
    const file = path.join(folder, 'vendor-100k.csv');
    const started = performance.now();
    writeFileSync(file, vendorSitesCsv(ROWS, 2026, { contacts: false }));
    const generateMs = performance.now() - started;
    const bytes = readFileSync(file).length;
    const dataDir = path.join(folder, 'data');
    runChild(['--prepare', dataDir]);
    const result = JSON.parse(runChild(['--child', dataDir, file]).trim().split('\n').pop()!) as ChildResult;
    if (result.failed > 0 || result.created !== ROWS) throw new Error(`The import did not create every row: ${JSON.stringify(result)}`);
    const perSecond = result.rows / result.seconds;
    return [
      row(AREA, `file: ${ROWS.toLocaleString('en')} rows, ${(bytes / 1_048_576).toFixed(1)} MB (generated in ${(generateMs / 1000).toFixed(1)} s)`, ROWS, 'rows'),
      row(AREA, 'import time, whole file (parse, map, rules, upsert, revisions)', result.seconds, 's', { atMost: 10 }),
      row(AREA, 'import rows per second', perSecond, 'rows/s', { atLeast: 10_000 }),
      // The CPU the importing process used (user + system): on a shared machine, less affected by others' load than the wall time.
      row(AREA, 'import CPU time of the importing process (user + system)', result.cpuSeconds, 's'),
      row(AREA, 'peak memory (RSS high-water mark of the importing process)', result.peakMb, 'MB', { atMost: 400 }),
      row(AREA, 'memory before the import (server with the embedded database)', result.rssBeforeMb, 'MB'),
      row(AREA, 'second import of the same file (all rows matched, unchanged)', result.secondSeconds, 's'),
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function runChild(args: string[]): string {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(HERE, 'imports.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: '', LOG_LEVEL: 'silent' },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 15 * 60_000,
  });
  if (child.status !== 0) throw new Error(`bench child ${args[0]} failed (${child.status}): ${child.stderr.slice(-2_000)}`);
  return child.stdout;
}

function statusMb(field: 'VmRSS' | 'VmHWM') {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function openApp(dataDir: string) {
  const { loadConfig } = await import('../../src/server/config/config.js');
  const { openDatabase } = await import('../../src/server/db/database.js');
  const { migrate } = await import('../../src/server/db/migrate.js');
  const { ensureAppKey, seedDatabase } = await import('../../src/server/seed/seed.js');
  const { seedReadyMadeImporters } = await import('../../src/server/imports/ready-made.js');
  const { buildApp } = await import('../../src/server/app.js');
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'bench-admin-password', SEED_DEMO: '0', LOG_LEVEL: 'silent', NODE_ENV: 'production' });
  const database = await openDatabase(config);
  await migrate(database.db);
  config.appKey ??= await ensureAppKey(database.db);
  await seedDatabase(database.db, config);
  await seedReadyMadeImporters(database.db);
  const { app, ctx } = await buildApp({ config, database, logger: false });
  await app.ready();
  return { app, ctx, config, database };
}

/** Queues an import of `file` as the administrator, as POST /api/imports does after storing the upload. */
async function queueImport(ctx: any, config: any, file: string, name: string) {
  const { inspectFile } = await import('../../src/server/imports/csv-reader.js');
  const { loadImporter } = await import('../../src/server/imports/routes.js');
  const { enqueueJob } = await import('../../src/server/jobs/queue.js');
  const folder = path.join(config.dataDir, 'files', 'imports');
  mkdirSync(folder, { recursive: true });
  const stored = path.join(folder, `${name}.csv`);
  copyFileSync(file, stored);
  const facts = await inspectFile(stored);
  const importerRow = await ctx.db.selectFrom('importers').select('id').where('slug', '=', 'vendor-job-sites').executeTakeFirstOrThrow();
  const importer = await loadImporter(ctx.db, importerRow.id);
  const admin = await ctx.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
  const files = [{ name: `${name}.csv`, path: stored, size: facts.bytes, encoding: facts.encoding, lines: facts.lines }];
  const created = await ctx.db
    .insertInto('imports')
    .values({ importer_id: importerRow.id, record_type: 'site', user_id: admin.id, name, files: JSON.stringify(files), importer: JSON.stringify(importer), total_rows: facts.lines - 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await enqueueJob(ctx.db, 'import', { import_id: created.id });
  return created.id as number;
}

async function child(mode: string, dataDir: string, file?: string) {
  const { app, ctx, config, database } = await openApp(dataDir);
  try {
    if (mode === '--prepare') return;
    const rssBeforeMb = statusMb('VmRSS');
    const first = await queueImport(ctx, config, file!, 'first');
    let started = performance.now();
    const cpuBefore = process.cpuUsage();
    await app.jobs.drain();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const peakMb = statusMb('VmHWM');
    const done = await ctx.db.selectFrom('imports').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    if (done.status !== 'complete') throw new Error(`Import ended ${done.status}: ${done.message}`);
    await queueImport(ctx, config, file!, 'second');
    started = performance.now();
    await app.jobs.drain();
    const secondSeconds = (performance.now() - started) / 1000;
    const second = await ctx.db.selectFrom('imports').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const result: ChildResult = {
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      rows: done.processed_rows,
      created: done.created_count,
      updated: done.updated_count,
      skipped: done.skipped_count,
      failed: done.failed_count,
      rssBeforeMb,
      peakMb,
      secondSeconds,
      secondSkipped: second.skipped_count,
    };
    console.log(JSON.stringify(result));
  } finally {
    await app.close();
    await database.close();
  }
}

if (process.argv.includes('--child') || process.argv.includes('--prepare')) {
  const index = process.argv.findIndex((a) => a === '--child' || a === '--prepare');
  await child(process.argv[index], process.argv[index + 1], process.argv[index + 2]);
  process.exit(0);
}
