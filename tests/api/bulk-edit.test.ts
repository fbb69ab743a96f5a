/**
 * Bulk edit (docs/records.md "Bulk edit"): 500 sites set to one status in one background job through the data
 * service (one revision each, all of one batch), the records the person may not update reported with the reason,
 * undone as a whole (a record changed since keeps that change), and the request refused when the person may not
 * update the list (403) or names a bad field or value (422).
 */

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
/** May read every site but update only union ones. */
let unionEditor: TestClient;
/** May read sites and update none. */
let reader: TestClient;
let statuses: number[];
const prefix = 'Bulk edit site';
const siteIds: number[] = [];

const db = () => t.ctx.db;
const revisionsOf = async (batchId: string) =>
  (
    await sql<{
      id: number;
      n: number;
    }>`select revisionable_id as id, count(*)::int as n from revisions where batch_id = ${batchId} group by revisionable_id`.execute(
      db(),
    )
  ).rows;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  for (const [slug, permissions] of [
    ['bulk-union-editor', ['site:read', 'site:update:union']],
    ['bulk-reader', ['site:read']],
  ] as const) {
    const role = await admin.post('/api/roles', { slug, name: slug, permissions });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
  }
  unionEditor = await t.signIn(
    (await t.createUser({ role: 'bulk-union-editor', email: 'bulk-union@example.com' })).email,
  );
  reader = await t.signIn((await t.createUser({ role: 'bulk-reader', email: 'bulk-reader@example.com' })).email);
  statuses = (await db().selectFrom('site_statuses').select('id').orderBy('id').limit(2).execute()).map((r) =>
    Number(r.id),
  );
  // 500 sites in one statement (the set-up, not the subject): 490 union, 10 non-union.
  const sites = t.ctx.resources.get('sites')!;
  const rows = Array.from({ length: 500 }, (_, i) => ({
    values: { name: `${prefix} ${String(i + 1).padStart(3, '0')}`, type: i % 50 === 49 ? 'non-union' : 'union' },
    changes: {},
  }));
  const { ids } = await t.ctx.records.writeBulk(null, sites, rows, { system: true });
  siteIds.push(...ids);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a bulk edit of 500 sites', () => {
  let bulkId: number;

  it('sets the status of every site the person may update, in one job, one revision each, and reports the others', async () => {
    const res = await unionEditor.post('/api/bulk-edits', {
      resource: 'sites',
      field: 'site_status_id',
      value: statuses[0],
      query: { search: prefix },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({
      resource: 'sites',
      field: 'site_status_id',
      value: statuses[0],
      status: 'pending',
      total: 500,
      processed: 0,
    });
    expect(res.body.data.record_ids).toBeUndefined();
    bulkId = res.body.data.id;
    const jobs = await db()
      .selectFrom('jobs')
      .select(['id', 'type'])
      .where(sql<boolean>`payload->>'bulk_edit_id' = ${String(bulkId)}`)
      .execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0].type).toBe('bulk-edit');

    await t.app.jobs.drain();
    const done = (await unionEditor.get(`/api/bulk-edits/${bulkId}`)).body.data;
    expect(done).toMatchObject({
      status: 'complete',
      total: 500,
      processed: 500,
      changed_count: 490,
      unchanged_count: 0,
      refused_count: 10,
      progress: 100,
    });
    expect(done.refusals).toHaveLength(10);
    expect(done.refusals[0]).toMatchObject({
      name: `${prefix} 050`,
      reason: 'You do not have permission to update sites.',
    });

    const rows = await db()
      .selectFrom('sites')
      .select(['id', 'type', 'site_status_id'])
      .where('id', 'in', siteIds)
      .execute();
    for (const row of rows) expect(row.site_status_id).toBe(row.type === 'union' ? statuses[0] : null);
    const revisions = await revisionsOf(`bulk-edit:${bulkId}`);
    expect(revisions).toHaveLength(490);
    expect(revisions.every((r) => r.n === 1)).toBe(true);
    const one = await db()
      .selectFrom('revisions')
      .select(['action', 'changes', 'user_id'])
      .where('batch_id', '=', `bulk-edit:${bulkId}`)
      .executeTakeFirstOrThrow();
    expect(one.action).toBe('updated');
    expect(one.changes).toEqual({ site_status_id: [null, statuses[0]] });
    expect(one.user_id).toBe((await t.authUser('bulk-union@example.com')).id);
  }, 120_000);

  it('is shown only to the person who made it, and cannot be undone twice at once', async () => {
    expect((await admin.get(`/api/bulk-edits/${bulkId}`)).status).toBe(404);
    expect((await admin.post(`/api/bulk-edits/${bulkId}/undo`, {})).status).toBe(404);
  });

  it('is undone as a whole: every site gets its status back, one revision each; a site changed since keeps its change', async () => {
    const [changedSince, other] = siteIds;
    const edited = await admin.post(`/api/sites/${changedSince}`, { site_status_id: statuses[1] });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const res = await unionEditor.post(`/api/bulk-edits/${bulkId}/undo`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data.undo_status).toBe('pending');
    expect((await unionEditor.post(`/api/bulk-edits/${bulkId}/undo`, {})).status).toBe(409);

    await t.app.jobs.drain();
    const done = (await unionEditor.get(`/api/bulk-edits/${bulkId}`)).body.data;
    expect(done).toMatchObject({ undo_status: 'complete', restored_count: 489, kept_count: 1 });
    expect(done.undone_at).toBeTruthy();
    const rows = await db().selectFrom('sites').select(['id', 'site_status_id']).where('id', 'in', siteIds).execute();
    for (const row of rows) expect(row.site_status_id).toBe(row.id === changedSince ? statuses[1] : null);
    expect((await unionEditor.get(`/api/sites/${other}`)).body.data.site_status_id).toBeNull();
    const revisions = await revisionsOf(`bulk-edit-undo:${bulkId}`);
    expect(revisions).toHaveLength(489);
    expect(revisions.every((r) => r.n === 1)).toBe(true);
    expect((await unionEditor.post(`/api/bulk-edits/${bulkId}/undo`, {})).status).toBe(409);
  }, 120_000);
});

