import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { square } from '../support/geometry.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, testDatabaseUrl } from '../support/test-app.js';

/**
 * Two server processes on one PostgreSQL with the read cache on (READ_CACHE=1): a write through one is never hidden
 * by an answer the other kept, from the moment the write's answer returns; sessions too.
 */
const onPostgres = Boolean(testDatabaseUrl());
let a: TestApp;
let b: TestApp;
let dataDir: string;
beforeAll(async () => {
  if (!onPostgres) return;
  a = await startTestApp({ READ_CACHE: '1' });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-api-b-'));
  b = await startTestApp({
    READ_CACHE: '1',
    DATABASE_URL: a.config.databaseUrl,
    DATA_DIR: dataDir,
    APP_KEY: a.config.appKey,
  });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A person of a new role with these permissions, made through A: the role's id, and the cookie of their session. */
async function personOfRole(slug: string, permissions: string[]) {
  const admin = await a.admin();
  const role = await admin.post('/api/roles', { slug, name: slug.replace(/-/g, ' '), permissions });
  expect(role.status).toBe(201);
  const person = await a.createUser({ role: 'user', email: `${slug}@example.com` });
  expect((await admin.post(`/api/users/${person.id}`, { role_id: role.body.data.id })).status).toBe(200);
  const viaA = await a.signIn(person.email);
  const cookie = [...viaA.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return { admin, roleId: role.body.data.id as number, person, cookie };
}

describe.skipIf(!onPostgres)('the read cache across processes on one PostgreSQL', () => {
  it('serves a kept answer until another process writes, then the new one at once', async () => {
    const viaA = await a.admin();
    const viaB = await b.admin();
    const site = (await viaA.post('/api/sites', { name: 'Cache Tower', type: 'union' })).body.data;
    const url = `/api/sites/${site.id}`;
    expect((await viaB.get(url)).body.data.name).toBe('Cache Tower');

    // Kept by B: the second read runs no query of the record (only the write counters are read).
    const again = await recordQueries(() => viaB.get(url));
    expect(again.result.body.data.name).toBe('Cache Tower');
    expect(again.queries.filter((q) => /from "sites"/i.test(q.sql))).toEqual([]);

    const renamed = await viaA.put(url, { name: 'Cache Tower Renamed', updated_at: site.updated_at });
    expect(renamed.status).toBe(200);
    expect((await viaB.get(url)).body.data.name).toBe('Cache Tower Renamed');

    const list = `/api/sites?search=${encodeURIComponent('Cache Tower')}`;
    expect((await viaB.get(list)).body.meta.total).toBe(1);
    await viaA.post('/api/sites', { name: 'Cache Tower Two', type: 'union' });
    expect((await viaB.get(list)).body.meta.total).toBe(2);
  });

  it("keeps a list's total until another process writes: the next page is not counted, a site added through the other is", async () => {
    const viaA = await a.admin();
    const viaB = await b.admin();
    const city = 'Kept Total City';
    for (const name of ['Kept One', 'Kept Two', 'Kept Three']) {
      expect((await viaA.post('/api/sites', { name, type: 'union', city })).status).toBe(201);
    }
    const counts = (queries: Array<{ sql: string }>) => queries.filter((q) => /count\(\*\)/i.test(q.sql)).length;
    // Another page size each time: no whole answer comes from the read cache.
    const page = (perPage: number, extra = '') =>
      recordQueries(() =>
        viaB.get(`/api/sites?filter[city]=${encodeURIComponent(city)}&sort=name&per_page=${perPage}${extra}`),
      );
    const first = await page(1);
    expect(first.result.body.meta.total).toBe(3);
    expect(counts(first.queries)).toBe(1);
    const second = await page(2, '&page=2');
    expect(second.result.body.meta.total).toBe(3);
    expect(counts(second.queries)).toBe(0);

    expect((await viaA.post('/api/sites', { name: 'Kept Four', type: 'union', city })).status).toBe(201);
    const after = await page(3);
    expect(after.result.body.meta.total).toBe(4);
    expect(counts(after.queries)).toBe(1);
    // Sorted by a choice and then a field (a view's sorts), each choice's matches are kept the same way.
    const sorted = (perPage: number) =>
      recordQueries(() =>
        viaB.get(`/api/sites?filter[city]=${encodeURIComponent(city)}&sort=type,-name&per_page=${perPage}`),
      );
    expect((await sorted(1)).result.body.meta.total).toBe(4);
    expect(counts((await sorted(2)).queries)).toBe(0);
    expect((await viaA.post('/api/sites', { name: 'Kept Five', type: 'union', city })).status).toBe(201);
    const sortedAfter = await sorted(3);
    expect(sortedAfter.result.body.meta.total).toBe(5);
    // Last to first by name: Two, Three, One, Four, Five.
    expect(sortedAfter.result.body.data.map((site: { name: string }) => site.name)).toEqual([
      'Kept Two',
      'Kept Three',
      'Kept One',
    ]);
    expect(counts(sortedAfter.queries)).toBe(1);
  });

  it("a region assigned through one process puts its sites in the person's turf on the other at once", async () => {
    const { admin, person, cookie } = await personOfRole('two-processes-turf', ['site:read:turf', 'region:read']);
    const at = { lat: 48.42, lng: -101.3 };
    const site = (
      await admin.post('/api/sites', { name: 'Minot turf site', type: 'union', latitude: at.lat, longitude: at.lng })
    ).body.data;
    const region = await admin.post('/api/regions', {
      name: 'Minot turf',
      geometry_type: 'drawn',
      geometry: square(at.lat, at.lng),
    });
    expect(region.status).toBe(201);
    const onB = async (perPage: number) => {
      const res = await fetch(`${b.baseUrl}/api/sites?per_page=${perPage}`, {
        headers: { cookie, accept: 'application/json' },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: Array<{ id: number }> }).data.map((row) => row.id);
    };
    expect(await onB(20)).not.toContain(site.id);
    expect(await onB(21)).not.toContain(site.id);
    const assigned = await admin.put(`/api/regions/${region.body.data.id}`, { user_ids: [person.id] });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(await onB(22)).toContain(site.id);
  });

  it('a session signed out through one process is refused by the other at once', async () => {
    const person = await a.createUser({ role: 'user', email: 'two-processes@example.com' });
    const viaA = await a.signIn(person.email);
    const cookie = [...viaA.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const onB = () => fetch(`${b.baseUrl}/api/auth/check`, { headers: { cookie, accept: 'application/json' } });
    expect((await onB()).status).toBe(200);
    expect((await onB()).status).toBe(200);
    expect((await viaA.post('/api/auth/logout')).status).toBeLessThan(300);
    expect((await onB()).status).toBe(401);
  });

  it("a role's permission removed through one process is refused by the other on the next request; record writes keep its sessions", async () => {
    const { admin, roleId, cookie } = await personOfRole('two-processes-role', ['site:read', 'user:read']);
    const onB = () => fetch(`${b.baseUrl}/api/users?per_page=5`, { headers: { cookie, accept: 'application/json' } });
    expect((await onB()).status).toBe(200);
    expect((await admin.post('/api/sites', { name: 'Two processes site', type: 'union' })).status).toBe(201);
    const next = await recordQueries(onB);
    expect(next.result.status).toBe(200);
    expect(next.queries.filter((q) => /from "sessions"/i.test(q.sql))).toEqual([]);
    expect((await admin.post(`/api/roles/${roleId}`, { permissions: ['site:read'] })).status).toBe(200);
    expect((await onB()).status).toBe(403);
  });
});
