import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleChannel, userChannel } from '../../src/server/realtime/channels.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The realtime fan-out's list of roles (src/server/access/kept-roles.ts): read once and kept while no role changes
 * (with the embedded database, or PostgreSQL with shared write counters), not once per record announced; and a
 * role's change reaches the very next announcement, so a role that lost a permission hears nothing more.
 */
let t: TestApp;
let admin: TestClient;
const heard: Array<{ channels: string[]; event: string; type?: string }> = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const publish = t.ctx.realtime.publish;
  t.ctx.realtime.publish = async (channels, event, data, ...rest) => {
    heard.push({ channels: [...channels], event, type: (data as { type?: string } | undefined)?.type });
    return publish.call(t.ctx.realtime, channels, event, data, ...rest);
  };
});
afterAll(async () => {
  await t?.close();
});

const ROLES_READ = /^select "id", "permissions", "policy" from "roles" where "deleted_at" is null order by "id"$/;

async function addTask(title: string) {
  const res = await admin.post('/api/tasks', { title, type: 'call' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await t.ctx.events.idle();
  return res.body.data.id as number;
}

/** The test of each member (access/fan-out.ts): a query over the people of one role or of several alike. */
const MEMBER_TEST = /from users u where u\.role_id in \(/;

const heardOn = (channel: string) => heard.filter((sent) => sent.channels.includes(channel));

describe('the fan-out’s roles', () => {
  it('are read once while no role changes, and again at the first announcement after one does', async () => {
    const created = await admin.post('/api/roles', {
      slug: 'fan-out-listener',
      name: 'Fan-out listener',
      permissions: ['task:read'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const role = created.body.data;
    const channel = roleChannel(role.id);
    await addTask('Warm-up task');
    expect(heardOn(channel).length).toBeGreaterThan(0);

    const kept = t.database.kind === 'pglite' || t.database.writes.isShared;
    const { queries } = await recordQueries(async () => {
      for (const n of [1, 2, 3]) await addTask(`Task ${n}`);
    });
    // Each task's creation is announced once; only where no change can be seen are the roles read each time.
    expect(queries.filter((query) => ROLES_READ.test(query.sql)).length).toBe(kept ? 0 : 3);

    const changing = await recordQueries(async () => {
      const changed = await admin.put(`/api/roles/${role.id}`, { permissions: [], updated_at: role.updated_at });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      await t.ctx.events.idle();
    });
    // The role's own change is announced (to its members, and those who read roles) with the roles read again.
    expect(changing.queries.filter((query) => ROLES_READ.test(query.sql)).length).toBe(1);
    const before = heardOn(channel).length;
    const after = await recordQueries(() => addTask('After the change'));
    expect(after.queries.filter((query) => ROLES_READ.test(query.sql)).length).toBe(kept ? 0 : 1);
    expect(heardOn(channel).length, 'a role that may no longer read tasks hears of none').toBe(before);
  });
});

describe('a record that hangs on another', () => {
  it("goes to the whole role when its parent's type is read whole, and member by member when the parent's rule depends on them", async () => {
    const created = await admin.post('/api/roles', {
      slug: 'fan-out-parents',
      name: 'Fan-out parents',
      permissions: ['task:read', 'contact:read', 'site:read'],
      policy: { site: { read: 'own' }, task: { read: { any: ['own', 'parent'] } } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const channel = roleChannel(created.body.data.id);
    await t.createUser({ role: 'fan-out-parents' });
    const contact = await admin.post('/api/contacts', { first_name: 'Parent', last_name: 'Read whole' });
    const site = await admin.post('/api/sites', { name: 'Parent yard', type: 'union' });
    expect([contact.status, site.status]).toEqual([201, 201]);

    const tasksHeard = () =>
      heardOn(channel).filter((sent) => sent.type === 'task' && sent.event === 'App.Events.ModelCreated').length;
    // A task on a record, and the statements its write and announcement ran.
    const taskOn = (taskable_type: string, taskable_id: number) =>
      recordQueries(async () => {
        const res = await admin.post('/api/tasks', {
          title: `About the ${taskable_type}`,
          type: 'call',
          taskable_type,
          taskable_id,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        await t.ctx.events.idle();
      });
    const before = tasksHeard();
    const onContact = await taskOn('contact', contact.body.data.id);
    // Every member reads the contacts, so every member reads the task: the role's channel, and no member tested.
    expect(tasksHeard()).toBe(before + 1);
    expect(onContact.queries.filter((query) => MEMBER_TEST.test(query.sql))).toEqual([]);

    const onSite = await taskOn('site', site.body.data.id);
    // The site is nobody's in the role: each member is asked, and none hears of it.
    expect(onSite.queries.filter((query) => MEMBER_TEST.test(query.sql)).length).toBeGreaterThan(0);
    expect(tasksHeard()).toBe(before + 1);
  });
});

describe('roles whose rule is alike', () => {
  it('are asked about in one part of the statement, and each member hears only of what they read', async () => {
    for (const slug of ['fan-out-alike-a', 'fan-out-alike-b']) {
      const res = await admin.post('/api/roles', {
        slug,
        name: slug,
        permissions: ['site:read'],
        policy: { site: { read: 'own' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const holder = await t.createUser({ role: 'fan-out-alike-a' });
    const other = await t.createUser({ role: 'fan-out-alike-b' });
    const sitesHeard = (userId: number) =>
      heardOn(userChannel(userId)).filter((sent) => sent.type === 'site' && sent.event === 'App.Events.ModelCreated');
    const { queries } = await recordQueries(async () => {
      const site = await admin.post('/api/sites', { name: 'Alike yard', type: 'union', user_id: holder.id });
      expect(site.status, JSON.stringify(site.body)).toBe(201);
      await t.ctx.events.idle();
    });
    const tests = queries.filter((query) => MEMBER_TEST.test(query.sql));
    expect(tests).toHaveLength(1);
    // Both roles' members in one part (`u.role_id in (a, b)`), not a part each.
    const parts = tests[0].sql.match(/from users u where u\.role_id in \(([^)]*)\)/g) ?? [];
    expect(parts.some((part) => part.split(',').length >= 2)).toBe(true);
    expect(sitesHeard(holder.id)).toHaveLength(1);
    expect(sitesHeard(other.id)).toHaveLength(0);
  });
});
