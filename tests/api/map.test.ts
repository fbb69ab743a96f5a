import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { mapServiceFor } from '../../src/server/map/map-service.js';
import { assignSiteRegions } from '../../src/server/regions/assign.js';
import { type AreaGeometry, type Position, pointInGeometry } from '../../src/server/regions/geometry.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The map API (docs/map.md) on a real database: clusters and points at several zooms, the antimeridian and the
 * poles, every filter, region assignment, Census shapes, GeoJSON upload, and the permission filter on markers,
 * counts and cards.
 */

interface Seeded {
  id: number;
  name: string;
  type: string;
  lat: number;
  lng: number;
  status: number;
  phase: number;
  building: number;
  trades: number[];
  contractors: number[];
  gc: number | null;
  bid: string;
  kickoff: string;
  created: string;
  source: string;
  city: string;
}

let t: TestApp;
let admin: TestClient;
let assistant: TestClient;
const sites: Seeded[] = [];
const contractors: Array<{ id: number; type: string }> = [];
let statusIds: number[] = [];
let phaseIds: number[] = [];
let buildingIds: number[] = [];
let tradeIds: number[] = [];

const WORLD = 'bbox=-180,-90,180,90';
const TYPES = ['union', 'non-union', 'pla', 'mega', 'union', 'public-works'];
const SOURCES = ['dodge-data', 'manual', 'construct-connect'];
const square = (w: number, s: number, e: number, n: number): Position[] => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];

/** A repeatable pseudo-random source. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

async function seed() {
  const db = t.ctx.db;
  const idsOf = async (table: string) =>
    (
      await dynamicTables(db).selectFrom(table).select('id').where('deleted_at', 'is', null).orderBy('id').execute()
    ).map((r) => r.id as number);
  statusIds = await idsOf('site_statuses');
  phaseIds = await idsOf('site_phases');
  buildingIds = await idsOf('building_types');
  tradeIds = await idsOf('trades');
  const contractorRows = await db
    .insertInto('contractors')
    .values([
      { name: 'Union Electric', type: 'union', latitude: 34.06, longitude: -118.24, city: 'Los Angeles' },
      { name: 'Open Shop Builders', type: 'non-union', latitude: 34.04, longitude: -118.26, city: 'Los Angeles' },
      { name: 'General Works', type: 'general', latitude: 40.7, longitude: -74.0, city: 'New York' },
      { name: 'Hidden Nonunion Steel', type: 'non-union', latitude: 34.05, longitude: -118.3, city: 'Los Angeles' },
    ])
    .returning(['id', 'type'])
    .execute();
  contractors.push(...(contractorRows as Array<{ id: number; type: string }>));

  const rand = rng(42);
  const plan: Array<Omit<Seeded, 'id'>> = [];
  // 150 sites in downtown Los Angeles (about 11 km across), then a few far away.
  for (let i = 0; i < 150; i++) {
    const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    const gcPick = i % 5 === 0 ? contractors[1].id : i % 5 === 1 ? contractors[0].id : null;
    plan.push({
      name: `LA Site ${i}`,
      type: TYPES[i % TYPES.length],
      lat: 34 + rand() * 0.1,
      lng: -118.3 + rand() * 0.1,
      status: statusIds[i % statusIds.length],
      phase: phaseIds[i % phaseIds.length],
      building: buildingIds[i % buildingIds.length],
      trades: [tradeIds[i % 4], tradeIds[4 + (i % 3)]],
      contractors: i % 7 === 0 ? [contractors[3].id] : i % 7 === 1 ? [contractors[2].id] : [],
      gc: gcPick,
      bid: day(i),
      kickoff: day(100 + i),
      created: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000 * 2).toISOString(),
      source: SOURCES[i % SOURCES.length],
      city: i % 2 ? 'Los Angeles' : 'Vernon',
    });
  }
  const far = (name: string, type: string, lat: number, lng: number, city: string) =>
    plan.push({
      name,
      type,
      lat,
      lng,
      status: statusIds[0],
      phase: phaseIds[0],
      building: buildingIds[0],
      trades: [],
      contractors: [],
      gc: null,
      bid: '2026-06-01',
      kickoff: '2026-09-01',
      created: '2026-01-01T00:00:00.000Z',
      source: 'manual',
      city,
    });
  far('Brooklyn Yard', 'union', 40.68, -73.97, 'New York');
  far('Suva Wharf East', 'union', -17.8, 179.6, 'Suva');
  far('Taveuni Dock West', 'union', -16.9, -179.8, 'Taveuni');
  far('Svalbard Station', 'union', 84.9, 20, 'Longyearbyen');
  far('McMurdo Depot', 'pla', -84.5, 166.7, 'McMurdo');

  const rows = await db
    .insertInto('sites')
    .values(
      plan.map((p) => ({
        name: p.name,
        type: p.type,
        latitude: p.lat,
        longitude: p.lng,
        site_status_id: p.status,
        site_phase_id: p.phase,
        building_type_id: p.building,
        general_contractor_id: p.gc,
        bid_date: p.bid,
        kickoff_date: p.kickoff,
        source: p.source,
        city: p.city,
        state: 'CA',
        street: '1 Main St',
        created_at: p.created,
        updated_at: p.created,
      })),
    )
    .returning('id')
    .execute();
  rows.forEach((r, i) => sites.push({ id: r.id, ...plan[i] }));
  // A site without coordinates and a deleted one never reach the map.
  await db
    .insertInto('sites')
    .values([
      { name: 'Nowhere', type: 'union' },
      { name: 'Gone', type: 'union', latitude: 34.05, longitude: -118.25, deleted_at: new Date() },
    ])
    .execute();
  const trades = sites.flatMap((s) => [...new Set(s.trades)].map((trade_id) => ({ site_id: s.id, trade_id })));
  if (trades.length) await db.insertInto('site_trades').values(trades).execute();
  const links = sites.flatMap((s) => s.contractors.map((contractor_id) => ({ site_id: s.id, contractor_id })));
  if (links.length) await db.insertInto('site_contractors').values(links).execute();
  mapServiceFor(t.ctx).invalidate();
}

async function markers(client: TestClient, query: string) {
  const res = await client.get(`/api/map/markers?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; meta: any };
}

/** Site ids the map shows for these filters (zoom 17: every point apart). */
async function idsFor(client: TestClient, filters: string) {
  const { data } = await markers(client, `${WORLD}&zoom=17${filters ? `&${filters}` : ''}`);
  expect(data.every((d) => d.kind === 'site')).toBe(true);
  return data.map((d) => d.id as number).sort((a, b) => a - b);
}
const inLosAngeles = (s: Seeded) => s.lat > 33 && s.lat < 35 && s.lng > -119 && s.lng < -118;
const expected = (pick: (s: Seeded) => boolean) =>
  sites
    .filter(pick)
    .map((s) => s.id)
    .sort((a, b) => a - b);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const user = await t.createUser({ role: 'assistant' });
  assistant = await t.signIn(user.email);
  await seed();
});

