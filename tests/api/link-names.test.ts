import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import type { ResourceDefinition } from '../../src/server/records/resource.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The names of a record's links in the answers a person reads (records/representation.ts nameLinks): a list's page,
 * a record and an update's answer carry `_labels` ({field: {id: name}}), read in one query per relation for the whole
 * page, and only for the linked records the reader may read (the type's read permission and its row rules).
 */
let t: TestApp;
let admin: TestClient;
let adminUser: AuthUser;
let sites: ResourceDefinition;
const ids = { statuses: [] as number[], union: 0, nonUnion: 0, trade: 0, owner: 0, sites: [] as number[] };

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  adminUser = await t.authUser();
  sites = t.ctx.resources.get('sites')!;
  ids.statuses = (
    await sql<{
      id: number;
    }>`insert into site_statuses (name, slug) select 'Named status ' || g, 'named-status-' || g from generate_series(1, 5) g returning id`.execute(
      t.ctx.db,
    )
  ).rows.map((row) => row.id);
  [ids.union, ids.nonUnion] = (
    await sql<{
      id: number;
    }>`insert into contractors (name, type) values ('Union <b>Builders</b>', 'union'), ('Open Shop Inc', 'non-union') returning id`.execute(
      t.ctx.db,
    )
  ).rows.map((row) => row.id);
  [ids.trade] = (
    await sql<{ id: number }>`select id from trades where deleted_at is null order by id limit 1`.execute(t.ctx.db)
  ).rows.map((row) => row.id);
  [ids.owner] = (await sql<{ id: number }>`select id from users order by id limit 1`.execute(t.ctx.db)).rows.map(
    (row) => row.id,
  );
  // 30 sites: five statuses in turn, the union contractor on even rows and the other on odd rows, one trade each.
  ids.sites = (
    await sql<{ id: number }>`insert into sites (name, type, city, site_status_id, general_contractor_id, user_id)
      select 'Named site ' || lpad(g::text, 2, '0'), 'union', 'Nametown', (${sql.val(ids.statuses)}::int[])[1 + g % 5],
        case when g % 2 = 0 then ${ids.union}::int else ${ids.nonUnion}::int end, ${ids.owner}::int
      from generate_series(1, 30) g returning id`.execute(t.ctx.db)
  ).rows.map((row) => row.id);
  await sql`insert into site_trades (site_id, trade_id) select id, ${ids.trade} from sites where city = 'Nametown'`.execute(
    t.ctx.db,
  );
});
afterAll(async () => {
  await t?.close();
});

const page = (client: TestClient) => client.get('/api/sites?filter[city]=Nametown&sort=name&order=asc&per_page=30');

describe('names of the links in list answers', () => {
  it('each row names its status, contractor, trades and owner', async () => {
    const res = await page(admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(30);
    const [trade] = (await sql<{ name: string }>`select name from trades where id = ${ids.trade}`.execute(t.ctx.db))
      .rows;
    for (const site of res.body.data) {
      expect(site._labels.site_status_id).toEqual({
        [site.site_status_id]: `Named status ${ids.statuses.indexOf(site.site_status_id) + 1}`,
      });
      expect(site._labels.general_contractor_id).toEqual({
        [site.general_contractor_id]:
          site.general_contractor_id === ids.union ? 'Union <b>Builders</b>' : 'Open Shop Inc',
      });
      expect(site._labels.trade_ids).toEqual({ [ids.trade]: trade.name });
      expect(Object.keys(site._labels.user_id)).toEqual([String(ids.owner)]);
      // Relations with no value have no names.
      expect(site._labels.site_phase_id).toBeUndefined();
    }
  });

  it('reads the names of a page in one query (a part per relation), whatever the number of rows', async () => {
    const listed = (rows: number) =>
      recordQueries(() => t.ctx.records.list(adminUser, sites, { 'filter[city]': 'Nametown', per_page: rows }));
    const nameQueries = (queries: Array<{ sql: string }>) => queries.filter((query) => / as "label"/i.test(query.sql));
    const few = await listed(2);
    const many = await listed(30);
    expect(many.result.data).toHaveLength(30);
    // Status, general contractor, trades and owner: one part each, for 2 rows as for 30.
    const [names] = nameQueries(many.queries);
    expect(nameQueries(many.queries)).toHaveLength(1);
    expect([...names.sql.matchAll(/from "(\w+)"/g)].map((match) => match[1]).sort()).toEqual([
      'contractors',
      'site_statuses',
      'trades',
      'users',
    ]);
    expect(nameQueries(few.queries)).toHaveLength(1);
    expect(many.queries.length).toBe(few.queries.length);
  });

  it('leaves out the names a person may not read: a type they may not read, a category they may not read', async () => {
    // Organizers may not read users; this role reads contractors of the union category only.
    await sql`insert into roles (name, slug, permissions) values ('Union reader', 'union-reader', ${JSON.stringify(['site:read:union', 'contractor:read:union', 'site-status:read', 'trade:read'])}::jsonb)`.execute(
      t.ctx.db,
    );
    const organizer = await t.signIn(
      (await t.createUser({ role: 'user', email: 'names-organizer@example.com' })).email,
    );
    const reader = await t.signIn(
      (await t.createUser({ role: 'union-reader', email: 'names-reader@example.com' })).email,
    );

    const asOrganizer = await page(organizer);
    expect(asOrganizer.status, JSON.stringify(asOrganizer.body)).toBe(200);
    for (const site of asOrganizer.body.data) {
      expect(site._labels.user_id).toBeUndefined();
      expect(site._labels.general_contractor_id[site.general_contractor_id]).toBeTruthy();
    }

    const asReader = await page(reader);
    expect(asReader.status, JSON.stringify(asReader.body)).toBe(200);
    expect(asReader.body.data).toHaveLength(30);
    for (const site of asReader.body.data) {
      expect(site._labels.site_status_id[site.site_status_id]).toMatch(/^Named status/);
      expect(site._labels.user_id).toBeUndefined();
      if (site.general_contractor_id === ids.union)
        expect(site._labels.general_contractor_id).toEqual({ [ids.union]: 'Union <b>Builders</b>' });
      else expect(site._labels.general_contractor_id).toBeUndefined();
    }
  });

  it('a record and the answer of its update carry the names of its links, the new ones after a change', async () => {
    const id = ids.sites[0];
    const shown = await admin.get(`/api/sites/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data._labels.site_status_id).toEqual({
      [shown.body.data.site_status_id]: expect.stringMatching(/^Named status/),
    });
    const next = ids.statuses.find((status) => status !== shown.body.data.site_status_id)!;
    const updated = await admin.put(`/api/sites/${id}`, {
      site_status_id: next,
      updated_at: shown.body.data.updated_at,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data._labels.site_status_id).toEqual({
      [next]: `Named status ${ids.statuses.indexOf(next) + 1}`,
    });
  });
});
