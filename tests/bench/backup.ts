/**
 * `npm run bench -- backup`: `npm run backup` against a running server (`npm start`, embedded database, through the
 * control socket) for the demo data and for 100,000 sites (BENCH_SITES), then `npm run restore` of that archive into
 * a fresh folder. Reported: the backup's wall time and the server's CPU time for it, the archive's size, how long the
 * database copy held the connection and the longest wait of `GET /api/health` polled every 20 ms meanwhile (what a
 * person's request may wait), and the restore's time; with the load average beside each (a shared machine).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { backupCli } from '../support/backup-cli.js';
import { startServerWithSites } from '../support/many-sites.js';
import { request } from './lib/http.js';
import {
  folderBytes,
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'backup';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

async function cli(command: 'backup' | 'restore', file: string, dataDir: string) {
  const { code, output } = await backupCli(command, file, { dataDir });
  if (code !== 0) throw new Error(`${command} failed:\n${output}`);
  return output;
}

async function measure(label: string, server: RunningServer, dataDir: string, rows: BenchRow[]) {
  const archive = path.join(makeTempFolder('om-bench-archive-'), 'backup.tar.gz');
  let polling = true;
  let longestWait = 0;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      await request(`${server.baseUrl}/api/health`, { timeoutMs: 60_000 });
      longestWait = Math.max(longestWait, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const cpuBefore = procCpuMs(server.pid);
  const started = performance.now();
  const output = await cli('backup', archive, dataDir);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (procCpuMs(server.pid) - cpuBefore) / 1000;
  polling = false;
  await poller;
  const heldSeconds = Number(/the database was held ([\d.]+) s/.exec(output)?.[1] ?? Number.NaN);
  const databaseMb = folderBytes(path.join(dataDir, 'db')) / 1_048_576;
  const archiveMb = statSync(archive).size / 1_048_576;
  const load = loadAverage();
  console.error(`[bench] backup ${label}: ${output.trim()} (load ${load})`);

  const fresh = makeTempFolder('om-bench-restore-');
  const restoreStarted = performance.now();
  await cli('restore', archive, fresh);
  const restoreSeconds = (performance.now() - restoreStarted) / 1000;
  removeTempFolder(fresh);
  removeTempFolder(path.dirname(archive));

  rows.push(
    row(AREA, `${label}: backup while serving, wall (load ${load})`, seconds, 's'),
    row(AREA, `${label}: server CPU for the backup`, cpuSeconds, 's'),
    row(AREA, `${label}: database folder`, databaseMb, 'MB'),
    row(AREA, `${label}: archive size`, archiveMb, 'MB'),
    row(AREA, `${label}: database copy (connection held)`, heldSeconds * 1000, 'ms'),
    row(AREA, `${label}: longest GET /api/health during backup`, longestWait, 'ms'),
    row(AREA, `${label}: restore into a fresh folder, wall (load ${loadAverage()})`, restoreSeconds, 's'),
  );
}

export async function benchBackup(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const demoDir = makeTempFolder('om-bench-backup-demo-');
  const demo = await startServer({
    dataDir: demoDir,
    port: await freePort(),
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    seedDemo: true,
  });
  try {
    await measure('demo data', demo, demoDir, rows);
  } finally {
    await demo.stop();
    removeTempFolder(demoDir);
  }

  const many = await startServerWithSites(SITES, ADMIN);
  try {
    await measure(`${SITES.toLocaleString('en')} sites`, many.server, many.dataDir, rows);
  } finally {
    await many.close();
  }
  return rows;
}
