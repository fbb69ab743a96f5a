import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const admin = await a.admin();
    const role = await admin.post('/api/roles', {
      slug: 'two-processes-role',
      name: 'Two processes',
      permissions: ['site:read', 'user:read'],
    });
    expect(role.status).toBe(201);
    const person = await a.createUser({ role: 'user', email: 'two-processes-role@example.com' });
    expect((await admin.post(`/api/users/${person.id}`, { role_id: role.body.data.id })).status).toBe(200);
    const viaA = await a.signIn(person.email);
    const cookie = [...viaA.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const onB = () => fetch(`${b.baseUrl}/api/users?per_page=5`, { headers: { cookie, accept: 'application/json' } });
    expect((await onB()).status).toBe(200);
    expect((await admin.post('/api/sites', { name: 'Two processes site', type: 'union' })).status).toBe(201);
    const next = await recordQueries(onB);
    expect(next.result.status).toBe(200);
    expect(next.queries.filter((q) => /from "sessions"/i.test(q.sql))).toEqual([]);
    expect((await admin.post(`/api/roles/${role.body.data.id}`, { permissions: ['site:read'] })).status).toBe(200);
    expect((await onB()).status).toBe(403);
  });
});
