/**
 * Record changes reach automations and webhooks through the outbox (records/record-changes.ts): an import and a bulk
 * edit set them off once per changed record, as single writes do, after the write committed and in batched run jobs;
 * a change is written in its write's transaction (none for a write rolled back), and a process stopping before or in
 * the middle of acting on it neither loses the change nor acts on it twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { requeueAbandoned } from '../../src/server/jobs/queue.js';
import { SimulatedCrash } from '../../src/server/jobs/worker.js';
import { writeRecordChanges } from '../../src/server/records/record-changes.js';
import { fixture, importerId, runImport } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

let t: TestApp;
let admin: TestClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const made: number[] = [];

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_SECONDS: '0' });
  await seedReadyMadeImporters(t.database.db);
  admin = await t.admin();
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/** An automation on sites that writes a note of what set it off into the site's representative. */
async function marking(trigger: Record<string, unknown>, mark: string) {
  const res = await admin.post('/api/automations', {
    name: `Mark ${mark}`,
    record_type: 'site',
    trigger,
    actions: [{ kind: 'set_fields', values: { representative: `${mark} {{site.name}}` } }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  made.push(res.body.data.id);
  return res.body.data.id as number;
}

async function webhook(events: string[]) {
  const res = await admin.post('/api/webhooks', { name: 'Sites out', url: receiver.url, record_type: 'site', events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}

async function stopAll(hookId: number) {
  for (const id of made.splice(0)) await admin.post(`/api/automations/${id}/pause`);
  await admin.delete(`/api/webhooks/${hookId}`);
}

const runsOf = async (automationId: number) =>
  t.ctx.db
    .selectFrom('automation_runs')
    .select(['record_id', 'status'])
    .where('automation_id', '=', automationId)
    .orderBy('id')
    .execute();

const sentOf = (event: string) =>
  receiver.received.map((message) => JSON.parse(message.body)).filter((message) => message.type === event);

describe('imports and bulk edits set off automations and webhooks', () => {
  it('an import: one run and one message per record created, in batched run jobs', async () => {
    const automationId = await marking({ kind: 'created' }, 'Imported');
    const hookId = await webhook(['created']);
    const before = await t.ctx.db.selectFrom('jobs').select('id').where('type', '=', 'automation-run').execute();
    const done = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
      { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
    ]);
    expect(done).toMatchObject({ status: 'complete', created_count: 50 });
    await t.app.jobs.drain();
    const sites = await t.ctx.db
      .selectFrom('sites')
      .select(['id', 'name', 'representative'])
      .where('import_id', '=', done.id)
      .execute();
    expect(sites).toHaveLength(50);
    const runs = await runsOf(automationId);
    expect(runs.map((run) => run.record_id).sort()).toEqual(sites.map((site) => site.id).sort());
    expect(new Set(runs.map((run) => run.status))).toEqual(new Set(['done']));
    for (const site of sites) expect(site.representative).toBe(`Imported ${site.name}`);
    // 50 runs, one job: a 20,000-row import is not 20,000 jobs.
    const after = await t.ctx.db.selectFrom('jobs').select('id').where('type', '=', 'automation-run').execute();
    expect(after.length - before.length).toBe(1);
    const sent = sentOf('site.created').map((message) => message.data.id);
    expect(sent.filter((id) => sites.some((site) => site.id === id)).sort()).toEqual(
      sites.map((site) => site.id).sort(),
    );
    await stopAll(hookId);
  });

  it('a bulk edit: one run and one message per record it changed, none for those it left as they were', async () => {
    const sites = [];
    for (let i = 0; i < 6; i++)
      sites.push(
        (await admin.post('/api/sites', { name: `Bulk changes ${i}`, type: 'union', city: 'Reno' })).body.data,
      );
    await t.app.jobs.drain();
    const automationId = await marking({ kind: 'field_changed', field: 'city', to: 'Tulsa' }, 'Moved');
    const hookId = await webhook(['updated']);
    receiver.received.length = 0;
    // One already in Tulsa: the bulk edit leaves it unchanged, so nothing is set off for it.
    await admin.put(`/api/sites/${sites[0].id}`, { city: 'Tulsa' });
    await t.app.jobs.drain();
    receiver.received.length = 0;
    const before = (await runsOf(automationId)).length;
    const res = await admin.post('/api/bulk-edits', {
      resource: 'sites',
      field: 'city',
      value: 'Tulsa',
      query: { search: 'Bulk changes' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.app.jobs.drain();
    const shown = (await admin.get(`/api/bulk-edits/${res.body.data.id}`)).body.data;
    expect(shown).toMatchObject({ status: 'complete', changed_count: 5, unchanged_count: 1 });
    const runs = (await runsOf(automationId)).slice(before);
    expect(runs.map((run) => run.record_id).sort()).toEqual(
      sites
        .slice(1)
        .map((site) => site.id)
        .sort(),
    );
    const updates = sentOf('site.updated').filter((message) => message.data.city === 'Tulsa');
    // Each changed site's bulk edit, then the automation's own change of its representative.
    expect(new Set(updates.map((message) => message.data.id)).size).toBe(5);
    await stopAll(hookId);
  });
});

describe('the outbox', () => {
  it('holds a change with its job in the write transaction; none for a write that rolled back', async () => {
    const automationId = await marking({ kind: 'updated' }, 'Outbox');
    const site = (await admin.post('/api/sites', { name: 'Outbox site', type: 'union' })).body.data;
    await t.app.jobs.drain();
    // Refused (422): the update rolls back, and no change of it waits.
    const refused = await admin.put(`/api/sites/${site.id}`, { type: 'no such type' });
    expect(refused.status).toBe(422);
    expect(
      await t.ctx.db.selectFrom('record_changes').select('id').where('record_id', '=', site.id).execute(),
    ).toHaveLength(0);
    await admin.put(`/api/sites/${site.id}`, { city: 'Boise' });
    const waiting = await t.ctx.db
      .selectFrom('record_changes')
      .select(['event', 'changes'])
      .where('record_id', '=', site.id)
      .execute();
    expect(waiting).toEqual([{ event: 'updated', changes: { city: [null, 'Boise'] } }]);
    const queued = await t.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('type', '=', 'record-changes')
      .where('status', '=', 'queued')
      .execute();
    expect(queued).toHaveLength(1);
    await t.app.jobs.drain();
    expect((await runsOf(automationId)).filter((run) => run.record_id === site.id)).toHaveLength(2);
    made.splice(0);
    await admin.post(`/api/automations/${automationId}/pause`);
  });

  it('a process stopping in the middle of acting on changes: after the restart each is acted on once', async () => {
    const automationId = await marking({ kind: 'created' }, 'Restarted');
    const hookId = await webhook(['created']);
    receiver.received.length = 0;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await admin.post('/api/sites', { name: `Restart ${i}`, type: 'union' })).body.data.id);
    // The process dies while working out the messages (before its transaction commits).
    const plan = t.app.webhooks.plan.bind(t.app.webhooks);
    t.app.webhooks.plan = async () => {
      throw new SimulatedCrash('killed while acting on changes');
    };
    await expect(t.app.jobs.drain()).rejects.toThrow('killed while acting on changes');
    t.app.webhooks.plan = plan;
    expect(await runsOf(automationId)).toHaveLength(0);
    expect(
      await t.ctx.db.selectFrom('record_changes').select('id').where('record_id', 'in', ids).execute(),
    ).toHaveLength(3);
    // The restart gives the job back; it acts on each change once.
    expect(await requeueAbandoned(t.ctx.db, { everyRunning: true })).toBeGreaterThanOrEqual(1);
    await t.app.jobs.drain();
    await t.app.jobs.drain();
    const runs = await runsOf(automationId);
    expect(runs.map((run) => run.record_id).sort()).toEqual([...ids].sort());
    expect(
      sentOf('site.created')
        .map((message) => message.data.id)
        .sort(),
    ).toEqual([...ids].sort());
    await stopAll(hookId);
  });
});

describe('a batch of changes nobody listens to', () => {
  /** Writes `count` created-changes of `type` in a transaction rolled back after: the outbox rows it wrote. */
  async function outboxed(type: string, count: number) {
    let written = -1;
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        const changes = Array.from({ length: count }, (_, i) => ({
          type,
          id: 900_000 + i,
          event: 'created' as const,
          changes: { name: [null, `Batch ${i}`] },
        }));
        await writeRecordChanges(trx, null, changes);
        written = (await trx.selectFrom('record_changes').select('id').where('record_type', '=', type).execute())
          .length;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    return written;
  }

  it('writes nothing for a type nobody watches; a type watched a moment ago gets every change', async () => {
    // 60 changes: a batch that asks first which of its types are watched; 1: the single write's one statement.
    expect(await outboxed('no-one-watches-this', 60)).toBe(0);
    expect(await outboxed('no-one-watches-this', 1)).toBe(0);
    const automationId = await marking({ kind: 'created' }, 'Heard');
    expect(await outboxed('site', 60)).toBe(60);
    expect(await outboxed('site', 1)).toBe(1);
    made.splice(0);
    await admin.post(`/api/automations/${automationId}/pause`);
  });
});
