import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Site visits (schemas/visit.json, docs/visits.md): a record type with its head count rows written with the visit,
 * validated (422 with the field's errors), kept in the visit's revisions, read with the site's permissions; what
 * visits feed: the market share by workers counted and the visits goal on the dashboard.
 */
let t: TestApp;
let admin: TestClient;
const ids: Record<string, number> = {};

async function created(resource: string, values: Record<string, unknown>, client = admin) {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Record<string, any>;
}

const row = (contractor_id: number, counts: Record<string, unknown> = {}, trade_ids: number[] = []) => ({
  contractor_id,
  trade_ids,
  ...counts,
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ids.union = (await created('contractors', { name: 'Bay Electric', type: 'union' })).id;
  ids.open = (await created('contractors', { name: 'Cheap Drywall', type: 'non-union' })).id;
  ids.electrical = (await created('trades', { name: 'Visit Electricians' })).id;
  ids.drywall = (await created('trades', { name: 'Visit Drywall' })).id;
  ids.unionSite = (await created('sites', { name: 'Pier 9', type: 'union', city: 'Visitville' })).id;
  ids.openSite = (await created('sites', { name: 'Open Shop Tower', type: 'non-union', city: 'Visitville' })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('visits: a record type with a head count', () => {
  it('is a built-in type administrators can add fields to', async () => {
    const schemas = (await admin.get('/api/schemas?per_page=-1')).body.data;
    const visit = schemas.find((s: any) => s.type === 'visit');
    expect(visit).toMatchObject({ resource: 'visits', built_in: true, name_singular: 'Visit' });
    expect(visit.fields.map((f: any) => f.slug)).toEqual(
      expect.arrayContaining(['site_id', 'visited_at', 'user_ids', 'head_counts', 'notes']),
    );
    expect(visit.fields.find((f: any) => f.slug === 'head_counts').type).toBe('head-count');
    const field = await admin.post('/api/schema-fields', { schema_id: visit.id, name: 'Weather', type: 'text' });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const saved = await created('visits', {
      site_id: ids.unionSite,
      visited_at: '2026-03-01T15:00:00Z',
      weather: 'Rain',
    });
    expect(saved.weather).toBe('Rain');
  });

  it('creates a visit with its head count rows, who went and a revision holding them', async () => {
    const visit = await created('visits', {
      site_id: ids.unionSite,
      visited_at: '2026-03-02T16:30:00Z',
      notes: 'Talked at lunch',
      head_counts: [
        row(ids.union, { workers: 12, union_workers: 10, non_union_workers: 1, talked_to: 4, cards_signed: 2 }, [
          ids.electrical,
        ]),
        row(ids.open, { workers: 5, non_union_workers: 5 }, [ids.drywall]),
      ],
    });
    expect(visit.head_counts).toEqual([
      {
        contractor_id: ids.union,
        trade_ids: [ids.electrical],
        workers: 12,
        union_workers: 10,
        non_union_workers: 1,
        talked_to: 4,
        cards_signed: 2,
        contacts_made: 0,
        recruits_signed: 0,
      },
      {
        contractor_id: ids.open,
        trade_ids: [ids.drywall],
        workers: 5,
        union_workers: 0,
        non_union_workers: 5,
        talked_to: 0,
        cards_signed: 0,
        contacts_made: 0,
        recruits_signed: 0,
      },
    ]);
    const myId = (await t.authUser()).id;
    expect(visit.user_ids).toEqual([myId]);
    expect(visit.user_id).toBe(myId);
    expect(visit.title).toBe('Visit on Mar 2, 2026');
    expect((await admin.get(`/api/visits/${visit.id}`)).body.data.head_counts).toHaveLength(2);

    const updated = await admin.post(`/api/visits/${visit.id}`, {
      head_counts: [row(ids.union, { workers: 14, union_workers: 12 }, [ids.electrical])],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.head_counts).toHaveLength(1);
    expect(
      await t.ctx.db.selectFrom('visit_head_counts').select('workers').where('visit_id', '=', visit.id).execute(),
    ).toEqual([{ workers: 14 }]);

    const history = (await admin.get(`/api/revisions?type=visit&revisionable_id=${visit.id}`)).body.data;
    const change = history.find((r: any) => r.action === 'updated');
    const [before, after] = change.changes.head_counts;
    expect(before).toHaveLength(2);
    expect(after).toEqual([expect.objectContaining({ contractor_id: ids.union, workers: 14, union_workers: 12 })]);
    expect(history.find((r: any) => r.action === 'created').changes.head_counts[1]).toHaveLength(2);
  });

  it('refuses counts that do not add up, negative counts and unknown contractors with 422 on the field', async () => {
    const base = { site_id: ids.unionSite, visited_at: '2026-03-03T10:00:00Z' };
    const over = await admin.post('/api/visits', {
      ...base,
      head_counts: [row(ids.union, { workers: 5, union_workers: 4, non_union_workers: 3 })],
    });
    expect(over.status).toBe(422);
    expect(over.body.errors.head_counts[0]).toBe(
      'Row 1: union and non-union workers (7) are more than the workers counted (5).',
    );
    const negative = await admin.post('/api/visits', {
      ...base,
      head_counts: [row(ids.union, { workers: 5 }), row(ids.open, { workers: -1 })],
    });
    expect(negative.status).toBe(422);
    expect(negative.body.errors.head_counts[0]).toMatch(/^Row 2: workers counted must be a whole number, 0 or more/);
    const unknown = await admin.post('/api/visits', { ...base, head_counts: [row(999_999, { workers: 1 })] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.head_counts[0]).toContain('999999');
    const noSite = await admin.post('/api/visits', { visited_at: '2026-03-03T10:00:00Z' });
    expect(noSite.status).toBe(422);
    expect(noSite.body.errors).toHaveProperty('site_id');
    const badShape = await admin.post('/api/visits', { ...base, head_counts: [{ contractor: 'x' }] });
    expect(badShape.status).toBe(422);
    expect(badShape.body.errors).toHaveProperty('head_counts');
    expect(
      await t.ctx.db
        .selectFrom('visits')
        .select('id')
        .where('visited_at', '=', new Date('2026-03-03T10:00:00Z'))
        .execute(),
    ).toEqual([]);
  });

  it('follows the permissions of any record type, and the sites a person may read', async () => {
    const organizer = await t.signIn(
      (await t.createUser({ role: 'user', email: 'visit-organizer@example.com' })).email,
    );
    const mine = await created(
      'visits',
      {
        site_id: ids.openSite,
        visited_at: '2026-03-04T09:00:00Z',
        head_counts: [row(ids.open, { workers: 3, non_union_workers: 3 })],
      },
      organizer,
    );
    expect((await organizer.delete(`/api/visits/${mine.id}`)).status).toBe(403);

    // A role that reads union sites only: visits of other sites are hidden, and it cannot log one there.
    const role = await admin.post('/api/roles', {
      slug: 'union-visitor',
      name: 'Union visitor',
      permissions: ['site:read:union', 'visit:read', 'visit:create'],
    });
    expect(role.status).toBe(201);
    const limited = await t.signIn(
      (await t.createUser({ role: 'union-visitor', email: 'union-visitor@example.com' })).email,
    );
    const list = (await limited.get('/api/visits?per_page=100')).body.data;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((v: any) => v.site_id === ids.unionSite)).toBe(true);
    expect((await limited.get(`/api/visits/${mine.id}`)).status).toBe(404);
    const refused = await limited.post('/api/visits', { site_id: ids.openSite, visited_at: '2026-03-04T10:00:00Z' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty('site_id');
    expect((await limited.post(`/api/visits/${mine.id}`, { notes: 'x' })).status).toBe(403);

    const none = await t.signIn(
      (await t.createUser({ role: 'assistant', email: 'visit-assistant@example.com' })).email,
    );
    expect((await none.get('/api/visits')).status).toBe(403);
    expect(
      (await none.post('/api/visits', { site_id: ids.unionSite, visited_at: '2026-03-04T10:00:00Z' })).status,
    ).toBe(403);
  });

  it('shows a person only the head count rows of contractors they may read (lists and shows)', async () => {
    const visit = await created('visits', {
      site_id: ids.unionSite,
      visited_at: '2026-02-01T09:00:00Z',
      head_counts: [
        row(ids.union, { workers: 9, union_workers: 9 }),
        row(ids.open, { workers: 4, non_union_workers: 4 }),
      ],
    });
    const role = await admin.post('/api/roles', {
      slug: 'union-contractor-visitor',
      name: 'Union contractor visitor',
      permissions: ['site:read', 'contractor:read:union', 'visit:read'],
    });
    expect(role.status).toBe(201);
    const reader = await t.signIn(
      (await t.createUser({ role: 'union-contractor-visitor', email: 'union-contractor-visitor@example.com' })).email,
    );
    const shown = (await reader.get(`/api/visits/${visit.id}`)).body.data;
    expect(shown.head_counts.map((r: any) => r.contractor_id)).toEqual([ids.union]);
    const listed = (await reader.get('/api/visits?per_page=100')).body.data.find((v: any) => v.id === visit.id);
    expect(listed.head_counts.map((r: any) => r.contractor_id)).toEqual([ids.union]);
    expect(JSON.stringify(listed)).not.toContain(`"contractor_id":${ids.open}`);
    // Who may read every contractor sees every row.
    expect((await admin.get(`/api/visits/${visit.id}`)).body.data.head_counts.map((r: any) => r.contractor_id)).toEqual(
      [ids.union, ids.open],
    );
  });

  it('links its conversations to the contacts talked to and the recruits signed up, kept in its revision, each shown to who may read it', async () => {
    const contact = await created('contacts', { first_name: 'Talked', last_name: 'To' });
    const recruit = await created('recruits', { first_name: 'Signed', last_name: 'Up' });
    const visit = await created('visits', {
      site_id: ids.unionSite,
      visited_at: '2026-02-02T09:00:00Z',
      contact_ids: [contact.id],
      recruit_ids: [recruit.id],
    });
    expect(visit).toMatchObject({ contact_ids: [contact.id], recruit_ids: [recruit.id] });
    const history = (await admin.get(`/api/revisions?type=visit&revisionable_id=${visit.id}`)).body.data;
    expect(history.find((r: any) => r.action === 'created').changes).toMatchObject({
      contact_ids: [null, [contact.id]],
      recruit_ids: [null, [recruit.id]],
    });
    const missing = await admin.post('/api/visits', {
      site_id: ids.unionSite,
      visited_at: '2026-02-02T09:00:00Z',
      recruit_ids: [999_999],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.recruit_ids).toBeTruthy();
    // The reader of union contractors above reads neither contacts nor recruits: the links are left out for them.
    const reader = await t.signIn('union-contractor-visitor@example.com');
    expect((await reader.get(`/api/visits/${visit.id}`)).body.data).toMatchObject({ contact_ids: [], recruit_ids: [] });
  });

  it('tells the browsers of a change to a visit without its head counts, which each reads again with their own permissions', async () => {
    const sent: Array<{ event: string; data: any }> = [];
    const publish = t.ctx.realtime.publish;
    t.ctx.realtime.publish = async (channels, event, data, options) => {
      sent.push({ event, data });
      return publish(channels, event, data, options);
    };
    try {
      const visit = await created('visits', {
        site_id: ids.unionSite,
        visited_at: '2026-02-02T09:00:00Z',
        head_counts: [row(ids.open, { workers: 3, non_union_workers: 3 })],
      });
      const told = sent.filter((s) => s.data?.type === 'visit' && s.data?.id === visit.id);
      expect(told.map((s) => s.event)).toEqual(['App.Events.ModelCreated', 'App.Events.ModelSaved']);
      expect(told.every((s) => s.data.data === null)).toBe(true);
      expect(JSON.stringify(sent)).not.toContain(`"contractor_id":${ids.open}`);
    } finally {
      t.ctx.realtime.publish = publish;
    }
  });
});

describe('what visits feed', () => {
  it('measures the market share by workers counted at each site’s latest visit', async () => {
    const res = await admin.get('/api/reports/market-share?group_by=site_type');
    expect(res.status).toBe(200);
    // Pier 9 (union site): its latest visit (2026-03-02, updated) counted 14 workers, 12 union. The visit of
    // 2026-03-01 had no head count. Open Shop Tower: 3 non-union workers.
    expect(res.body.totals.workers).toEqual({ union: 12, non_union: 3, unknown: 2, total: 17, share: 80 });
    const byKey = Object.fromEntries(res.body.data.map((r: any) => [r.key, r]));
    expect(byKey.union.workers).toEqual({ union: 12, non_union: 0, unknown: 2, total: 14, share: 100 });
    expect(byKey['non-union'].workers).toEqual({ union: 0, non_union: 3, unknown: 0, total: 3, share: 0 });

    // A later visit replaces the site's count.
    await created('visits', {
      site_id: ids.unionSite,
      visited_at: '2026-03-10T09:00:00Z',
      head_counts: [row(ids.union, { workers: 20, union_workers: 15, non_union_workers: 5 })],
    });
    const later = await admin.get('/api/reports/market-share?group_by=none');
    expect(later.body.totals.workers).toEqual({ union: 15, non_union: 8, unknown: 0, total: 23, share: 65.2 });

    const csv = await admin.get('/api/reports/market-share?group_by=none&format=csv&measure=workers');
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toMatch(
      /,Union workers counted,Non-union workers counted,"Workers counted, status not noted",All workers counted,Union share of workers \(%\)$/,
    );
    expect(lines.at(-1)).toMatch(/,15,8,0,23,65\.2$/);
  });

  it('adds the visits a person went on to their visits goal on the dashboard', async () => {
    const person = await t.createUser({ role: 'user', email: 'visit-goals@example.com' });
    await admin.post(`/api/users/${person.id}/goals`, { visits: 4 });
    const client = await t.signIn('visit-goals@example.com');
    const month = new Date().toISOString().slice(0, 7);
    const before = (await client.get('/api/dashboard/statistics')).body.data;
    expect(before.visits).toBe(0);
    await created('visits', { site_id: ids.unionSite, visited_at: `${month}-01T12:00:00Z`, user_ids: [person.id] });
    await created('visits', { site_id: ids.openSite, visited_at: `${month}-02T12:00:00Z` }, client);
    await created('visits', { site_id: ids.openSite, visited_at: '2020-01-02T12:00:00Z' }, client);
    const after = (await client.get('/api/dashboard/statistics')).body.data;
    expect(after.visits).toBe(2);
    const figure = after.figures.find((f: any) => f.key === 'visits');
    expect(figure).toMatchObject({ value: 2, goal: 4, link: { resource: 'visits' } });
    const listed = await client.get(
      `/api/visits?per_page=1&filter=${encodeURIComponent(JSON.stringify(figure.link.filter))}`,
    );
    expect(listed.body.meta.total).toBe(2);
  });
});

describe('"Logged by": the signed-in person unless they may log for others (user:log-for-others)', () => {
  it('is whoever logs the visit when left empty, and refuses naming someone else without the permission', async () => {
    const organizer = await t.createUser({ role: 'user' });
    const client = await t.signIn(organizer.email);
    const adminId = (await t.authUser()).id;
    const empty = await created('visits', { site_id: ids.unionSite, visited_at: '2026-05-01T09:00:00Z' }, client);
    expect(empty.user_id).toBe(organizer.id);
    const explicitNull = await created(
      'visits',
      { site_id: ids.unionSite, visited_at: '2026-05-01T10:00:00Z', user_id: null },
      client,
    );
    expect(explicitNull.user_id).toBe(organizer.id);
    const self = await created(
      'visits',
      { site_id: ids.unionSite, visited_at: '2026-05-01T11:00:00Z', user_id: organizer.id },
      client,
    );
    expect(self.user_id).toBe(organizer.id);

    const forged = await client.post('/api/visits', {
      site_id: ids.unionSite,
      visited_at: '2026-05-01T12:00:00Z',
      notes: 'Forged logger',
      user_id: adminId,
    });
    expect(forged.status).toBe(422);
    expect(forged.body.errors.user_id[0]).toMatch(/only yourself.*log work for others/);
    expect((await admin.get('/api/visits?search=Forged%20logger')).body.meta.total).toBe(0);

    // Nor by editing: the logger of a visit stays as it is (the rest of the visit may change).
    const moved = await client.post(`/api/visits/${self.id}`, { user_id: adminId, updated_at: self.updated_at });
    expect(moved.status).toBe(422);
    const edited = await client.post(`/api/visits/${self.id}`, {
      notes: 'Edited',
      user_id: organizer.id,
      updated_at: self.updated_at,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.user_id).toBe(organizer.id);
  });

  it('is whoever the person names when they hold user:log-for-others (administrators, leaders)', async () => {
    const organizer = await t.createUser({ role: 'user' });
    const leader = await t.signIn((await t.createUser({ role: 'leader' })).email);
    for (const client of [admin, leader]) {
      const visit = await created(
        'visits',
        { site_id: ids.unionSite, visited_at: '2026-05-02T09:00:00Z', user_id: organizer.id },
        client,
      );
      expect(visit.user_id).toBe(organizer.id);
      const back = await client.post(`/api/visits/${visit.id}`, { user_id: null, updated_at: visit.updated_at });
      expect(back.status, JSON.stringify(back.body)).toBe(200);
    }
    const roles = (await admin.get('/api/roles?per_page=-1')).body.data;
    const holders = roles
      .filter((role: any) => role.permissions.includes('user:log-for-others'))
      .map((r: any) => r.slug);
    expect(holders.sort()).toEqual(['admin', 'leader', 'super']);
  });
});
