import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countMarketShareOnce } from '../../src/server/db/market-share-once.js';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { marketShare, parseMarketShare } from '../../src/server/reports/market-share.js';
import { answeredByCounts } from '../../src/server/reports/market-share-counts.js';
import { fixture, importerId, runImport } from '../fixtures/upload.js';
import {
  startTestApp,
  type TestApp,
  type TestClient,
  twoPostgresSessions,
  withOpenRowFilter,
} from '../support/test-app.js';

/**
 * The market share counted ahead by the database (migration 009_market_share_counts) follows every write that
 * changes it, and the report reads from it exactly what it would count from the sites.
 */
let t: TestApp;
let admin: TestClient;

/** Every count (summed changes) equals the count made from the sites now, for each grouping. */
async function expectCountsInStep() {
  const { rows } = await sql<Record<string, unknown>>`
    with facts as (select * from market_share_site_facts),
    counted as (
      select k.grouping, k.key, f.labour, count(*)::int as sites, sum(f.value) as value, sum(f.hours) as hours
      from facts f
      cross join lateral (
        select 'all'::text, null::integer
        union all select 'region', r from unnest(case when cardinality(f.region_ids) = 0 then array[null::integer] else f.region_ids end) r
        union all select 'trade', x from unnest(case when cardinality(f.trade_ids) = 0 then array[null::integer] else f.trade_ids end) x
      ) k (grouping, key)
      group by 1, 2, 3
    ),
    kept as (
      select grouping, key, labour, sum(sites)::int as sites, sum(value) as value, sum(hours) as hours
      from market_share_counts group by 1, 2, 3 having sum(sites) <> 0 or sum(value) <> 0 or sum(hours) <> 0
    )
    select * from counted c full join kept k on k.grouping = c.grouping and k.key is not distinct from c.key and k.labour = c.labour
    where (c.sites, c.value, c.hours) is distinct from (k.sites, k.value, k.hours)`.execute(t.ctx.db);
  expect(rows).toEqual([]);
  const { rows: snapshots } = await sql`
    select * from market_share_sites m full join market_share_site_facts f on f.site_id = m.site_id
    where (m.labour, m.value, m.hours, m.region_ids, m.trade_ids) is distinct from (f.labour, f.value, f.hours, f.region_ids, f.trade_ids)`.execute(
    t.ctx.db,
  );
  expect(snapshots).toEqual([]);
}

/** The app's context with a sites definition whose row filter lets every row through: the report counts the sites. */
const countingFromSites = () => withOpenRowFilter(t.ctx, 'sites');

/** The report by region and by trade reads the counts, and gives what counting the sites gives. */
async function expectReportFromCounts() {
  await expectCountsInStep();
  const user = await t.authUser();
  for (const group_by of ['region', 'trade']) {
    const params = parseMarketShare({ group_by });
    expect(await answeredByCounts(t.ctx, user, params)).toBe(true);
    expect(await answeredByCounts(countingFromSites(), user, params)).toBe(false);
    expect(await marketShare(t.ctx, user, params), `by ${group_by}`).toEqual(
      await marketShare(countingFromSites(), user, params),
    );
  }
}

