/**
 * Issue 30's benchmark, on the embedded database and on PostgreSQL (BENCH_DATABASES=pglite or postgres for one).
 * Lists: 100,000 records of an app-made type with a formula (`ROUND({Estimated value} * 1.1, 0)`), a date difference
 * from a fixed day and from TODAY(), and a rollup (a count of 100,000 related records), each list filtered on and
 * sorted by one of them, its p95 and its CPU per list (this process, which runs the data service, plus PostgreSQL's
 * processes) against the same list sorted by a plain indexed number. Imports: the 100,000-row vendor job-site file
 * imported by the real server into sites with three formula fields against the same import without them.
 * BENCH_FORMULA_PARTS=lists or imports runs one part.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { ensureCustomFieldIndex } from '../../src/server/schemas/indexes.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { importFile, vendorImporterId } from './imports.js';
import { request, signIn } from './lib/http.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import {
  benchDatabases,
  freePort,
  loadAverage,
  makeTempFolder,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'formulas';
const RECORDS = Number(process.env.BENCH_FORMULA_RECORDS ?? 100_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const NAMES = { pglite: 'embedded', postgres: 'PostgreSQL' } as const;
/** BENCH_PORT: the import servers' ports where a machine's ports are shared out; else any free one. */
const port = async (offset: number) => (process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + offset : freePort());

export async function benchFormulas(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const parts = process.env.BENCH_FORMULA_PARTS ?? 'lists,imports';
  for (const kind of benchDatabases()) {
    if (parts.includes('lists')) await listsOn(kind, rows);
    if (parts.includes('imports')) await importsOn(kind, rows);
  }
  return rows;
}

/** A throwaway PostgreSQL server for `kind` postgres (null for the embedded database, or when none is installed). */
async function databaseFor(kind: 'pglite' | 'postgres'): Promise<PostgresServer | null | 'missing'> {
  if (kind === 'pglite') return null;
  const postgres = await (startPostgres() ?? Promise.resolve(null));
  if (!postgres) console.error('[bench] formulas: no PostgreSQL server binaries installed; PostgreSQL skipped');
  return postgres ?? 'missing';
}

