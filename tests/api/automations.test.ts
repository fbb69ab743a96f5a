/**
 * Automations (docs/automations.md): one automation per trigger kind and per action kind, conditions and branches in
 * the view filter structure, runs as jobs after the write committed (nothing inside the request), a restart in the
 * middle of a run (no action twice, none lost), a loop of two automations stopped with a clear log entry, the owner's
 * access (no more), the run log, retry, pause and resume, and "test with this record".
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requeueAbandoned } from '../../src/server/jobs/queue.js';
import { SimulatedCrash } from '../../src/server/jobs/worker.js';
import { signedHeaders } from '../../src/server/webhooks/signing.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

let t: TestApp;
let admin: TestClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const made: number[] = [];

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    WEBHOOK_RETRY_SECONDS: '0',
    AUTOMATION_MAX_DEPTH: '3',
    TIME_ZONE: 'America/Chicago',
  });
  admin = await t.admin();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function automation(body: Record<string, unknown>, client = admin) {
  const res = await client.post('/api/automations', { name: 'Test automation', record_type: 'site', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  made.push(res.body.data.id);
  return res.body.data as { id: number; secret: string };
}

/** Leaves only the automations of one test on: the earlier ones are paused. */
async function pauseAll() {
  for (const id of made) await admin.post(`/api/automations/${id}/pause`);
}

