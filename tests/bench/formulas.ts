/**
 * Issue 30's benchmark, on the embedded database and on PostgreSQL (BENCH_DATABASES=pglite or postgres for one).
 * Lists: 100,000 records of an app-made type with a formula (`ROUND({Estimated value} * 1.1, 0)`), a date difference
 * from a fixed day and from TODAY(), and a rollup (a count of 100,000 related records), made in process; then that app
 * is closed and the real server started on the same data (startServer), and each list is asked over HTTP as the
 * administrator (`GET /api/<resource>`, 25 a page, `total=estimate`), BENCH_ROUNDS (40) rounds of a varied query (page
 * 1..40, or the filter's threshold moved a step a round): sorted by each worked-out field, and filtered on and sorted by
 * it. Each list's p95 and CPU per list (the server process's and PostgreSQL's, from /proc) against the same list sorted
 * by the plain indexed number: the first pages so sorted for a sort, the same filter so sorted for a filter.
 * Imports: the 100,000-row vendor job-site file imported by the real server into sites with three formula fields
 * against the same import without them.
 * BENCH_FORMULA_PARTS=lists or imports runs one part.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { ensureCustomFieldIndex } from '../../src/server/schemas/indexes.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { importFile, vendorImporterId } from './imports.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import {
  benchDatabases,
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'formulas';
const RECORDS = Number(process.env.BENCH_FORMULA_RECORDS ?? 100_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
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
  const { ctx, close, dataDir } = await startInProcessApp(
    'om-bench-formulas-',
    postgres ? { DATABASE_URL: postgres.url } : {},
  ).catch(async (error) => {
    await postgres?.stop();
    throw error;
  });
  let appOpen = true;
  let server: RunningServer | null = null;
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
    // Chores spread unevenly (0 to 3 a project: 41,667 none, 12,500 three), so the rollup's values differ.
    await sql`insert into custom_records (schema_id, name, custom)
        select ${choreId}, 'Chore ' || g, jsonb_build_object('project', ${first} + ((g * 7919) % ${RECORDS}) / (1 + g % 4))
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
    const resource = project.record.resource;
    // The set-up is done: the lists are timed black-box against the real server on the same data.
    await close({ keepData: true });
    appOpen = false;
    server = await startServer({
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      databaseUrl: postgres?.url,
      port: await port(2),
    });
    step('real server started');
    await timeLists(server, await signIn(server.baseUrl, ADMIN.email, ADMIN.password), resource, postgres, db, rows);
  } finally {
    if (appOpen) await close();
    await server?.stop();
    await postgres?.stop();
    removeTempFolder(dataDir);
  }
}

/** A list's query string for round `round` (0-based): no two rounds ask the same. */
type ListQuery = (round: number) => string;

interface ListCase {
  label: string;
  query: ListQuery;
  /** The same list sorted by the plain indexed number, which the case's p95 and CPU are compared with. */
  baseline: ListQuery;
}

/** The first pages, one a round: the unfiltered lists. */
const page =
  (sort: string, order: 'asc' | 'desc'): ListQuery =>
  (round) =>
    `sort=${sort}&order=${order}&page=${round + 1}`;
/** A filter whose threshold moves by `step` a round, the list sorted by `sort`. */
const filtered =
  (filter: string, from: number, step: number, sort: string, order: 'asc' | 'desc'): ListQuery =>
  (round) =>
    `filter[${filter}]=${from + round * step}&sort=${sort}&order=${order}`;
const BASELINE = page('estimated_value', 'desc');
const byValue = (filter: string, from: number, step: number) => filtered(filter, from, step, 'estimated_value', 'desc');

const LIST_CASES: ListCase[] = [
  { label: 'sorted by ROUND(value * 1.1)', query: page('markup', 'desc'), baseline: BASELINE },
  {
    label: 'filtered markup >= 50,000, sorted by it',
    query: filtered('markup_gte', 50_000, 100, 'markup', 'desc'),
    baseline: byValue('markup_gte', 50_000, 100),
  },
  { label: 'sorted by the date difference', query: page('days', 'asc'), baseline: BASELINE },
  {
    label: 'filtered days <= 30, sorted by it',
    query: filtered('days_lte', 30, 1, 'days', 'asc'),
    baseline: byValue('days_lte', 30, 1),
  },
  { label: 'sorted by days since the start (TODAY())', query: page('age', 'desc'), baseline: BASELINE },
  {
    label: 'filtered days since the start >= 1,000 (TODAY()), sorted by it',
    query: filtered('age_gte', 1_000, 1, 'age', 'desc'),
    baseline: byValue('age_gte', 1_000, 1),
  },
  { label: 'sorted by the rollup (chore count)', query: page('chores', 'desc'), baseline: BASELINE },
  {
    label: 'filtered chores >= 3, sorted by it',
    query: filtered('chores_gte', 3, 1, 'chores', 'desc'),
    baseline: byValue('chores_gte', 3, 1),
  },
];