async function listsOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const postgres = await databaseFor(kind);
  if (postgres === 'missing') return;
  const db = NAMES[kind];
  const { ctx, close } = await startInProcessApp(
    'om-bench-formulas-',
    postgres ? { DATABASE_URL: postgres.url } : {},
  ).catch(async (error) => {
    await postgres?.stop();
    throw error;
  });
  const firstRow = rows.length;
  try {
    const adminId = Number(
      (await ctx.db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow())
        .id,
    );
    const admin = (await loadAuthUser(ctx.db, adminId))!;
    const schemas = ctx.resources.get('schemas')!;
    const fields = ctx.resources.get('schema-fields')!;
    const project = (await ctx.records.create(admin, schemas, {
      name_singular: 'Bench project',
      name_plural: 'Bench projects',
      fields: [
        { name: 'Estimated value', type: 'number' },
        { name: 'Start date', type: 'date' },
      ],
    })) as unknown as { record: { id: number; type: string; resource: string } };
    const chore = (await ctx.records.create(admin, schemas, {
      name_singular: 'Bench chore',
      name_plural: 'Bench chores',
      fields: [{ name: 'Project', type: 'relation', options: { target: project.record.type } }],
    })) as unknown as { record: { id: number; type: string } };
    const setUpFrom = performance.now();
    const step = (what: string) =>
      console.error(
        `[bench] formulas, ${db}: set-up: ${what} at ${((performance.now() - setUpFrom) / 1000).toFixed(1)} s; load ${loadAverage()}`,
      );
    const projectId = project.record.id;
    const choreId = chore.record.id;
    await sql`insert into custom_records (schema_id, name, custom)
        select ${projectId}, 'Project ' || g, jsonb_build_object('estimated_value', (g * 37) % 100000,
          'start_date', to_char(date '2024-01-01' + (g % 700), 'YYYY-MM-DD'))
        from generate_series(1, ${RECORDS}) g`.execute(ctx.db);
    const first = Number(
      (
        await sql<{ id: number }>`select min(id) as id from custom_records where schema_id = ${projectId}`.execute(
          ctx.db,
        )
      ).rows[0].id,
    );
    await sql`insert into custom_records (schema_id, name, custom)
        select ${choreId}, 'Chore ' || g, jsonb_build_object('project', ${first} + (g * 7919) % ${RECORDS})
        from generate_series(1, ${RECORDS}) g`.execute(ctx.db);
    step(`${RECORDS.toLocaleString('en')} projects and chores written`);
    for (const [name, type, options] of [
      ['Markup', 'formula', { expression: 'ROUND({Estimated value} * 1.1, 0)' }],
      ['Days', 'formula', { expression: 'DAYS({Start date}, DATE(2024, 1, 1))' }],
      ['Age', 'formula', { expression: 'DAYS(TODAY(), {Start date})' }],
      ['Chores', 'rollup', { from: `${chore.record.type}.project`, function: 'count' }],
    ] as const) {
      await ctx.records.create(admin, fields, { schema_id: projectId, name, type, options });
      step(`field ${name} (${type}) saved`);
    }
    // The indexes the saved fields get after their commit (schema-fields afterCommit), made here at once.
    for (const field of await ctx.db
      .selectFrom('schema_fields')
      .selectAll()
      .where('schema_id', 'in', [projectId, choreId])
      .execute())
      await ensureCustomFieldIndex(
        ctx.db,
        {
          id: Number(field.schema_id),
          type: field.schema_id === projectId ? project.record.type : chore.record.type,
        },
        field as never,
      );
    step('indexes made');
    await sql`analyze custom_records`.execute(ctx.db);
    step('analyzed');
    const def = ctx.resources.get(project.record.resource)!;
    // The administrator again: their permissions now name the new types.
    const reader = (await loadAuthUser(ctx.db, adminId))!;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['sorted by the indexed number (baseline)', { sort: 'estimated_value', order: 'desc' }],
      ['sorted by ROUND(value * 1.1)', { sort: 'markup', order: 'desc' }],
      ['filtered markup >= 50,000, sorted by it', { sort: 'markup', order: 'desc', 'filter[markup_gte]': 50_000 }],
      ['sorted by the date difference', { sort: 'days', order: 'asc' }],
      ['filtered days <= 30', { 'filter[days_lte]': 30 }],
      ['sorted by days since the start (TODAY())', { sort: 'age', order: 'desc' }],
      ['filtered days since the start >= 1,000 (TODAY())', { 'filter[age_gte]': 1_000 }],
      ['sorted by the rollup (chore count)', { sort: 'chores', order: 'desc' }],
      ['filtered chores >= 3', { 'filter[chores_gte]': 3 }],
    ];
    // CPU of the list: this process runs the data service (and the embedded database), PostgreSQL its own processes.
    const cpuMs = () => {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1000 + (postgres?.cpuMs() ?? 0);
    };
    const cpu: number[] = [];
    for (const [label, query] of cases) {
      await ctx.records.list(reader, def, { ...query, per_page: 25, total: 'estimate' });
      const times: number[] = [];
      const cpuFrom = cpuMs();
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        await ctx.records.list(reader, def, { ...query, per_page: 25, total: 'estimate' });
        times.push(performance.now() - started);
      }
      cpu.push((cpuMs() - cpuFrom) / ROUNDS);
      const figure = percentile(times, 0.95);
      const load = loadAverage();
      console.error(
        `[bench] formulas, ${db}: ${label}: p95 ${figure.toFixed(0)} ms, CPU ${cpu.at(-1)!.toFixed(1)} ms per list; load ${load}`,
      );
      rows.push(
        row(AREA, `${db}: ${RECORDS.toLocaleString('en')} records, ${label}, p95 (load ${load})`, figure, 'ms'),
      );
    }
    const listed = rows.slice(firstRow);
    const baseline = listed[0].value ?? 1;
    for (const [i, figure] of listed.entries()) {
      if (i > 0)
        rows.push(
          row(AREA, `${figure.metric.replace(/, p95.*$/, '')}, p95 / baseline`, (figure.value ?? 0) / baseline, 'x', {
            atMost: 1.5,
          }),
        );
      rows.push(
        row(
          AREA,
          `${figure.metric.replace(/, p95.*$/, '')}, CPU per list (server + database)${i > 0 ? ` = ${(cpu[i] / cpu[0]).toFixed(2)}x baseline` : ''}`,
          cpu[i],
          'ms',
        ),
      );
    }
  } finally {
    await close();
    await postgres?.stop();
  }
}

