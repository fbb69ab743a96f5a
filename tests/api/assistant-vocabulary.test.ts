import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { understand } from '../../src/server/assistant/builtin/understand.js';
import { keptVocabulary, vocabularyFor } from '../../src/server/assistant/builtin/vocabulary.js';
import { createScope } from '../../src/server/assistant/tools/scope.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { square } from '../support/geometry.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The built-in assistant's vocabulary (docs/assistant.md "Limits and decisions"): built in the background when a
 * person signs in, so their first question reads no reference list, region or city; one vocabulary for everyone who
 * reads alike (the access policy's reader key), never one shared with someone whose reads differ (a turf).
 */
let t: TestApp;
let admin: TestClient;

// Minot and Jamestown: no other test places sites there.
const INSIDE = { lat: 48.23, lng: -101.29, city: 'Minotvocab' };
const OUTSIDE = { lat: 46.91, lng: -98.71, city: 'Jamestownvocab' };

async function created(resource: string, values: Record<string, unknown>) {
  const res = await admin.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Record<string, unknown>;
}

const user = (email: string): Promise<AuthUser> => t.authUser(email);
const scopeOf = async (email: string) => createScope(t.ctx, await user(email));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await created('roles', {
    slug: 'vocab-turf',
    name: 'Vocabulary turf organizer',
    permissions: ['site:read:turf', 'region:read', 'assistant-thread:read', 'assistant-thread:create'],
  });
  await created('roles', {
    slug: 'vocab-reader',
    name: 'Vocabulary reader',
    permissions: ['site:read', 'region:read', 'assistant-thread:read', 'assistant-thread:create'],
  });
  for (const [role, email] of [
    ['leader', 'vocab-leader-1@example.com'],
    ['leader', 'vocab-leader-2@example.com'],
    ['user', 'vocab-organizer@example.com'],
    ['vocab-turf', 'vocab-turf-1@example.com'],
    ['vocab-turf', 'vocab-turf-2@example.com'],
    ['vocab-reader', 'vocab-reader@example.com'],
  ])
    await t.createUser({ role, email });
  const turfPeople = [await user('vocab-turf-1@example.com'), await user('vocab-turf-2@example.com')];
  await created('regions', {
    name: 'Minot vocabulary turf',
    geometry_type: 'drawn',
    geometry: square(INSIDE.lat, INSIDE.lng),
    user_ids: [turfPeople[0].id],
  });
  for (const at of [INSIDE, OUTSIDE])
    await created('sites', {
      name: `${at.city} Yard`,
      type: 'union',
      latitude: at.lat,
      longitude: at.lng,
      city: at.city,
    });
});
afterAll(async () => {
  await t?.close();
});

describe('a vocabulary built before the first question', () => {
  it('after signing in, the first question reads no reference list, region or city; without it, it reads them', async () => {
    // Nobody of this role has signed in: the question builds the words it needs.
    const cold = await recordQueries(async () =>
      understand(await scopeOf('vocab-reader@example.com'), 'how many union sites in Minotvocab'),
    );
    expect(cold.result).toMatchObject({ kind: 'records', filter: { type: 'union', city: 'Minotvocab' } });
    expect(cold.queries.some((q) => /distinct/i.test(q.sql))).toBe(true);

    // A leader signs in: their vocabulary is built in the background (the test client waits for it).
    await t.signIn('vocab-leader-1@example.com');
    const scope = await scopeOf('vocab-leader-1@example.com');
    expect(await keptVocabulary(scope)).toBeDefined();
    const warm = await recordQueries(async () => understand(scope, 'how many union sites in Minotvocab'));
    expect(warm.result).toMatchObject({ kind: 'records', filter: { type: 'union', city: 'Minotvocab' } });
    expect(warm.queries.map((q) => q.sql).filter((sql) => /distinct|"regions"|"site_statuses"/i.test(sql))).toEqual([]);
  });
});

describe('one vocabulary for those who read alike, never across different reads', () => {
  it('two leaders share one; an organizer of another role does not', async () => {
    const first = await vocabularyFor(await scopeOf('vocab-leader-1@example.com'));
    expect(await vocabularyFor(await scopeOf('vocab-leader-2@example.com'))).toBe(first);
    expect(await vocabularyFor(await scopeOf('vocab-organizer@example.com'))).not.toBe(first);
  });

  it('people whose reads depend on who they are (a turf) each have their own, with only the cities they may read', async () => {
    const [one, two] = [await scopeOf('vocab-turf-1@example.com'), await scopeOf('vocab-turf-2@example.com')];
    const [mine, theirs] = [await vocabularyFor(one), await vocabularyFor(two)];
    expect(mine).not.toBe(theirs);
    const sites = one.typeOf('site')!;
    expect(await mine.cities(sites)).toContain(INSIDE.city);
    expect(await mine.cities(sites)).not.toContain(OUTSIDE.city);
    expect(await theirs.cities(sites)).not.toContain(INSIDE.city);
    const leader = await vocabularyFor(await scopeOf('vocab-leader-1@example.com'));
    expect(await leader.cities(sites)).toEqual(expect.arrayContaining([INSIDE.city, OUTSIDE.city]));
  });
});

describe('a kept vocabulary and new sites', () => {
  it('a site in a city the kept vocabulary does not know is known to the next question of everyone who shares it', async () => {
    // The leaders' vocabulary is kept (built at sign-in above) from before this city had a site.
    const scope = await scopeOf('vocab-leader-1@example.com');
    const before = await vocabularyFor(scope);
    expect(await before.cities(scope.typeOf('site')!)).not.toContain('Bismarckvocab');
    await created('sites', { name: 'Bismarckvocab Depot', type: 'union', city: 'Bismarckvocab' });
    const answer = await understand(
      await scopeOf('vocab-leader-2@example.com'),
      'how many union sites in Bismarckvocab',
    );
    expect(answer).toMatchObject({ kind: 'records', filter: { type: 'union', city: 'Bismarckvocab' } });
  });

  it('a site written within the cities it knows keeps the vocabulary for the next question', async () => {
    const scope = await scopeOf('vocab-leader-1@example.com');
    const kept = await vocabularyFor(scope);
    await kept.cities(scope.typeOf('site')!);
    await created('sites', { name: 'Minotvocab Annex', type: 'union', city: INSIDE.city });
    expect(await vocabularyFor(await scopeOf('vocab-leader-2@example.com'))).toBe(kept);
  });
});
