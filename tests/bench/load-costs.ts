/**
 * `npm run bench -- load-costs`: where the load bench's CPU goes, per kind of request. The app runs in this process
 * (as `npm start` builds it: demo data, read cache on, logging at warn as the load bench starts it) on the embedded
 * database, or on a throwaway PostgreSQL with LOAD_COSTS_DATABASE=postgres; the load bench's accounts and weighted
 * mix (tests/bench/load.ts) are sent one at a time through `app.inject`, so each request's CPU time (this process;
 * PostgreSQL's own is not counted) and the SQL statements it ran are its alone. The writes of the mix move the
 * caches as under the load (every kept session and answer is dropped), which is what one person at a time meets too.
 *
 * Per kind: requests, mean CPU ms, statements per request and the mean time inside them; then the weighted mean
 * (the CPU per answer the mix costs). LOAD_COSTS_REQUESTS (default 2,000) requests after 300 unmeasured ones.
 * LOAD_COSTS_SQL=1 prints each kind's statements once (the first request of the kind after the warm-up), cut at 400
 * characters; LOAD_COSTS_SQL=2 whole.
 */
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type CompiledQuery, DefaultQueryExecutor, sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase, seedDemoHistory } from '../../src/server/seed/seed.js';
import { startPostgres } from '../support/postgres-server.js';
import { signIn, xsrfOf } from './lib/http.js';
import type { LoadRequest } from './lib/load.js';
import { loadAverage, makeTempFolder, removeTempFolder } from './lib/server.js';
import { ACCOUNTS, ADMIN_EMAIL, type Build, describeAccount, nextOfMix, PASSWORD, type Person } from './load.js';
import { rng } from './map.js';
import { type BenchRow, row } from './types.js';

const AREA = 'load-costs';
const REQUESTS = Number(process.env.LOAD_COSTS_REQUESTS ?? 2000);
const WARMUP = 300;
/** Only while this bench runs, in the helper's range (docs/benchmarks.md). */
const PORT = Number(process.env.LOAD_COSTS_PORT ?? 8980);

interface Kind {
  requests: number;
  cpuMs: number;
  /** The embedded database thread's share of it (10 ms ticks, summed over the kind's requests). */
  databaseMs: number;
  statements: number;
  statementMs: number;
}

/** CPU ms of one thread of this process so far (Linux /proc: user + system ticks of 10 ms); 0 once it has ended. */
function threadTime(tid: number | string): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU ms of each thread of this process so far, by thread id. */
function threadTimes(): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) times.set(Number(tid), threadTime(tid));
  return times;
}

/**
 * The measured requests' CPU split by thread: the server's (this process's main thread), the embedded database's
 * (the other thread that used the most) and the rest (the collector's and compiler's helpers).
 */
function threadShares(before: Map<number, number>, after: Map<number, number>) {
  const used = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const server = used.find((t) => t.tid === process.pid)?.ms ?? 0;
  const others = used.filter((t) => t.tid !== process.pid).sort((a, b) => b.ms - a.ms);
  const database = others[0]?.ms ?? 0;
  const rest = others.slice(1).reduce((sum, t) => sum + t.ms, 0);
  return { server, database, rest, databaseThread: others[0]?.tid ?? null };
}

