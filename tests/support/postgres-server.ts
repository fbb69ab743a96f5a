import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`, trust auth. */
  url: string;
  /** CPU time the server used so far, in ms: the postmaster, the backends it has reaped and those running (benches). */
  cpuMs(): number;
  /** Stops the server as an operator would (`pg_ctl stop -m fast` or `-m immediate`), keeping its data. */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again, on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL server in a temporary folder, for tests that need a real one (LISTEN/NOTIFY between
 * processes, the API suite on PostgreSQL). Null when no server binaries are installed, so callers can skip.
 * PostgreSQL refuses to run as root; as root we hand the folder to the `postgres` (or `nobody`) user.
 */
export function startPostgres(settings: Record<string, string> = {}): Promise<PostgresServer> | null {
  const bin = findPostgresBinaries();
  return bin ? start(bin, settings) : null;
}

export function findPostgresBinaries(): string | null {
  const installed = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : [];
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && existsSync(path.join(dir, 'initdb')));
  return [...installed, ...onPath].find((dir) => existsSync(path.join(dir, 'pg_ctl'))) ?? null;
}

function runAsUser(): { name: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { name, uid, gid };
    } catch {
      /* no such user; try the next */
    }
  }
  throw new Error('Running as root and neither a postgres nor a nobody user exists to run PostgreSQL as.');
}

/** A port nothing listens on now, on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** utime, stime, cutime, cstime of /proc/<pid>/stat, in clock ticks (the command may hold spaces: read after its ')'). */
function ticks(pid: number, withChildren: boolean): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return withChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
}

function serverCpuMs(postmaster: number): number {
  let total = ticks(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[1]) === postmaster) total += ticks(Number(entry), false);
    } catch {
      /* gone meanwhile */
    }
  }
  return (total * 1000) / 100; // USER_HZ is 100 on Linux
}

/** `settings`: more server settings (`-c name=value`), for a bench that profiles the server (pg_stat_statements). */
async function start(bin: string, settings: Record<string, string>): Promise<PostgresServer> {
  const user = runAsUser();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  if (user) chownSync(folder, user.uid, user.gid);
  const dataDir = path.join(folder, 'data');
  const exec = (program: string, args: string[]) =>
    user
      ? run('runuser', ['-u', user.name, '--', path.join(bin, program), ...args], { cwd: folder })
      : run(path.join(bin, program), args, { cwd: folder });

  await exec('initdb', ['-A', 'trust', '-U', 'postgres', '-D', dataDir, '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const extra = Object.entries(settings)
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join('');
  const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off${extra}`;
  const startServer = () =>
    exec('pg_ctl', [
      '-D',
      dataDir,
      '-o',
      serverOptions,
      '-l',
      path.join(folder, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  await startServer();

  // A test run that dies before stop() must not leave a server behind.
  const stopSync = () => {
    try {
      const args = ['-D', dataDir, '-m', 'immediate', 'stop'];
      if (user)
        execFileSync('runuser', ['-u', user.name, '--', path.join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(path.join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', stopSync);

  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    cpuMs: () => serverCpuMs(Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])),
    async halt(mode) {
      await exec('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
    },
    async resume() {
      await startServer();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopSync);
      await exec('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