afterAll(async () => {
  await t?.close();
});

describe('markers: clusters and points', () => {
  it('clusters the whole world at zoom 2 with counts that add up to every site with coordinates', async () => {
    const { data, meta } = await markers(admin, `${WORLD}&zoom=2`);
    expect(meta.total.sites).toBe(sites.length);
    expect(meta.in_view.sites).toBe(sites.length);
    const clusters = data.filter((d) => d.kind === 'cluster');
    expect(clusters.length).toBeGreaterThan(0);
    const la = clusters.find((c) => Math.abs(c.lat - 34.05) < 1 && Math.abs(c.lng + 118.25) < 1);
    expect(la.count).toBe(150);
    expect(data.reduce((n, d) => n + (d.kind === 'cluster' ? d.count : 1), 0)).toBe(sites.length);
    expect(meta.counts_by_type.union).toBe(sites.filter((s) => s.type === 'union').length);
  });

  it('splits clusters as one zooms in, down to single points', async () => {
    const la = 'bbox=-118.31,33.99,-118.19,34.11';
    const z8 = await markers(admin, `${la}&zoom=8`);
    expect(z8.data).toHaveLength(1);
    expect(z8.data[0]).toMatchObject({ kind: 'cluster', layer: 'sites', count: 150 });
    const expansion = z8.data[0].expansion_zoom;
    expect(expansion).toBeGreaterThan(8);
    const split = await markers(admin, `${la}&zoom=${expansion}`);
    expect(split.data.length).toBeGreaterThan(1);
    const z13 = await markers(admin, `${la}&zoom=13`);
    expect(z13.data.length).toBeGreaterThan(split.data.length - 1);
    expect(z13.meta.in_view.sites).toBe(150);
    const z17 = await markers(admin, `${la}&zoom=17`);
    expect(z17.data).toHaveLength(150);
    expect(z17.data.every((d) => d.kind === 'site')).toBe(true);
    const one = z17.data.find((d) => d.id === sites[0].id);
    expect(one).toMatchObject({ kind: 'site', type: sites[0].type, status_id: sites[0].status });
    expect(one.lat).toBeCloseTo(sites[0].lat, 5);
    // Only the viewport: a box west of downtown holds none of them.
    const west = await markers(admin, 'bbox=-119.5,33.9,-119.0,34.2&zoom=13');
    expect(west.data).toHaveLength(0);
    expect(west.meta.total.sites).toBe(sites.length);
  });

  it('answers boxes across the antimeridian, given wrapped or unwrapped', async () => {
    const east = sites.find((s) => s.name === 'Suva Wharf East')!.id;
    const west = sites.find((s) => s.name === 'Taveuni Dock West')!.id;
    for (const bbox of ['179,-18.5,-179,-16', '179,-18.5,181,-16', '-181,-18.5,-179,-16']) {
      const { data, meta } = await markers(admin, `bbox=${bbox}&zoom=10`);
      expect(data.map((d) => d.id).sort(), bbox).toEqual([east, west].sort());
      expect(meta.bbox).toEqual([179, -18.5, -179, -16]);
    }
    // Low zoom: the two are one cluster straddling 180°; high zoom keeps longitudes in -180..180.
    const low = await markers(admin, 'bbox=170,-25,-170,-10&zoom=3');
    expect(low.data.reduce((n, d) => n + (d.kind === 'cluster' ? d.count : 1), 0)).toBe(2);
    const onlyEast = await markers(admin, 'bbox=170,-18.5,179.9,-16&zoom=10');
    expect(onlyEast.data.map((d) => d.id)).toEqual([east]);
    expect(onlyEast.data[0].lng).toBeCloseTo(179.6, 5);
  });

  it('clamps the poles and still finds sites far north and south', async () => {
    const north = sites.find((s) => s.name === 'Svalbard Station')!.id;
    const south = sites.find((s) => s.name === 'McMurdo Depot')!.id;
    const top = await markers(admin, 'bbox=0,80,40,90&zoom=6');
    expect(top.meta.bbox[3]).toBeCloseTo(85.0511, 3);
    expect(top.data.map((d) => d.id)).toEqual([north]);
    const bottom = await markers(admin, 'bbox=160,-90,170,-80&zoom=6');
    expect(bottom.meta.bbox[1]).toBeCloseTo(-85.0511, 3);
    expect(bottom.data.map((d) => d.id)).toEqual([south]);
    const world = await markers(admin, 'bbox=-180,-90,180,90&zoom=0');
    expect(world.meta.in_view.sites).toBe(sites.length);
  });

  it('refuses a missing zoom, a bad box or an unknown layer (422)', async () => {
    expect((await admin.get(`/api/map/markers?${WORLD}`)).status).toBe(422);
    expect((await admin.get('/api/map/markers?bbox=1,2,3&zoom=3')).status).toBe(422);
    expect((await admin.get('/api/map/markers?bbox=0,50,10,40&zoom=3')).status).toBe(422);
    expect((await admin.get(`/api/map/markers?${WORLD}&zoom=3&layers=planes`)).status).toBe(422);
  });

  it('adds the contractors layer on request', async () => {
    const { data, meta } = await markers(admin, `${WORLD}&zoom=17&layers=sites,contractors`);
    expect(meta.total.contractors).toBe(contractors.length);
    expect(
      data
        .filter((d) => d.kind === 'contractor')
        .map((d) => d.id)
        .sort(),
    ).toEqual(contractors.map((c) => c.id).sort());
    const onlyUnion = await markers(admin, `${WORLD}&zoom=17&layers=contractors&filter[contractor_type]=union`);
    expect(onlyUnion.data.map((d) => d.id)).toEqual([contractors[0].id]);
  });
});

