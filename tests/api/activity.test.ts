import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedKind } from '../../src/server/activity/feed.js';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { importerId, runImport } from '../fixtures/upload.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/** GET /api/actions: the activity feed built on the revisions every write leaves. */
let t: TestApp;
let superAdmin: TestClient; // the seeded Super Administrator: an incognito role
let admin: TestClient; // Administrator: not incognito, may not see incognito actions
let leader: TestClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  await seedReadyMadeImporters(t.database.db);
  superAdmin = await t.admin();
  ids.admin = (
    await t.createUser({ role: 'admin', first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com' })
  ).id;
  ids.leader = (
    await t.createUser({ role: 'leader', first_name: 'Lee', last_name: 'Leader', email: 'lee@example.com' })
  ).id;
  admin = await t.signIn('ada@example.com');
  leader = await t.signIn('lee@example.com');
});
afterAll(async () => {
  await t?.close();
});

const feed = async (client: TestClient, query = '') => {
  const res = await client.get(`/api/actions${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /api/actions', () => {
  it('lists what happened newest first, each entry naming the person, the record and its link', async () => {
    const created = await admin.post('/api/teams', { name: 'Harbor Organizers' });
    expect(created.status).toBe(201);
    ids.team = created.body.data.id;
    expect((await admin.post(`/api/teams/${ids.team}`, { description: 'Port and rail' })).status).toBe(200);
    expect((await admin.delete(`/api/teams/${ids.team}`)).status).toBe(200);
    expect((await admin.post(`/api/teams/${ids.team}/restore`)).status).toBe(200);

    const body = await feed(leader, '?type=team');
    const mine = body.data.filter((e: any) => e.record_id === ids.team);
    expect(mine.map((e: any) => e.kind)).toEqual(['restored', 'deleted', 'updated', 'created']);
    expect(mine[0]).toMatchObject({
      type: 'team',
      type_name: 'Team',
      resource: 'teams',
      record_label: 'Harbor Organizers',
      link: `/teams/${ids.team}/show`,
      user: { id: ids.admin, name: 'Ada Admin' },
    });
    expect(mine[2].fields).toEqual(['description']);
    // Values of changes only for those who may read the history (revision:read): the leader may.
    expect(mine[2].changes).toEqual({ description: [null, 'Port and rail'] });
    const ids_ = body.data.map((e: any) => e.id);
    expect([...ids_].sort((a: number, b: number) => b - a)).toEqual(ids_);
  });

  it('hides the actions of incognito users from those who may not see them', async () => {
    const secret = await superAdmin.post('/api/teams', { name: 'Secret Squad' });
    expect(secret.status).toBe(201);
    const seen = (body: any) => body.data.some((e: any) => e.record_id === secret.body.data.id && e.type === 'team');
    expect(seen(await feed(leader))).toBe(false);
    expect(seen(await feed(admin))).toBe(false); // Administrators lack revision:read:incognito
    expect(seen(await feed(superAdmin))).toBe(true);
    // The history follows the same rule.
    const history = await leader.get(`/api/revisions?type=team&revisionable_id=${secret.body.data.id}`);
    expect(history.status).toBe(200);
    expect(history.body.data).toHaveLength(0);
    // Filtering by the incognito person gives nothing either.
    const superId = (
      await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()
    ).id;
    expect((await feed(leader, `?user_id=${superId}`)).data).toHaveLength(0);
    expect((await feed(superAdmin, `?user_id=${superId}`)).data.length).toBeGreaterThan(0);
  });

  it('never shows records of a type the person may not read', async () => {
    // The assistant role may read teams but not roles or users.
    await t.createUser({ role: 'assistant', email: 'ana@example.com' });
    expect(
      (await admin.post('/api/roles', { slug: 'visitor', name: 'Visitor', permissions: ['feature:read'] })).status,
    ).toBe(201);
    expect((await admin.post(`/api/users/${ids.leader}`, { last_name: 'Leader-Smith' })).status).toBe(200);
    expect((await feed(superAdmin, '?type=role,user')).data.length).toBeGreaterThanOrEqual(2);
    const assistant = await t.signIn('ana@example.com');
    const body = await feed(assistant);
    expect(body.data.filter((e: any) => e.type === 'role' || e.type === 'user')).toHaveLength(0);
    expect(body.data.some((e: any) => e.type === 'team')).toBe(true);
    // ...and no values of changes without revision:read.
    for (const entry of body.data) expect(entry.changes).toBeUndefined();
  });

  it('never shows sites of a category the person may not read', async () => {
    if (!t.ctx.resources.get('sites')) {
      // The sites resource is not served yet: the rule is the record service's, so revisions of sites are hidden from all.
      await t.ctx.db
        .insertInto('revisions')
        .values({ revisionable_type: 'site', revisionable_id: 1, action: 'created', user_id: ids.admin })
        .execute();
      expect((await feed(admin, '?type=site')).data).toHaveLength(0);
      return;
    }
    const union = await admin.post('/api/sites', { name: 'Union Tower', type: 'union' });
    const nonUnion = await admin.post('/api/sites', { name: 'Open Shop Plaza', type: 'non-union' });
    expect(union.status).toBe(201);
    expect(nonUnion.status).toBe(201);
    const assistant = await t.signIn('ana@example.com'); // site:read:union and site:read:pla only
    const labels = (await feed(assistant, '?type=site')).data.map((e: any) => e.record_label);
    expect(labels).toContain('Union Tower');
    expect(labels).not.toContain('Open Shop Plaza');
    // A site changed to a category the person may not read disappears from their feed, history included.
    expect((await admin.post(`/api/sites/${union.body.data.id}`, { type: 'non-union' })).status).toBe(200);
    expect((await feed(assistant, '?type=site')).data.map((e: any) => e.record_label)).not.toContain('Union Tower');
    expect((await feed(admin, '?type=site')).data.map((e: any) => e.record_label)).toContain('Union Tower');
  });

  it('filters by person, record type, action and date, and pages with a cursor', async () => {
    for (let i = 0; i < 5; i++) expect((await admin.post('/api/teams', { name: `Page team ${i}` })).status).toBe(201);
    const first = await feed(leader, `?user_id=${ids.admin}&type=teams&action=created&per_page=3`);
    expect(first.data).toHaveLength(3);
    expect(first.data.every((e: any) => e.user.id === ids.admin && e.type === 'team' && e.action === 'created')).toBe(
      true,
    );
    expect(first.meta.has_more).toBe(true);
    const second = await feed(
      leader,
      `?user_id=${ids.admin}&type=teams&action=created&per_page=3&before=${first.meta.next_before}`,
    );
    expect(second.data[0].id).toBeLessThan(first.data[2].id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await feed(leader, `?from=${today}&to=${today}`)).data.length).toBeGreaterThan(0);
    expect((await feed(leader, '?from=2000-01-01&to=2000-01-31')).data).toHaveLength(0);
    const newest = (await feed(leader)).meta.newest;
    expect((await feed(leader, `?after=${newest}`)).data).toHaveLength(0);
    expect((await leader.get('/api/actions?per_page=0')).status).toBe(422);
    expect((await leader.get('/api/actions?action=exploded')).status).toBe(422);
    expect((await t.client().get('/api/actions')).status).toBe(401);
  });

  it('names notes added, tasks done and imports finished', () => {
    expect(feedKind('task', 'updated', { completed_at: [null, '2026-01-01T00:00:00Z'] })).toBe('task-completed');
    expect(feedKind('task', 'updated', { title: ['a', 'b'] })).toBe('updated');
    expect(feedKind('note', 'created', {})).toBe('note-added');
    expect(feedKind('import', 'updated', { status: ['processing', 'complete'] })).toBe('import-finished');
    expect(feedKind('site', 'imported', {})).toBe('imported');
  });
});

/** Every entry of the feed, page by page with the cursor. */
async function allPages(client: TestClient, query: string, perPage: number) {
  const entries: any[] = [];
  let before: number | null = null;
  for (let guard = 0; guard < 500; guard++) {
    const body = await feed(client, `?per_page=${perPage}${query}${before ? `&before=${before}` : ''}`);
    entries.push(...body.data);
    if (!body.meta.has_more) return entries;
    before = body.meta.next_before;
  }
  throw new Error('the feed never ended');
}

const square = (w: number, s: number, size = 0.1) => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [w + size, s],
      [w + size, s + size],
      [w, s + size],
      [w, s],
    ],
  ],
});

describe('bulk changes in the activity feed', () => {
  it('shows a load the system made on demand as one entry by the system', async () => {
    const res = await leader.get('/api/options/geometries?type=state');
    expect(res.status).toBe(200);
    const [first] = (await feed(leader)).data;
    expect(first.user).toBeNull();
    expect(first.type).toBe('region');
    const regions = await t.ctx.db
      .selectFrom('regions')
      .select(t.ctx.db.fn.countAll<number>().as('n'))
      .where('geometry_type', '=', 'state')
      .executeTakeFirstOrThrow();
    expect(Number(regions.n)).toBeGreaterThan(50);
    expect(first.group.count).toBe(Number(regions.n));
  });

  it('shows a region upload and a Census load (new shapes for regions there already) as one entry each, with their counts, and people’s edits one by one', async () => {
    expect((await admin.post('/api/teams', { name: 'Before the upload' })).status).toBe(201);
    const upload = await admin.post('/api/regions/upload', {
      geometry_type: 'postal-code',
      data: {
        type: 'FeatureCollection',
        features: [0, 1, 2, 3].map((i) => ({
          type: 'Feature',
          properties: { name: `Turf ${i}`, code: `T${i}` },
          geometry: square(-118 + i * 0.2, 34),
        })),
      },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const edit = await admin.post('/api/teams', { name: 'After the upload' });
    expect(edit.status).toBe(201);
    expect((await admin.post(`/api/teams/${edit.body.data.id}`, { description: 'Changed by hand' })).status).toBe(200);
    const load = await admin.post('/api/regions/load-us', { level: 'states', states: ['CA', 'NV', 'OR'] });
    expect(load.status).toBe(200);

    const body = await feed(leader);
    const [census, changed, created, uploaded, before] = body.data;
    expect(census).toMatchObject({
      kind: 'imported',
      type: 'region',
      record_id: null,
      link: '/regions',
      user: { id: ids.admin, name: 'Ada Admin' },
    });
    expect(census.group).toMatchObject({
      count: 3,
      parts: [{ type: 'region', action: 'imported', count: 3, type_plural: 'Regions' }],
    });
    expect(changed).toMatchObject({
      kind: 'updated',
      type: 'team',
      record_label: 'After the upload',
      group: null,
      fields: ['description'],
    });
    expect(created).toMatchObject({ kind: 'created', type: 'team', record_label: 'After the upload', group: null });
    expect(uploaded.group).toMatchObject({ count: 4, parts: [{ type: 'region', count: 4 }] });
    expect(uploaded.user).toEqual({ id: ids.admin, name: 'Ada Admin' });
    expect(before).toMatchObject({ kind: 'created', record_label: 'Before the upload', group: null });
    // Opening a group: its revisions one by one.
    const opened = await feed(leader, `?batch=${encodeURIComponent(uploaded.group.key)}`);
    expect(opened.data.map((e: any) => e.record_label).sort()).toEqual(['Turf 0', 'Turf 1', 'Turf 2', 'Turf 3']);
    expect(opened.data.every((e: any) => e.group === null && e.kind === 'imported')).toBe(true);
  });

  it('shows an import as one entry naming its file, an undo as another, and each group only with what the person may read', async () => {
    const importer = await importerId(t, 'vendor-job-sites');
    const csv = [
      'Dodge Report Number,Project Title,Project Type,City,State,Latitude,Longitude,General Contractor',
      '9001,Union Hall Annex,Union,Los Angeles,CA,34.05,-118.25,Grouped Builders',
      '9002,Open Shop Depot,Non-Union,Los Angeles,CA,34.06,-118.26,Grouped Builders',
      '9003,Labor Temple,Union,Los Angeles,CA,34.07,-118.27,Other Builders',
    ].join('\n');
    const done = await runImport(t, admin, importer, [{ name: 'weekly-vendor.csv', content: csv }]);
    expect(done).toMatchObject({ status: 'complete', created_count: 3 });
    expect((await admin.post('/api/teams', { name: 'After the import' })).status).toBe(201);

    const body = await feed(leader, '?per_page=10');
    const group = body.data.find((e: any) => e.group && e.import_id === done.id);
    expect(group).toMatchObject({
      kind: 'imported',
      type: 'site',
      record_label: 'weekly-vendor.csv',
      link: `/imports/${done.id}/show`,
      user: { id: ids.admin },
    });
    expect(group.group.parts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'site', action: 'imported', count: 3 }),
        expect.objectContaining({ type: 'contractor', count: 2 }),
      ]),
    );
    expect(group.group.count).toBe(5);
    expect(body.data[0]).toMatchObject({ type: 'team', record_label: 'After the import' });
    // The import record's own revision (it was created) stays an entry of its own.
    expect(body.data.some((e: any) => e.type === 'import' && e.record_id === done.id && e.group === null)).toBe(true);

    // The assistant reads union sites only, and no imports: two sites, no file name, the list as the link.
    const assistant = await t.signIn('ana@example.com'); // created above: reads union and PLA sites only
    const seen = (await feed(assistant)).data.find((e: any) => e.group && e.type === 'site');
    expect(seen.group.parts).toEqual([expect.objectContaining({ type: 'site', count: 2 })]);
    expect(seen).toMatchObject({ record_label: null, link: '/sites', import_id: null });
    const openedByAssistant = await feed(assistant, `?batch=${encodeURIComponent(seen.group.key)}`);
    expect(openedByAssistant.data.map((e: any) => e.record_label).sort()).toEqual(['Labor Temple', 'Union Hall Annex']);

    // Undo: one entry too.
    expect((await admin.post(`/api/imports/${done.id}/undo`)).status).toBeLessThan(300);
    await t.app.jobs.drain();
    const [undo] = (await feed(leader)).data;
    expect(undo).toMatchObject({
      kind: 'deleted',
      type: 'site',
      import_id: done.id,
      record_label: 'weekly-vendor.csv',
    });
    expect(undo.group).toMatchObject({ undo: true });
    expect(undo.group.parts[0]).toMatchObject({ type: 'site', action: 'deleted', count: 3 });
  });

  it('pages through groups and single entries alike: each once, newest first, the same with any page size', async () => {
    const whole = await allPages(leader, '', 100);
    expect(whole.length).toBeGreaterThan(8);
    for (const perPage of [1, 2, 3, 7]) {
      const paged = await allPages(leader, '', perPage);
      expect(paged.map((e) => e.id)).toEqual(whole.map((e) => e.id));
    }
    const idsInOrder = whole.map((e) => e.id);
    expect([...idsInOrder].sort((a, b) => b - a)).toEqual(idsInOrder);
    // Filters apply inside groups too: only regions, only what the admin did.
    const regions = await allPages(leader, '&type=regions', 2);
    expect(regions.length).toBeGreaterThan(0);
    expect(regions.every((e) => e.type === 'region' && e.group)).toBe(true);
    const mine = await allPages(leader, `&user_id=${ids.admin}&type=sites`, 2);
    expect(mine.every((e) => e.user?.id === ids.admin)).toBe(true);
    expect(mine.filter((e) => e.group).length).toBe(2); // the import and its undo
    expect((await leader.get('/api/actions?batch=' + 'x'.repeat(201))).status).toBe(422);
  });

  it('looks for bulk changes only when one is newer than the end of the page', async () => {
    const walks = (queries: Array<{ sql: string }>) => queries.filter((query) => /with recursive keys/.test(query.sql));
    for (const name of ['Single one', 'Single two', 'Single three'])
      expect((await admin.post('/api/contractors', { name, type: 'union' })).status).toBe(201);
    const singles = await recordQueries(() => feed(leader, '?per_page=2'));
    expect(singles.result.data.map((e: any) => e.group ?? null)).toEqual([null, null]);
    expect(walks(singles.queries)).toEqual([]);
    // A page reaching past the newest bulk change walks them, and shows it.
    const whole = await recordQueries(() => feed(leader, '?per_page=60'));
    expect(whole.result.data.some((e: any) => e.group)).toBe(true);
    expect(walks(whole.queries).length).toBe(1);
  });

  it('reads a page among the newest single revisions, with only their types in its statement, and among all when they do not fill it', async () => {
    const pages = (queries: Array<{ sql: string }>) =>
      queries.filter((query) => /from "revisions" as "r" left join "users"/.test(query.sql));
    const filled = await recordQueries(() => feed(leader, '?per_page=3'));
    expect(filled.result.data).toHaveLength(3);
    expect(pages(filled.queries)).toHaveLength(1);
    expect(pages(filled.queries)[0].sql).toMatch(/"r"."id" >= \$\d+/);
    // Nobody of that id has done anything: the newest do not fill the page, all are read, and it is empty.
    const unfilled = await recordQueries(() => feed(leader, '?per_page=4&user_id=999999'));
    expect(unfilled.result.data).toEqual([]);
    expect(pages(unfilled.queries)).toHaveLength(2);
    // The same entries either way.
    const whole = await allPages(leader, '', 100);
    const fromNewest = await feed(leader, '?per_page=5');
    expect(fromNewest.data.map((e: any) => e.id)).toEqual(whole.slice(0, 5).map((e) => e.id));
  });

  it('filtered by a region: what happened to the sites inside it and to what hangs on them, nothing outside', async () => {
    const region = await admin.post('/api/regions', {
      name: 'Feed box',
      geometry_type: 'postal-code',
      code: '98401',
      geometry: square(-122.6, 47.1, 0.2),
    });
    expect(region.status, JSON.stringify(region.body)).toBe(201);
    const inside = (
      await admin.post('/api/sites', { name: 'Feed inside', type: 'union', latitude: 47.2, longitude: -122.5 })
    ).body.data;
    await admin.post('/api/sites', { name: 'Feed outside', type: 'union', latitude: 45.2, longitude: -122.5 });
    await admin.post('/api/notes', { body: 'Met the steward', notable_type: 'site', notable_id: inside.id });
    const entries = (await feed(admin, `?region_id=${region.body.data.id}&per_page=100`)).data as Array<{
      type: string;
      record_label: string;
    }>;
    const labels = entries.map((entry) => `${entry.type}: ${entry.record_label}`);
    expect(labels).toContain('site: Feed inside');
    expect(labels).toContain('note: Met the steward');
    expect(labels).not.toContain('site: Feed outside');
  });
});