describe('a bulk edit of chosen records', () => {
  it('changes the ids sent, reports one already holding the value as unchanged and a missing one as refused', async () => {
    await admin.post(`/api/sites/${siteIds[2]}`, { site_status_id: statuses[1] });
    const res = await admin.post('/api/bulk-edits', {
      resource: 'sites',
      field: 'site_status_id',
      value: statuses[1],
      ids: [siteIds[1], siteIds[2], 2_147_480_000],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.app.jobs.drain();
    const done = (await admin.get(`/api/bulk-edits/${res.body.data.id}`)).body.data;
    expect(done).toMatchObject({
      status: 'complete',
      total: 3,
      changed_count: 1,
      unchanged_count: 1,
      refused_count: 1,
    });
    expect(done.refusals[0].reason).toMatch(/No site has the id 2147480000/);
  });
});

describe('refused requests', () => {
  it('needs update permission on the list (403), and a session (401)', async () => {
    const res = await reader.post('/api/bulk-edits', {
      resource: 'sites',
      field: 'site_status_id',
      value: statuses[0],
      ids: [siteIds[0]],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have permission to update sites.');
    expect(
      (await t.client().post('/api/bulk-edits', { resource: 'sites', field: 'name', value: 'x', ids: [1] })).status,
    ).toBe(401);
    expect(
      await db()
        .selectFrom('bulk_edits')
        .select('id')
        .where('user_id', '=', (await t.authUser('bulk-reader@example.com')).id)
        .execute(),
    ).toHaveLength(0);
  });

  it('answers 422 with field errors for a bad field, value, selection or list', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ resource: 'sites', field: 'nope', value: 1, ids: [siteIds[0]] }, 'field', /not a field of sites/],
      [{ resource: 'sites', field: 'id', value: 1, ids: [siteIds[0]] }, 'field', /not a field of sites/],
      [{ resource: 'sites', field: 'type', value: 'not-a-type', ids: [siteIds[0]] }, 'value', /type/i],
      [{ resource: 'sites', field: 'name', value: '', ids: [siteIds[0]] }, 'value', /required/],
      [{ resource: 'sites', field: 'bid_date', value: 'soon', ids: [siteIds[0]] }, 'value', /date/i],
      [{ resource: 'sites', field: 'name', value: 'x' }, 'ids', /either the ids/],
      [{ resource: 'sites', field: 'name', value: 'x', ids: [] }, 'ids', /./],
      [
        { resource: 'sites', field: 'name', value: 'x', query: { search: 'no site is called this' } },
        'ids',
        /No records match/,
      ],
      [{ resource: 'nowhere', field: 'name', value: 'x', ids: [1] }, 'resource', /no list called/],
      [{ resource: 'sites', field: 'name', value: 'x', ids: [1], extra: true }, 'extra', /not known/],
    ];
    for (const [body, key, message] of cases) {
      const res = await admin.post('/api/bulk-edits', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors?.[key]?.join(' '), JSON.stringify(res.body)).toMatch(message);
    }
    expect((await admin.get(`/api/sites/${siteIds[0]}`)).body.data.name).toBe(`${prefix} 001`);
  });
});
