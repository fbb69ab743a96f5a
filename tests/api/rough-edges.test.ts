import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The rough edges of issue 36 point 7 the API shows: the organizers' role named Organizer, anyone who adds tasks can
 * give one to a colleague by name (GET /api/assignees) without reading users' records, and request logs quiet at the
 * default LOG_LEVEL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the organizers', () => {
  it('are the role named Organizer', async () => {
    const admin = await t.admin();
    const roles = (await admin.get('/api/roles?per_page=-1')).body.data as Array<{ slug: string; name: string }>;
    expect(roles.find((role) => role.slug === 'user')?.name).toBe('Organizer');
  });

  it('give a task to a colleague they find by name, with no user:read; incognito people stay hidden', async () => {
    const organizer = await t.createUser({ role: 'user', first_name: 'Olga', last_name: 'Assigner' });
    const colleague = await t.createUser({ role: 'user', first_name: 'Colm', last_name: 'Colleague' });
    await t.createUser({ role: 'super', first_name: 'Hidden', last_name: 'Superuser' });
    const client = await t.signIn(organizer.email);
    expect((await client.get('/api/users')).status).toBe(403);
    const found = await client.get('/api/assignees?q=colleag');
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([{ id: colleague.id, name: 'Colm Colleague' }]);
    const everyone = (await client.get('/api/assignees')).body.data as Array<{ name: string }>;
    expect(everyone.map((p) => p.name)).toContain('Olga Assigner');
    expect(everyone.map((p) => p.name)).not.toContain('Hidden Superuser');
    expect((await client.get(`/api/assignees?ids=${colleague.id}`)).body.data).toHaveLength(1);
    expect((await client.get('/api/assignees?ids=x')).status).toBe(422);
    const task = await client.post('/api/tasks', {
      title: 'Call the steward',
      type: 'call',
      assignee_id: colleague.id,
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    expect(task.body.data.assignee_id).toBe(colleague.id);
    // Someone who may not add tasks gets no list of people.
    const assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    expect((await assistant.get('/api/assignees')).status).toBe(403);
    expect((await t.client().get('/api/assignees')).status).toBe(401);
  });
});

describe('request logs', () => {
  it('are quiet at the default LOG_LEVEL and written at debug', async () => {
    for (const [level, perRequest] of [
      ['info', false],
      ['debug', true],
    ] as const) {
      const lines: string[] = [];
      const app = await startTestApp({ LOG_LEVEL: level }, { logLines: lines });
      try {
        const client = app.client();
        expect((await client.get('/api/health')).status).toBe(200);
        const logged = lines.map((line) => JSON.parse(line) as { msg?: string });
        expect(
          logged.some((entry) => entry.msg === 'request completed'),
          level,
        ).toBe(perRequest);
      } finally {
        await app.close();
      }
    }
  });
});
