import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { square } from '../support/geometry.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The site list of a person whose turf is one region, newest first or by name, read from that region's part of an
 * index of `site_regions` (migration 030, regions/turf-page.ts): every page and total the same as the list of the turf
 * computed from the sites themselves, through renames, type changes, deletions, restores and moves; the copies kept
 * by triggers; anything else (two regions, other orders, searches) read as before.
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
let unionOnly: TestClient;
let twoRegions: TestClient;
const ids: Record<string, number> = {};

// Bismarck and Fargo: no other test places sites there.
const HERE = { lat: 46.81, lng: -100.78 };
const THERE = { lat: 46.88, lng: -96.79 };
const TYPES = ['union', 'non-union', 'pla'];
const READS = ['site:read:turf', 'site:update', 'site:delete', 'region:read'];

async function created(resource: string, values: Record<string, unknown>) {
  const res = await admin.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Record<string, any>;
}

/** The person's turf list as the sites themselves give it: live sites in the region, in the list's order. */
async function expected(
  region: number[],
  sort: 'created_at' | 'name',
  order: 'asc' | 'desc',
  types?: string[],
  theirs: number[] = [],
) {
  const key = sort === 'name' ? sql.raw('lower(name)') : sql.raw('created_at');
  const { rows } = await sql<{
    id: number;
  }>`select id from sites where deleted_at is null and (in_region_ids && ${region}::integer[] or id = any(${theirs}::integer[]))
    ${types ? sql`and type in (${sql.join(types)})` : sql``} order by ${key} ${sql.raw(order)} nulls last, id ${sql.raw(order)}`.execute(
    t.ctx.db,
  );
  return rows.map((row) => row.id);
}