export async function benchLoadCosts(): Promise<BenchRow[]> {
  const postgres = process.env.LOAD_COSTS_DATABASE === 'postgres' ? await startPostgres() : null;
  const dataDir = makeTempFolder('om-bench-load-costs-');
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    ADMIN_EMAIL,
    ADMIN_PASSWORD: PASSWORD,
    SEED_DEMO: '1',
    READ_CACHE: '1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres?.url ?? '',
  });
  const database = await openDatabase(config);
  const logger = { level: 'warn', stream: createWriteStream('/dev/null') };
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    const seeded = await seedDatabase(database.db, config);
    if (seeded.seeded) await sql`analyze`.execute(database.db);
    const { app, ctx } = await buildApp({ config, database, logger });
    await seedDemoHistory(ctx);
    await app.listen({ port: PORT, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${PORT}`;
    const people: Person[] = [];
    for (const [i, { email, writes }] of ACCOUNTS.entries()) {
      const cookie = await signIn(baseUrl, email, PASSWORD);
      const account = await describeAccount(baseUrl, email, writes, cookie);
      const xsrf = xsrfOf(cookie);
      people.push({ account, cookie, xsrf, random: rng(1000 + i) });
    }

    let statements: Array<{ compiled: CompiledQuery; ms: number }> = [];
    const original = DefaultQueryExecutor.prototype.executeQuery;
    DefaultQueryExecutor.prototype.executeQuery = async function (
      this: DefaultQueryExecutor,
      compiled: CompiledQuery,
      ...rest: unknown[]
    ) {
      const at = performance.now();
      try {
        return await (original as any).call(this, compiled, ...rest);
      } finally {
        statements.push({ compiled, ms: performance.now() - at });
      }
    } as typeof original;

    const random = rng(7);
    const counters = new Map<Build, number>();
    const next = (): LoadRequest => nextOfMix(people[Math.floor(random() * people.length)], random(), counters);
    const kinds = new Map<string, Kind>();
    const printed = new Set<string>();
    let threadsBefore = threadTimes();
    // The embedded database's thread: the one besides this process's main thread that worked most in the warm-up.
    let databaseThread: number | null = null;
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      if (i === WARMUP) {
        const warm = threadShares(threadsBefore, threadTimes());
        databaseThread = postgres ? null : warm.databaseThread;
        threadsBefore = threadTimes();
      }
      const spec = next();
      statements = [];
      const databaseBefore = databaseThread === null ? 0 : threadTime(databaseThread);
      const own = process.cpuUsage();
      const answer = await app.inject({
        method: (spec.method ?? 'GET') as 'GET',
        url: spec.path,
        headers: { accept: 'application/json', ...spec.headers },
        payload: spec.body,
      });
      const used = process.cpuUsage(own);
      const databaseUsed = databaseThread === null ? 0 : threadTime(databaseThread) - databaseBefore;
      if (answer.statusCode !== (spec.expectStatus ?? 200))
        throw new Error(`${spec.label} ${spec.path} answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
      if (i < WARMUP) continue;
      const kind = kinds.get(spec.label) ?? { requests: 0, cpuMs: 0, databaseMs: 0, statements: 0, statementMs: 0 };
      kind.requests++;
      kind.cpuMs += (used.user + used.system) / 1000;
      kind.databaseMs += databaseUsed;
      kind.statements += statements.length;
      kind.statementMs += statements.reduce((sum, s) => sum + s.ms, 0);
      kinds.set(spec.label, kind);
      if (process.env.LOAD_COSTS_SQL && !printed.has(spec.label)) {
        printed.add(spec.label);
        console.error(`\n===== ${spec.label}: ${spec.method ?? 'GET'} ${spec.path}`);
        for (const s of statements)
          console.error(
            `  ${s.ms.toFixed(2).padStart(7)} ms  ${s.compiled.sql.replace(/\s+/g, ' ').slice(0, Number(process.env.LOAD_COSTS_SQL) > 1 ? 100_000 : 400)}`,
          );
      }
    }
    const threads = threadShares(threadsBefore, threadTimes());
    DefaultQueryExecutor.prototype.executeQuery = original;
    await app.close();

    const load = loadAverage();
    const where = postgres ? 'PostgreSQL, this process only' : 'embedded';
    const all = [...kinds.values()].reduce((sum, k) => ({
      requests: sum.requests + k.requests,
      cpuMs: sum.cpuMs + k.cpuMs,
      databaseMs: sum.databaseMs + k.databaseMs,
      statements: sum.statements + k.statements,
      statementMs: sum.statementMs + k.statementMs,
    }));
    const rows: BenchRow[] = [];
    for (const [label, k] of [...kinds].sort((a, b) => b[1].cpuMs - a[1].cpuMs)) {
      rows.push(
        row(
          AREA,
          `${label} [${where}]: ${k.requests} requests, ${(k.statements / k.requests).toFixed(1)} statements each, ${(k.statementMs / k.requests).toFixed(2)} ms in them, ${postgres ? '' : `database thread ${(k.databaseMs / k.requests).toFixed(1)} ms, `}share of CPU ${((100 * k.cpuMs) / all.cpuMs).toFixed(0)}%`,
          k.cpuMs / k.requests,
          'ms CPU',
        ),
      );
    }
    rows.push(
      row(
        AREA,
        `every kind, weighted as the load mix [${where}]: ${(all.statements / all.requests).toFixed(1)} statements per answer (load ${load})`,
        all.cpuMs / all.requests,
        'ms CPU',
      ),
    );
    if (!postgres) {
      // On the embedded database its thread is the one that fills its core first under load (docs/benchmarks.md).
      for (const [part, ms] of [
        ["the server's thread", threads.server],
        ["the database's thread", threads.database],
        ["other threads (the collector's and compiler's helpers)", threads.rest],
      ] as const)
        rows.push(row(AREA, `every kind, ${part} [${where}] (load ${load}, 10 ms ticks)`, ms / all.requests, 'ms CPU'));
    }
    return rows;
  } finally {
    await database.close().catch(() => undefined);
    await postgres?.stop();
    removeTempFolder(dataDir);
  }
}
