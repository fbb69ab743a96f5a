import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedLabourFacts } from '../../src/server/reports/labour.js';
import { marketShare, marketShareSites, parseMarketShare } from '../../src/server/reports/market-share.js';
import {
  startTestApp,
  type TestApp,
  type TestClient,
  twoPostgresSessions,
  withOpenRowFilter,
} from '../support/test-app.js';

/**
 * The stored labour facts (`site_labour`, migration 006_site_labour) follow every write that changes them, made
 * through the API (the record service), and the market share reads the same answer from them as from the links.
 */
let t: TestApp;
let admin: TestClient;

type Facts = { union: boolean; nonUnion: boolean };
const NONE: Facts = { union: false, nonUnion: false };

/** The stored facts of a site (no row: neither). */
async function stored(siteId: number): Promise<Facts> {
  const row = await t.ctx.db.selectFrom('site_labour').selectAll().where('site_id', '=', siteId).executeTakeFirst();
  return row ? { union: row.has_union_contractor, nonUnion: row.has_non_union_contractor } : NONE;
}

/** Every stored row equals the facts derived from the links and the contractors that are not deleted. */
async function expectAllInStep() {
  const { rows } = await sql<{
    site_id: number;
    stored_union: boolean | null;
    stored_non_union: boolean | null;
    derived_union: boolean | null;
    derived_non_union: boolean | null;
  }>`
    select coalesce(l.site_id, d.site_id) as site_id, l.has_union_contractor as stored_union, l.has_non_union_contractor as stored_non_union,
      d.has_union as derived_union, d.has_non_union as derived_non_union
    from site_labour l
    full join (
      select x.site_id, bool_or(c.type = 'union') as has_union, bool_or(c.type = 'non-union') as has_non_union
      from (select site_id, contractor_id from site_contractors union all select id, general_contractor_id from sites where general_contractor_id is not null) x
      join contractors c on c.id = x.contractor_id
      where c.deleted_at is null and c.type in ('union', 'non-union')
      group by x.site_id
    ) d on d.site_id = l.site_id
    where l.site_id is null or d.site_id is null
      or l.has_union_contractor <> d.has_union or l.has_non_union_contractor <> d.has_non_union`.execute(t.ctx.db);
  expect(rows).toEqual([]);
}