/**
 * Times each list over HTTP from this process, `ROUNDS` rounds of a varied query, as the administrator: the sorts
 * with the baseline's first pages, each filter with its own baseline (the same filter sorted by the indexed number),
 * their rounds in turn. CPU per list: the server process's and PostgreSQL's, summed over its requests.
 */
async function timeLists(
  server: RunningServer,
  cookie: string,
  resource: string,
  postgres: PostgresServer | null,
  db: string,
  rows: BenchRow[],
) {
  const serverCpuMs = () => procCpuMs(server.pid) + (postgres?.cpuMs() ?? 0);
  const get = async (query: string) => {
    const url = `${server.baseUrl}/api/${resource}?${query}&per_page=25&total=estimate`;
    const response = await request(url, { headers: { cookie }, timeoutMs: 120_000 });
    if (response.status !== 200)
      throw new Error(`GET ${url} answered ${response.status}: ${response.body.slice(0, 300)}`);
    return response;
  };
  interface Figure {
    label: string;
    p95: number;
    cpu: number;
    load: string;
  }
  /** Times lists round by round in turn (list 1 round 1, list 2 round 1, ...), so the load's swings fall on each. */
  const timeTogether = async (lists: Array<{ label: string; query: ListQuery }>): Promise<Figure[]> => {
    const times = lists.map((): number[] => []);
    const cpu = lists.map(() => 0);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, list] of lists.entries()) {
        const cpuFrom = serverCpuMs();
        const started = performance.now();
        await get(list.query(round));
        times[i].push(performance.now() - started);
        cpu[i] += serverCpuMs() - cpuFrom;
      }
    const load = loadAverage();
    return lists.map((list, i) => {
      const figure = { label: list.label, p95: percentile(times[i], 0.95), cpu: cpu[i] / ROUNDS, load };
      console.error(
        `[bench] formulas, ${db}: ${figure.label}: p95 ${figure.p95.toFixed(0)} ms, CPU ${figure.cpu.toFixed(1)} ms per list; load ${load}`,
      );
      return figure;
    });
  };
  const records = `${db}: ${RECORDS.toLocaleString('en')} records`;
  const figureRows = (figure: Figure, versus?: Figure) => [
    row(AREA, `${records}, ${figure.label}, p95 (load ${figure.load})`, figure.p95, 'ms'),
    ...(versus
      ? [row(AREA, `${records}, ${figure.label}, p95 / its baseline`, figure.p95 / versus.p95, 'x', { atMost: 1.5 })]
      : []),
    row(
      AREA,
      `${records}, ${figure.label}, CPU per list (server + database)${versus ? ` = ${(figure.cpu / versus.cpu).toFixed(2)}x its baseline` : ''}`,
      figure.cpu,
      'ms',
    ),
  ];
  // Warm-up of the server (its code, its caches) on every list, with rounds the timed ones do not ask.
  for (const query of [BASELINE, ...LIST_CASES.flatMap((listCase) => [listCase.baseline, listCase.query])])
    for (const round of [ROUNDS, ROUNDS + 1]) await get(query(round));
  // The sorts share the baseline's pages: timed together, each page asked once.
  const sorts = LIST_CASES.filter((listCase) => listCase.baseline === BASELINE);
  const [baseline, ...sorted] = await timeTogether([
    { label: 'sorted by the indexed number (baseline)', query: BASELINE },
    ...sorts,
  ]);
  rows.push(...figureRows(baseline), ...sorted.flatMap((figure) => figureRows(figure, baseline)));
  for (const listCase of LIST_CASES.filter((listCase) => listCase.baseline !== BASELINE)) {
    const [own, figure] = await timeTogether([
      {
        label: `${listCase.label.replace(/, sorted by it$/, '')}, sorted by the indexed number (its baseline)`,
        query: listCase.baseline,
      },
      listCase,
    ]);
    rows.push(...figureRows(own), ...figureRows(figure, own));
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
  const xsrf = xsrfOf(cookie);
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