async function created(resource: string, values: Record<string, unknown>): Promise<number> {
  const res = await admin.post(`/api/${resource}`, values);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function update(resource: string, id: number, values: Record<string, unknown>) {
  const res = await admin.put(`/api/${resource}/${id}`, values);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  await seedReadyMadeImporters(t.database.db);
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

describe('the market share counts follow the writes', () => {
  it('start equal to the sites (the demo data, counted by the migration)', async () => {
    await expectReportFromCounts();
  });

  it('sites created, changed, deleted, restored and deleted for good through the API and in SQL', async () => {
    const region = await created('regions', { name: 'Counted Region', geometry_type: 'county' });
    const trade = (await t.ctx.db.selectFrom('trades').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const union = await created('contractors', { name: 'Counted Union', type: 'union' });
    const open = await created('contractors', { name: 'Counted Open Shop', type: 'non-union' });
    const a = await created('sites', {
      name: 'Counted A',
      type: 'pending',
      estimated_value: 1_000_000,
      estimated_hours: 500,
      region_ids: [region],
      trade_ids: [trade],
    });
    const b = await created('sites', {
      name: 'Counted B',
      type: 'non-union',
      estimated_value: 250_000.5,
      region_ids: [region],
      contractors: [{ contractor_id: open }],
    });
    await expectReportFromCounts();

    await update('sites', a, { type: 'union', estimated_value: 2_000_000, estimated_hours: null });
    await update('sites', b, {
      contractors: [{ contractor_id: open }, { contractor_id: union }],
      trade_ids: [trade],
      region_ids: [],
    });
    await update('contractors', union, { type: 'general' });
    await expectReportFromCounts();

    expect((await admin.delete(`/api/sites/${a}`)).status).toBe(200);
    await expectReportFromCounts();
    expect((await admin.post(`/api/sites/${a}/restore`)).status).toBe(200);
    await expectReportFromCounts();

    // Straight to the tables: a bulk insert of sites and links (as a batch writes them), a region deleted for good
    // (its links cascade), a link moved, a site deleted for good.
    const { rows } = await sql<{ id: number }>`
      insert into sites (name, type, estimated_value, estimated_hours)
      select 'Bulk ' || g, (array['union', 'non-union', 'pla', 'mega'])[1 + g % 4], g * 1000, g * 10 from generate_series(1, 40) g
      returning id`.execute(t.ctx.db);
    await sql`insert into site_regions (site_id, region_id) select id, ${region}::int from unnest(${rows.map((r) => r.id)}::int[]) id`.execute(
      t.ctx.db,
    );
    await sql`insert into site_contractors (site_id, contractor_id) select id, ${open}::int from unnest(${rows.slice(0, 10).map((r) => r.id)}::int[]) id`.execute(
      t.ctx.db,
    );
    await expectReportFromCounts();
    await sql`update site_trades set site_id = ${rows[0].id} where site_id = ${a}`.execute(t.ctx.db);
    await t.ctx.db.deleteFrom('regions').where('id', '=', region).execute();
    await t.ctx.db.deleteFrom('sites').where('id', '=', b).execute();
    await t.ctx.db.deleteFrom('contractors').where('id', '=', open).execute();
    await expectReportFromCounts();
  });

  it('an import, its update and its undo', async () => {
    const importer = await importerId(t, 'vendor-job-sites');
    await runImport(t, admin, importer, [{ name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') }]);
    await expectReportFromCounts();
    const week2 = fixture('vendor-sites.csv')
      .toString('utf8')
      .replace(/155000000/g, '165000000');
    await runImport(t, admin, importer, [{ name: 'vendor-sites-week-2.csv', content: week2 }]);
    await expectReportFromCounts();
    const last = (await admin.get('/api/imports?sort=id&order=desc')).body.data[0];
    expect((await admin.post(`/api/imports/${last.id}/undo`)).status).toBe(202);
    await t.app.jobs.drain();
    await expectReportFromCounts();
  });

  it('a batch writer counts its sites once, at the end of its work, not after each statement', async () => {
    const counted = async (trx: any, id: number) =>
      (await sql`select 1 from market_share_sites where site_id = ${id}`.execute(trx)).rows.length;
    await t.ctx.db.transaction().execute(async (trx) => {
      await countMarketShareOnce(trx, async () => {
        const { rows } = await sql<{
          id: number;
        }>`insert into sites (name, type, estimated_value) values ('Counted Once Tower', 'union', 1234) returning id`.execute(
          trx,
        );
        const id = rows[0]!.id;
        await sql`insert into site_trades (site_id, trade_id) select ${id}, id from trades order by id limit 2`.execute(
          trx,
        );
        // Noted twice (the sites insert, the trades insert), not yet counted.
        expect((await sql`select site_id from market_share_pending`.execute(trx)).rows).toEqual([
          { site_id: id },
          { site_id: id },
        ]);
        expect(await counted(trx, id)).toBe(0);
      });
      expect((await sql`select 1 from market_share_pending`.execute(trx)).rows).toEqual([]);
    });
    await expectReportFromCounts();
    // Outside such a writer, each statement counts at once.
    const id = await created('sites', { name: 'Counted At Once Tower', type: 'non-union' });
    expect(await counted(t.ctx.db, id)).toBe(1);
  });

  it('folds the changes into one row per count without changing them', async () => {
    const site = await created('sites', { name: 'Folded', type: 'union', estimated_value: 10 });
    for (let i = 0; i < 5; i++)
      await update('sites', site, { estimated_value: 10 + i, type: i % 2 ? 'union' : 'non-union' });
    const before = await marketShare(t.ctx, await t.authUser(), parseMarketShare({ group_by: 'region' }));
    for (const grouping of ['region', 'trade', 'all'])
      await sql`select market_share_compact(${grouping})`.execute(t.ctx.db);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from market_share_counts group by grouping, key, labour having count(*) > 1`.execute(
      t.ctx.db,
    );
    expect(rows).toEqual([]);
    expect(await marketShare(t.ctx, await t.authUser(), parseMarketShare({ group_by: 'region' }))).toEqual(before);
    await expectReportFromCounts();
  });

  it('are read only by a person who reads every site and contractor, with no filter', async () => {
    const user = await t.authUser();
    const as = (permissions: string[]) => ({ ...user, permissions });
    expect(await answeredByCounts(t.ctx, user, parseMarketShare({ group_by: 'site_type' }))).toBe(false);
    expect(await answeredByCounts(t.ctx, user, parseMarketShare({ group_by: 'region', from: '2026-01-01' }))).toBe(
      false,
    );
    expect(await answeredByCounts(t.ctx, user, parseMarketShare({ group_by: 'trade', site_type: 'union,pla' }))).toBe(
      false,
    );
    expect(
      await answeredByCounts(
        t.ctx,
        as(['report:read', 'site:read:union', 'contractor:read']),
        parseMarketShare({ group_by: 'region' }),
      ),
    ).toBe(false);
    expect(
      await answeredByCounts(
        t.ctx,
        as(['report:read', 'site:read', 'contractor:read:union']),
        parseMarketShare({ group_by: 'region' }),
      ),
    ).toBe(false);
    expect(
      await answeredByCounts(
        t.ctx,
        as(['report:read', 'site:read', 'contractor:read']),
        parseMarketShare({ group_by: 'region' }),
      ),
    ).toBe(true);
  });
});

describe('the counts under concurrent writers (PostgreSQL only: PGlite has one connection)', () => {
  it('two transactions changing one site are serialised; changes to different sites do not wait for each other', async (test) => {
    if (t.database.kind !== 'postgres') test.skip();
    const { a, b, pids, waitsForLock, end } = await twoPostgresSessions(t);
    try {
      const region = await created('regions', { name: 'Race Region', geometry_type: 'county' });
      const site = await created('sites', { name: 'Race Counted', type: 'pending', estimated_value: 100 });
      // A links the site to a region, B changes its type meanwhile: B recounts after A committed.
      await a.query('begin');
      await a.query('insert into site_regions (site_id, region_id) values ($1, $2)', [site, region]);
      await b.query('begin');
      const changing = b.query(`update sites set type = 'union' where id = $1`, [site]);
      await waitsForLock(pids.b);
      await a.query('commit');
      await changing;
      await b.query('commit');
      await expectCountsInStep();

      // New sites in the same region from both sessions at once: neither waits for the other.
      await a.query('begin');
      await a.query(
        `with s as (insert into sites (name, type, estimated_value) values ('Race A', 'union', 5) returning id) insert into site_regions (site_id, region_id) select id, $1 from s`,
        [region],
      );
      await b.query('begin');
      await b.query(
        `with s as (insert into sites (name, type, estimated_value) values ('Race B', 'union', 7) returning id) insert into site_regions (site_id, region_id) select id, $1 from s`,
        [region],
      );
      await b.query('commit');
      await a.query('commit');
      await expectReportFromCounts();
    } finally {
      await end();
    }
  });
});