interface Run {
  id: number;
  status: string;
  error: string | null;
  trigger: { kind: string; record_id?: number; date?: string };
  steps: Array<{ path: string; outcome: string; detail: { id?: number; values: { title: string } } }>;
}
interface Notice {
  title: string;
  link: string;
}
const runsOf = async (id: number) => (await admin.get(`/api/automations/${id}/runs`)).body.data as Run[];
const site = async (body: Record<string, unknown>) => {
  const res = await admin.post('/api/sites', { type: 'union', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const tasksTitled = async (title: string) =>
  (await admin.get(`/api/tasks?filter[title]=${encodeURIComponent(title)}`)).body.data as Array<
    Record<string, unknown>
  >;

describe('triggers', () => {
  it('created: makes a task from the site with placeholders, after the write (never inside its request)', async () => {
    const auto = await automation({
      trigger: { kind: 'created' },
      actions: [
        {
          kind: 'create_record',
          record_type: 'task',
          values: {
            title: 'Call about {{site.name}}',
            type: 'call',
            taskable_type: 'site',
            taskable_id: '{{site.id}}',
          },
        },
      ],
    });
    const s = await site({ name: 'Harbor Point' });
    // The request has answered; the change waits in the outbox with its job, committed with the site: nothing done yet.
    expect(await runsOf(auto.id)).toHaveLength(0);
    expect(await tasksTitled('Call about Harbor Point')).toHaveLength(0);
    const waiting = await t.ctx.db
      .selectFrom('record_changes')
      .select(['record_type', 'record_id', 'event'])
      .where('record_id', '=', s.id)
      .execute();
    expect(waiting).toEqual([{ record_type: 'site', record_id: s.id, event: 'created' }]);
    await t.app.jobs.drain();
    expect((await runsOf(auto.id))[0]).toMatchObject({ trigger: { kind: 'created', record_id: s.id } });
    const [task] = await tasksTitled('Call about Harbor Point');
    expect(task).toMatchObject({ taskable_type: 'site', taskable_id: s.id });
    const [run] = await runsOf(auto.id);
    expect(run).toMatchObject({ status: 'done', steps: [{ path: '0', kind: 'create_record', outcome: 'done' }] });
    expect(run.steps[0].detail).toMatchObject({ id: task.id });
    await pauseAll();
  });

  it('updated, with conditions: sets fields only on the sites that meet them', async () => {
    const auto = await automation({
      trigger: { kind: 'updated' },
      conditions: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
      actions: [{ kind: 'set_fields', values: { representative: 'Checked by automation' } }],
    });
    const union = await site({ name: 'Union updated' });
    const open = await site({ name: 'Open updated', type: 'non-union' });
    await admin.put(`/api/sites/${union.id}`, { city: 'Austin' });
    await admin.put(`/api/sites/${open.id}`, { city: 'Austin' });
    await t.app.jobs.drain();
    expect((await admin.get(`/api/sites/${union.id}`)).body.data.representative).toBe('Checked by automation');
    expect((await admin.get(`/api/sites/${open.id}`)).body.data.representative).toBeNull();
    const statuses = (await runsOf(auto.id)).map((run) => run.status).sort();
    // The union site's update, the automation's own update of it (one level deeper), and the skipped open site.
    expect(statuses).toContain('skipped');
    expect(statuses).toContain('done');
    await pauseAll();
  });

  it('deleted: emails (through the mailer; without SMTP it is the log)', async () => {
    await automation({
      trigger: { kind: 'deleted' },
      actions: [{ kind: 'email', to: ['steward@example.org'], subject: '{{site.name}} was deleted', text: 'Gone.' }],
    });
    const s = await site({ name: 'Doomed site' });
    await admin.delete(`/api/sites/${s.id}`);
    await t.app.jobs.drain();
    expect(t.mails.find((mail) => mail.subject === 'Doomed site was deleted')).toMatchObject({
      to: 'steward@example.org',
    });
    await pauseAll();
  });

  it("field_changed to a value: notifies a role's members and the record's owner", async () => {
    const leader = await t.createUser({ role: 'leader', email: 'auto-leader@example.com' });
    await automation({
      trigger: { kind: 'field_changed', field: 'name', to: 'Renamed tower' },
      actions: [{ kind: 'notify', role: 'leader', record_owner: true, title: '{{site.name}} renamed' }],
    });
    const s = await site({ name: 'Old tower', user_id: leader.id });
    await admin.put(`/api/sites/${s.id}`, { city: 'Dallas' });
    await admin.put(`/api/sites/${s.id}`, { name: 'Renamed tower' });
    await t.app.jobs.drain();
    const leaderClient = await t.signIn('auto-leader@example.com');
    const notices = (await leaderClient.get('/api/notifications')).body.data as Notice[];
    expect(notices.filter((n: Notice) => n.title === 'Renamed tower renamed')).toHaveLength(1);
    expect(notices[0].link).toBe(`/sites/${s.id}/show`);
    await pauseAll();
  });

  it('date_reached: fires once per record and date, N days before, by the scheduler', async () => {
    const auto = await automation({
      trigger: { kind: 'date_reached', field: 'bid_date', days: -7 },
      actions: [
        {
          kind: 'create_record',
          record_type: 'note',
          values: { body: 'Bid in a week: {{site.name}}', notable_type: 'site', notable_id: '{{site.id}}' },
        },
      ],
    });
    const now = new Date('2026-03-02T15:00:00Z');
    const due = await site({ name: 'Bid soon', bid_date: '2026-03-09' });
    await site({ name: 'Bid later', bid_date: '2026-03-20' });
    await t.app.automations.triggers.tick(now);
    await t.app.automations.triggers.tick(now);
    await t.app.jobs.drain();
    const runs = await runsOf(auto.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'done',
      trigger: { kind: 'date_reached', record_id: due.id, date: '2026-03-09' },
    });
    await pauseAll();
  });

  it("schedule: runs at its time in the organization's time zone, once per time", async () => {
    const auto = await automation({
      record_type: null,
      trigger: { kind: 'schedule', at: '07:00', days: ['mon'] },
      actions: [
        { kind: 'create_record', record_type: 'task', values: { title: 'Weekly check {{today}}', type: 'meeting' } },
      ],
    });
    const shown = (await admin.get(`/api/automations/${auto.id}`)).body.data;
    // 07:00 in Chicago is 13:00 UTC (winter) on a Monday.
    expect(new Date(shown.next_run_at).getUTCHours()).toBe(13);
    expect(new Date(shown.next_run_at).getUTCDay()).toBe(1);
    const at = new Date(new Date(shown.next_run_at).getTime() + 30_000);
    await t.app.automations.triggers.tick(at);
    await t.app.automations.triggers.tick(at);
    await t.app.jobs.drain();
    const runs = await runsOf(auto.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('done');
    expect(await tasksTitled(`Weekly check ${runs[0].steps[0].detail.values.title.slice(-10)}`)).toHaveLength(1);
    await pauseAll();
  });

  it('webhook: a signed message starts a run; unsigned, bad or too large ones are refused', async () => {
    const auto = await automation({
      record_type: null,
      trigger: { kind: 'webhook' },
      actions: [
        { kind: 'create_record', record_type: 'task', values: { title: 'From form: {{webhook.name}}', type: 'call' } },
      ],
    });
    const send = (body: string, headers: Record<string, string>) =>
      t.client().post(`/api/automations/${auto.id}/webhook`, undefined, {
        raw: body,
        csrf: false,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const body = JSON.stringify({ name: 'Ana Ruiz' });
    const signed = signedHeaders(auto.secret, 'msg_1', Math.floor(Date.now() / 1000), body);
    expect((await send(body, signed)).status).toBe(202);
    // The sender retrying the same message (same webhook-id) starts no second run.
    expect((await send(body, signed)).status).toBe(202);
    expect((await send(body, { ...signed, 'webhook-signature': 'v1,AAAA' })).status).toBe(401);
    expect((await send(body, {})).status).toBe(401);
    const list = JSON.stringify([1]);
    expect((await send(list, signedHeaders(auto.secret, 'msg_2', Math.floor(Date.now() / 1000), list))).status).toBe(
      422,
    );
    const big = JSON.stringify({ name: 'x'.repeat(70_000) });
    const tooBig = await send(big, signedHeaders(auto.secret, 'msg_3', Math.floor(Date.now() / 1000), big));
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors.body[0]).toBe('The message is larger than 64 KB.');
    await t.app.jobs.drain();
    expect(await tasksTitled('From form: Ana Ruiz')).toHaveLength(1);
    await pauseAll();
  });
});

describe('actions', () => {
  it('webhook: a signed message to the receiver, with the automation secret; branches pick their side', async () => {
    receiver.answer([200]);
    const auto = await automation({
      trigger: { kind: 'created' },
      actions: [
        {
          kind: 'branch',
          if: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
          yes: [{ kind: 'webhook', url: receiver.url }],
          no: [{ kind: 'set_fields', values: { representative: 'Not union' } }],
        },
      ],
    });
    const before = receiver.received.length;
    const union = await site({ name: 'Branch union' });
    const open = await site({ name: 'Branch open', type: 'non-union' });
    await t.app.jobs.drain();
    const messages = receiver.received.slice(before);
    expect(messages).toHaveLength(1);
    const verified = new Webhook(auto.secret).verify(messages[0]!.body, messages[0]!.headers as Record<string, string>);
    expect(verified).toMatchObject({ type: 'automation.webhook', data: { record: { id: union.id } } });
    expect((await admin.get(`/api/sites/${open.id}`)).body.data.representative).toBe('Not union');
    const runs = await runsOf(auto.id);
    const openRun = runs.find((run) => run.trigger.record_id === open.id)!;
    expect(openRun.steps.map((step) => [step.path, step.outcome])).toEqual([
      ['0', 'no'],
      ['0.no.0', 'done'],
    ]);
    await pauseAll();
  });
});

describe('runs', () => {
  it('a restart in the middle of a run: each action done once, none lost', async () => {
    const auto = await automation({
      trigger: { kind: 'created' },
      actions: [
        { kind: 'set_fields', values: { representative: 'First step' } },
        { kind: 'create_record', record_type: 'task', values: { title: 'Second step {{site.name}}', type: 'call' } },
        { kind: 'notify', people: [1], title: 'Third step {{site.name}}' },
      ],
    });
    const s = await site({ name: 'Crashy' });
    t.app.automations.runner.options.afterStep = (_run, path) => {
      if (path === '1') throw new SimulatedCrash('killed after the second action');
    };
    try {
      await expect(t.app.jobs.drain()).rejects.toThrow('killed after the second action');
    } finally {
      t.app.automations.runner.options.afterStep = undefined;
    }
    expect(await requeueAbandoned(t.ctx.db, { everyRunning: true })).toBeGreaterThanOrEqual(1);
    await t.app.jobs.drain();
    const [run] = await runsOf(auto.id);
    expect(run.status).toBe('done');
    expect(run.steps.map((step) => step.path)).toEqual(['0', '1', '2']);
    expect(await tasksTitled('Second step Crashy')).toHaveLength(1);
    const notices = (await admin.get('/api/notifications?per_page=100')).body.data as Notice[];
    expect(notices.filter((n: Notice) => n.title === 'Third step Crashy')).toHaveLength(1);
    const history: Array<{ changes?: Record<string, unknown> }> =
      (await admin.get(`/api/revisions?revisionable_type=site&revisionable_id=${s.id}`)).body.data ?? [];
    expect(history.filter((r: { changes?: Record<string, unknown> }) => r.changes?.representative)).toHaveLength(1);
    await pauseAll();
  });

  it('a loop of two automations is stopped, with a log entry naming both', async () => {
    const a = await automation({
      name: 'Loop A',
      trigger: { kind: 'updated' },
      actions: [{ kind: 'set_fields', values: { owner: 'A {{now}}' } }],
    });
    const b = await automation({
      name: 'Loop B',
      trigger: { kind: 'updated' },
      actions: [{ kind: 'set_fields', values: { representative: 'B {{now}}' } }],
    });
    const s = await site({ name: 'Loop site' });
    await admin.put(`/api/sites/${s.id}`, { city: 'Loopville' });
    await t.app.jobs.drain();
    const runs = [...(await runsOf(a.id)), ...(await runsOf(b.id))];
    const stopped = runs.filter((run) => run.status === 'stopped');
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped[0].error).toMatch(/Stopped: a loop.*"Loop A".*"Loop B"|Stopped: a loop.*"Loop B".*"Loop A"/);
    expect(runs.every((run) => ['done', 'stopped'].includes(run.status))).toBe(true);
    await pauseAll();
  });

  it("acts with the owner's access only: no record beyond it is read, no write beyond it is made", async () => {
    await admin.post('/api/roles', {
      slug: 'auto-maker',
      name: 'Automation maker',
      permissions: ['automation:create', 'automation:read', 'automation:update', 'site:read:union'],
    });
    await t.createUser({ role: 'auto-maker', email: 'auto-maker@example.com' });
    const maker = await t.signIn('auto-maker@example.com');
    const auto = await automation(
      { trigger: { kind: 'created' }, actions: [{ kind: 'set_fields', values: { representative: 'Beyond' } }] },
      maker,
    );
    const union = await site({ name: 'Union beyond' });
    const open = await site({ name: 'Open beyond', type: 'non-union' });
    await t.app.jobs.drain();
    const runs = await runsOf(auto.id);
    const unionRun = runs.find((run) => run.trigger.record_id === union.id)!;
    const openRun = runs.find((run) => run.trigger.record_id === open.id)!;
    expect(openRun).toMatchObject({ status: 'skipped' });
    expect(openRun.error).toMatch(/may not read/);
    expect(unionRun).toMatchObject({ status: 'failed', steps: [{ path: '0', outcome: 'failed' }] });
    expect(unionRun.error).toMatch(/permission|unauthorized/i);
    expect((await admin.get(`/api/sites/${union.id}`)).body.data.representative).toBeNull();

    // Retry once the owner may update: the failed action is done, the run ends well.
    const role = (await admin.get(`/api/roles/${await t.roleId('auto-maker')}`)).body.data;
    await admin.put(`/api/roles/${role.id}`, {
      permissions: [...role.permissions, 'site:update:union'],
      updated_at: role.updated_at,
    });
    const retried = await admin.post(`/api/automations/${auto.id}/runs/${unionRun.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    await t.app.jobs.drain();
    expect((await admin.get(`/api/sites/${union.id}`)).body.data.representative).toBe('Beyond');
    expect((await admin.post(`/api/automations/${auto.id}/runs/${unionRun.id}/retry`)).status).toBe(409);
    await pauseAll();
  });

  it('paused: starts no runs; resumed: starts them again', async () => {
    const auto = await automation({
      trigger: { kind: 'created' },
      actions: [{ kind: 'set_fields', values: { representative: 'Resumed' } }],
    });
    await admin.post(`/api/automations/${auto.id}/pause`);
    await site({ name: 'While paused' });
    await t.app.jobs.drain();
    expect(await runsOf(auto.id)).toHaveLength(0);
    expect((await admin.post(`/api/automations/${auto.id}/resume`)).body.data.enabled).toBe(true);
    await site({ name: 'After resume' });
    await t.app.jobs.drain();
    expect((await runsOf(auto.id)).map((run) => run.status)).toEqual(['done']);
    await pauseAll();
  });

  it('test with this record: says what would happen and does nothing', async () => {
    const auto = await automation({
      trigger: { kind: 'updated' },
      enabled: false,
      actions: [
        { kind: 'set_fields', values: { representative: 'Would be {{site.name}}' } },
        { kind: 'email', to: ['lead@example.org'], subject: 'About {{site.name}}', text: '...' },
      ],
    });
    const s = await site({ name: 'Dry site' });
    const mailsBefore = t.mails.length;
    const res = await admin.post(`/api/automations/${auto.id}/test`, { record_id: s.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      conditions_met: true,
      steps: [
        { path: '0', outcome: 'would', detail: { values: { representative: 'Would be Dry site' } } },
        { path: '1', outcome: 'would', detail: { to: ['lead@example.org'], subject: 'About Dry site' } },
      ],
    });
    await t.app.jobs.drain();
    expect((await admin.get(`/api/sites/${s.id}`)).body.data.representative).toBeNull();
    expect(t.mails.length).toBe(mailsBefore);
    expect(await runsOf(auto.id)).toHaveLength(0);
  });

  it('refuses what cannot work, in words, and asks for its permission', async () => {
    const bad = await admin.post('/api/automations', {
      name: 'Bad',
      record_type: 'site',
      trigger: { kind: 'field_changed', field: 'nope' },
      actions: [{ kind: 'set_fields', values: {} }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['trigger.field'][0]).toMatch(/no field "nope"/);
    const ssrf = await admin.post('/api/automations', {
      name: 'SSRF',
      record_type: 'site',
      trigger: { kind: 'created' },
      actions: [{ kind: 'webhook', url: 'http://10.0.0.5/hook' }],
    });
    expect(ssrf.status).toBe(422);
    await t.createUser({ role: 'user', email: 'auto-organizer@example.com' });
    const organizer = await t.signIn('auto-organizer@example.com');
    expect((await organizer.get('/api/automations')).status).toBe(403);
  });
});
