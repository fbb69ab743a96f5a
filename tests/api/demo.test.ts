import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedJson } from '../../src/server/db/dynamic-tables.js';
import { type AreaGeometry, pointInGeometry } from '../../src/server/regions/geometry.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/** The demo organisation a first start seeds (SEED_DEMO=1): real county shapes, and weeks of work for every demo person. */
let t: TestApp;
const PASSWORD = 'admin-password-123'; // the demo people share the administrator's password
const PEOPLE = [
  'admin@example.com',
  'leader@example.com',
  'organizer@example.com',
  'organizer2@example.com',
  'assistant@example.com',
];
const clients = new Map<string, TestClient>();

beforeAll(async () => {
  t = await startTestApp({ SEED_DEMO: '1' });
  for (const email of PEOPLE)
    clients.set(email, email === 'admin@example.com' ? await t.admin() : await t.signIn(email, PASSWORD));
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const get = async (client: TestClient, path: string) => {
  const res = await client.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
const total = async (client: TestClient, resource: string, filter: Record<string, unknown>) =>
  (await get(client, `/api/${resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(filter))}`)).meta
    .total as number;

describe('the demo organisation', () => {
  it('has California and its 58 counties with their Census shapes, each site inside the county it names', async () => {
    const regions = await t.ctx.db
      .selectFrom('regions')
      .select(['id', 'name', 'geometry_type', 'code', 'geometry'])
      .execute();
    expect(regions.filter((r) => r.geometry_type === 'state').map((r) => r.name)).toEqual(['California']);
    const counties = regions.filter((r) => r.geometry_type === 'county');
    expect(counties).toHaveLength(58);
    expect(regions.some((r) => r.geometry_type === 'postal-code')).toBe(false);
    // Not rectangles: every county shape has more corners than a box.
    for (const county of counties) {
      const shape = storedJson<AreaGeometry>(county.geometry);
      const corners =
        shape.type === 'Polygon' ? shape.coordinates[0].length : shape.coordinates.reduce((n, p) => n + p[0].length, 0);
      expect(corners, county.name).toBeGreaterThan(5);
    }
    const sites = await t.ctx.db
      .selectFrom('sites')
      .select(['id', 'county', 'latitude', 'longitude'])
      .where('deleted_at', 'is', null)
      .execute();
    expect(sites.length).toBeGreaterThan(400);
    const links = await t.ctx.db.selectFrom('site_regions').select(['site_id', 'region_id']).execute();
    const byId = new Map(regions.map((r) => [r.id, r]));
    for (const site of sites) {
      const named = counties.find((c) => c.name === `${site.county} County, CA`);
      expect(named, `site ${site.id} names ${site.county}`).toBeDefined();
      expect(
        pointInGeometry(site.longitude!, site.latitude!, storedJson<AreaGeometry>(named!.geometry)),
        `site ${site.id} in ${site.county}`,
      ).toBe(true);
      const placed = links
        .filter((l) => l.site_id === site.id)
        .map((l) => byId.get(l.region_id)!.name)
        .sort();
      expect(placed).toEqual(['California', named!.name].sort());
    }
    // The map colours the counties by union share.
    const map = await get(
      clients.get('leader@example.com')!,
      '/api/map/regions?geometry_type=county&measure=union_share',
    );
    expect(map.data.filter((r: any) => r.union_share !== null).length).toBeGreaterThanOrEqual(10);
  });

  it('gives every demo person open and overdue tasks, unread and read notifications, and an activity feed of weeks of work', async () => {
    const now = Date.now();
    for (const email of PEOPLE) {
      const client = clients.get(email)!;
      const stats = (await get(client, '/api/dashboard/statistics')).data;
      const figure = (key: string) => stats.figures.find((f: any) => f.key === key)?.value;
      expect(figure('tasks_open'), `${email} open tasks`).toBeGreaterThan(0);
      expect(figure('tasks_overdue'), `${email} overdue tasks`).toBeGreaterThan(0);
      const myId = (
        await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
      ).id;
      expect(
        await total(client, 'tasks', {
          assignee_id: myId,
          completed_at_null: true,
          due_at_gt: new Date(now).toISOString(),
        }),
        `${email} tasks coming up`,
      ).toBeGreaterThan(0);

      const notifications = (await get(client, '/api/notifications?per_page=100')).data;
      expect(
        notifications.some((n: any) => n.read_at === null),
        `${email} unread notifications`,
      ).toBe(true);
      expect(
        notifications.some((n: any) => n.read_at !== null),
        `${email} read notifications`,
      ).toBe(true);

      const feed = (await get(client, '/api/actions?per_page=100')).data;
      expect(feed.length, `${email} activity`).toBeGreaterThan(20);
      expect(new Set(feed.map((e: any) => e.user?.id)).size, `${email} sees several people's work`).toBeGreaterThan(1);
      const oldest = Math.min(...feed.map((e: any) => Date.parse(e.created_at)));
      expect(now - oldest, `${email} activity reaches back weeks`).toBeGreaterThan(14 * 86_400_000);
      expect(feed.every((e: any) => Date.parse(e.created_at) <= now)).toBe(true);
      expect(feed.some((e: any) => e.kind === 'note-added')).toBe(true);
      if (email !== 'assistant@example.com')
        expect(
          feed.some((e: any) => e.kind === 'task-completed'),
          `${email} sees visits done`,
        ).toBe(true);
      // Each person did some of it (the administrator's own changes are visible to themself).
      expect(
        feed.some((e: any) => e.user?.id === myId),
        `${email} own work`,
      ).toBe(true);
    }
  });

  it('has two vendor imports, complete with their files, rows, failures and revisions, each one entry in the feed', async () => {
    const leader = clients.get('leader@example.com')!;
    const imports = (await get(leader, '/api/imports')).data;
    expect(imports).toHaveLength(2);
    for (const done of imports) {
      expect(done).toMatchObject({
        status: 'complete',
        importer_name: 'Job sites (Dodge-style vendor export)',
        failed_count: 1,
        progress: 100,
      });
      expect(done.name).toMatch(/^dodge-weekly-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(done.created_count).toBeGreaterThan(10);
      expect(done.updated_count).toBeGreaterThan(0);
      expect(done.files[0].name).toBe(done.name);
      expect((await get(leader, `/api/imports/${done.id}/failures`)).data[0].reason).toContain('TBD');
      expect((await get(leader, `/api/imports/${done.id}/records`)).data.length).toBeGreaterThan(0);
      const revisions = await t.ctx.db
        .selectFrom('revisions')
        .select(t.ctx.db.fn.countAll<number>().as('n'))
        .where('import_id', '=', done.id)
        .executeTakeFirstOrThrow();
      expect(Number(revisions.n)).toBeGreaterThanOrEqual(done.created_count + done.updated_count);
      expect(Date.parse(done.created_at)).toBeLessThan(Date.now() - 3 * 86_400_000);
    }
    const feed = (await get(leader, '/api/actions?per_page=100&type=sites')).data;
    const groups = feed.filter((e: any) => e.group);
    expect(groups.map((g: any) => g.record_label).sort()).toEqual(imports.map((i: any) => i.name).sort());
  });
  it('has a campaign with its unit estimated from the visits, past the 30% showing of interest and short of a majority; organizers see its counts, not who signed', async () => {
    const leader = clients.get('leader@example.com')!;
    const [campaign] = (await get(leader, '/api/campaigns?per_page=5')).data;
    expect(campaign.progress).toMatchObject({
      unit_size_source: 'estimated',
      showing_of_interest: { reached: true },
      majority: { reached: false },
    });
    expect(campaign.cards_over_time.length).toBeGreaterThan(3);
    expect(
      (
        await get(
          leader,
          `/api/campaign-cards?per_page=1&filter=${encodeURIComponent(JSON.stringify({ campaign_id: campaign.id }))}`,
        )
      ).meta.total,
    ).toBe(campaign.progress.cards);
    const organizer = clients.get('organizer@example.com')!;
    expect((await get(organizer, `/api/campaigns/${campaign.id}`)).data.progress.cards).toBe(campaign.progress.cards);
    expect((await organizer.get('/api/campaign-cards')).status).toBe(403);
  });
});
