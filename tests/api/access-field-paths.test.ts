/**
 * Field rules on the paths that read fields outside the record list (issue 31 point 1): the map's markers and clusters,
 * cards, search, filter options and point layers, and the reports' grouping. A field a role hides never leaves the
 * server through the map — not as a marker's name, type or status, a card's address, a point layer's label, a search hit or a
 * filter option — and the map refuses to filter by it (422) as the list does. A role hiding where a record is (a site's
 * latitude, a type's geo point) gets no marker for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapServiceFor } from '../../src/server/map/map-service.js';
import { ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let masked: TestClient;
let placeless: TestClient;
let site: Row;
let rally: Row;
let type: string;
const WORLD = 'bbox=-180,-85,180,85&zoom=17';
const SECRET = 'Quagmire Towers';

const get = async (client: TestClient, path: string) => {
  const res = await client.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: the answers of several map routes, each read by its own shape below
  return res.body as { data: any; meta: Record<string, unknown> & { total: Record<string, number> } };
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const statusId = (await t.ctx.db.selectFrom('site_statuses').select('id').executeTakeFirstOrThrow()).id;
  site = ok(
    await admin.post('/api/sites', {
      name: SECRET,
      type: 'union',
      street: '9 Hidden Lane',
      city: 'Fresno',
      state: 'CA',
      latitude: 36.74,
      longitude: -119.78,
      site_status_id: statusId,
    }),
    201,
  );
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Walk',
      name_plural: 'Walks',
      fields: [
        { name: 'Where', type: 'geo-point' },
        { name: 'Code', type: 'text' },
      ],
    }),
    201,
  );
  type = String(schema.type);
  rally = ok(
    await admin.post(`/api/${schema.resource}`, { name: SECRET, where: { lat: 36.7, lng: -119.7 }, code: 'QX-7' }),
    201,
  );
  const permissions = ['site:read', 'contractor:read', 'region:read', 'map:read', 'report:read', `${type}:read`];
  ok(
    await admin.post('/api/roles', {
      slug: 'map-masked',
      name: 'Map masked',
      permissions,
      policy: {
        site: {
          fields: { name: 'hidden', street: 'hidden', type: 'hidden', site_status_id: 'hidden', source: 'hidden' },
        },
        [type]: { fields: { name: 'hidden', code: 'hidden' } },
      },
    }),
    201,
  );
  ok(
    await admin.post('/api/roles', {
      slug: 'map-placeless',
      name: 'Map placeless',
      permissions,
      policy: { site: { fields: { latitude: 'hidden' } }, [type]: { fields: { where: 'hidden' } } },
    }),
    201,
  );
  await t.createUser({ role: 'map-masked', email: 'map-masked@example.com' });
  await t.createUser({ role: 'map-placeless', email: 'map-placeless@example.com' });
  masked = await t.signIn('map-masked@example.com');
  placeless = await t.signIn('map-placeless@example.com');
  mapServiceFor(t.ctx).invalidate();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the map under field rules', () => {
  it('draws the site without the name, type and status the role hides, and refuses to filter by them', async () => {
    const seen = await get(admin, `/api/map/markers?${WORLD}&layers=sites`);
    expect(seen.data.find((item: Row) => item.id === site.id)).toMatchObject({ name: SECRET, type: 'union' });
    expect(seen.meta.counts_by_type).toHaveProperty('union');
    // The administrator's index is built first: the masked role must not be handed it.
    const hidden = await get(masked, `/api/map/markers?${WORLD}&layers=sites`);
    expect(hidden.data.find((item: Row) => item.id === site.id)).toMatchObject({ name: '', type: '', status_id: null });
    expect(hidden.meta.counts_by_type).toEqual({});
    expect(JSON.stringify(hidden)).not.toContain(SECRET);
    refused(await masked.get(`/api/map/markers?${WORLD}&filter[name]=Quagmire`), 'filter.name', /name/);
    refused(
      await masked.get(`/api/map/markers?${WORLD}&filter[category]=union`),
      'filter.category',
      /may not filter by category/,
    );
    refused(await masked.get(`/api/map/regions?filter[type]=union`), 'filter.type', /type/);
    // Searching reaches only the fields the role shows: the hidden name and street find nothing.
    expect((await get(admin, `/api/map/markers?${WORLD}&q=quagmire`)).data.map((i: Row) => i.id)).toEqual([site.id]);
    expect((await get(masked, `/api/map/markers?${WORLD}&q=quagmire`)).data).toEqual([]);
    expect((await get(masked, `/api/map/markers?${WORLD}&q=hidden lane`)).data).toEqual([]);
    expect((await get(masked, `/api/map/markers?${WORLD}&q=fresno`)).data.map((i: Row) => i.id)).toEqual([site.id]);
  });

  it("shows the site's card, search hits and filter options without the hidden fields", async () => {
    const card = (await get(masked, `/api/map/marker-data?id=${site.id}`)).data;
    expect(card).toMatchObject({ id: site.id, name: '', type: '', status: null, address: 'Fresno, CA' });
    expect(JSON.stringify(card)).not.toMatch(/Quagmire|Hidden Lane/);
    expect((await get(admin, `/api/map/marker-data?id=${site.id}`)).data).toMatchObject({ name: SECRET });
    expect((await get(admin, '/api/map/search?q=quagmire')).data.map((hit: Row) => hit.id)).toContain(site.id);
    expect((await get(masked, '/api/map/search?q=quagmire')).data).toEqual([]);
    const found = (await get(masked, '/api/map/search?q=fresno')).data;
    expect(found.length).toBeGreaterThan(0);
    expect(JSON.stringify(found)).not.toMatch(/Quagmire|Hidden Lane/);
    const options = (await get(masked, '/api/map/filters')).data;
    expect(options).toMatchObject({ site_types: [], categories: [], statuses: [] });
    expect((await get(admin, '/api/map/filters')).data.statuses.length).toBeGreaterThan(0);
  });

  it("labels a type's points without a hidden name, and refuses a filter on a hidden field", async () => {
    const all = await get(admin, `/api/map/points?type=${type}&${WORLD}`);
    expect(all.data).toEqual([expect.objectContaining({ id: rally.id, name: SECRET })]);
    const points = await get(masked, `/api/map/points?type=${type}&${WORLD}`);
    expect(points.data).toEqual([expect.objectContaining({ id: rally.id, name: '' })]);
    expect(JSON.stringify(points)).not.toContain(SECRET);
    refused(await masked.get(`/api/map/points?type=${type}&${WORLD}&filter[code]=QX-7`), 'filter', /code/);
    expect((await get(admin, `/api/map/points?type=${type}&${WORLD}&filter[code]=QX-7`)).data).toHaveLength(1);
  });

  it('draws nothing of what a role may not locate', async () => {
    const markers = await get(placeless, `/api/map/markers?${WORLD}&layers=sites`);
    expect(markers.data).toEqual([]);
    expect(markers.meta.total.sites).toBe(0);
    expect((await get(placeless, '/api/map/search?q=quagmire')).data).toEqual([]);
    expect((await get(placeless, '/api/map/filters')).data.layers).toMatchObject({ sites: false });
    refused(await placeless.get(`/api/map/points?type=${type}&${WORLD}&by=where`), 'by', /may see/);
    // The layer is not offered: it has no geo point the role may see.
    expect((await get(placeless, '/api/map/point-layers')).data.map((layer: Row) => layer.type)).not.toContain(type);
  });
});

describe('reports under field rules', () => {
  it('refuses to group a report by a field the role hides', async () => {
    expect((await admin.get('/api/reports/market-share?group_by=field:source')).status).toBe(200);
    refused(await masked.get('/api/reports/market-share?group_by=field:source'), 'group_by', /no dropdown/);
    expect((await masked.get('/api/reports/market-share?group_by=none')).status).toBe(200);
  });
});
