import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/server/events/app-events.js';
import { mapServiceFor } from '../../src/server/map/map-service.js';
import { runImport, upload } from '../fixtures/upload.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createClient,
  startTestApp,
  type TestApp,
  type TestClient,
} from '../support/test-app.js';

/**
 * The server's one event bus (src/server/events/app-events.ts): the data service emits after commit, once per write;
 * listeners run after the write's answer and cannot fail a write; imports start through their service; imported sites are placed in regions once.
 */
let t: TestApp;
let admin: TestClient;
const heard: AppEvent[] = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  t.ctx.events.on((event) => void heard.push(event));
});
afterAll(async () => {
  await t?.close();
});

const eventsOf = (type: string, id?: number) =>
  heard.filter((e) => e.type === type && (id === undefined || e.id === id));

const csv = (rows: string[][]) => rows.map((r) => r.join(',')).join('\n') + '\n';

async function sitesImporter(name: string) {
  const res = await admin.post('/api/importers', {
    name,
    record_type: 'site',
    key_target: 'site.external_id',
    columns: [
      { header: 'ID', target: 'site.external_id' },
      { header: 'Name', target: 'site.name' },
      { header: 'Lat', target: 'site.latitude' },
      { header: 'Lng', target: 'site.longitude' },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}

describe('the event bus', () => {
  it('fires once per committed write, with what happened, who did it and the record', async () => {
    const created = await admin.post('/api/teams', { name: 'Bus Team' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(eventsOf('team', id)).toEqual([
      expect.objectContaining({
        event: 'created',
        type: 'team',
        id,
        record: expect.objectContaining({ name: 'Bus Team' }),
        user: expect.objectContaining({ email: 'admin@example.com' }),
      }),
    ]);
    await admin.post(`/api/teams/${id}`, { name: 'Bus Team 2' });
    await admin.delete(`/api/teams/${id}`);
    expect(eventsOf('team', id).map((e) => e.event)).toEqual(['created', 'updated', 'deleted']);
  });

  it('fires nothing for a write that rolled back', async () => {
    // The import's delete is written, then its afterWrite hook refuses (it is still running): the transaction rolls back.
    const running = await t.ctx.db
      .insertInto('imports')
      .values({ record_type: 'site', name: 'running.csv', status: 'processing' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = heard.length;
    const res = await admin.delete(`/api/imports/${running.id}`);
    expect(res.status).toBe(422);
    expect(
      (await t.ctx.db.selectFrom('imports').select('deleted_at').where('id', '=', running.id).executeTakeFirstOrThrow())
        .deleted_at,
    ).toBeNull();
    // A refused reference is checked inside the transaction too.
    expect((await admin.post('/api/sites', { name: 'Nowhere', type: 'union', site_status_id: 999_999 })).status).toBe(
      422,
    );
    expect(heard.slice(before)).toEqual([]);
  });

  it('never fails the write when a listener throws: the error is logged and the next listener still runs', async () => {
    const after: AppEvent[] = [];
    const offThrowing = t.ctx.events.on(() => {
      throw new Error('a broken listener');
    });
    const offAfter = t.ctx.events.on((event) => void after.push(event));
    try {
      const res = await admin.post('/api/teams', { name: 'Sturdy Team' });
      expect(res.status).toBe(201);
      expect(after.map((e) => `${e.event}:${e.type}:${e.id}`)).toEqual([`created:team:${res.body.data.id}`]);
      expect((await admin.get(`/api/teams/${res.body.data.id}`)).body.data.name).toBe('Sturdy Team');
    } finally {
      offThrowing();
      offAfter();
    }
  });

  it('answers the write before its listeners run; idle() waits for them', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done: string[] = [];
    const off = t.ctx.events.on(async (event) => {
      if (event.type !== 'team') return;
      await gate;
      done.push(`${event.event}:${event.id}`);
    });
    try {
      // A client that does not wait for the bus after each answer (the suite's clients do).
      const browser = createClient(t.baseUrl);
      expect((await browser.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
      const res = await browser.post('/api/teams', { name: 'Quick Team' });
      expect(res.status).toBe(201);
      expect(done).toEqual([]);
      release();
      await t.ctx.events.idle();
      expect(done).toEqual([`created:${res.body.data.id}`]);
    } finally {
      release();
      off();
    }
  });

  it('tells browsers only after the features listening have caught up (the map answers a browser that heard from fresh data)', async () => {
    const map = mapServiceFor(t.ctx);
    const before = map.generation;
    const seen: number[] = [];
    const publish = t.ctx.realtime.publish;
    t.ctx.realtime.publish = async (...args) => {
      if (args[1] === 'App.Events.ModelCreated') seen.push(map.generation);
      return publish.apply(t.ctx.realtime, args);
    };
    try {
      expect(
        (await admin.post('/api/sites', { name: 'Fresh site', type: 'union', latitude: 40.7, longitude: -74 })).status,
      ).toBe(201);
    } finally {
      t.ctx.realtime.publish = publish;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(before);
  });
});

describe('imports through their service', () => {
  it('creates the import row, its revision and its job in one write, and announces it once', async () => {
    const importer = await sitesImporter('Bus importer');
    const before = heard.length;
    const res = await upload(t, admin, '/api/imports', { importer_id: importer }, [
      {
        name: 'bus.csv',
        content: csv([
          ['ID', 'Name', 'Lat', 'Lng'],
          ['BUS-1', 'Bus site', '40.1', '-75.1'],
        ]),
      },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id;
    const row = await t.ctx.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', name: 'bus.csv', record_type: 'site', importer_id: importer });
    const revisions = await t.ctx.db
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_type', '=', 'import')
      .where('revisionable_id', '=', id)
      .execute();
    const adminUser = await t.authUser();
    expect(revisions).toEqual([
      expect.objectContaining({ action: 'created', user_id: adminUser.id, changes: { name: [null, 'bus.csv'] } }),
    ]);
    const jobs = await t.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('type', '=', 'import')
      .where(sql<boolean>`(payload->>'import_id')::int = ${id}`)
      .execute();
    expect(jobs).toHaveLength(1);
    // The bus answers the write before its listeners run: wait for them, whatever the job has done meanwhile.
    await t.ctx.events.idle();
    expect(
      heard
        .slice(before)
        .filter((e) => e.type === 'import' && e.event === 'created')
        .map((e) => `${e.event}:${e.id}`),
    ).toEqual([`created:${id}`]);
    await t.app.jobs.drain();
    await t.ctx.events.idle();
    const after = heard
      .slice(before)
      .filter((e) => e.type === 'import' || e.type === 'site')
      .map((e) => `${e.event}:${e.type}`);
    // Progress for the person, then one "many sites changed" event rather than one per row.
    expect(after).toEqual([
      'created:import',
      'ImportProcessing:import',
      'ImportProcessing:import',
      'ImportComplete:import',
      'imported:site',
    ]);
  });

  it('places each imported site in its region once, and puts it back when the import that moved it is undone', async () => {
    // Every row written to site_regions, whoever writes it.
    await sql`create table site_region_writes (site_id integer, region_id integer)`.execute(t.ctx.db);
    await sql`create function record_site_region_write() returns trigger language plpgsql as $$
      begin insert into site_region_writes values (new.site_id, new.region_id); return new; end $$`.execute(t.ctx.db);
    await sql`create trigger site_region_writes after insert on site_regions for each row execute function record_site_region_write()`.execute(
      t.ctx.db,
    );
    const box = [
      [-75.2, 40.0],
      [-75.0, 40.0],
      [-75.0, 40.2],
      [-75.2, 40.2],
      [-75.2, 40.0],
    ];
    const region = await admin.post('/api/regions', {
      name: 'Bus box',
      geometry_type: 'postal-code',
      code: '19199',
      geometry: { type: 'Polygon', coordinates: [box] },
    });
    expect(region.status, JSON.stringify(region.body)).toBe(201);
    const regionId = region.body.data.id;
    const importer = await sitesImporter('Bus regions importer');
    const first = await runImport(t, admin, importer, [
      {
        name: 'in.csv',
        content: csv([
          ['ID', 'Name', 'Lat', 'Lng'],
          ['ONCE-1', 'Inside', '40.1', '-75.1'],
          ['ONCE-2', 'Outside', '41.5', '-75.1'],
        ]),
      },
    ]);
    expect(first).toMatchObject({ status: 'complete', created_count: 2 });
    const siteId = async (externalId: string) =>
      (await admin.get(`/api/sites?filter[external_id]=${externalId}`)).body.data[0].id as number;
    const inside = await siteId('ONCE-1');
    const writes = async (site: number) =>
      (
        await sql<{ region_id: number }>`select region_id from site_region_writes where site_id = ${site}`.execute(
          t.ctx.db,
        )
      ).rows.map((r) => r.region_id);
    expect(await writes(inside)).toEqual([regionId]);
    expect(await writes(await siteId('ONCE-2'))).toEqual([]);

    const moved = await runImport(t, admin, importer, [
      {
        name: 'out.csv',
        content: csv([
          ['ID', 'Name', 'Lat', 'Lng'],
          ['ONCE-1', 'Inside', '41.5', '-75.1'],
        ]),
      },
    ]);
    expect(moved).toMatchObject({ status: 'complete', updated_count: 1 });
    const regionsOf = async (site: number) => (await admin.get(`/api/sites/${site}`)).body.data.region_ids;
    expect(await regionsOf(inside)).toEqual([]);
    expect((await admin.post(`/api/imports/${moved.id}/undo`)).status).toBe(202);
    await t.app.jobs.drain();
    expect(await regionsOf(inside)).toEqual([regionId]);
    await sql`drop trigger site_region_writes on site_regions`.execute(t.ctx.db);
  });
});
