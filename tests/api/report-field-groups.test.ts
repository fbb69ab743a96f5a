import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Reports grouped by any dropdown or radio buttons field of sites and of contractors, custom ones included, with the
 * choices' labels (issue 20, point 3). The fixture is written straight into the tables, so the numbers below are
 * counted by hand from this file.
 *
 * Contractor fields: Shop size (dropdown: sz-small "Small shop", sz-large "Large shop").
 * Site fields: Hazards (dropdown of several values: hz-noise "Noise", hz-dust "Dust"), Exposure (radio buttons:
 * ex-low "Low exposure", ex-high "High exposure").
 *
 * Contractors: CA union small, CB non-union large, CD union large but deleted.
 * Sites (value):
 *   S1 pending,   GC CA             hazards noise, dust  exposure high  -> union      100
 *   S2 union,     linked CB         hazards noise        -              -> non-union  200
 *   S3 non-union, linked CA, CB, CD hazards []           -              -> union      300
 *   S4 pla,       none              -                    exposure low   -> union      400
 * Tasks (assigned to the administrator, March 2025):
 *   T1 call done, on S1; T2 meeting done, on S4; T3 visit done, on CB; T4 call due and open, on S1; T5 call done, on
 *   no site or contractor.
 */
let t: TestApp;
let admin: TestClient;
const ids: Record<string, number> = {};

async function insert(table: string, values: Record<string, unknown>): Promise<number> {
  const row = await dynamicTables(t.ctx.db).insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return row.id as number;
}

async function field(type: string, body: Record<string, unknown>) {
  const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === type);
  const res = await admin.post('/api/schema-fields', { schema_id: schema.id, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await field('contractor', {
    name: 'Shop size',
    type: 'dropdown',
    options: {
      choices: [
        { value: 'sz-small', label: 'Small shop' },
        { value: 'sz-large', label: 'Large shop' },
      ],
    },
  });
  await field('site', {
    name: 'Hazards',
    type: 'dropdown',
    options: {
      multiple: true,
      choices: [
        { value: 'hz-noise', label: 'Noise' },
        { value: 'hz-dust', label: 'Dust' },
      ],
    },
  });
  await field('site', {
    name: 'Exposure',
    type: 'radios',
    options: {
      choices: [
        { value: 'ex-low', label: 'Low exposure' },
        { value: 'ex-high', label: 'High exposure' },
      ],
    },
  });
  await field('site', { name: 'Gate note', type: 'text' });
  ids.ca = await insert('contractors', {
    name: 'CA',
    type: 'union',
    custom: JSON.stringify({ shop_size: 'sz-small' }),
  });
  ids.cb = await insert('contractors', {
    name: 'CB',
    type: 'non-union',
    custom: JSON.stringify({ shop_size: 'sz-large' }),
  });
  ids.cd = await insert('contractors', {
    name: 'CD',
    type: 'union',
    custom: JSON.stringify({ shop_size: 'sz-large' }),
    deleted_at: new Date(),
  });
  const site = (
    name: string,
    type: string,
    value: number,
    custom: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) =>
    insert('sites', {
      name,
      type,
      estimated_value: value,
      estimated_hours: value / 10,
      custom: JSON.stringify(custom),
      ...extra,
    });
  ids.s1 = await site(
    'S1',
    'pending',
    100,
    { hazards: ['hz-noise', 'hz-dust'], exposure: 'ex-high' },
    { general_contractor_id: ids.ca },
  );
  ids.s2 = await site('S2', 'union', 200, { hazards: ['hz-noise'] });
  ids.s3 = await site('S3', 'non-union', 300, { hazards: [] });
  ids.s4 = await site('S4', 'pla', 400, { exposure: 'ex-low' });
  await t.ctx.db
    .insertInto('site_contractors')
    .values([
      { site_id: ids.s2, contractor_id: ids.cb },
      { site_id: ids.s3, contractor_id: ids.ca },
      { site_id: ids.s3, contractor_id: ids.cb },
      { site_id: ids.s3, contractor_id: ids.cd },
    ])
    .execute();
  const assignee = (await t.authUser()).id;
  const task = (title: string, type: string, on: [string, number] | null, dates: Record<string, string>) =>
    insert('tasks', {
      title,
      type,
      assignee_id: assignee,
      taskable_type: on?.[0] ?? null,
      taskable_id: on?.[1] ?? null,
      ...dates,
    });
  await task('T1', 'call', ['site', ids.s1], { completed_at: '2025-03-10T12:00:00Z' });
  await task('T2', 'meeting', ['site', ids.s4], { completed_at: '2025-03-11T12:00:00Z' });
  await task('T3', 'visit', ['contractor', ids.cb], { completed_at: '2025-03-12T12:00:00Z' });
  await task('T4', 'call', ['site', ids.s1], { due_at: '2025-03-20T12:00:00Z' });
  await task('T5', 'call', null, { completed_at: '2025-03-13T12:00:00Z' });
});
afterAll(async () => {
  await t?.close();
});