async function listed(client: TestClient, query: string) {
  const res = await client.get(`/api/sites?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Every page of the list, both totals and ids, against the sites' own order (and their own sites outside the turf). */
async function sameAsTheSites(client: TestClient, region: number[], types?: string[], theirs: number[] = []) {
  const filter = types ? types.map((type) => `&filter[type][]=${type}`).join('') : '';
  for (const sort of ['created_at', 'name'] as const) {
    for (const order of ['desc', 'asc'] as const) {
      const want = await expected(region, sort, order, types, theirs);
      const perPage = 7;
      for (let page = 1; page <= Math.ceil(want.length / perPage) + 1; page++) {
        const body = await listed(
          client,
          `sort=${sort}&order=${order}&per_page=${perPage}&page=${page}&total=estimate${filter}`,
        );
        expect(body.meta.total, `${sort} ${order} ${types ?? ''}`).toBe(want.length);
        expect(
          body.data.map((site: any) => site.id),
          `${sort} ${order} page ${page} ${types ?? ''}`,
        ).toEqual(want.slice((page - 1) * perPage, page * perPage));
      }
    }
  }
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await created('roles', { slug: 'order-organizer', name: 'Order organizer', permissions: READS });
  await created('roles', {
    slug: 'order-union',
    name: 'Order union organizer',
    permissions: [...READS, 'site:read:union'],
  });
  const organizerUser = await t.createUser({ role: 'order-organizer', email: 'order-organizer@example.com' });
  ids.organizer = organizerUser.id;
  const unionUser = await t.createUser({ role: 'order-union', email: 'order-union@example.com' });
  const twoUser = await t.createUser({ role: 'order-organizer', email: 'order-two@example.com' });
  ids.here = (
    await created('regions', {
      name: 'Bismarck turf',
      geometry_type: 'drawn',
      geometry: square(HERE.lat, HERE.lng, 0.3),
      user_ids: [organizerUser.id, unionUser.id, twoUser.id],
    })
  ).id;
  ids.there = (
    await created('regions', {
      name: 'Fargo turf',
      geometry_type: 'drawn',
      geometry: square(THERE.lat, THERE.lng, 0.3),
      user_ids: [twoUser.id],
    })
  ).id;
  organizer = await t.signIn(organizerUser.email);
  unionOnly = await t.signIn(unionUser.email);
  twoRegions = await t.signIn(twoUser.email);
  // Names in another order than the dates, two sites on one date, some of each type; a few sites elsewhere.
  for (let i = 0; i < 30; i++) {
    const at = i % 5 === 4 ? THERE : HERE;
    const site = await created('sites', {
      name: `${String.fromCharCode(90 - ((i * 7) % 26))}ismarck ${i}`,
      type: TYPES[i % 3],
      latitude: at.lat + (i % 3) * 0.01,
      longitude: at.lng,
    });
    ids[`site${i}`] = site.id;
    await sql`update sites set created_at = ${new Date(Date.UTC(2026, 0, 1 + (i % 13)))} where id = ${site.id}`.execute(
      t.ctx.db,
    );
  }
  await created('sites', { name: 'Nowhere site', type: 'union', latitude: 40, longitude: -80 });
});
afterAll(async () => {
  await t?.close();
});

describe('a turf of one region', () => {
  it("reads its pages from the region's index: every page and total as the sites give them, by date and by name, both ways, filtered on types", async () => {
    await sameAsTheSites(organizer, [ids.here]);
    await sameAsTheSites(organizer, [ids.here], ['union']);
    await sameAsTheSites(organizer, [ids.here], ['union', 'pla']);
    const { queries } = await recordQueries(() => organizer.get('/api/sites?sort=name&order=desc&per_page=5&page=2'));
    const reads = queries.map((q) => q.sql);
    expect(
      reads.some((text) => /from "site_regions" as "t"/.test(text)),
      reads.join('\n'),
    ).toBe(true);
    expect(
      reads.some((text) => /^\s*with m as/.test(text)),
      reads.join('\n'),
    ).toBe(false);
  });

  it('a person who reads one type of site gets that type only, whatever they filter on', async () => {
    await sameAsTheSites(unionOnly, [ids.here], ['union']);
    const body = await listed(unionOnly, 'filter[type]=pla&per_page=50');
    expect(body.meta.total).toBe(0);
    const all = await listed(unionOnly, 'per_page=50');
    expect(all.data.every((site: any) => site.type === 'union')).toBe(true);
  });

  it('follows every change of a site: renamed, retyped, redated, deleted, restored, moved out and back', async () => {
    const site = ids.site0;
    expect((await admin.put(`/api/sites/${site}`, { name: 'Aaa first by name' })).status).toBe(200);
    expect((await listed(organizer, 'sort=name&order=asc&per_page=1')).data[0].id).toBe(site);
    expect((await admin.put(`/api/sites/${site}`, { type: 'pla' })).status).toBe(200);
    await sameAsTheSites(organizer, [ids.here], ['pla']);
    await sql`update sites set created_at = '2027-01-01T00:00:00Z' where id = ${site}`.execute(t.ctx.db);
    expect((await listed(organizer, 'sort=created_at&order=desc&per_page=1')).data[0].id).toBe(site);

    expect((await admin.delete(`/api/sites/${site}`)).status).toBe(200);
    await sameAsTheSites(organizer, [ids.here]);
    expect((await admin.post(`/api/sites/${site}/restore`, {})).status).toBe(200);
    await sameAsTheSites(organizer, [ids.here]);

    expect((await admin.put(`/api/sites/${site}`, { latitude: THERE.lat, longitude: THERE.lng })).status).toBe(200);
    expect((await listed(organizer, 'per_page=100')).data.map((s: any) => s.id)).not.toContain(site);
    await sameAsTheSites(organizer, [ids.here]);
    expect((await admin.put(`/api/sites/${site}`, { latitude: HERE.lat, longitude: HERE.lng })).status).toBe(200);
    await sameAsTheSites(organizer, [ids.here]);
  });

  it('keeps the copies equal to the sites, and the regions on the site row untouched by them', async () => {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from site_regions g join sites s on s.id = g.site_id
      where g.site_created_at is distinct from s.created_at or g.site_name_key is distinct from s.name_key or g.site_type is distinct from s.type
        or g.site_live <> (s.deleted_at is null)`.execute(t.ctx.db);
    expect(rows[0].n).toBe(0);
    const placed = await sql<{
      n: number;
    }>`select count(*)::int as n from sites s where s.in_region_ids is distinct from
      array(select g.region_id from site_regions g where g.site_id = s.id order by 1)`.execute(t.ctx.db);
    expect(placed.rows[0].n).toBe(0);
  });

  it("never shows a site outside the person's reach, even from a copy gone wrong", async () => {
    // A copy written past the triggers: the page is read by id with every rule applied again.
    await sql`alter table site_regions disable trigger user`.execute(t.ctx.db);
    try {
      await sql`update site_regions set site_type = 'union' where site_id = ${ids.site2}`.execute(t.ctx.db);
    } finally {
      await sql`alter table site_regions enable trigger user`.execute(t.ctx.db);
    }
    const seen = (await listed(unionOnly, 'per_page=100')).data.map((site: any) => site.id);
    expect(seen).not.toContain(ids.site2);
    await sql`update site_regions g set site_type = s.type from sites s where s.id = g.site_id and g.site_id = ${ids.site2}`.execute(
      t.ctx.db,
    );
  });
});

describe('anything else', () => {
  it('a turf of two regions, a search and another order are read as before, with the same results', async () => {
    await sameAsTheSites(twoRegions, [ids.here, ids.there]);
    for (const query of ['sort=city&per_page=50', 'search=ismarck&per_page=50']) {
      const { result, queries } = await recordQueries(() => organizer.get(`/api/sites?${query}`));
      expect(result.status).toBe(200);
      expect(queries.some((q) => /from "site_regions" as "t"/.test(q.sql))).toBe(false);
    }
    const searched = await listed(organizer, 'search=ismarck&per_page=50');
    const want = await sql<{
      id: number;
    }>`select id from sites where deleted_at is null and in_region_ids && ${[ids.here]}::integer[] and name ilike '%ismarck%'
      order by created_at desc, id desc`.execute(t.ctx.db);
    expect(searched.data.map((site: any) => site.id)).toEqual(want.rows.map((row) => row.id));
  });
});