async function contractor(name: string, type: string): Promise<number> {
  const res = await admin.post('/api/contractors', { name, type });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function site(values: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/sites', { type: 'pending', ...values });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function update(resource: string, id: number, values: Record<string, unknown>) {
  const res = await admin.put(`/api/${resource}/${id}`, values);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The labour the report gives one site (through its drill-down, which uses the same SQL as the report). */
async function labourInReport(siteId: number, name: string): Promise<string | undefined> {
  const res = await admin.get(`/api/reports/market-share/sites?group_by=none&key=all&per_page=1000`);
  expect(res.status).toBe(200);
  const row = res.body.data.find((s: any) => s.id === siteId);
  expect(row?.name).toBe(name);
  return row.labour;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

describe('site_labour: the stored facts follow the writes', () => {
  it('linking and unlinking contractors on a site', async () => {
    const u = await contractor('Union Mechanical', 'union');
    const n = await contractor('Open Shop Electric', 'non-union');
    const g = await contractor('General Builders', 'general');
    const s = await site({ name: 'Linked Site', contractors: [{ contractor_id: g }] });
    expect(await stored(s)).toEqual(NONE);
    expect(await labourInReport(s, 'Linked Site')).toBe('unknown');

    await update('sites', s, { contractors: [{ contractor_id: g }, { contractor_id: n }] });
    expect(await stored(s)).toEqual({ union: false, nonUnion: true });
    expect(await labourInReport(s, 'Linked Site')).toBe('non-union');

    await update('sites', s, { contractors: [{ contractor_id: n }, { contractor_id: u }] });
    expect(await stored(s)).toEqual({ union: true, nonUnion: true });
    expect(await labourInReport(s, 'Linked Site')).toBe('union');

    await update('sites', s, { contractors: [{ contractor_id: u }] });
    expect(await stored(s)).toEqual({ union: true, nonUnion: false });

    await update('sites', s, { contractors: [] });
    expect(await stored(s)).toEqual(NONE);
    expect(await labourInReport(s, 'Linked Site')).toBe('unknown');

    // Created with its links in one go.
    const s2 = await site({ name: 'Born Linked', type: 'union', contractors: [{ contractor_id: n }] });
    expect(await stored(s2)).toEqual({ union: false, nonUnion: true });
    expect(await labourInReport(s2, 'Born Linked')).toBe('non-union');
    await expectAllInStep();
  });

  it("changing a site's general contractor", async () => {
    const u = await contractor('GC Union', 'union');
    const n = await contractor('GC Open Shop', 'non-union');
    const s = await site({ name: 'GC Site', type: 'non-union', general_contractor_id: u });
    expect(await stored(s)).toEqual({ union: true, nonUnion: false });
    expect(await labourInReport(s, 'GC Site')).toBe('union');

    await update('sites', s, { general_contractor_id: n });
    expect(await stored(s)).toEqual({ union: false, nonUnion: true });
    expect(await labourInReport(s, 'GC Site')).toBe('non-union');

    await update('sites', s, { general_contractor_id: null });
    expect(await stored(s)).toEqual(NONE);
    expect(await labourInReport(s, 'GC Site')).toBe('non-union'); // its own type

    // The general contractor and a link to the same contractor: removing one keeps the fact.
    await update('sites', s, { general_contractor_id: u, contractors: [{ contractor_id: u }] });
    await update('sites', s, { general_contractor_id: null });
    expect(await stored(s)).toEqual({ union: true, nonUnion: false });
    await expectAllInStep();
  });

  it("changing a contractor's type", async () => {
    const c = await contractor('Changing Co', 'general');
    const linked = await site({ name: 'Type Linked', contractors: [{ contractor_id: c }] });
    const gc = await site({ name: 'Type GC', type: 'union', general_contractor_id: c });
    expect(await stored(linked)).toEqual(NONE);

    await update('contractors', c, { type: 'non-union' });
    expect(await stored(linked)).toEqual({ union: false, nonUnion: true });
    expect(await stored(gc)).toEqual({ union: false, nonUnion: true });
    expect(await labourInReport(gc, 'Type GC')).toBe('non-union');

    await update('contractors', c, { type: 'union' });
    expect(await stored(linked)).toEqual({ union: true, nonUnion: false });
    expect(await stored(gc)).toEqual({ union: true, nonUnion: false });
    expect(await labourInReport(linked, 'Type Linked')).toBe('union');

    await update('contractors', c, { type: 'none' });
    expect(await stored(linked)).toEqual(NONE);
    expect(await stored(gc)).toEqual(NONE);
    expect(await labourInReport(gc, 'Type GC')).toBe('union'); // its own type
    await expectAllInStep();
  });

  it('soft-deleting and restoring a contractor', async () => {
    const u = await contractor('Deleted Union', 'union');
    const n = await contractor('Staying Open Shop', 'non-union');
    const s = await site({ name: 'Delete Site', contractors: [{ contractor_id: u }, { contractor_id: n }] });
    const gc = await site({ name: 'Delete GC', general_contractor_id: u });
    expect(await stored(s)).toEqual({ union: true, nonUnion: true });

    expect((await admin.delete(`/api/contractors/${u}`)).status).toBe(200);
    expect(await stored(s)).toEqual({ union: false, nonUnion: true });
    expect(await stored(gc)).toEqual(NONE);
    expect(await labourInReport(s, 'Delete Site')).toBe('non-union');
    expect(await labourInReport(gc, 'Delete GC')).toBe('unknown');

    const restored = await admin.post(`/api/contractors/${u}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await stored(s)).toEqual({ union: true, nonUnion: true });
    expect(await stored(gc)).toEqual({ union: true, nonUnion: false });
    expect(await labourInReport(s, 'Delete Site')).toBe('union');
    await expectAllInStep();
  });

  it('a contractor or a site deleted for good, and links written straight to the table', async () => {
    const u = await contractor('Gone Union', 'union');
    const n = await contractor('Gone Open Shop', 'non-union');
    const s = await site({ name: 'Hard Delete Site', general_contractor_id: u, contractors: [{ contractor_id: n }] });
    const other = await site({ name: 'Other Site', contractors: [{ contractor_id: u }] });
    expect(await stored(s)).toEqual({ union: true, nonUnion: true });
    // Foreign keys: the links cascade, the general contractor is set to null; both reach the triggers.
    await t.ctx.db.deleteFrom('contractors').where('id', '=', u).execute();
    expect(await stored(s)).toEqual({ union: false, nonUnion: true });
    expect(await stored(other)).toEqual(NONE);
    // Bulk writes (as imports do) and updates of a link.
    await t.ctx.db
      .insertInto('site_contractors')
      .values([
        { site_id: other, contractor_id: n },
        { site_id: s, contractor_id: n },
      ])
      .execute();
    expect(await stored(other)).toEqual({ union: false, nonUnion: true });
    const c = await contractor('Moved Union', 'union');
    await t.ctx.db.updateTable('site_contractors').set({ contractor_id: c }).where('site_id', '=', other).execute();
    expect(await stored(other)).toEqual({ union: true, nonUnion: false });
    await t.ctx.db.updateTable('site_contractors').set({ site_id: s }).where('site_id', '=', other).execute();
    expect(await stored(other)).toEqual(NONE);
    expect(await stored(s)).toEqual({ union: true, nonUnion: true });
    await t.ctx.db.deleteFrom('sites').where('id', '=', s).execute();
    expect(
      await t.ctx.db.selectFrom('site_labour').select('site_id').where('site_id', '=', s).executeTakeFirst(),
    ).toBeUndefined();
    await expectAllInStep();
  });
});

describe('the market share reads the stored facts only where they stand for what the person may read', () => {
  it('uses them for category permissions, not for other contractor row rules', async () => {
    const adminUser = await t.authUser();
    expect(await storedLabourFacts(t.ctx, adminUser)).toEqual({ union: true, nonUnion: true });
    const as = (permissions: string[]) => ({ ...adminUser, permissions });
    expect(await storedLabourFacts(t.ctx, as(['site:read', 'contractor:read:union']))).toEqual({
      union: true,
      nonUnion: false,
    });
    expect(
      await storedLabourFacts(t.ctx, as(['site:read', 'contractor:read:non-union', 'contractor:read:general'])),
    ).toEqual({ union: false, nonUnion: true });
    expect(await storedLabourFacts(t.ctx, as(['site:read']))).toEqual({ union: false, nonUnion: false });
    // A contractor rule beyond categories (here a row filter): the facts are derived from what the person may read.
    expect(await storedLabourFacts(withOpenRowFilter(t.ctx, 'contractors'), adminUser)).toBeNull();
  });

  it('gives the same answer from the stored facts as derived from the links, for every kind of person', async () => {
    // Some sites of every labour, with deleted contractors and sites among them.
    const u = await contractor('Same Union', 'union');
    const n = await contractor('Same Open Shop', 'non-union');
    const d = await contractor('Same Deleted Union', 'union');
    await site({ name: 'Same 1', type: 'non-union', contractors: [{ contractor_id: u }] });
    await site({ name: 'Same 2', type: 'union', contractors: [{ contractor_id: n }] });
    await site({ name: 'Same 3', type: 'pla', general_contractor_id: n, contractors: [{ contractor_id: u }] });
    await site({ name: 'Same 4', type: 'mega', general_contractor_id: d });
    await admin.delete(`/api/contractors/${d}`);
    // The same read rule plus a row filter that lets every row through sends the report down the derived path.
    const derivedCtx = withOpenRowFilter(t.ctx, 'contractors');
    const adminUser = await t.authUser();
    expect(await storedLabourFacts(derivedCtx, adminUser)).toBeNull();
    const people: Array<[string, string[]]> = [
      ['administrator', adminUser.permissions],
      ['union contractors only', ['report:read', 'site:read', 'contractor:read:union']],
      ['non-union contractors only', ['report:read', 'site:read', 'contractor:read:non-union']],
      [
        'union and PLA sites, both contractor types',
        ['report:read', 'site:read:union', 'site:read:pla', 'contractor:read:union', 'contractor:read:non-union'],
      ],
      ['no contractors', ['report:read', 'site:read']],
    ];
    for (const [who, permissions] of people) {
      const user = { ...adminUser, permissions };
      for (const group_by of ['none', 'site_type', 'region', 'trade', 'period']) {
        const params = parseMarketShare({ group_by });
        const fromStored = await marketShare(t.ctx, user, params);
        const derived = await marketShare(derivedCtx, user, params);
        expect(fromStored, `${who}, by ${group_by}`).toEqual(derived);
        expect(fromStored.totals.total.sites, `${who}, by ${group_by}`).toBeGreaterThan(0);
      }
      for (const labour of ['union', 'non-union', 'unknown']) {
        const query = { group_by: 'none', key: 'all', labour, per_page: '1000' };
        expect(await marketShareSites(t.ctx, user, query), `${who}, ${labour} sites`).toEqual(
          await marketShareSites(derivedCtx, user, query),
        );
      }
    }
  });
});

describe('site_labour under concurrent writers (PostgreSQL only: PGlite has one connection)', () => {
  it('linking a contractor while another transaction changes its type, and two links to one site at once', async (test) => {
    if (t.database.kind !== 'postgres') test.skip();
    const { a, b, pids, waitsForLock, end } = await twoPostgresSessions(t);
    try {
      // Type change first, link second: the link's refresh waits for the change and then sees it.
      const c1 = await contractor('Race One', 'general');
      const s1 = await site({ name: 'Race Site One' });
      await a.query('begin');
      await a.query(`update contractors set type = 'union' where id = $1`, [c1]);
      await b.query('begin');
      const linking = b.query('insert into site_contractors (site_id, contractor_id) values ($1, $2)', [s1, c1]);
      await waitsForLock(pids.b);
      await a.query('commit');
      await linking;
      await b.query('commit');
      expect(await stored(s1)).toEqual({ union: true, nonUnion: false });

      // Link first, type change second: the change waits for the link and then refreshes the linked site.
      const c2 = await contractor('Race Two', 'general');
      const s2 = await site({ name: 'Race Site Two' });
      await b.query('begin');
      await b.query('insert into site_contractors (site_id, contractor_id) values ($1, $2)', [s2, c2]);
      await a.query('begin');
      const changing = a.query(`update contractors set type = 'non-union' where id = $1`, [c2]);
      await waitsForLock(pids.a);
      await b.query('commit');
      await changing;
      await a.query('commit');
      expect(await stored(s2)).toEqual({ union: false, nonUnion: true });

      // Two transactions linking contractors to the same site: the second recomputes after the first committed.
      const u = await contractor('Race Union', 'union');
      const n = await contractor('Race Open Shop', 'non-union');
      const s3 = await site({ name: 'Race Site Three' });
      await a.query('begin');
      await a.query('insert into site_contractors (site_id, contractor_id) values ($1, $2)', [s3, u]);
      await b.query('begin');
      const second = b.query('insert into site_contractors (site_id, contractor_id) values ($1, $2)', [s3, n]);
      await waitsForLock(pids.b);
      await a.query('commit');
      await second;
      await b.query('commit');
      expect(await stored(s3)).toEqual({ union: true, nonUnion: true });
      await expectAllInStep();
    } finally {
      await end();
    }
  });
});
