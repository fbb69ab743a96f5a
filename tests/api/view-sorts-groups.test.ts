/**
 * Several sorts on a list (`sort=type,-name`, a saved view's sorts) and a list grouped by a field with a count per
 * group and the sums of its number fields (GET /api/records/{resource}/groups: docs/views.md), with the list's
 * filters, its saved view and the person's own access applied.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/api-answers.js';
import { recordQueries } from '../support/query-counter.js';
import { planNodes } from '../support/query-plans.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let assistant: TestClient;
const ids: Record<string, number> = {};

const names = (body: { data: Array<{ name: string }> }) => body.data.map((row) => row.name);
const SITES: Array<[string, string, number | null, string | null]> = [
  ['Harbor Tower', 'union', 1_000_000, '2026-03-01'],
  ['Valley Mall', 'non-union', 250_000, null],
  ['Union Hall Annex', 'union', 500_000, '2026-01-15'],
  ['Dock Works', 'non-union', null, '2026-02-01'],
  ['Civic Center', 'pla', 2_000_000, '2026-01-15'],
  ['Bay Offices', 'union', 500_000, '2026-01-15'],
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await t.createUser({ role: 'assistant', email: 'asst@example.com' });
  assistant = await t.signIn('asst@example.com');
  for (const [name, type, value, bid] of SITES)
    ids[name] = okBody(
      await admin.post('/api/sites', { name, type, estimated_value: value, bid_date: bid }),
      201,
    ).data.id;
});
afterAll(async () => {
  await t?.close();
});

describe('several sorts', () => {
  it('orders by each sort in turn, a leading - sorting descending, missing values last', async () => {
    const body = okBody(await admin.get('/api/sites?sort=type,-estimated_value,name&order=asc&per_page=-1'));
    expect(names(body)).toEqual([
      'Valley Mall',
      'Dock Works',
      'Civic Center',
      'Harbor Tower',
      'Bay Offices',
      'Union Hall Annex',
    ]);
  });

  it('pages through the same order, counting every match', async () => {
    const first = okBody(await admin.get('/api/sites?sort=bid_date,-name&order=asc&per_page=2&page=1'));
    const second = okBody(await admin.get('/api/sites?sort=bid_date,-name&order=asc&per_page=2&page=2'));
    const third = okBody(await admin.get('/api/sites?sort=bid_date,-name&order=asc&per_page=2&page=3'));
    expect([...names(first), ...names(second), ...names(third)]).toEqual([
      'Union Hall Annex',
      'Civic Center',
      'Bay Offices',
      'Dock Works',
      'Harbor Tower',
      'Valley Mall',
    ]);
    expect(first.meta).toMatchObject({ total: 6, last_page: 3 });
  });

  it('counts the matches of a page past the last', async () => {
    const body = okBody(await admin.get('/api/sites?sort=type,-estimated_value&per_page=4&page=3&total=estimate'));
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 6, last_page: 2 });
  });

  it('counts the matches of each choice once, with the type list read once, then reads only the page', async () => {
    const user = await t.authUser();
    const def = t.ctx.resources.get('sites')!;
    const filters = JSON.stringify({
      all: [
        { field: 'type', op: 'in', value: ['union', 'pla'] },
        { field: 'general_contractor_id', op: 'empty' },
      ],
    });
    const { result, queries } = await recordQueries(() =>
      t.ctx.records.list(user, def, {
        filters,
        sort: 'type,-estimated_value',
        order: 'asc',
        total: 'estimate',
        per_page: 2,
      }),
    );
    expect(result.data.map((row) => row.name)).toEqual(['Civic Center', 'Harbor Tower']);
    expect(result.meta.total).toBe(4);
    const matching = queries.filter(
      (q: CompiledQuery) => /from "sites"/i.test(q.sql) && /general_contractor_id/.test(q.sql),
    );
    // One statement reads every match: it counts those of each type, with the type's rank read once (an InitPlan).
    const counting = matching.filter((q: CompiledQuery) => /count\(\*\)/i.test(q.sql));
    expect(counting).toHaveLength(1);
    const nodes = await planNodes(t.ctx.db, counting[0]);
    const perMatch = nodes.filter(
      (node) => node['Relation Name'] === 'site_types' && node['Parent Relationship'] === 'SubPlan',
    );
    expect(perMatch).toEqual([]);
    // The page (the one PLA site, then the first union one) is read from each type's matches, in value order,
    // stopping at the page's end: one statement for each of the two types.
    const paging = matching.filter((q: CompiledQuery) => !/count\(\*\)/i.test(q.sql));
    expect(paging.map((q: CompiledQuery) => q.parameters)).toEqual([
      expect.arrayContaining(['pla', 1]),
      expect.arrayContaining(['union', 1]),
    ]);
    for (const q of paging) expect(q.sql).toMatch(/"type" in \(\$\d+\).* limit \$\d+/s);
  });

  it('pages across the choices and within one, as sorting every match does', async () => {
    // Every match sorted at once (the first test checks that order).
    const all = names(okBody(await admin.get('/api/sites?sort=type,-estimated_value&order=asc&per_page=-1')));
    expect(all).toHaveLength(SITES.length);
    for (const perPage of [1, 2, 4]) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
        const body = okBody(
          await admin.get(`/api/sites?sort=type,-estimated_value&order=asc&per_page=${perPage}&page=${page}`),
        );
        expect(body.meta.total).toBe(6);
        pages.push(...names(body));
      }
      expect(pages, `${perPage} a page`).toEqual(all);
    }
    // Both ways, and with a third sort that decides within equal values.
    const backwards = names(okBody(await admin.get('/api/sites?sort=-type,name,-bid_date&per_page=2&page=2')));
    expect(backwards).toEqual(['Union Hall Annex', 'Civic Center']);
  });

  it('puts a choice no longer offered last, after every ranked one', async () => {
    await t.ctx.db.updateTable('sites').set({ type: 'retired-type' }).where('id', '=', ids['Valley Mall']).execute();
    try {
      const listed = async (perPage: number, page: number) =>
        names(
          okBody(await admin.get(`/api/sites?sort=type,-estimated_value&order=asc&per_page=${perPage}&page=${page}`)),
        );
      expect(await listed(-1, 1)).toEqual([
        'Dock Works',
        'Civic Center',
        'Harbor Tower',
        'Bay Offices',
        'Union Hall Annex',
        'Valley Mall',
      ]);
      expect([...(await listed(4, 1)), ...(await listed(4, 2))]).toEqual(await listed(-1, 1));
    } finally {
      await t.ctx.db.updateTable('sites').set({ type: 'non-union' }).where('id', '=', ids['Valley Mall']).execute();
    }
  });

  it('takes one order per sort in `order`', async () => {
    const body = okBody(await admin.get('/api/sites?sort=type,name&order=desc,asc&per_page=-1'));
    expect(names(body)).toEqual([
      'Bay Offices',
      'Harbor Tower',
      'Union Hall Annex',
      'Civic Center',
      'Dock Works',
      'Valley Mall',
    ]);
  });

  it('refuses a sort the type has not, naming it', async () => {
    const res = await admin.get('/api/sites?sort=type,nonsense');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.errors)).toContain('nonsense');
  });

  it("applies every sort of a saved view, and the list's own sort wins", async () => {
    const view = okBody(
      await admin.post('/api/views', {
        name: 'By type then value',
        record_type: 'site',
        sorts: [
          { field: 'type', order: 'desc' },
          { field: 'estimated_value', order: 'asc' },
        ],
      }),
      201,
    ).data;
    // Equal values: the earlier record first (ids in the last sort's direction).
    expect(names(okBody(await admin.get(`/api/sites?view=${view.id}&per_page=-1`)))).toEqual([
      'Union Hall Annex',
      'Bay Offices',
      'Harbor Tower',
      'Civic Center',
      'Valley Mall',
      'Dock Works',
    ]);
    expect(names(okBody(await admin.get(`/api/sites?view=${view.id}&sort=-name&per_page=2`)))).toEqual([
      'Valley Mall',
      'Union Hall Annex',
    ]);
  });
});

describe('groups', () => {
  const byValue = (body: { data: Array<{ value: unknown; count: number; sums: Record<string, number> }> }) =>
    Object.fromEntries(body.data.map((group) => [String(group.value), group]));

  it('counts each value of the field and adds up the number fields, with the totals of the list', async () => {
    const body = okBody(await admin.get('/api/records/sites/groups?group_by=type'));
    const groups = byValue(body);
    expect(Object.keys(groups)).toEqual(['non-union', 'pla', 'union']);
    expect(groups.union).toMatchObject({ count: 3, sums: { estimated_value: 2_000_000 } });
    expect(groups['non-union']).toMatchObject({ count: 2, sums: { estimated_value: 250_000 } });
    expect(groups.pla).toMatchObject({ count: 1, sums: { estimated_value: 2_000_000 } });
    expect(body.meta).toMatchObject({ group_by: 'type', total: 6, sums: { estimated_value: 4_250_000 } });
  });

  it('keeps the rows without a value in a group of their own, last', async () => {
    const body = okBody(await admin.get('/api/records/sites/groups?group_by=bid_date'));
    expect(body.data.map((group: { value: unknown; count: number }) => [group.value, group.count])).toEqual([
      ['2026-01-15', 3],
      ['2026-02-01', 1],
      ['2026-03-01', 1],
      [null, 1],
    ]);
  });

  it('groups a link to several records by each record, the unlinked rows apart', async () => {
    const trade = okBody(await admin.get('/api/trades?per_page=1')).data[0].id;
    okBody(await admin.patch(`/api/sites/${ids['Harbor Tower']}`, { trade_ids: [trade] }));
    const body = okBody(await admin.get('/api/records/sites/groups?group_by=trade_ids'));
    expect(body.data.map((group: { value: unknown; count: number }) => [group.value, group.count])).toEqual([
      [trade, 1],
      [null, 5],
    ]);
  });

  it("takes the list's filters and saved view", async () => {
    const filters = encodeURIComponent(
      JSON.stringify({
        any: [
          { field: 'estimated_value', op: 'gte', value: 1_000_000 },
          {
            all: [
              { field: 'type', op: 'eq', value: 'non-union' },
              { field: 'bid_date', op: 'empty' },
            ],
          },
        ],
      }),
    );
    const body = okBody(await admin.get(`/api/records/sites/groups?group_by=type&filters=${filters}`));
    expect(body.data.map((group: { value: unknown; count: number }) => [group.value, group.count])).toEqual([
      ['non-union', 1],
      ['pla', 1],
      ['union', 1],
    ]);
    const view = okBody(
      await admin.post('/api/views', {
        name: 'Union',
        record_type: 'site',
        filters: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
      }),
      201,
    ).data;
    const viewed = okBody(await admin.get(`/api/records/sites/groups?group_by=bid_date&view=${view.id}`));
    expect(viewed.meta).toMatchObject({ total: 3, sums: { estimated_value: 2_000_000 } });
  });

  it("reads as the person: the assistant's groups hold only the union and PLA sites", async () => {
    const body = okBody(await assistant.get('/api/records/sites/groups?group_by=type'));
    expect(Object.keys(byValue(body))).toEqual(['pla', 'union']);
    expect(body.meta.total).toBe(4);
  });

  it('counts an empty list as no group, with a total of none', async () => {
    const filters = encodeURIComponent(JSON.stringify({ all: [{ field: 'name', op: 'eq', value: 'Nowhere' }] }));
    const body = okBody(await admin.get(`/api/records/sites/groups?group_by=type&filters=${filters}`));
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ total: 0, sums: { estimated_value: 0 } });
  });

  it('reads the groups and the totals from the type-and-value index alone, in one statement', async () => {
    const user = await t.authUser();
    const def = t.ctx.resources.get('sites')!;
    // Sites enough for reading the table whole to look cheaper than the index, as it does on many sites.
    await sql`insert into sites (name, type, estimated_value, estimated_hours, latitude, longitude)
      select 'Filler ' || g, 'pending', g, g, 34, -118 from generate_series(1, 3000) g`.execute(t.ctx.db);
    await sql`vacuum analyze sites`.execute(t.ctx.db);
    try {
      const { result, queries } = await recordQueries(() => t.ctx.records.groups(user, def, {}, 'type'));
      expect(result.total).toBe(3006);
      expect(result.groups.find((group) => group.value === 'pending')).toMatchObject({ count: 3000 });
      const grouped = queries.filter((q: CompiledQuery) => /from "sites"/i.test(q.sql));
      expect(grouped).toHaveLength(1);
      // Planned as the service plans it (list-groups.ts groupsWithTotal), the table free to be scanned.
      const plan = await t.ctx.db.transaction().execute(async (trx) => {
        await sql`set local random_page_cost = 1.1`.execute(trx);
        const explained = await trx.executeQuery(
          CompiledQuery.raw(`explain (format json) ${grouped[0].sql}`, [...grouped[0].parameters]),
        );
        return JSON.stringify(explained.rows);
      });
      expect(plan).toContain('Index Only Scan');
      expect(plan).toContain('sites_type_value_idx');
      expect(plan).not.toContain('Seq Scan');
    } finally {
      await sql`delete from sites where name like 'Filler %'`.execute(t.ctx.db);
    }
  });

  it('refuses a field the type has not, a missing field, and a type that is not there', async () => {
    const unknown = await admin.get('/api/records/sites/groups?group_by=nonsense');
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toContain('nonsense');
    expect((await admin.get('/api/records/sites/groups')).status).toBe(422);
    expect((await admin.get('/api/records/nothing-here/groups?group_by=type')).status).toBe(404);
  });
});