describe('markers: every filter', () => {
  it('site type and category', async () => {
    expect(await idsFor(admin, 'filter[type]=union')).toEqual(expected((s) => s.type === 'union'));
    expect(await idsFor(admin, 'filter[type][]=pla&filter[type][]=mega')).toEqual(
      expected((s) => s.type === 'pla' || s.type === 'mega'),
    );
    expect(await idsFor(admin, 'filter[category]=public-works')).toEqual(expected((s) => s.type === 'public-works'));
  });

  it('status, phase and building type', async () => {
    expect(await idsFor(admin, `filter[site_status_id]=${statusIds[1]}`)).toEqual(
      expected((s) => s.status === statusIds[1]),
    );
    expect(await idsFor(admin, `filter[site_phase_id]=${phaseIds[2]}`)).toEqual(
      expected((s) => s.phase === phaseIds[2]),
    );
    expect(await idsFor(admin, `filter[building_type_id]=${buildingIds[3]}`)).toEqual(
      expected((s) => s.building === buildingIds[3]),
    );
  });

  it('trade, contractor type and contractor', async () => {
    expect(await idsFor(admin, `filter[trade_id]=${tradeIds[5]}`)).toEqual(
      expected((s) => s.trades.includes(tradeIds[5])),
    );
    const hasType = (s: Seeded, type: string) =>
      [s.gc, ...s.contractors].some((id) => contractors.find((c) => c.id === id)?.type === type);
    expect(await idsFor(admin, 'filter[contractor_type]=non-union')).toEqual(expected((s) => hasType(s, 'non-union')));
    expect(await idsFor(admin, 'filter[contractor_type]=union')).toEqual(expected((s) => hasType(s, 'union')));
    expect(await idsFor(admin, `filter[contractor_id]=${contractors[2].id}`)).toEqual(
      expected((s) => s.contractors.includes(contractors[2].id)),
    );
  });

  it('date ranges', async () => {
    expect(await idsFor(admin, 'filter[bid_date_gte]=2025-02-01&filter[bid_date_lte]=2025-02-10')).toEqual(
      expected((s) => s.bid >= '2025-02-01' && s.bid <= '2025-02-10'),
    );
    expect(await idsFor(admin, 'filter[kickoff_date_gte]=2026-01-01')).toEqual(
      expected((s) => s.kickoff >= '2026-01-01'),
    );
    expect(await idsFor(admin, 'filter[created_at_lt]=2024-03-01')).toEqual(expected((s) => s.created < '2024-03-01'));
  });

  it('a dropdown field, search text, and several filters together', async () => {
    expect(await idsFor(admin, 'filter[source]=construct-connect')).toEqual(
      expected((s) => s.source === 'construct-connect'),
    );
    expect(await idsFor(admin, 'q=brooklyn')).toEqual(expected((s) => s.name === 'Brooklyn Yard'));
    expect(
      await idsFor(
        admin,
        `filter=${encodeURIComponent(JSON.stringify({ type: ['union'], city: 'Vernon', trade_ids: [tradeIds[0]] }))}`,
      ),
    ).toEqual(expected((s) => s.type === 'union' && s.city === 'Vernon' && s.trades.includes(tradeIds[0])));
  });

  it('refuses filters the record type does not have (422)', async () => {
    const res = await admin.get(`/api/map/markers?${WORLD}&zoom=3&filter[password]=x`);
    expect(res.status).toBe(422);
  });
});