describe('their own sites outside the turf', () => {
  it('are merged into the pages in order, each with the note "outside your turf", the turf\'s own without it', async () => {
    // Sites 4, 9, 14 ... lie in Fargo, outside the organizer's turf: a task assigned to them makes one of them theirs.
    const outside = ids.site4;
    const task = await admin.post('/api/tasks', {
      title: 'Visit the Fargo site',
      type: 'call',
      taskable_type: 'site',
      taskable_id: outside,
      assignee_id: ids.organizer,
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    try {
      const inTurf = await expected([ids.here], 'name', 'asc');
      const { result, queries } = await recordQueries(() =>
        organizer.get('/api/sites?sort=name&order=asc&per_page=100'),
      );
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(queries.some((q) => /from "site_regions" as "t"/.test(q.sql))).toBe(true);
      // Which of them lie outside comes with the page, not from the turf tested again on its rows.
      expect(queries.filter((q) => /\) is true/.test(q.sql))).toHaveLength(0);
      const rows = result.body.data as Array<{ id: number; outside_turf?: boolean }>;
      const { rows: inOrder } = await sql<{ id: number }>`select id from sites where deleted_at is null
        and (in_region_ids && ${[ids.here]}::integer[] or id = ${outside}) order by lower(name), id`.execute(t.ctx.db);
      expect(rows.map((site) => site.id)).toEqual(inOrder.map((row) => row.id));
      expect(rows.filter((site) => site.outside_turf).map((site) => site.id)).toEqual([outside]);
      expect(result.body.meta.total).toBe(inTurf.length + 1);
      // The show says the same as the page, and a list the turf's page does not serve (by city) too: from the sites'
      // own regions, not from the turf tested again on their rows.
      const shown = await recordQueries(() => organizer.get(`/api/sites/${outside}`));
      expect(shown.result.body.data).toMatchObject({ outside_turf: true });
      const byCity = await recordQueries(() => organizer.get('/api/sites?sort=city&order=asc&per_page=100'));
      const cityRows = byCity.result.body.data as Array<{ id: number; outside_turf?: boolean }>;
      expect(cityRows.filter((site) => site.outside_turf).map((site) => site.id)).toEqual([outside]);
      for (const { queries: asked } of [shown, byCity])
        expect(asked.filter((q) => /\) is true/.test(q.sql))).toHaveLength(0);
    } finally {
      expect((await admin.delete(`/api/tasks/${task.body.data.id}`)).status).toBe(200);
    }
  });

  it('are each counted once however they are theirs, never deleted, and of the types the list is filtered on', async () => {
    // Fargo's sites 9 (union), 14 (pla) and 19 (non-union), and site 0 inside the turf: their work on each; site 9 also
    // names them its organizer (held twice), site 0 is in the turf anyway, and site 14 is then deleted.
    const tasks: number[] = [];
    for (const site of [ids.site9, ids.site14, ids.site19, ids.site0]) {
      const task = await admin.post('/api/tasks', {
        title: 'Walk the site',
        type: 'call',
        taskable_type: 'site',
        taskable_id: site,
        assignee_id: ids.organizer,
      });
      expect(task.status, JSON.stringify(task.body)).toBe(201);
      tasks.push(task.body.data.id);
    }
    expect((await admin.put(`/api/sites/${ids.site9}`, { user_id: ids.organizer })).status).toBe(200);
    expect((await admin.delete(`/api/sites/${ids.site14}`)).status).toBe(200);
    try {
      const theirs = [ids.site9, ids.site19];
      await sameAsTheSites(organizer, [ids.here], undefined, theirs);
      await sameAsTheSites(organizer, [ids.here], ['union'], theirs);
      await sameAsTheSites(organizer, [ids.here], ['non-union', 'pla'], theirs);
      // The sites they hold are read from whose each site is, not from the sites' rows.
      const { queries } = await recordQueries(() => organizer.get('/api/sites?sort=created_at&order=desc&per_page=7'));
      const page = queries.filter((q) => /from "site_regions" as "t"/.test(q.sql));
      expect(page).toHaveLength(1);
      expect(page[0].sql).not.toMatch(/from "sites"/);
    } finally {
      expect((await admin.post(`/api/sites/${ids.site14}/restore`)).status).toBe(200);
      expect((await admin.put(`/api/sites/${ids.site9}`, { user_id: null })).status).toBe(200);
      for (const task of tasks) expect((await admin.delete(`/api/tasks/${task}`)).status).toBe(200);
    }
  });
});
