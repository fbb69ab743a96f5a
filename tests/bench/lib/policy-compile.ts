import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import type { RolePolicy } from '../../../src/common/access-rules.js';
import type { AppContext } from '../../../src/server/app-context.js';
import { serverBundleOptions } from '../../../src/server/build.mjs';
import type { DB } from '../../../src/server/db/schema.generated.js';
import { type BenchRow, row } from '../types.js';
import { percentile } from './percentile.js';
import { startCommand } from './server.js';

export interface RoleSubject {
  slug: string;
  subject: { role_id: number; permissions: string[]; policy: RolePolicy };
}

/** The roles of the database as the policy sees them (their permission strings and own rules). */
export async function rolesOf(db: Kysely<DB>): Promise<RoleSubject[]> {
  const parsed = <T>(value: unknown, empty: T): T =>
    (typeof value === 'string' ? JSON.parse(value) : (value ?? empty)) as T;
  return (await db.selectFrom('roles').select(['id', 'slug', 'permissions', 'policy']).execute()).map((role) => ({
    slug: String(role.slug),
    subject: {
      role_id: Number(role.id),
      permissions: parsed<string[]>(role.permissions, []),
      policy: parsed<RolePolicy>(role.policy, {}),
    },
  }));
}

const WARM_UP_MS = Number(process.env.BENCH_COMPILE_WARM_UP_MS ?? 5_000);

/**
 * Each role's policy compiled cold (the compiled policies forgotten first, as a change of the role or of a record type
 * does) over every record type, `rounds` times: per role, the wall time, the process's CPU (all its threads) and,
 * where it can be read, the compiling thread's own CPU; per record type, the wall time. The same compiles run
 * uncounted for the first seconds (BENCH_COMPILE_WARM_UP_MS): the figure is the compile of a server in service.
 */
export async function compileTimes(ctx: AppContext, roles: RoleSubject[], rounds: number) {
  const access = ctx.records.access;
  const defs = ctx.resources.all();
  // Warm-up, not counted: a server in service has its code optimised and the database's WebAssembly compiled to its
  // faster tier, which a process just started is still doing in the background for a few seconds.
  const warmUntil = performance.now() + WARM_UP_MS;
  do {
    for (const { subject } of roles) {
      access.clear();
      for (const def of defs) await access.of(subject, def);
    }
  } while (performance.now() < warmUntil);
  const perRoleWall: number[] = [];
  const perRoleCpu: number[] = [];
  const perRoleThreadCpu: number[] = [];
  const perType: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const { subject } of roles) {
      access.clear();
      const thread = threadCpuMs();
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const def of defs) {
        const at = performance.now();
        await access.of(subject, def);
        perType.push(performance.now() - at);
      }
      perRoleWall.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      perRoleCpu.push((used.user + used.system) / 1000);
      if (thread !== null) perRoleThreadCpu.push((threadCpuMs() ?? thread) - thread);
    }
  }
  return { types: defs.length, perRoleWall, perRoleCpu, perRoleThreadCpu, perType };
}

/**
 * The CPU time of the calling thread alone, in ms (Linux: the scheduler's count in nanoseconds), or null where it
 * cannot be read. The process's count also holds the collector's helper threads and the embedded database's thread.
 */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

export interface CompileTimes {
  types: number;
  roles: string[];
  perRoleWall: number[];
  perRoleCpu: number[];
  /** The compiling thread's own CPU (empty where it cannot be read). */
  perRoleThreadCpu: number[];
  perType: number[];
}

/**
 * `compileTimes` in the code as the server runs it: policy-compile-child.ts bundled by esbuild with the server's own
 * settings (src/server/build.mjs) and run in a process of its own, with `npm start`'s node options, on the database `env` names (the data folder must
 * not be open elsewhere). Under tsx every function the code makes is also given its name at run time, which costs the
 * compile a third of its time and most of its garbage; the server's bundle does not do that.
 */
export async function compileTimesAsShipped(env: Record<string, string>, rounds: number): Promise<CompileTimes> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.join(here, '../../..');
  // Inside the project, so that the bundle's packages resolve from its node_modules as the server's bundle's do.
  const cache = path.join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'om-bench-compile-'));
  try {
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: {
        'policy-compile-child': path.join(here, 'policy-compile-child.ts'),
        'pglite-worker': path.join(here, '../../../src/server/db/pglite-worker.ts'),
      },
      outdir,
      ...serverBundleOptions,
      logLevel: 'warning',
    });
    await esbuild.stop();
    // With the node options and environment of `npm start` (its young generation above all, which decides how often
    // the collector stops the compile).
    const start = startCommand();
    const nodeOptions = start.args.filter((arg) => arg !== 'src/server/start.mjs');
    const child = [...nodeOptions, path.join(outdir, 'policy-compile-child.mjs')];
    const { stdout } = await promisify(execFile)(process.execPath, child, {
      cwd: root,
      env: {
        ...process.env,
        ...start.env,
        BENCH_COMPILE_ENV: JSON.stringify(env),
        BENCH_COMPILE_ROUNDS: String(rounds),
      },
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as CompileTimes;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The figures of a compile run (target: under 5 ms a role), each p50 and p95 with the target on p95: the wall time, the
 * compiling thread's CPU, and the process's CPU, which also counts the embedded database's thread and the collector's
 * helper threads, whatever they were doing meanwhile.
 */
export function compileRows(area: string, what: string, times: CompileTimes): BenchRow[] {
  const rows = [
    row(area, `${what}, wall p50`, percentile(times.perRoleWall, 0.5), 'ms'),
    row(area, `${what}, wall p95`, percentile(times.perRoleWall, 0.95), 'ms', { below: 5 }),
  ];
  if (times.perRoleThreadCpu.length)
    rows.push(
      row(area, `${what}, CPU of the compiling thread p50`, percentile(times.perRoleThreadCpu, 0.5), 'ms'),
      row(area, `${what}, CPU of the compiling thread p95`, percentile(times.perRoleThreadCpu, 0.95), 'ms', {
        below: 5,
      }),
    );
  rows.push(
    row(area, `${what}, CPU of the process (all threads) p50`, percentile(times.perRoleCpu, 0.5), 'ms'),
    row(area, `${what}, CPU of the process (all threads) p95`, percentile(times.perRoleCpu, 0.95), 'ms', {
      below: 5,
    }),
    row(area, `${what}, one record type, wall p95`, percentile(times.perType, 0.95), 'ms'),
  );
  return rows;
}
