/**
 * `npm run bench -- records`: with 100,000 sites in the embedded database, p95 of a list page filtered on a custom
 * field and sorted, and of a text search (target p95 < 50 ms). The custom field is added through the schema API
 * (so it gets the index a real one gets); its values are filled with SQL. Requests go one at a time over HTTP.
 *
 * Every request of a run is a different one (another choice, page or search word), each with its exact count, as a
 * person meets a fresh filter: no cache could answer any of them, and the server runs with its read cache off
 * anyway. BENCH_SITES=2000 makes a quick run; only the 100,000-site figures count.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { request, signIn } from './lib/http.js';
import { makeTempFolder, removeTempFolder } from './lib/server.js';
import { row, type BenchRow } from './types.js';

const AREA = 'records';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
// Unique requests before the timed ones, so that the figures are those of a server that has served such requests
// (the WebAssembly code of each kind of query compiled and optimised, its indexes in memory), not of one just started.
const WARMUP = 20;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const WORDS = ['Harbor', 'Mission', 'Summit', 'Pacific', 'Golden', 'Sierra', 'Bayview', 'Canyon', 'Civic', 'Oak'];

function percentile(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)];
}

export async function benchRecords(): Promise<BenchRow[]> {
  const dataDir = makeTempFolder('om-bench-records-');
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEED_DEMO: '0', LOG_LEVEL: 'silent', DATABASE_URL: '', READ_CACHE: '0' });
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | null = null;
  const rows: BenchRow[] = [];
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    app = (await buildApp({ config, database, logger: false })).app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const cookie = await signIn(baseUrl, ADMIN.email, ADMIN.password);
    const xsrf = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '');

    // A custom dropdown field on sites, added as an administrator would.
    const schemas = JSON.parse((await request(`${baseUrl}/api/schemas?per_page=-1`, { headers: { cookie } })).body);
    const siteSchema = schemas.data.find((schema: { type: string }) => schema.type === 'site');
    const created = await request(`${baseUrl}/api/schema-fields`, {
      method: 'POST',
      headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ schema_id: siteSchema.id, name: 'Priority', type: 'dropdown', options: { choices: ['low', 'medium', 'high'].map((value) => ({ value, label: value })) } }),
    });
    if (created.status !== 201) throw new Error(`Adding the custom field answered ${created.status}: ${created.body}`);
    const slug = JSON.parse(created.body).data.slug as string;

    const filled = performance.now();
    await sql`insert into sites (name, type, city, postal_code, latitude, longitude, custom, created_at, updated_at)
      select (${sql.val(WORDS)}::text[])[1 + g % 10] || ' Project ' || g,
        (array['union', 'non-union', 'pla', 'public-works', 'development', 'pending'])[1 + g % 6],
        'City ' || g % 300, lpad((90000 + g % 9000)::text, 5, '0'), 32 + (g % 1000) / 100.0, -124 + (g % 1300) / 100.0,
        jsonb_build_object(${slug}::text, (array['low', 'medium', 'high'])[1 + g % 3]),
        now() - (g % 1000) * interval '1 day', now() - (g % 1000) * interval '1 day'
      from generate_series(1, ${SITES}) g`.execute(database.db);
    await sql`analyze`.execute(database.db);
    console.error(`[bench] records: ${SITES} sites in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

    // Request i of a case: the choices (and search words) in turn, then the next page.
    const CHOICES = ['high', 'medium', 'low'];
    const cases: Array<[string, (i: number) => string]> = [
      [`list filtered on a custom field, sorted by name`, (i) => `/api/sites?filter[${slug}]=${CHOICES[i % 3]}&sort=name&order=asc&page=${1 + Math.floor(i / 3)}&per_page=25`],
      [`list filtered on a custom field, sorted by it`, (i) => `/api/sites?filter[${slug}]=${CHOICES[i % 3]}&sort=${slug}&order=desc&page=${1 + Math.floor(i / 3)}&per_page=25`],
      // About 110 matches each, nn from 10 to 99 ("Harbor Project 77" matches "Harbor Project 770", "... 7700" to
      // "... 7790" and "... 77000" to "... 77990"); the word moves on by one at each round of the numbers.
      [`text search "<word> project <nn>"`, (i) => `/api/sites?search=${encodeURIComponent(`${WORDS[(i + Math.floor(i / 90)) % 10].toLowerCase()} project ${10 + (i % 90)}`)}&per_page=25`],
      // About 3,700 matches each ("City 12", "City 120" to "City 129").
      [`text search "city <nn>"`, (i) => `/api/sites?search=${encodeURIComponent(`city ${10 + (i % 20)}`)}&page=${1 + Math.floor(i / 20)}&per_page=25`],
    ];
    const asked = new Set<string>();
    for (const [metric, urlOf] of cases) {
      const times: number[] = [];
      // CPU time of this process (server, database and client alike) per request: what the load of the machine
      // does not change, unlike the elapsed time.
      const cpu: number[] = [];
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const url = urlOf(i);
        if (asked.has(url)) throw new Error(`The bench asked ${url} twice: a cache could answer it`);
        asked.add(url);
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const response = await request(baseUrl + url, { headers: { cookie } });
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${response.body.slice(0, 200)}`);
        const used = process.cpuUsage(cpuBefore);
        if (i < WARMUP) continue;
        times.push(performance.now() - started);
        cpu.push((used.user + used.system) / 1000);
      }
      console.error(
        `[bench] records: ${metric}: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms; CPU per request p50 ${percentile(cpu, 0.5).toFixed(1)} ms`,
      );
      rows.push(row(AREA, `${metric} p95 (${SITES} sites)`, Math.round(percentile(times, 0.95) * 10) / 10, 'ms', { below: 50 }));
    }
  } finally {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    removeTempFolder(dataDir);
  }
  return rows;
}
