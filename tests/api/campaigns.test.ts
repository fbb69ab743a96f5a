import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../../src/server/assistant/tools/index.js';
import { createScope } from '../../src/server/assistant/tools/scope.js';
import { recordEvents } from '../support/assistant.js';
import { square } from '../support/geometry.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Campaigns toward a majority (docs/campaigns.md): the server's progress against the 30% showing of interest and the
 * 50% + 1 majority, with the unit size entered or estimated from the targets' latest head counts; cards as records
 * with revisions; card holders' names only for people holding campaign-card:read, in every read path; a turf.
 */
let t: TestApp;
let admin: TestClient;
let counter: TestClient;
const ids: Record<string, number> = {};
const cardIds: number[] = [];
const users: Record<string, Record<string, any>> = {};
const NAMES = ['Rosa Campaignworker', 'Luis Campaignworker', 'Mae Campaignworker'];

async function created(resource: string, values: Record<string, unknown>, client = admin) {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Record<string, any>;
}

// An organizer who follows campaigns but may not see who signed.
const COUNTS_ONLY = [
  'campaign:read',
  'site:read',
  'contractor:read',
  'contact:read',
  'visit:read',
  'export:create',
  'revision:read',
  'revision:read:incognito',
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await created('roles', { slug: 'campaign-counter', name: 'Campaign counter', permissions: COUNTS_ONLY });
  users.counter = await t.createUser({
    role: 'campaign-counter',
    first_name: 'Cam',
    email: 'campaign-counter@example.com',
  });
  counter = await t.signIn(users.counter.email);
  ids.contractor = (await created('contractors', { name: 'Majority Mechanical', type: 'non-union' })).id;
  ids.other = (await created('contractors', { name: 'Bystander Builders', type: 'non-union' })).id;
  ids.siteA = (await created('sites', { name: 'Campaign Site A', type: 'non-union' })).id;
  ids.siteB = (await created('sites', { name: 'Campaign Site B', type: 'non-union' })).id;
  const count = (contractor_id: number, workers: number) => ({
    contractor_id,
    trade_ids: [],
    workers,
    non_union_workers: workers,
  });
  // Site A: an older visit (12 workers) then the latest (8 of ours, 30 of another contractor); site B: 4 of ours.
  await created('visits', {
    site_id: ids.siteA,
    visited_at: '2026-04-01T15:00:00Z',
    head_counts: [count(ids.contractor, 12)],
  });
  await created('visits', {
    site_id: ids.siteA,
    visited_at: '2026-04-10T15:00:00Z',
    head_counts: [count(ids.contractor, 8), count(ids.other, 30)],
  });
  ids.visitB = (
    await created('visits', {
      site_id: ids.siteB,
      visited_at: '2026-04-05T15:00:00Z',
      head_counts: [count(ids.contractor, 4)],
    })
  ).id;
  // A contact of that name is no secret (the counts-only role reads contacts): that she signed is.
  ids.contact = (await created('contacts', { first_name: 'Rosa', last_name: 'Linkedcontact' })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('campaign progress: the server counts cards against the thresholds', () => {
  it('estimates the unit from the latest head count of each site that counted the target contractor', async () => {
    const campaign = await created('campaigns', {
      name: 'Majority Mechanical drive',
      contractor_ids: [ids.contractor],
      start_date: '2026-04-01',
    });
    ids.campaign = campaign.id;
    expect(campaign.status).toBe('active');
    // 8 (site A's latest visit, our rows only) + 4 (site B) = 12.
    expect(campaign.progress).toEqual({
      unit_size: 12,
      unit_size_source: 'estimated',
      estimated_unit_size: 12,
      cards: 0,
      share: 0,
      showing_of_interest: { needed: 4, reached: false, remaining: 4 },
      majority: { needed: 7, reached: false, remaining: 7 },
    });
    // Targeting one site narrows the estimate to the contractor's workers there; a site alone counts everyone on it.
    const onA = await created('campaigns', {
      name: 'Site A only',
      contractor_ids: [ids.contractor],
      site_ids: [ids.siteA],
    });
    expect(onA.progress).toMatchObject({ unit_size: 8, unit_size_source: 'estimated' });
    const wholeSite = await created('campaigns', { name: 'Everyone on A', site_ids: [ids.siteA] });
    expect(wholeSite.progress).toMatchObject({ unit_size: 38, unit_size_source: 'estimated' });
  });

  it('passes the showing of interest at 30% and the majority at 50% + 1, as cards are signed', async () => {
    const cards = [
      { worker_name: NAMES[0], signed_on: '2026-04-02', contact_id: ids.contact },
      { worker_name: NAMES[1], signed_on: '2026-04-02' },
      { worker_name: NAMES[2], signed_on: '2026-04-05', visit_id: ids.visitB },
    ];
    for (const card of cards)
      cardIds.push((await created('campaign-cards', { campaign_id: ids.campaign, ...card })).id);
    let progress = (await admin.get(`/api/campaigns/${ids.campaign}`)).body.data.progress;
    expect(progress).toMatchObject({
      cards: 3,
      showing_of_interest: { reached: false, remaining: 1 },
      majority: { reached: false, remaining: 4 },
    });
    await created('campaign-cards', {
      campaign_id: ids.campaign,
      worker_name: 'Fourth Signer',
      signed_on: '2026-04-06',
    });
    progress = (await admin.get(`/api/campaigns/${ids.campaign}`)).body.data.progress;
    expect(progress.showing_of_interest).toEqual({ needed: 4, reached: true, remaining: 0 });
    for (const n of [5, 6])
      await created('campaign-cards', {
        campaign_id: ids.campaign,
        worker_name: `Signer ${n}`,
        signed_on: '2026-04-08',
      });
    expect((await admin.get(`/api/campaigns/${ids.campaign}`)).body.data.progress.majority).toEqual({
      needed: 7,
      reached: false,
      remaining: 1,
    });
    const seventh = await created('campaign-cards', {
      campaign_id: ids.campaign,
      worker_name: 'Signer 7',
      signed_on: '2026-04-09',
    });
    const campaign = (await admin.get(`/api/campaigns/${ids.campaign}`)).body.data;
    expect(campaign.progress).toMatchObject({ cards: 7, majority: { needed: 7, reached: true, remaining: 0 } });
    expect(campaign.cards_over_time).toEqual([
      { day: '2026-04-02', cards: 2, total: 2 },
      { day: '2026-04-05', cards: 1, total: 3 },
      { day: '2026-04-06', cards: 1, total: 4 },
      { day: '2026-04-08', cards: 2, total: 6 },
      { day: '2026-04-09', cards: 1, total: 7 },
    ]);
    // A card withdrawn (deleted) no longer counts.
    expect((await admin.delete(`/api/campaign-cards/${seventh.id}`)).status).toBe(200);
    expect((await admin.get(`/api/campaigns/${ids.campaign}`)).body.data.progress).toMatchObject({
      cards: 6,
      majority: { reached: false, remaining: 1 },
    });
  });

  it('an entered unit size wins over the estimate (which is still given); a unit of 0 has no thresholds', async () => {
    const entered = await admin.put(`/api/campaigns/${ids.campaign}`, { unit_size: 20 });
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    expect(entered.body.data.progress).toMatchObject({
      unit_size: 20,
      unit_size_source: 'entered',
      estimated_unit_size: 12,
      cards: 6,
      share: 0.3,
      showing_of_interest: { needed: 6, reached: true },
      majority: { needed: 11, reached: false, remaining: 5 },
    });
    const zero = await admin.put(`/api/campaigns/${ids.campaign}`, { unit_size: 0 });
    expect(zero.body.data.progress).toMatchObject({
      unit_size: 0,
      share: null,
      majority: { needed: null, reached: false },
    });
    const unknown = await created('campaigns', { name: 'Nobody counted yet' });
    expect(unknown.progress).toMatchObject({
      unit_size: null,
      unit_size_source: 'unknown',
      showing_of_interest: { needed: null },
    });
    const back = await admin.put(`/api/campaigns/${ids.campaign}`, { unit_size: null });
    expect(back.body.data.progress).toMatchObject({ unit_size: 12, unit_size_source: 'estimated' });
  });

  it('refuses a negative unit size and a card without a name or in a campaign that does not exist (422 on the field)', async () => {
    const negative = await admin.put(`/api/campaigns/${ids.campaign}`, { unit_size: -3 });
    expect(negative.status).toBe(422);
    expect(Object.keys(negative.body.errors)).toEqual(['unit_size']);
    const nameless = await admin.post('/api/campaign-cards', { campaign_id: ids.campaign, signed_on: '2026-04-02' });
    expect(nameless.status).toBe(422);
    expect(nameless.body.errors.worker_name).toBeTruthy();
    const nowhere = await admin.post('/api/campaign-cards', {
      campaign_id: 999_999,
      worker_name: 'Lost',
      signed_on: '2026-04-02',
    });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors.campaign_id).toBeTruthy();
  });
});

describe('cards: auditable records', () => {
  it('keeps a revision of each change with who collected it', async () => {
    const card = await created('campaign-cards', {
      campaign_id: ids.campaign,
      worker_name: 'Revised Signer',
      signed_on: '2026-04-11',
    });
    expect(card.user_id).toBe((await t.authUser()).id);
    expect(card.title).toBe('Revised Signer');
    const updated = await admin.put(`/api/campaign-cards/${card.id}`, {
      signed_on: '2026-04-12',
      updated_at: card.updated_at,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const history = (await admin.get(`/api/revisions?type=campaign-card&revisionable_id=${card.id}`)).body.data;
    expect(history.map((r: any) => r.action).sort()).toEqual(['created', 'updated']);
    expect(history.find((r: any) => r.action === 'updated').changes.signed_on).toEqual(['2026-04-11', '2026-04-12']);
    expect(history.find((r: any) => r.action === 'created').changes.worker_name).toEqual([null, 'Revised Signer']);
  });
});

describe('"Collected by": the signed-in person unless they may log for others', () => {
  it('refuses naming someone else to a person without user:log-for-others, and takes it from one with it', async () => {
    const role = await admin.post('/api/roles', {
      slug: 'card-recorder',
      name: 'Card recorder',
      permissions: ['campaign:read', 'campaign-card:create', 'campaign-card:read', 'campaign-card:update'],
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const recorder = await t.createUser({ role: 'card-recorder' });
    const client = await t.signIn(recorder.email);
    const campaign = await created('campaigns', { name: 'Collected-by drive', contractor_ids: [ids.contractor] });
    const card = { campaign_id: campaign.id, worker_name: 'Collected Signer', signed_on: '2026-04-13' };
    const own = await client.post('/api/campaign-cards', card);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data.user_id).toBe(recorder.id);
    const adminId = (await t.authUser()).id;
    const forged = await client.post('/api/campaign-cards', { ...card, worker_name: 'Forged', user_id: adminId });
    expect(forged.status).toBe(422);
    expect(forged.body.errors.user_id).toBeTruthy();
    const byAdmin = await admin.post('/api/campaign-cards', { ...card, worker_name: 'For them', user_id: recorder.id });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(201);
    expect(byAdmin.body.data.user_id).toBe(recorder.id);
  });
});

describe("card holders' names: only with campaign-card:read", () => {
  const namesIn = (text: string) => NAMES.filter((name) => text.includes(name));

  it('the campaign and its counts are read; the cards are not, in list, show, search and options', async () => {
    const campaign = await counter.get(`/api/campaigns/${ids.campaign}`);
    expect(campaign.status).toBe(200);
    expect(campaign.body.data.progress.cards).toBeGreaterThan(0);
    expect(namesIn(JSON.stringify(campaign.body))).toEqual([]);
    for (const path of [
      '/api/campaign-cards',
      `/api/campaign-cards?filter=${encodeURIComponent(JSON.stringify({ campaign_id: ids.campaign }))}`,
      '/api/campaign-cards?search=Campaignworker',
      `/api/campaign-cards/${cardIds[0]}`,
      '/api/options/campaign-cards',
    ]) {
      const res = await counter.get(path);
      expect(res.status, path).toBe(403);
      expect(namesIn(JSON.stringify(res.body)), path).toEqual([]);
    }
    // The administrator reads them all.
    const list = await admin.get('/api/campaign-cards?search=Campaignworker&per_page=50');
    expect(list.body.data.map((c: any) => c.worker_name).sort()).toEqual([...NAMES].sort());
  });

  it('export, history and the activity feed, and the assistant name nobody', async () => {
    const exported = await counter.get('/api/exports/download?resource=campaign-cards&columns=worker_name');
    expect(exported.status).toBe(403);
    expect(namesIn(String(exported.body))).toEqual([]);
    const adminExport = await admin.get('/api/exports/download?resource=campaign-cards&columns=worker_name');
    expect(namesIn(String(adminExport.body)).sort()).toEqual([...NAMES].sort());
    const feed = await counter.get('/api/actions?per_page=100');
    expect(feed.status).toBe(200);
    expect(feed.body.data.filter((e: any) => e.type === 'campaign-card')).toEqual([]);
    expect(namesIn(JSON.stringify(feed.body))).toEqual([]);
    expect((await admin.get('/api/actions?per_page=100')).body.data.some((e: any) => e.type === 'campaign-card')).toBe(
      true,
    );
    const history = await counter.get('/api/revisions?type=campaign-card');
    expect(namesIn(JSON.stringify(history.body))).toEqual([]);
    const scope = await createScope(t.ctx, await t.authUser(users.counter.email));
    const search = await runTool('search_records', { type: 'campaign-card', search: 'Campaignworker' }, scope);
    expect(namesIn(JSON.stringify(search))).toEqual([]);
    const adminScope = await createScope(t.ctx, await t.authUser());
    expect(
      namesIn(
        JSON.stringify(
          await runTool('search_records', { type: 'campaign-card', search: 'Campaignworker' }, adminScope),
        ),
      ).length,
    ).toBe(3);
  });

  it('realtime: a card reaches the roles that read cards, never the counts-only role', async () => {
    const events = recordEvents(t);
    const card = await created('campaign-cards', {
      campaign_id: ids.campaign,
      worker_name: 'Realtime Signer',
      signed_on: '2026-04-12',
    });
    const channels = events
      .filter((e) => e.data?.type === 'campaign-card' && e.data?.id === card.id)
      .flatMap((e) => e.channels);
    expect(channels.length).toBeGreaterThan(0);
    expect(channels).not.toContain(`private-App.Models.Role.${await t.roleId('campaign-counter')}`);
    expect(channels).not.toContain(`private-App.Models.User.${users.counter.id}`);
    expect(channels).toContain(`private-App.Models.Role.${await t.roleId('leader')}`);
  });

  it('realtime: a card added or withdrawn updates its campaign for everyone who reads it, its counts included', async () => {
    const events = recordEvents(t);
    const campaignEvents = () =>
      events.filter(
        (e) => e.event === 'App.Events.ModelUpdated' && e.data?.type === 'campaign' && e.data?.id === ids.campaign,
      );
    const counterRole = `private-App.Models.Role.${await t.roleId('campaign-counter')}`;
    const card = await created('campaign-cards', {
      campaign_id: ids.campaign,
      worker_name: 'Live Count Signer',
      signed_on: '2026-04-13',
    });
    const added = campaignEvents().at(-1);
    expect(added?.channels).toContain(counterRole);
    expect(JSON.stringify(added?.data)).not.toContain('Live Count Signer');
    const cards = added?.data?.data?.progress?.cards as number;
    expect(cards).toBe((await counter.get(`/api/campaigns/${ids.campaign}`)).body.data.progress.cards);
    expect((await admin.delete(`/api/campaign-cards/${card.id}`)).status).toBe(200);
    expect(campaignEvents().at(-1)?.data?.data?.progress?.cards).toBe(cards - 1);
  });

  it('seeded roles: leaders see who signed, organizers follow the counts', async () => {
    const roles = (await admin.get('/api/roles?per_page=50')).body.data;
    const of = (slug: string) => roles.find((r: any) => r.slug === slug).permissions as string[];
    expect(of('leader')).toEqual(
      expect.arrayContaining(['campaign:read', 'campaign:create', 'campaign-card:read', 'campaign-card:create']),
    );
    expect(of('user')).toContain('campaign:read');
    expect(of('user')).not.toContain('campaign-card:read');
  });
});

describe('turf: a person limited to a turf reads the campaigns targeting it, and their cards', () => {
  it('lists, shows and records cards only inside the turf', async () => {
    await created('roles', {
      slug: 'campaign-turf',
      name: 'Campaign turf',
      permissions: [
        'site:read:turf',
        'contractor:read',
        'campaign:read',
        'campaign-card:read',
        'campaign-card:create',
        'export:create',
      ],
    });
    const person = await t.createUser({ role: 'campaign-turf', first_name: 'Tia', email: 'campaign-turf@example.com' });
    await created('regions', {
      name: 'Campaign turf',
      geometry_type: 'drawn',
      geometry: square(47.66, -117.42),
      user_ids: [person.id],
    });
    const inSite = await created('sites', {
      name: 'Turf campaign site',
      type: 'non-union',
      latitude: 47.66,
      longitude: -117.42,
    });
    const outSite = await created('sites', {
      name: 'Far campaign site',
      type: 'non-union',
      latitude: 46.6,
      longitude: -120.5,
    });
    const inside = await created('campaigns', { name: 'Inside drive', site_ids: [inSite.id] });
    const outside = await created('campaigns', { name: 'Outside drive', site_ids: [outSite.id] });
    const inCard = await created('campaign-cards', {
      campaign_id: inside.id,
      worker_name: 'Inside Signer',
      signed_on: '2026-04-02',
    });
    const outCard = await created('campaign-cards', {
      campaign_id: outside.id,
      worker_name: 'Outside Signer',
      signed_on: '2026-04-02',
    });
    const client = await t.signIn(person.email);

    const campaigns = (await client.get('/api/campaigns?per_page=100')).body.data.map((c: any) => c.id);
    expect(campaigns).toContain(inside.id);
    expect(campaigns).not.toContain(outside.id);
    expect(campaigns).not.toContain(ids.campaign);
    const cards = (await client.get('/api/campaign-cards?per_page=100')).body.data.map((c: any) => c.id);
    expect(cards).toEqual([inCard.id]);
    // Out of reach answers 403 in the rule's words, never "may have been deleted" (issue 31 point 4).
    expect(await client.get(`/api/campaigns/${outside.id}`)).toMatchObject({
      status: 403,
      body: { message: 'This campaign is outside your turf.' },
    });
    expect(await client.get(`/api/campaign-cards/${outCard.id}`)).toMatchObject({
      status: 403,
      body: {
        message:
          'This card is not one your role may see: you see the cards you created or are assigned or on records you may see.',
      },
    });
    const exported = String(
      (await client.get('/api/exports/download?resource=campaign-cards&columns=worker_name')).body,
    );
    expect(exported).toContain('Inside Signer');
    expect(exported).not.toContain('Outside Signer');

    const refused = await client.post('/api/campaign-cards', {
      campaign_id: outside.id,
      worker_name: 'Sneaky',
      signed_on: '2026-04-03',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.campaign_id[0]).toMatch(/may not read it/);
    await created(
      'campaign-cards',
      { campaign_id: inside.id, worker_name: 'Second Inside', signed_on: '2026-04-03' },
      client,
    );
  });
});
