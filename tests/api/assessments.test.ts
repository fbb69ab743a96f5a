import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Assessments (docs/conversations.md "Assessments"): 1 to 5 with the administrator's labels, the leader and committee
 * flags, on contacts, recruits and members, kept with their history whether set by hand or by a conversation; a
 * campaign's and a site's people by assessment, and the chart of their assessments over time.
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
const ids: Record<string, number> = {};
type Rec = Record<string, unknown> & { id: number };
interface Level {
  slug: string | null;
  name: string;
  count: number;
  people: Array<{ type: string; id: number; name: string }>;
}

async function created(resource: string, values: Record<string, unknown>, client = admin): Promise<Rec> {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Rec;
}

const history = (type: string, id: number) =>
  t.ctx.db
    .selectFrom('assessments')
    .select(['level', 'previous_level', 'is_leader', 'on_committee', 'conversation_id', 'user_id'])
    .where('person_type', '=', type)
    .where('person_id', '=', id)
    .orderBy('id')
    .execute();

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const me = await t.createUser({ role: 'user', first_name: 'Ada', last_name: 'Assessor' });
  ids.organizer = me.id;
  organizer = await t.signIn(me.email);
  ids.contractor = (await created('contractors', { name: 'Assessed Drywall', type: 'non-union' })).id;
  ids.site = (await created('sites', { name: 'Assessment Tower', type: 'non-union' })).id;
  ids.campaign = (await created('campaigns', { name: 'Assessed campaign', contractor_ids: [ids.contractor] })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('a person’s assessment', () => {
  it('is 1 to 5 of the levels, with leader and committee flags, and every change is kept', async () => {
    const contact = await created(
      'contacts',
      { first_name: 'Lena', last_name: 'Level', assessment: '3', contractor_id: ids.contractor, site_ids: [ids.site] },
      organizer,
    );
    ids.lena = contact.id;
    expect(contact).toMatchObject({ assessment: '3', is_leader: false, on_committee: false });
    const bad = await organizer.post(`/api/contacts/${contact.id}`, { assessment: '9' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.assessment[0]).toMatch(/1, 2, 3, 4, 5/);
    await organizer.post(`/api/contacts/${contact.id}`, { assessment: '2', is_leader: true });
    await organizer.post(`/api/contacts/${contact.id}`, { first_name: 'Lena' });
    await organizer.post(`/api/contacts/${contact.id}`, { on_committee: true });
    expect(await history('contact', contact.id)).toEqual([
      {
        level: '3',
        previous_level: null,
        is_leader: false,
        on_committee: false,
        conversation_id: null,
        user_id: ids.organizer,
      },
      {
        level: '2',
        previous_level: '3',
        is_leader: true,
        on_committee: false,
        conversation_id: null,
        user_id: ids.organizer,
      },
      {
        level: '2',
        previous_level: '2',
        is_leader: true,
        on_committee: true,
        conversation_id: null,
        user_id: ids.organizer,
      },
    ]);
    // The person's own history (revisions) has it too.
    const revisions = await admin.get(`/api/revisions?type=contact&revisionable_id=${contact.id}`);
    expect(JSON.stringify(revisions.body.data)).toContain('"assessment":["3","2"]');
  });

  it('follows a conversation that found the person elsewhere, naming it; the timeline shows both', async () => {
    const conversation = await created(
      'conversations',
      { contact_id: ids.lena, channel: 'call', had_at: new Date().toISOString(), outcome: 'reached', assessment: '1' },
      organizer,
    );
    expect((await admin.get(`/api/contacts/${ids.lena}`)).body.data.assessment).toBe('1');
    const rows = await history('contact', ids.lena);
    expect(rows.at(-1)).toMatchObject({ level: '1', previous_level: '2', conversation_id: conversation.id });
    // The same level again changes nothing.
    await created(
      'conversations',
      { contact_id: ids.lena, channel: 'text', had_at: new Date().toISOString(), assessment: '1' },
      organizer,
    );
    expect(await history('contact', ids.lena)).toHaveLength(rows.length);
    const timeline = (await organizer.get(`/api/contacts/${ids.lena}/timeline`)).body.data as Array<{
      kind: string;
      record: Record<string, unknown>;
    }>;
    expect(timeline.filter((e) => e.kind === 'assessment').map((e) => e.record.level)).toEqual(['1', '2', '2', '3']);
    expect(timeline.filter((e) => e.kind === 'conversation')).toHaveLength(2);
  });

  it('from a conversation, needs the permission to change the person: else nothing is written', async () => {
    await created('roles', {
      slug: 'caller',
      name: 'Caller',
      permissions: ['contact:read', 'conversation:create', 'conversation:read', 'assessment-level:read'],
    });
    const caller = await t.signIn((await t.createUser({ role: 'caller' })).email);
    const before = (await admin.get('/api/conversations?per_page=1')).body.meta.total;
    const refused = await caller.post('/api/conversations', {
      contact_id: ids.lena,
      channel: 'call',
      had_at: new Date().toISOString(),
      assessment: '4',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.assessment[0]).toMatch(/can't change/);
    expect((await admin.get('/api/conversations?per_page=1')).body.meta.total).toBe(before);
    expect((await admin.get(`/api/contacts/${ids.lena}`)).body.data.assessment).toBe('1');
  });
});

describe("a campaign's and a site's people by assessment", () => {
  it('groups the people by level with the administrator’s names, counts leaders and the committee, and charts them', async () => {
    await created('recruits', {
      first_name: 'Rex',
      last_name: 'Recruited',
      contractor_id: ids.contractor,
      assessment: '4',
    });
    await created('members', { first_name: 'Moe', last_name: 'Membered', contractor_id: ids.contractor });
    await created('recruits', { first_name: 'Sid', last_name: 'Sited', site_id: ids.site, assessment: '2' });
    const renamed = (await admin.get('/api/assessment-levels?filter={"slug":"1"}')).body.data[0];
    await admin.post(`/api/assessment-levels/${renamed.id}`, { name: 'Organizing leader' });
    // Lena's first assessment moved back two days: the chart has a point for that day.
    await sql`update assessments set assessed_at = now() - interval '2 days' where person_type = 'contact' and person_id = ${ids.lena} and level = '3'`.execute(
      t.ctx.db,
    );

    const campaign = await organizer.get(`/api/assessments/summary?campaign_id=${ids.campaign}`);
    expect(campaign.status).toBe(200);
    const summary = campaign.body.data as {
      total: number;
      leaders: number;
      committee: number;
      levels: Level[];
      over_time: Array<{ day: string; counts: Record<string, number> }>;
    };
    expect(summary).toMatchObject({ total: 3, leaders: 1, committee: 1 });
    const level = (slug: string | null) => summary.levels.find((l) => l.slug === slug)!;
    expect(level('1')).toMatchObject({ name: 'Organizing leader', count: 1 });
    expect(level('1').people.map((p) => p.name)).toEqual(['Lena Level']);
    expect(level('4').people.map((p) => p.name)).toEqual(['Rex Recruited']);
    expect(level(null).people.map((p) => p.name)).toEqual(['Moe Membered']);
    // The chart: two days ago Lena was at 3; today the people as they stand, the counts above.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    expect(summary.over_time[0]).toEqual({ day: twoDaysAgo, counts: { '3': 1 } });
    expect(summary.over_time.at(-1)).toEqual({
      day: new Date().toISOString().slice(0, 10),
      counts: { '1': 1, '4': 1 },
    });
    for (const row of summary.levels.filter((l) => l.slug !== null))
      expect(summary.over_time.at(-1)!.counts[row.slug!] ?? 0).toBe(row.count);

    const site = (await organizer.get(`/api/assessments/summary?site_id=${ids.site}`)).body.data as { levels: Level[] };
    expect(site.levels.flatMap((l) => l.people.map((p) => p.name)).sort()).toEqual(['Lena Level', 'Sid Sited']);
  });

  it('counts only the people the reader may read, of a campaign or site they may read', async () => {
    // Someone who reads campaigns and recruits but not contacts or members.
    await created('roles', {
      slug: 'recruit-reader',
      name: 'Recruit reader',
      permissions: ['campaign:read', 'recruit:read'],
    });
    const reader = await t.signIn((await t.createUser({ role: 'recruit-reader' })).email);
    const summary = (await reader.get(`/api/assessments/summary?campaign_id=${ids.campaign}`)).body.data;
    expect(summary.total).toBe(1);
    expect((await reader.get(`/api/assessments/summary?site_id=${ids.site}`)).status).toBe(403);
    expect((await organizer.get('/api/assessments/summary?campaign_id=2000000')).status).toBe(404);
    expect((await organizer.get('/api/assessments/summary')).status).toBe(422);
  });
});
