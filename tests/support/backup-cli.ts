import { spawn } from 'node:child_process';

/**
 * `npm run backup|restore -- FILE` as its own process, with the data folder (and PostgreSQL database) given, none
 * inherited; its exit code and what it printed.
 */
export function backupCli(
  command: 'backup' | 'restore',
  file: string,
  where: { dataDir: string; databaseUrl?: string },
): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: where.dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (where.databaseUrl) env.DATABASE_URL = where.databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/db/backup-cli.ts', command, file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
