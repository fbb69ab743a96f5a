import pg from 'pg';

/**
 * BENCH_PG_STATEMENTS=1: a bench on PostgreSQL also prints each case's costliest statements (pg_stat_statements);
 * `calls`: its 40 most frequent instead.
 */
export const PG_STATEMENTS = ['1', 'calls'].includes(process.env.BENCH_PG_STATEMENTS ?? '');
const BY_CALLS = process.env.BENCH_PG_STATEMENTS === 'calls';

/** The PostgreSQL server's settings for it (startPostgres): none unless BENCH_PG_STATEMENTS=1. */
export const statementSettings = (): Record<string, string> =>
  PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } : {};

/** Each case's costliest statements on PostgreSQL (BENCH_PG_STATEMENTS=1): resets the counts, then prints them. */
export function statementProfile(area: string, url: string | undefined) {
  if (!PG_STATEMENTS || !url) return { reset: async () => {}, print: async (_: string) => {}, close: async () => {} };
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect().then(() => client.query('create extension if not exists pg_stat_statements'));
  return {
    reset: async () => {
      await connected;
      await client.query('select pg_stat_statements_reset()');
    },
    print: async (label: string) => {
      await connected;
      const { rows } =
        await client.query(`select calls, total_plan_time, total_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 300) as query
        from pg_stat_statements where query not like '%pg_stat_statements%' order by ${BY_CALLS ? 'calls' : 'total_plan_time + total_exec_time'} desc limit ${BY_CALLS ? 40 : 14}`);
      const { rows: all } = await client.query(`select sum(calls)::bigint as calls, sum(total_plan_time) as plan,
        sum(total_exec_time) as run from pg_stat_statements where query not like '%pg_stat_statements%'`);
      console.error(
        `[bench] ${area}, postgres: ${label}: ${Number(all[0].calls)} statements, ${(all[0].plan / 1000).toFixed(1)} s planning and ${(all[0].run / 1000).toFixed(1)} s running in all; the costliest (calls, plan ms and execution ms per call, rows per call)`,
      );
      for (const r of rows) {
        const calls = Number(r.calls);
        console.error(
          `  ${calls} × plan ${(r.total_plan_time / calls).toFixed(2)} + run ${(r.total_exec_time / calls).toFixed(2)} ms, ${(Number(r.rows) / calls).toFixed(0)} rows: ${r.query}`,
        );
      }
    },
    close: () => client.end(),
  };
}
