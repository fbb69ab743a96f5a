import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { request } from './http.js';

/** A first start creates and seeds the database: on a busy shared machine that takes minutes, not seconds. */
const STARTUP_TIMEOUT_MS = Number(process.env.BENCH_STARTUP_TIMEOUT_MS) || 180_000;

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const HOST = '127.0.0.1';

/** Settings that would point the server elsewhere than a private PGlite folder on 127.0.0.1: never inherited. */
const STRIPPED_SETTINGS = [
  'DATABASE_URL',
  'APP_URL',
  'APP_KEY',
  'HOST',
  'PORT',
  'DATA_DIR',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'SEED_DEMO',
  'LOG_LEVEL',
  'NODE_ENV',
  'PUSHER_APP_ID',
  'PUSHER_APP_KEY',
  'PUSHER_APP_SECRET',
  'PUSHER_HOST',
  'PUSHER_PORT',
  'PUSHER_SCHEME',
  'SMTP_URL',
  'ANALYTICS_URL',
  'TRUST_PROXY',
  'REGISTRATION_ENABLED',
  'SESSION_IDLE_MINUTES',
  'LOGIN_MAX_ATTEMPTS',
  'READ_CACHE',
];

export interface ServerOptions {
  dataDir: string;
  port: number;
  adminEmail: string;
  adminPassword: string;
  /** Give up when /api/health has not answered 200 after this long. */
  timeoutMs?: number;
  /**
   * The read cache (READ_CACHE): off unless asked for, so a bench repeating a request measures its queries,
   * not a copy kept in memory. `npm start` has it on (on both databases).
   */
  readCache?: boolean;
  /** Seed the demo data (SEED_DEMO=1: the demo accounts, sites, contacts, tasks...); off unless asked for. */
  seedDemo?: boolean;
  /** A PostgreSQL server to use (DATABASE_URL) instead of the embedded database in `dataDir`. */
  databaseUrl?: string;
  /** More settings (PUSHER_* for an outside hub, and the like). */
  env?: Record<string, string>;
}

export interface RunningServer {
  /** The server process (the supervisor's child): what memory and CPU figures measure. */
  pid: number;
  /** `npm start`'s supervisor (src/server/supervisor.mjs), which started the server process and restarts it. */
  supervisorPid: number;
  baseUrl: string;
  /** Spawn to the first 200 from GET /api/health, in ms. */
  startMs: number;
  /** CPU time (user + system, all threads) the server and its supervisor used until then, in ms: steadier than startMs on a busy machine. */
  startCpuMs: number;
  /** The last lines the server wrote (stdout and stderr), for error reports. */
  output(): string;
  /** SIGTERM, then wait for the process to exit (SIGKILL after 20 s); or `SIGKILL` to die at once, as a crash. Safe to call twice. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Whether the process still runs. */
  alive(): boolean;
}

const live = new Set<ChildProcess>();
const tempFolders = new Set<string>();
// Last resort when the harness dies or is interrupted: never leave a server or its data folder behind.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const folder of tempFolders) rmSync(folder, { recursive: true, force: true });
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    console.error(`\n[bench] ${signal}: stopping the server under test and removing its data folder.`);
    process.exit(code);
  });
}

/** A new empty folder under the system temp folder, removed by `removeTempFolder` or, failing that, at exit. */
export function makeTempFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempFolders.add(folder);
  return folder;
}

export function removeTempFolder(folder: string) {
  rmSync(folder, { recursive: true, force: true });
  tempFolders.delete(folder);
}

export { freePort } from '../../support/postgres-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How `npm start` runs node (package.json `scripts.start`): its environment settings (`NAME=value` before `node`),
 * then node's arguments (V8 flags, then src/server/start.mjs).
 */
export function startCommand(): { env: Record<string, string>; args: string[] } {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = words.shift()!.split('=');
    env[name] = value;
  }
  const [command, ...args] = words;
  if (command !== 'node' || !args.includes('src/server/start.mjs'))
    throw new Error(`Unexpected start script: ${script}`);
  // BENCH_SERVER_NODE_ARGS: options for the server's node only (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, which
  // NODE_OPTIONS refuses).
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.trim().split(/\s+/) ?? [];
  return { env, args: [...extra, ...args] };
}

