import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Conversations (docs/conversations.md): a call, text, email, visit or meeting with one contact, recruit or member,
 * its outcome from a list administrators extend, notes, an assessment, and a next step that becomes a task for whoever
 * is named, written together (one transaction, each with its revision); logged from a task, that task is completed and
 * the call counted once; a person's timeline; who may read and log them.
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
const ids: Record<string, number> = {};
type Rec = Record<string, unknown> & { id: number };

async function created(resource: string, values: Record<string, unknown>, client = admin): Promise<Rec> {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Rec;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const me = await t.createUser({ role: 'user', first_name: 'Orla', last_name: 'Organizer' });
  ids.organizer = me.id;
  ids.colleague = (await t.createUser({ role: 'user', first_name: 'Cole', last_name: 'Colleague' })).id;
  organizer = await t.signIn(me.email);
  ids.contact = (await created('contacts', { first_name: 'Rosa', last_name: 'Talker', phone: '555-0101' })).id;
  ids.recruit = (await created('recruits', { first_name: 'Ray', last_name: 'Recruit' })).id;
  ids.member = (await created('members', { first_name: 'Mia', last_name: 'Member' })).id;
  ids.site = (await created('sites', { name: 'Conversation Yard', type: 'non-union' })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('logging a conversation', () => {
  it('records who, when, how, the outcome and notes, with its revision; the logger is who had it', async () => {
    const conversation = await created(
      'conversations',
      {
        contact_id: ids.contact,
        channel: 'call',
        had_at: '2026-03-02T16:30:00Z',
        outcome: 'reached',
        notes: 'Worried about overtime',
        site_id: ids.site,
      },
      organizer,
    );
    expect(conversation).toMatchObject({
      contact_id: ids.contact,
      recruit_id: null,
      person_type: 'contact',
      person_id: ids.contact,
      channel: 'call',
      outcome: 'reached',
      user_id: ids.organizer,
      title: 'Call on Mar 2, 2026',
      next_task_id: null,
    });
    const history = await admin.get(`/api/revisions?type=conversation&revisionable_id=${conversation.id}`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((r: { action: string }) => r.action)).toEqual(['created']);
    // Another organizer's name as who had it needs the permission to log for others.
    const other = await organizer.post('/api/conversations', {
      member_id: ids.member,
      channel: 'call',
      had_at: '2026-03-02T17:00:00Z',
      user_id: ids.colleague,
    });
    expect(other.status).toBe(422);
    expect(other.body.errors.user_id).toBeDefined();
  });

  it('is with exactly one person the logger may read, and its outcome is one of the list', async () => {
    const none = await organizer.post('/api/conversations', { channel: 'call', had_at: '2026-03-02T16:30:00Z' });
    expect(none.status).toBe(422);
    expect(none.body.errors.contact_id[0]).toMatch(/one person/);
    const two = await organizer.post('/api/conversations', {
      contact_id: ids.contact,
      recruit_id: ids.recruit,
      channel: 'call',
      had_at: '2026-03-02T16:30:00Z',
    });
    expect(two.status).toBe(422);
    const missing = await organizer.post('/api/conversations', {
      contact_id: 2_000_000,
      channel: 'call',
      had_at: '2026-03-02T16:30:00Z',
    });
    expect(missing.status).toBe(422);
    // A call to the contact with the outcome 'went-fishing', at `had_at`.
    const wentFishing = (had_at: string) =>
      organizer.post('/api/conversations', {
        contact_id: ids.contact,
        channel: 'call',
        had_at,
        outcome: 'went-fishing',
      });
    const unknownOutcome = await wentFishing('2026-03-02T16:30:00Z');
    expect(unknownOutcome.status).toBe(422);
    expect(unknownOutcome.body.errors.outcome[0]).toMatch(/reached/);
    // The administrator extends the list; the new outcome is then accepted.
    const fishing = await created('conversation-outcomes', { name: 'Went fishing', slug: 'went-fishing' });
    await created(
      'conversations',
      { contact_id: ids.contact, channel: 'text', had_at: '2026-03-03T10:00:00Z', outcome: 'went-fishing' },
      organizer,
    );
    // Taken off the list, it is refused again (the embedded database keeps the list until it is written).
    expect((await admin.delete(`/api/conversation-outcomes/${fishing.id}`)).status).toBe(200);
    const removedOutcome = await wentFishing('2026-03-03T11:00:00Z');
    expect(removedOutcome.status).toBe(422);
    expect(removedOutcome.body.errors.outcome[0]).not.toMatch(/went-fishing/);
    const noChannel = await organizer.post('/api/conversations', {
      contact_id: ids.contact,
      had_at: '2026-03-02T16:30:00Z',
    });
    expect(noChannel.status).toBe(422);
    expect(noChannel.body.errors.channel).toBeDefined();
  });

  it('turns its next step into a task on the person, for whoever is named, in the same write', async () => {
    const conversation = await created(
      'conversations',
      {
        recruit_id: ids.recruit,
        channel: 'visit',
        had_at: '2026-03-04T12:00:00Z',
        outcome: 'reached',
        next_step: 'Bring a card to sign',
        next_step_due: '2026-03-06T15:00:00Z',
        next_step_user_id: ids.colleague,
      },
      organizer,
    );
    expect(conversation.next_task_id).toEqual(expect.any(Number));
    const task = (await admin.get(`/api/tasks/${conversation.next_task_id}`)).body.data;
    expect(task).toMatchObject({
      title: 'Bring a card to sign',
      type: 'visit',
      assignee_id: ids.colleague,
      taskable_type: 'recruit',
      taskable_id: ids.recruit,
      completed: false,
    });
    expect(new Date(task.due_at).toISOString()).toBe('2026-03-06T15:00:00.000Z');
    // No one named: the task is the logger's.
    const mine = await created(
      'conversations',
      { member_id: ids.member, channel: 'email', had_at: '2026-03-04T13:00:00Z', next_step: 'Send the contract' },
      organizer,
    );
    const own = (await admin.get(`/api/tasks/${mine.next_task_id}`)).body.data;
    expect(own).toMatchObject({ assignee_id: ids.organizer, type: 'call', taskable_type: 'member' });
  });

  it('writes nothing when a part is refused: no task, no conversation', async () => {
    await created('roles', {
      slug: 'talker',
      name: 'Talker',
      permissions: ['contact:read', 'conversation:create', 'conversation:read'],
    });
    const talker = await t.signIn((await t.createUser({ role: 'talker' })).email);
    const before = (await admin.get('/api/conversations?per_page=1')).body.meta.total;
    const tasksBefore = (await admin.get('/api/tasks?per_page=1')).body.meta.total;
    const refused = await talker.post('/api/conversations', {
      contact_id: ids.contact,
      channel: 'call',
      had_at: '2026-03-05T09:00:00Z',
      next_step: 'Call again',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.next_step[0]).toMatch(/can't add tasks/);
    const badDue = await organizer.post('/api/conversations', {
      contact_id: ids.contact,
      channel: 'call',
      had_at: '2026-03-05T09:00:00Z',
      next_step: 'Call again',
      next_step_due: 'not a date',
    });
    expect(badDue.status).toBe(422);
    // A part refused after the conversation is written (the task it was logged from is on a site this person may
    // not read) takes the conversation back with it.
    await created('roles', {
      slug: 'completer',
      name: 'Completer',
      permissions: ['contact:read', 'conversation:create', 'conversation:read', 'task:read', 'task:update'],
    });
    const completer = await t.signIn((await t.createUser({ role: 'completer' })).email);
    const siteTask = await created('tasks', {
      title: 'Gate check',
      type: 'visit',
      taskable_type: 'site',
      taskable_id: ids.site,
    });
    const late = await completer.post('/api/conversations', {
      contact_id: ids.contact,
      channel: 'call',
      had_at: '2026-03-05T09:00:00Z',
      task_id: siteTask.id,
    });
    expect(late.status).toBe(422);
    expect(late.body.errors.task_id).toBeDefined();
    expect((await admin.get(`/api/tasks/${siteTask.id}`)).body.data.completed).toBe(false);
    expect((await admin.get('/api/tasks?per_page=1')).body.meta.total).toBe(tasksBefore + 1);
    expect((await admin.get('/api/conversations?per_page=1')).body.meta.total).toBe(before);
    // Without it, the talker logs conversations.
    await created(
      'conversations',
      { contact_id: ids.contact, channel: 'call', had_at: '2026-03-05T09:00:00Z', outcome: 'no-answer' },
      talker,
    );
  });

  it('logged from a task, completes it, and the call is counted once', async () => {
    const month = '2026-04';
    const stats = async () =>
      (await organizer.get(`/api/dashboard/statistics?from=${month}-01&to=${month}-30`)).body.data.figures.find(
        (f: { key: string }) => f.key === 'calls',
      );
    const task = await created(
      'tasks',
      { title: 'Call Rosa', type: 'call', taskable_type: 'contact', taskable_id: ids.contact },
      organizer,
    );
    await created(
      'conversations',
      { contact_id: ids.contact, channel: 'call', had_at: `${month}-02T10:00:00Z`, outcome: 'no-answer' },
      organizer,
    );
    expect((await stats()).value).toBe(1);
    await created(
      'conversations',
      {
        contact_id: ids.contact,
        channel: 'call',
        had_at: `${month}-03T10:00:00Z`,
        outcome: 'reached',
        task_id: task.id,
      },
      organizer,
    );
    const done = (await admin.get(`/api/tasks/${task.id}`)).body.data;
    expect(done.completed).toBe(true);
    // The task's completion time is now (not in April 2026), so only the conversation without a task counts here;
    // over any range, the call from the task counts as the task done, not a second time as a conversation.
    expect((await stats()).value).toBe(1);
    const wide = (
      await organizer.get('/api/dashboard/statistics?from=2020-01-01&to=2035-12-31')
    ).body.data.figures.find((f: { key: string }) => f.key === 'calls');
    const byPart = Object.fromEntries(wide.parts.map((p: { key: string; value: number }) => [p.key, p.value]));
    expect(byPart['call-tasks']).toBe(1);
    // The organizer's calls without a task: March's and April's first.
    expect(byPart['call-conversations']).toBe(2);
    for (const part of wide.parts) {
      const list = await organizer.get(
        `/api/${part.link.resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(part.link.filter))}`,
      );
      expect(list.body.meta.total, part.key).toBe(part.value);
    }
  });
});

describe("a person's timeline", () => {
  it('shows every conversation and card with the person, newest first, as the reader may read them', async () => {
    const campaign = await created('campaigns', { name: 'Timeline campaign' });
    await created('campaign-cards', {
      campaign_id: campaign.id,
      worker_name: 'Rosa Talker',
      signed_on: '2026-03-10',
      contact_id: ids.contact,
    });
    const timeline = await admin.get(`/api/contacts/${ids.contact}/timeline`);
    expect(timeline.status).toBe(200);
    const kinds = timeline.body.data.map((e: { kind: string }) => e.kind);
    expect(kinds).toContain('card');
    expect(kinds.filter((k: string) => k === 'conversation').length).toBeGreaterThanOrEqual(4);
    const times = timeline.body.data.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    // Organizers do not see who signed cards: their timeline has the conversations only.
    const theirs = await organizer.get(`/api/contacts/${ids.contact}/timeline`);
    expect(theirs.body.data.map((e: { kind: string }) => e.kind)).not.toContain('card');
    expect((await organizer.get('/api/contacts/2000000/timeline')).status).toBe(404);
  });

  it('holds only what the reader may read; conversations are refused to those without their permission', async () => {
    // The seeded assistant reads contacts but not conversations or cards: the person's timeline is empty to them.
    const assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    const timeline = await assistant.get(`/api/contacts/${ids.contact}/timeline`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.data).toEqual([]);
    expect((await assistant.get(`/api/recruits/${ids.recruit}/timeline`)).status).toBe(403);
    expect((await assistant.post('/api/conversations', { contact_id: ids.contact })).status).toBe(403);
    expect((await assistant.get('/api/conversations')).status).toBe(403);
  });
});

describe('reading conversations under the own-or-parent rule', () => {
  it('a person reads the conversations with people they may read, and those they had themselves with anyone', async () => {
    // A role reading only the contacts named Near (a condition): conversations follow their contact, or are one's own.
    await created('roles', {
      slug: 'near-contacts',
      name: 'Near contacts',
      permissions: ['contact:read', 'conversation:read'],
      policy: { contact: { read: { condition: { all: [{ field: 'last_name', op: 'eq', value: 'Near' }] } } } },
    });
    const reader = await t.createUser({ role: 'near-contacts', first_name: 'Rita', last_name: 'Reader' });
    const client = await t.signIn(reader.email);
    const near = await created('contacts', { first_name: 'Nia', last_name: 'Near' });
    const far = await created('contacts', { first_name: 'Fay', last_name: 'Far' });
    const log = (contact: number, who: number, notes: string) =>
      created('conversations', {
        contact_id: contact,
        channel: 'call',
        had_at: '2026-04-01T10:00:00Z',
        user_id: who,
        notes,
      });
    const withNear = await log(near.id, ids.colleague, 'On the readable contact');
    const withFar = await log(far.id, ids.colleague, 'On a contact out of reach');
    const hadByReader = await log(far.id, reader.id, 'Had by the reader');

    const listed = await client.get('/api/conversations?per_page=100');
    expect(listed.status).toBe(200);
    const seen = listed.body.data.map((c: Rec) => c.id);
    expect(seen).toContain(withNear.id);
    expect(seen).toContain(hadByReader.id);
    expect(seen).not.toContain(withFar.id);
    expect((await client.get(`/api/conversations/${withNear.id}`)).status).toBe(200);
    // Their own conversation stays theirs though its contact is out of reach; another's there is refused in words.
    expect((await client.get(`/api/conversations/${hadByReader.id}`)).status).toBe(200);
    const refused = await client.get(`/api/conversations/${withFar.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/conversation is not one your role may see/i);
    expect((await client.get(`/api/contacts/${far.id}`)).status).toBe(403);
    // The readable contact's timeline holds the conversation with them.
    const timeline = await client.get(`/api/contacts/${near.id}/timeline`);
    expect(timeline.body.data.map((e: { key: string }) => e.key)).toContain(`conversation-${withNear.id}`);
  });
});