const figures = (sites: number, value: number) => ({ sites, value, hours: value / 10 });
const rowOf = (body: any, label: string) => body.data.find((r: any) => r.label === label);
const labels = (body: any) => body.data.map((r: any) => r.label).sort();
const marketShare = async (groupBy: string, client = admin) => {
  const res = await client.get(`/api/reports/market-share?group_by=${encodeURIComponent(groupBy)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const drill = async (link: Record<string, string>, labour?: string) => {
  const res = await admin.get(
    `/api/reports/market-share/sites?${new URLSearchParams({ ...link, ...(labour ? { labour } : {}), per_page: '100' })}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((s: any) => s.id).sort((a: number, b: number) => a - b);
};

describe('market share by a field of contractors', () => {
  it("counts a site in the group of each value its readable contractors hold, by the choices' labels", async () => {
    const body = await marketShare('field:contractor.shop_size');
    expect(labels(body)).toEqual(['Large shop', 'No shop size', 'Small shop']);
    expect(rowOf(body, 'Small shop').union).toEqual(figures(2, 400)); // S1 (its general contractor), S3
    expect(rowOf(body, 'Small shop').non_union).toEqual(figures(0, 0));
    // S3 through CB (CD is deleted and counts nowhere), S2 through CB.
    expect(rowOf(body, 'Large shop').union).toEqual(figures(1, 300));
    expect(rowOf(body, 'Large shop').non_union).toEqual(figures(1, 200));
    expect(rowOf(body, 'No shop size').total).toEqual(figures(1, 400)); // S4
    // The totals count every site once.
    expect(body.totals.total).toEqual(figures(4, 1000));
    expect(body.meta.group_note).toMatch(/each value its contractors hold/);
    expect(JSON.stringify(body.data.map((r: any) => r.label))).not.toContain('sz-');
  });

  it('drills down to the sites of a group, and of no group', async () => {
    const body = await marketShare('field:contractor.shop_size');
    expect(await drill(rowOf(body, 'Large shop').link)).toEqual([ids.s2, ids.s3]);
    expect(await drill(rowOf(body, 'Large shop').link, 'union')).toEqual([ids.s3]);
    expect(await drill(rowOf(body, 'Small shop').link)).toEqual([ids.s1, ids.s3]);
    expect(await drill(rowOf(body, 'No shop size').link)).toEqual([ids.s4]);
  });

  it('counts only the contractors the person may read', async () => {
    ok(
      await admin.post('/api/roles', {
        slug: 'union-analyst',
        name: 'Union analyst',
        permissions: [
          'report:read',
          'site:read:union',
          'site:read:non-union',
          'site:read:pla',
          'site:read:pending',
          'contractor:read:union',
        ],
      }),
      201,
    );
    await t.createUser({ role: 'union-analyst', email: 'union-analyst@example.com' });
    const analyst = await t.signIn('union-analyst@example.com');
    const body = await marketShare('field:contractor.shop_size', analyst);
    // CB (non-union) is hidden: S2 has no readable contractor, and no site reaches "Large shop".
    expect(labels(body)).toEqual(['No shop size', 'Small shop']);
    expect(rowOf(body, 'No shop size').total.sites).toBe(2); // S2, S4
  });

  it('answers CSV with the labels', async () => {
    const res = await admin.get('/api/reports/market-share?group_by=field:contractor.shop_size&format=csv');
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain('Small shop');
    expect(String(res.body)).not.toContain('sz-small');
  });
});

describe('market share by a field of sites', () => {
  it('a dropdown of several values: a site counts in each of its values, the totals once', async () => {
    const body = await marketShare('field:hazards');
    expect(labels(body)).toEqual(['Dust', 'No hazards', 'Noise']);
    expect(rowOf(body, 'Noise').union).toEqual(figures(1, 100)); // S1
    expect(rowOf(body, 'Noise').non_union).toEqual(figures(1, 200)); // S2
    expect(rowOf(body, 'Dust').total).toEqual(figures(1, 100)); // S1
    expect(rowOf(body, 'No hazards').total).toEqual(figures(2, 700)); // S3 (empty list), S4
    expect(body.totals.total).toEqual(figures(4, 1000));
    expect(body.meta.group_note).toMatch(/each value it holds/);
    expect(await drill(rowOf(body, 'Noise').link)).toEqual([ids.s1, ids.s2]);
    expect(await drill(rowOf(body, 'No hazards').link)).toEqual([ids.s3, ids.s4]);
    // `field:site.{slug}` names the same field.
    expect((await marketShare('field:site.hazards')).data).toEqual(
      body.data.map((row: any) => ({ ...row, link: { ...row.link, group_by: 'field:site.hazards' } })),
    );
  });

  it('radio buttons: one group per site, with the labels, and no note', async () => {
    const body = await marketShare('field:exposure');
    expect(labels(body)).toEqual(['High exposure', 'Low exposure', 'No exposure']);
    expect(rowOf(body, 'No exposure').total.sites).toBe(2);
    expect(body.meta.group_note).toBeNull();
  });

  it('refuses what is not a choice field of sites or contractors, with a message', async () => {
    for (const groupBy of [
      'field:gate_note',
      'field:contractor.nothing',
      'field:member.status',
      'field:contractor.type',
    ]) {
      const res = await admin.get(`/api/reports/market-share?group_by=${groupBy}`);
      expect(res.status, groupBy).toBe(422);
      expect(res.body.errors.group_by[0], groupBy).toMatch(/group/i);
    }
  });
});

describe('task performance by a field of the site or contractor a task is on', () => {
  const perf = async (groupBy: string) => {
    const res = await admin.get(
      `/api/reports/task-performance?from=2025-03-01&to=2025-03-31&group_by=${encodeURIComponent(groupBy)}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it("groups by a site's radio buttons field, labelled, with totals", async () => {
    const body = await perf('field:site.exposure');
    expect(labels(body)).toEqual(['High exposure', 'Low exposure', 'No exposure']);
    expect(rowOf(body, 'High exposure')).toMatchObject({ key: 'ex-high', calls: 1, done: 1, due: 1, overdue: 1 }); // T1, T4
    expect(rowOf(body, 'Low exposure')).toMatchObject({ meetings: 1, done: 1 }); // T2
    expect(rowOf(body, 'No exposure')).toMatchObject({ calls: 1, visits: 1, done: 2 }); // T5, T3 (on a contractor)
    expect(body.totals).toMatchObject({ done: 4, due: 1 });
    expect(rowOf(body, 'No exposure').links.done).toBeNull();
  });

  it("groups by a contractor's dropdown", async () => {
    const body = await perf('field:contractor.shop_size');
    expect(labels(body)).toEqual(['Large shop', 'No shop size']);
    expect(rowOf(body, 'Large shop')).toMatchObject({ visits: 1, done: 1 }); // T3
  });

  it("a site's dropdown of several values counts a task in each, and gives no total", async () => {
    const body = await perf('field:site.hazards');
    expect(rowOf(body, 'Noise')).toMatchObject({ calls: 1, due: 1 });
    expect(rowOf(body, 'Dust')).toMatchObject({ calls: 1, due: 1 });
    expect(body.totals).toBeNull();
    expect(body.meta.group_note).toMatch(/each value its site holds/);
  });

  it('refuses a field that does not say whose it is, or is no choice field', async () => {
    for (const groupBy of ['field:exposure', 'field:site.gate_note', 'field:site.nothing']) {
      const res = await admin.get(`/api/reports/task-performance?group_by=${groupBy}`);
      expect(res.status, groupBy).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['group_by']);
    }
  });
});

function ok(res: { status: number; body: any }, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data;
}