/** Builds the server bundle `npm start` runs, when stale, so that no start a bench times includes the build. */
export function buildServer() {
  execFileSync(
    process.execPath,
    ['--input-type=module', '-e', "await (await import('./src/server/build.mjs')).buildServerIfStale()"],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

/**
 * Starts the real server as `npm start` does (`node src/server/start.mjs`, client build skipped) on
 * 127.0.0.1:`port` with its data in `dataDir`, and waits for the first 200 from GET /api/health, polling every 20 ms.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  buildServer();
  const command = startCommand();
  const env: NodeJS.ProcessEnv = { ...process.env, ...command.env };
  for (const name of STRIPPED_SETTINGS) delete env[name];
  Object.assign(env, {
    SKIP_CLIENT_BUILD: '1',
    NODE_ENV: 'production',
    HOST,
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    ADMIN_EMAIL: options.adminEmail,
    ADMIN_PASSWORD: options.adminPassword,
    SEED_DEMO: options.seedDemo ? '1' : '0',
    LOG_LEVEL: 'warn',
    READ_CACHE: options.readCache ? '1' : '0',
    // No balancer to take it out first: a stop closes at once unless a bench asks for a drain (faults).
    SHUTDOWN_DRAIN_SECONDS: '0',
  });
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  Object.assign(env, options.env ?? {});

  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  const startedAt = performance.now();
  const child = spawn(process.execPath, command.args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  void exited.then(() => live.delete(child));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  let serverPid: number | undefined;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (exitCode !== undefined) return;
    // A crash: the server dies first, then its supervisor before it can start it again.
    if (signal === 'SIGKILL' && serverPid) killIfAlive(serverPid);
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };

  const baseUrl = `http://${HOST}:${options.port}`;
  const deadline = startedAt + (options.timeoutMs ?? STARTUP_TIMEOUT_MS);
  for (;;) {
    if (exitCode !== undefined) {
      const reason =
        log.split('\n').find((line) => line.includes('Cannot start')) ?? log.trim().split('\n').at(-1) ?? '';
      throw new Error(`The server exited (code ${exitCode}) before answering /api/health: ${reason.trim()}\n${log}`);
    }
    try {
      const health = await request(`${baseUrl}/api/health`, { timeoutMs: 2_000 });
      if (health.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(
        `The server did not answer /api/health with 200 within ${options.timeoutMs ?? STARTUP_TIMEOUT_MS} ms:\n${log}`,
      );
    }
    await sleep(20);
  }
  const startMs = performance.now() - startedAt;
  serverPid = serverProcessOf(child.pid!);
  const startCpuMs = procCpuMs(serverPid) + procCpuMs(child.pid!);
  return {
    pid: serverPid,
    supervisorPid: child.pid!,
    baseUrl,
    startMs,
    startCpuMs,
    output: () => log,
    stop,
    alive: () => exitCode === undefined,
  };
}

/** The server process the supervisor runs (its child running the built bundle), from /proc. Linux only. */
export function serverProcessOf(supervisorPid: number): number {
  const children = readFileSync(`/proc/${supervisorPid}/task/${supervisorPid}/children`, 'utf8').trim().split(/\s+/);
  const server = children.find(
    (pid) => pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/server/main.mjs'),
  );
  if (!server) throw new Error(`No server process under the supervisor (pid ${supervisorPid})`);
  return Number(server);
}

function killIfAlive(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** The load average (1, 5, 15 minutes) as /proc/loadavg gives it: printed beside every figure. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The databases a bench runs on: BENCH_DATABASES=pglite (or postgres) for one of the two; both by default. */
export const benchDatabases = () =>
  (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').map((name) => name.trim()) as Array<
    'pglite' | 'postgres'
  >;

/** A line of /proc/<pid>/status in MB (VmRSS = resident now, VmHWM = peak resident). Linux only. */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  if (!match) throw new Error(`No ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * CPU time (user + system) the process has used so far, in ms, from /proc/<pid>/stat (clock ticks of 10 ms); of one
 * of its threads with `thread` (the main thread's id is the pid).
 */
export function procCpuMs(pid: number, thread?: number): number {
  return cpuMsOf(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`);
}

/** CPU time of one thread of the process (its main thread: `tid` = `pid`), in ms, from /proc/<pid>/task/<tid>/stat. */
export function threadCpuMs(pid: number, tid = pid): number {
  return cpuMsOf(`/proc/${pid}/task/${tid}/stat`);
}

function cpuMsOf(file: string): number {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Bytes under `folder`, every file counted (the data folder's footprint on disk, as `du -sb` gives it). */
export function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}