/** Three formula fields on sites, as an administrator adds them: a markup, a date difference and a size in words. */
const SITE_FORMULAS = [
  ['Markup', 'ROUND({Estimated value} * 1.1, 0)'],
  ['Days to kickoff', 'DAYS({Kickoff date}, {Bid date})'],
  ['Size', 'IF({Estimated value} > 1000000, "Large", "Small")'],
] as const;

/**
 * The vendor import (tests/bench/imports.ts) of the same file into a new database without, then with, the three
 * formula fields on sites: the time from the upload to complete and the CPU of the server and the database.
 */
async function importsOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const db = NAMES[kind];
  const { vendorSitesCsv } = await import('../fixtures/generate.js');
  const content = Buffer.from(vendorSitesCsv(IMPORT_ROWS, 2026, { contacts: false }));
  const runs: Array<{ seconds: number; cpu: number; load: string }> = [];
  for (const withFormulas of [false, true]) {
    const postgres = await databaseFor(kind);
    if (postgres === 'missing') return;
    const folder = makeTempFolder('om-bench-formula-imports-');
    let server: RunningServer | null = null;
    try {
      server = await startServer({
        dataDir: path.join(folder, 'data'),
        adminEmail: ADMIN.email,
        adminPassword: ADMIN.password,
        databaseUrl: postgres?.url,
        port: await port(withFormulas ? 1 : 0),
      });
      const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
      if (withFormulas) await addSiteFormulas(server.baseUrl, cookie);
      const importer = await vendorImporterId(server.baseUrl, cookie);
      const done = await importFile(server, cookie, importer, content, 'vendor.csv', () => postgres?.cpuMs() ?? 0);
      if (done.record.status !== 'complete' || done.record.created_count !== IMPORT_ROWS)
        throw new Error(`The import did not create every row: ${JSON.stringify(done.record)}`);
      const load = loadAverage();
      runs.push({ seconds: done.seconds, cpu: done.cpuSeconds + done.databaseCpuSeconds, load });
      console.error(
        `[bench] formulas, ${db}: import ${withFormulas ? 'with' : 'without'} three formula fields: ${done.seconds.toFixed(1)} s, CPU ${runs.at(-1)!.cpu.toFixed(1)} s; load ${load}`,
      );
    } finally {
      await server?.stop();
      await postgres?.stop();
      removeTempFolder(folder);
    }
  }
  const [without, withThem] = runs;
  const rowsText = `${IMPORT_ROWS.toLocaleString('en')}-row vendor import`;
  rows.push(
    row(AREA, `${db}: ${rowsText} without formula fields (load ${without.load})`, without.seconds, 's'),
    row(AREA, `${db}: ${rowsText} with three formula fields on sites (load ${withThem.load})`, withThem.seconds, 's'),
    row(AREA, `${db}: ${rowsText}, with / without formula fields`, withThem.seconds / without.seconds, 'x', {
      atMost: 1.2,
    }),
    row(
      AREA,
      `${db}: ${rowsText}, CPU (server + database) with / without formula fields (${withThem.cpu.toFixed(1)} s / ${without.cpu.toFixed(1)} s)`,
      withThem.cpu / without.cpu,
      'x',
    ),
  );
}

async function addSiteFormulas(baseUrl: string, cookie: string) {
  const xsrf = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '');
  const schemas = JSON.parse((await request(`${baseUrl}/api/schemas?per_page=-1`, { headers: { cookie } })).body);
  const site = schemas.data.find((schema: { type: string }) => schema.type === 'site');
  for (const [name, expression] of SITE_FORMULAS) {
    const created = await request(`${baseUrl}/api/schema-fields`, {
      method: 'POST',
      headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ schema_id: site.id, name, type: 'formula', options: { expression } }),
    });
    if (created.status !== 201)
      throw new Error(`Adding the formula ${name} answered ${created.status}: ${created.body}`);
  }
}