describe('regions', () => {
  // Downtown with a hole in the middle: sites in the hole are not in the region.
  const downtown: AreaGeometry = {
    type: 'Polygon',
    coordinates: [square(-118.3, 34.0, -118.25, 34.1), square(-118.29, 34.04, -118.27, 34.06)],
  };
  let regionId: number;

  it('places sites in a region created through the API (bbox prefilter, then point in polygon with holes)', async () => {
    const res = await admin.post('/api/regions', {
      name: 'Downtown West',
      geometry_type: 'postal-code',
      code: '90099',
      color: '#ff0000',
      geometry: downtown,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    regionId = res.body.data.id;
    expect(res.body.data.geometry).toBeUndefined(); // never in lists or records
    expect(res.body.data).toMatchObject({ min_lng: -118.3, min_lat: 34, max_lng: -118.25, max_lat: 34.1 });
    const inside = expected((s) => pointInGeometry(s.lng, s.lat, downtown));
    expect(inside.length).toBeGreaterThan(10);
    expect(inside.length).toBeLessThan(150);
    expect(await idsFor(admin, `filter[region_id]=${regionId}`)).toEqual(inside);
    const list = await admin.get('/api/map/regions?geometry_type=postal-code');
    const region = list.body.data.find((r: any) => r.id === regionId);
    expect(region).toMatchObject({ site_count: inside.length, color: '#ff0000', bbox: [-118.3, 34, -118.25, 34.1] });
  });

  it('refuses a broken shape (422)', async () => {
    const res = await admin.post('/api/regions', {
      name: 'Broken',
      geometry_type: 'county',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
          ],
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.geometry[0]).toMatch(/fewer than 4 positions/);
  });

  it('works out a site saved through the API: inside, moved out, moved back', async (test) => {
    if (!t.ctx.resources.get('sites')) test.skip(); // the sites resource belongs to the records feature
    const created = await admin.post('/api/sites', {
      name: 'Hole Test',
      type: 'union',
      latitude: 34.02,
      longitude: -118.28,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    const regionsOf = async () =>
      (await t.ctx.db.selectFrom('site_regions').select('region_id').where('site_id', '=', id).execute()).map(
        (r) => r.region_id,
      );
    expect(await regionsOf()).toContain(regionId);
    const moved = await admin.post(`/api/sites/${id}`, { latitude: 34.05, longitude: -118.28 }); // into the hole
    expect(moved.status).toBe(200);
    expect(await regionsOf()).not.toContain(regionId);
    expect(await idsFor(admin, `filter[region_id]=${regionId}`)).not.toContain(id);
    await admin.post(`/api/sites/${id}`, { latitude: 34.08, longitude: -118.26 });
    expect(await regionsOf()).toContain(regionId);
    expect(await idsFor(admin, `filter[region_id]=${regionId}`)).toContain(id);
    await admin.delete(`/api/sites/${id}`);
  });

  it('assignSiteRegions places one point (the hook the sites resource calls on save)', async () => {
    const site = sites[0];
    const placed = await t.ctx.db.transaction().execute((trx) => assignSiteRegions(trx, site.id, 34.02, -118.28));
    expect(placed).toContain(regionId);
    const inHole = await t.ctx.db.transaction().execute((trx) => assignSiteRegions(trx, site.id, 34.05, -118.28));
    expect(inHole).not.toContain(regionId);
    await t.ctx.db.transaction().execute((trx) => assignSiteRegions(trx, site.id, site.lat, site.lng));
  });

  it('places the sites of a finished import (written in batches, without a model event per site)', async () => {
    const user = await t.authUser();
    const imported = await t.ctx.db
      .insertInto('imports')
      .values({ record_type: 'site', name: 'sites.csv', status: 'complete' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // What the import job does with a chunk of rows: the data service's batch path, in the chunk's transaction.
    const outcomes = await t.ctx.db
      .transaction()
      .execute((trx) =>
        t.ctx.records.importBatch(
          trx,
          user,
          t.ctx.resources.get('sites')!,
          [
            { values: { name: 'Imported Inside', type: 'union', latitude: 34.02, longitude: -118.28 } },
            { values: { name: 'Imported Outside', type: 'union', latitude: 34.05, longitude: -118.28 } },
          ],
          { importId: imported.id, keyField: null },
        ),
      );
    const [a, b] = outcomes.map((outcome) => ({ id: outcome.id! }));
    const regionsOf = async (id: number) =>
      (await t.ctx.db.selectFrom('site_regions').select('region_id').where('site_id', '=', id).execute()).map(
        (r) => r.region_id,
      );
    expect(await regionsOf(a.id)).toContain(regionId);
    expect(await regionsOf(b.id)).not.toContain(regionId); // in the hole
    await t.ctx.db.updateTable('sites').set({ deleted_at: new Date() }).where('id', 'in', [a.id, b.id]).execute();
    mapServiceFor(t.ctx).invalidate();
  });

  it('loads the US states from the Census package and places every site in its state', async () => {
    const res = await admin.post('/api/regions/load-us', { level: 'states' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.created).toBe(56);
    const list = await admin.get('/api/map/regions?geometry_type=state&q=california');
    const california = list.body.data.find((r: any) => r.code === '06');
    expect(california.site_count).toBe(150); // the downtown LA sites; not Brooklyn, Fiji or the poles
    const ny = (await admin.get('/api/map/regions?geometry_type=state&q=new york')).body.data.find(
      (r: any) => r.code === '36',
    );
    expect(ny.site_count).toBe(1);
    // Loading again replaces shapes rather than duplicating them.
    const again = await admin.post('/api/regions/load-us', { level: 'states', states: ['CA'] });
    expect(again.body.data).toMatchObject({ created: 0, updated: 1 });
    expect((await admin.post('/api/regions/load-us', { level: 'states', states: ['Atlantis'] })).status).toBe(422);
    expect((await assistant.post('/api/regions/load-us', { level: 'states' })).status).toBe(403);
  });

  it('loads counties on demand when the shape picker first asks for them', async () => {
    const res = await admin.get('/api/options/geometries?type=county&state=CA&q=los angeles');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), name: 'Los Angeles County, CA', geometry_type: 'county', code: '06037' },
    ]);
    const counties = await t.ctx.db
      .selectFrom('regions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('geometry_type', '=', 'county')
      .executeTakeFirstOrThrow();
    expect(Number(counties.n)).toBe(58); // California's counties only
    const la = (await admin.get(`/api/map/regions/${res.body.data[0].id}`)).body.data;
    expect(la.site_count).toBe(150);
    expect(la.geometry.type).toMatch(/Polygon/);
    const states = await admin.get('/api/options/geometries?type=state&q=nev');
    expect(states.body.data.map((s: any) => s.name)).toEqual(['Nevada']);
  });

  it('serves shapes simplified for the zoom, only those in view, coloured by a measure', async () => {
    const low = await admin.get(
      '/api/map/regions-geojson?zoom=3&bbox=-125,30,-110,45&geometry_type=state&measure=union_share',
    );
    expect(low.status).toBe(200);
    expect(low.body.type).toBe('FeatureCollection');
    const codes = low.body.features.map((f: any) => f.properties.code).sort();
    expect(codes).toContain('06');
    expect(codes).toContain('32');
    expect(codes).not.toContain('36'); // New York is not in view
    const ca = low.body.features.find((f: any) => f.properties.code === '06');
    const la = sites.filter(inLosAngeles);
    const union = la.filter((s) => s.type === 'union' || s.type === 'pla').length;
    const nonUnion = la.filter((s) => s.type === 'non-union').length;
    expect(ca.properties.union_share).toBeCloseTo(union / (union + nonUnion), 3);
    expect(ca.properties.fill).toMatch(/^#[0-9a-f]{6}$/);
    const nv = low.body.features.find((f: any) => f.properties.code === '32');
    expect(nv.properties).toMatchObject({ site_count: 0, value: null, fill: '#bdbdbd' });
    const high = await admin.get('/api/map/regions-geojson?zoom=10&bbox=-125,30,-110,45&geometry_type=state');
    const size = (body: unknown) => JSON.stringify(body).length;
    expect(size(low.body)).toBeLessThan(size(high.body));
    expect(size(low.body)).toBeLessThan(100_000);
    // Across the antimeridian: Alaska's Aleutians reach past 180°.
    const aleutians = await admin.get('/api/map/regions-geojson?zoom=5&bbox=170,45,-170,60&geometry_type=state');
    expect(aleutians.body.features.map((f: any) => f.properties.code)).toEqual(['02']);
  });

  it('sets colours in bulk and restores a deleted region with its sites', async () => {
    const ca = (await admin.get('/api/options/geometries?type=state&q=california')).body.data[0].id;
    const colours = await admin.post('/api/regions/colors', {
      colors: [
        { id: regionId, color: '#00ff00' },
        { id: ca, color: '#0000ff' },
      ],
    });
    expect(colours.status, JSON.stringify(colours.body)).toBe(200);
    expect(colours.body.data.map((r: any) => r.color)).toEqual(['#00ff00', '#0000ff']);
    expect((await admin.post('/api/regions/colors', { colors: [{ id: regionId, color: 'green' }] })).status).toBe(422);
    expect((await assistant.post('/api/regions/colors', { ids: [regionId], color: '#123456' })).status).toBe(403);
    const auto = await admin.post('/api/regions/colors', { ids: [regionId, ca], auto: true });
    expect(auto.body.data.map((r: any) => r.color)).toEqual(['#1e88e5', '#43a047']);

    expect((await admin.delete(`/api/regions/${regionId}`)).status).toBe(200);
    expect((await admin.get(`/api/map/regions/${regionId}`)).status).toBe(404);
    expect(await idsFor(admin, `filter[region_id]=${regionId}`)).toEqual([]);
    expect((await admin.post(`/api/regions/${regionId}/restore`)).status).toBe(200);
    const back = await admin.get(`/api/map/regions/${regionId}`);
    expect(back.body.data.site_count).toBe(expected((s) => pointInGeometry(s.lng, s.lat, downtown)).length);
  });
});

describe('GeoJSON upload', () => {
  const zipFile = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { ZCTA5CE20: '90013' },
        geometry: { type: 'Polygon', coordinates: [square(-118.25, 34.0, -118.2, 34.1)] },
      },
      {
        type: 'Feature',
        properties: { ZCTA5CE20: '10001', NAME20: 'Chelsea' },
        geometry: { type: 'MultiPolygon', coordinates: [[square(-74.1, 40.6, -73.9, 40.8)]] },
      },
    ],
  };
  const upload = (client: TestClient, text: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([text], { type: 'application/geo+json' }), 'zips.geojson');
    return fetch(`${t.baseUrl}/api/regions/upload`, {
      method: 'POST',
      body: form,
      headers: {
        accept: 'application/json',
        cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN') ?? ''),
      },
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  };

  it('uploads postal codes as regions and places the sites inside them', async () => {
    await admin.csrf();
    const res = await upload(admin, JSON.stringify(zipFile), { geometry_type: 'postal-code' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ created: 2, updated: 0 });
    const [downtownZip, chelsea] = res.body.data.region_ids;
    expect(await idsFor(admin, `filter[region_id]=${downtownZip}`)).toEqual(
      expected((s) => s.lng >= -118.25 && s.lng <= -118.2 && s.lat >= 34 && s.lat <= 34.1),
    );
    expect(await idsFor(admin, `filter[region_id]=${chelsea}`)).toEqual(expected((s) => s.name === 'Brooklyn Yard'));
    const picked = await admin.get('/api/options/geometries?type=postal-code&q=chel');
    expect(picked.body.data).toEqual([{ id: chelsea, name: 'Chelsea', geometry_type: 'postal-code', code: '10001' }]);
  });

  it('refuses a bad file whole, with the reason', async () => {
    const before = await t.ctx.db
      .selectFrom('regions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const openRing = structuredClone(zipFile);
    openRing.features[1].geometry.coordinates[0][0].pop();
    const bad = await upload(admin, JSON.stringify(openRing));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.file[0]).toMatch(/Feature 2.*not closed/);
    expect((await upload(admin, '{"type": "FeatureCollection", "features": [')).status).toBe(422);
    expect((await upload(admin, JSON.stringify({ type: 'Topology', objects: {} }))).body.errors.file[0]).toMatch(
      /FeatureCollection/,
    );
    expect((await upload(admin, JSON.stringify(zipFile), { geometry_type: 'country' })).status).toBe(422);
    const after = await t.ctx.db
      .selectFrom('regions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    await assistant.csrf();
    expect((await upload(assistant, JSON.stringify(zipFile))).status).toBe(403);
  });

  it('also takes the GeoJSON in a JSON body', async () => {
    const res = await admin.post('/api/regions/upload', {
      geometry_type: 'postal-code',
      data: { type: 'Feature', properties: { code: '90014' }, geometry: zipFile.features[0].geometry },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.created).toBe(1);
  });
});

describe('cards', () => {
  it('gives a site card with address, type, status, contractors, last activity and actions', async () => {
    const site = sites.find((s) => s.gc === contractors[1].id && s.contractors.includes(contractors[3].id))!;
    await t.ctx.db
      .insertInto('notes')
      .values({
        body: 'Talked to the foreman about the crew.',
        notable_type: 'site',
        notable_id: site.id,
        created_at: new Date('2030-01-01T00:00:00Z'),
      })
      .execute();
    const res = await admin.get(`/api/map/marker-data?id=${site.id}`);
    expect(res.status).toBe(200);
    const status = await t.ctx.db
      .selectFrom('site_statuses')
      .select(['id', 'name'])
      .where('id', '=', site.status)
      .executeTakeFirstOrThrow();
    expect(res.body.data).toMatchObject({
      kind: 'site',
      id: site.id,
      name: site.name,
      address: `1 Main St, ${site.city}, CA`,
      type: site.type,
      status: { id: status.id, name: status.name },
      last_activity: { kind: 'note', summary: 'Talked to the foreman about the crew.', at: '2030-01-01T00:00:00.000Z' },
      actions: [
        { name: 'open', label: 'Open', href: `/sites/${site.id}/show` },
        { name: 'panel', label: 'Open in side panel', resource: 'sites', id: site.id },
      ],
    });
    expect(res.body.data.contractors.map((c: any) => c.name).sort()).toEqual([
      'Hidden Nonunion Steel',
      'Open Shop Builders',
    ]);
    expect(res.body.data.contractors.find((c: any) => c.id === contractors[1].id).role).toBe('general');
  });

  it('gives a contractor card, and 404 for what does not exist', async () => {
    const res = await admin.get(`/api/map/marker-data?kind=contractor&id=${contractors[0].id}`);
    expect(res.body.data).toMatchObject({
      kind: 'contractor',
      name: 'Union Electric',
      type: 'union',
      sites_count: expected((s) => s.gc === contractors[0].id).length,
    });
    expect((await admin.get('/api/map/marker-data?id=999999')).status).toBe(404);
    expect((await admin.get('/api/map/marker-data?id=abc')).status).toBe(422);
  });

  it('searches sites, places and regions to jump to', async () => {
    const res = await admin.get('/api/map/search?q=vern');
    expect(res.status).toBe(200);
    expect(res.body.data.find((d: any) => d.kind === 'place')).toMatchObject({
      label: 'Vernon, CA',
      detail: '75 sites',
    });
    const byName = await admin.get('/api/map/search?q=Suva');
    expect(byName.body.data[0]).toMatchObject({ kind: 'site', label: 'Suva Wharf East' });
    const region = await admin.get('/api/map/search?q=Nevada');
    expect(
      region.body.data.filter((d: any) => d.kind === 'region').map((d: any) => `${d.label} (${d.detail})`),
    ).toEqual(['Nevada County, CA (county)', 'Nevada (state)']);
  });
});

describe('permissions: what a person may not read never reaches them', () => {
  // The assistant role reads union and PLA sites, and union contractors, only.
  const readable = (s: Seeded) => s.type === 'union' || s.type === 'pla';

  it('markers and counts hold no site outside the permitted categories', async () => {
    const { data, meta } = await markers(assistant, `${WORLD}&zoom=2`);
    const visible = sites.filter(readable).length;
    expect(meta.total.sites).toBe(visible);
    expect(meta.in_view.sites).toBe(visible);
    expect(data.reduce((n, d) => n + (d.kind === 'cluster' ? d.count : 1), 0)).toBe(visible);
    expect(Object.keys(meta.counts_by_type).sort()).toEqual(['pla', 'union']);
    expect(await idsFor(assistant, '')).toEqual(expected(readable));
    // Asking for non-union sites by filter yields nothing rather than an error or a leak.
    expect(await idsFor(assistant, 'filter[type]=non-union')).toEqual([]);
    // Nor can a filter on contractors they may not read reveal which sites have them.
    expect(await idsFor(assistant, 'filter[contractor_type]=non-union')).toEqual([]);
    expect(await idsFor(assistant, 'filter[contractor_type]=union')).toEqual(
      expected((s) => readable(s) && s.gc === contractors[0].id),
    );
    const layers = await markers(assistant, `${WORLD}&zoom=17&layers=contractors`);
    expect(layers.data.map((d) => d.id)).toEqual([contractors[0].id]);
  });

  it('region counts leave out unreadable sites', async () => {
    const ca = (await assistant.get('/api/map/regions?geometry_type=state&q=california')).body.data[0];
    expect(ca.site_count).toBe(sites.filter((s) => readable(s) && inLosAngeles(s)).length);
    expect(ca.non_union_sites).toBe(0);
    const geo = await assistant.get(
      '/api/map/regions-geojson?zoom=4&bbox=-125,30,-110,45&geometry_type=state&measure=sites',
    );
    expect(geo.body.features.find((f: any) => f.properties.code === '06').properties.value).toBe(ca.site_count);
  });

  it('cards of unreadable sites and contractors are 404, and readable cards hide unreadable contractors', async () => {
    const nonUnion = sites.find((s) => s.type === 'non-union')!;
    expect((await assistant.get(`/api/map/marker-data?id=${nonUnion.id}`)).status).toBe(404);
    expect((await assistant.get(`/api/map/marker-data?kind=contractor&id=${contractors[1].id}`)).status).toBe(404);
    const union = sites.find((s) => s.type === 'union' && s.contractors.includes(contractors[3].id))!;
    const card = await assistant.get(`/api/map/marker-data?id=${union.id}`);
    expect(card.status).toBe(200);
    expect(card.body.data.contractors.map((c: any) => c.type)).not.toContain('non-union');
    const search = await assistant.get('/api/map/search?q=LA Site');
    expect(
      search.body.data
        .filter((d: any) => d.kind === 'site')
        .every((d: any) => readable(sites.find((s) => s.id === d.id)!)),
    ).toBe(true);
  });

  it('the map needs map:read and the map feature', async () => {
    const orphan = await t.ctx.db
      .insertInto('roles')
      .values({ name: 'No Map', slug: 'no-map', permissions: JSON.stringify(['site:read']) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await t.createUser({ role: 'no-map' });
    const client = await t.signIn(user.email);
    expect((await client.get(`/api/map/markers?${WORLD}&zoom=2`)).status).toBe(403);
    expect((await t.client().get(`/api/map/markers?${WORLD}&zoom=2`)).status).toBe(401);
    void orphan;
    await t.ctx.db
      .updateTable('features')
      .set({ enabled: false, updated_at: new Date() })
      .where('slug', '=', 'map')
      .execute();
    mapServiceFor(t.ctx).invalidate();
    expect((await admin.get(`/api/map/markers?${WORLD}&zoom=2`)).status).toBe(404);
    await t.ctx.db
      .updateTable('features')
      .set({ enabled: true, updated_at: new Date() })
      .where('slug', '=', 'map')
      .execute();
    mapServiceFor(t.ctx).invalidate();
    expect((await admin.get(`/api/map/markers?${WORLD}&zoom=2`)).status).toBe(200);
  });
});

describe('live', () => {
  it('a site created, moved or deleted through the API shows on the next markers call', async (test) => {
    if (!t.ctx.resources.get('sites')) test.skip();
    const before = await markers(admin, `${WORLD}&zoom=2`);
    const generation = mapServiceFor(t.ctx).generation;
    const created = await admin.post('/api/sites', {
      name: 'Live One',
      type: 'union',
      latitude: 47.6,
      longitude: -122.33,
    });
    expect(created.status).toBe(201);
    // The model event itself marks the indexes stale (not the once-a-second fingerprint).
    expect(mapServiceFor(t.ctx).generation).toBeGreaterThan(generation);
    const id = created.body.data.id;
    const after = await markers(admin, `${WORLD}&zoom=2`);
    expect(after.meta.total.sites).toBe(before.meta.total.sites + 1);
    expect((await markers(admin, 'bbox=-122.4,47.5,-122.3,47.7&zoom=15')).data.map((d) => d.id)).toEqual([id]);
    await admin.post(`/api/sites/${id}`, { latitude: 45.52, longitude: -122.68 });
    expect((await markers(admin, 'bbox=-122.4,47.5,-122.3,47.7&zoom=15')).data).toEqual([]);
    expect((await markers(admin, 'bbox=-122.7,45.5,-122.6,45.6&zoom=15')).data.map((d) => d.id)).toEqual([id]);
    await admin.delete(`/api/sites/${id}`);
    expect((await markers(admin, 'bbox=-122.7,45.5,-122.6,45.6&zoom=15')).data).toEqual([]);
  });
});
