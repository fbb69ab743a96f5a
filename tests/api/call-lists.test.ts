import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Call lists, the phone bank (docs/conversations.md "Call lists"): a list made from a people list's filters, worked
 * one person at a time by several callers, never two at once on the same person; a claim runs out; skipping; each
 * call logged as a conversation that marks the person done with its outcome; who may make and work one.
 */
let t: TestApp;
let admin: TestClient;
let ana: TestClient;
let ben: TestClient;
const people: number[] = [];
type Entry = { id: number; person_id: number; person_type: string; position: number; claimed_until: string };

async function makeList(client: TestClient, values: Record<string, unknown> = {}) {
  const res = await client.post('/api/call-lists', {
    name: 'Phone bank Tuesday',
    person_type: 'contact',
    query: { filter: { q: 'Phonebanked' } },
    script: 'Hi, this is {{me}} from the union. Do you have a minute?',
    ...values,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; progress: Record<string, unknown> };
}

const next = async (client: TestClient, list: number) => {
  const res = await client.post(`/api/call-lists/${list}/next`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Entry | null;
};

const logCall = (client: TestClient, list: number, entry: number, values: Record<string, unknown> = {}) =>
  client.post(`/api/call-lists/${list}/entries/${entry}/conversation`, { outcome: 'reached', ...values });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const a = await t.createUser({ role: 'user', first_name: 'Ana', last_name: 'Caller' });
  const b = await t.createUser({ role: 'user', first_name: 'Ben', last_name: 'Caller' });
  ana = await t.signIn(a.email);
  ben = await t.signIn(b.email);
  for (let i = 1; i <= 6; i++) {
    const res = await admin.post('/api/contacts', {
      first_name: `Worker${i}`,
      last_name: 'Phonebanked',
      phone: `555-01${String(i).padStart(2, '0')}`,
    });
    expect(res.status).toBe(201);
    people.push(res.body.data.id);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('making a call list', () => {
  it("takes the people a list's filters find, in order, and shows its progress", async () => {
    const list = await makeList(ana);
    expect(list).toMatchObject({
      name: 'Phone bank Tuesday',
      person_type: 'contact',
      created_by_name: 'Ana Caller',
      progress: { total: 6, done: 0, calling: 0, left: 6, outcomes: {} },
    });
    const all = await ben.get('/api/call-lists');
    expect(all.status).toBe(200);
    expect(all.body.data.map((l: { id: number }) => l.id)).toContain(list.id);
  });

  it('made on a list opened through a saved view, holds only the people the view shows', async () => {
    const view = await ana.post('/api/views', {
      name: 'Worker 2 only',
      record_type: 'contact',
      filters: { all: [{ field: 'first_name', op: 'eq', value: 'Worker2' }] },
    });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    const list = await makeList(ana, { query: { filter: { q: 'Phonebanked' }, view: view.body.data.id } });
    expect(list.progress).toMatchObject({ total: 1 });
  });

  it('refuses a list with no name, of no kind of person, or that finds nobody, naming the field', async () => {
    const bad = await ana.post('/api/call-lists', { person_type: 'site', query: [] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['name', 'person_type', 'query']);
    const nobody = await ana.post('/api/call-lists', {
      name: 'Empty',
      person_type: 'contact',
      query: { filter: { q: 'Nobody-has-this-name' } },
    });
    expect(nobody.status).toBe(422);
    expect(nobody.body.errors.query).toEqual(['Nobody is on this list: its filters find no one you may read.']);
    const unknownField = await ana.post('/api/call-lists', {
      name: 'Bad filter',
      person_type: 'contact',
      query: { filter: { shoe_size: 9 } },
    });
    expect(unknownField.status).toBe(422);
  });

  it('is for those who may log conversations: the assistant role may not', async () => {
    const list = await makeList(ana);
    const assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    expect((await assistant.get('/api/call-lists')).status).toBe(403);
    expect((await assistant.post(`/api/call-lists/${list.id}/next`)).status).toBe(403);
    expect((await assistant.post('/api/call-lists', { name: 'x', person_type: 'contact' })).status).toBe(403);
  });
});

describe('working a call list', () => {
  it('two callers at once are never given the same person, and every person is called once', async () => {
    const list = await makeList(ana);
    const given = new Map<number, string>();
    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all([next(ana, list.id), next(ben, list.id)]);
      if (!a && !b) break;
      if (a && b) expect(a.id).not.toBe(b.id);
      for (const [caller, entry] of [
        ['ana', a],
        ['ben', b],
      ] as const) {
        if (!entry) continue;
        expect(given.has(entry.id), `entry ${entry.id} given twice`).toBe(false);
        given.set(entry.id, caller);
        const res = await logCall(caller === 'ana' ? ana : ben, list.id, entry.id, {
          outcome: entry.position % 2 ? 'reached' : 'refused',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.data).toMatchObject({ channel: 'call', person_type: 'contact', person_id: entry.person_id });
      }
    }
    expect(given.size).toBe(6);
    expect(new Set(given.values())).toEqual(new Set(['ana', 'ben']));
    const shown = (await ana.get(`/api/call-lists/${list.id}`)).body.data;
    expect(shown.progress).toEqual({ total: 6, done: 6, calling: 0, left: 0, outcomes: { reached: 3, refused: 3 } });
    expect(await next(ana, list.id)).toBeNull();
  });

  it('gives a caller the person they hold until they call them, and the call shows on the timeline', async () => {
    const list = await makeList(ana);
    const first = (await next(ana, list.id))!;
    expect((await next(ana, list.id))!.id).toBe(first.id);
    expect((await next(ben, list.id))!.id).not.toBe(first.id);
    const logged = await logCall(ana, list.id, first.id, {
      notes: 'Wants to know about the pension',
      next_step: 'Send the pension leaflet',
    });
    expect(logged.status).toBe(201);
    expect(logged.body.data.next_task_id).toEqual(expect.any(Number));
    const timeline = await ana.get(`/api/contacts/${first.person_id}/timeline`);
    expect(timeline.body.data[0].record).toMatchObject({
      notes: 'Wants to know about the pension',
      outcome: 'reached',
    });
    // Twice, or by someone who does not hold them: refused, nothing logged.
    expect((await logCall(ana, list.id, first.id)).body.errors.entry).toEqual([
      'This person has already been called from this list.',
    ]);
    const bens = (await next(ben, list.id))!;
    const stolen = await logCall(ana, list.id, bens.id);
    expect(stolen.status).toBe(422);
    expect(stolen.body.errors.entry).toEqual([
      'This person is no longer yours to call: take the next person on the list.',
    ]);
  });

  it("a claim runs out: the person goes to the next caller, and the first caller's call is refused", async () => {
    const list = await makeList(ana);
    const held = (await next(ana, list.id))!;
    await sql`update call_list_entries set claimed_until = now() - interval '1 minute' where id = ${held.id}`.execute(
      t.ctx.db,
    );
    expect((await next(ben, list.id))!.id).toBe(held.id);
    expect((await logCall(ana, list.id, held.id)).status).toBe(422);
    expect((await logCall(ben, list.id, held.id)).status).toBe(201);
  });

  it('a call that did not reach the person offers them again at the end of the list, three calls at most', async () => {
    const list = await makeList(ana);
    const first = (await next(ana, list.id))!;
    const callsTo = async (person: number) =>
      (await ana.get(`/api/conversations?filter=${JSON.stringify({ contact_id: person })}`)).body.meta.total as number;
    const before = await callsTo(first.person_id);
    expect((await logCall(ana, list.id, first.id, { outcome: 'no-answer' })).status).toBe(201);
    let shown = (await ana.get(`/api/call-lists/${list.id}`)).body.data;
    expect(shown.progress).toMatchObject({ total: 6, done: 0, left: 6 });
    const order: number[] = [];
    for (let entry = await next(ana, list.id); entry; entry = await next(ana, list.id)) {
      order.push(entry.person_id);
      const outcome = entry.person_id === first.person_id ? 'no-answer' : 'reached';
      expect((await logCall(ana, list.id, entry.id, { outcome })).status).toBe(201);
    }
    // The first person: called at the start, offered again after the five others, then once more: three calls.
    expect(order.slice(5)).toEqual([first.person_id, first.person_id]);
    shown = (await ana.get(`/api/call-lists/${list.id}`)).body.data;
    expect(shown.progress).toMatchObject({ done: 6, left: 0, outcomes: { reached: 5, 'no-answer': 1 } });
    expect(await callsTo(first.person_id)).toBe(before + 3);
  });

  it('skipping puts the person back at the end of the list', async () => {
    const list = await makeList(ana);
    const first = (await next(ana, list.id))!;
    const skipped = await ana.post(`/api/call-lists/${list.id}/entries/${first.id}/skip`);
    expect(skipped.status).toBe(200);
    const shown = (await ana.get(`/api/call-lists/${list.id}`)).body.data;
    expect(shown.progress).toMatchObject({ total: 6, done: 0, calling: 0 });
    const order: number[] = [];
    for (let entry = await next(ana, list.id); entry; entry = await next(ana, list.id)) {
      order.push(entry.person_id);
      expect((await logCall(ana, list.id, entry.id)).status).toBe(201);
    }
    expect(order).toHaveLength(6);
    expect(order.at(-1)).toBe(first.person_id);
  });

  it('never gives a person the caller may no longer read (deleted since the list was made)', async () => {
    const list = await makeList(ana);
    const first = (await next(ana, list.id))!;
    expect((await admin.delete(`/api/contacts/${people[0]}`)).status).toBe(200);
    const seen = new Set<number>([first.person_id]);
    await logCall(ana, list.id, first.id);
    for (let entry = await next(ana, list.id); entry; entry = await next(ana, list.id)) {
      seen.add(entry.person_id);
      expect((await logCall(ana, list.id, entry.id)).status).toBe(201);
    }
    if (first.person_id !== people[0]) expect(seen.has(people[0])).toBe(false);
    expect((await admin.post(`/api/contacts/${people[0]}/restore`)).status).toBe(200);
  });
});
