import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_TOTAL_UP_TO } from '../../src/server/records/list-query.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A list's total is kept until the next write, with the read cache on (records/kept-totals.ts: READ_CACHE, on
 * PostgreSQL checked against the write counters every process moves): the next page of the same list is not counted
 * again, any write through the app's database layer counts it anew at once (tests/api/read-cache-processes.test.ts:
 * one through another process too), and another list or another person's rule is counted for itself.
 */
let t: TestApp;
let admin: TestClient;
const city = `Totaltown ${randomBytes(4).toString('hex')}`;
const SITES = 45;
const manyCity = `Manytown ${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '1' });
  admin = await t.admin();
  await sql`insert into sites (name, type, city, user_id)
    select 'Counted ' || g, 'union', ${city}, case when g <= 5 then (select min(id) from users) end
    from generate_series(1, ${SITES}) g`.execute(t.ctx.db);
  await sql`insert into sites (name, type, city)
    select 'Many ' || g, 'pla', ${manyCity} from generate_series(1, ${EXACT_TOTAL_UP_TO + 50}) g`.execute(t.ctx.db);
});
afterAll(async () => {
  await t?.close();
});

const counts = (queries: Array<{ sql: string }>) =>
  queries.filter((query) => /^select \(select count\(\*\) from \(/.test(query.sql)).length;
/** A page of the town's sites, by name; another page size each time, so that no whole answer comes from the read cache. */
let size = 5;
const page = (client: TestClient, extra = '') =>
  recordQueries(() =>
    client.get(
      `/api/sites?filter[city]=${encodeURIComponent(city)}&sort=name&order=asc&per_page=${size++}&total=estimate${extra}`,
    ),
  );

describe('list totals kept until the next write', () => {
  it('counts a list once, then pages through it without counting again', async () => {
    const first = await page(admin);
    expect(first.result.body.meta.total).toBe(SITES);
    expect(counts(first.queries)).toBe(1);
    const next = await page(admin, '&page=2');
    expect(next.result.body.meta.total).toBe(SITES);
    expect(next.result.body.data.length).toBeGreaterThan(0);
    expect(counts(next.queries)).toBe(0);
  });

  it('counts anew at once after any write: a site added, then one deleted straight in the database', async () => {
    await page(admin);
    expect((await admin.post('/api/sites', { name: 'Counted late', type: 'union', city })).status).toBe(201);
    const added = await page(admin);
    expect(added.result.body.meta.total).toBe(SITES + 1);
    expect(counts(added.queries)).toBe(1);
    await sql`update sites set deleted_at = now() where city = ${city} and name = 'Counted late'`.execute(t.ctx.db);
    const deleted = await page(admin);
    expect(deleted.result.body.meta.total).toBe(SITES);
    expect(counts(deleted.queries)).toBe(1);
  });

  it('counts another filter for itself, and a person whose rule gives them fewer sites gets their own total', async () => {
    await page(admin);
    const named = await page(admin, `&filter[name]=${encodeURIComponent('Counted 1')}`);
    expect(named.result.body.meta.total).toBeLessThan(SITES);
    expect(counts(named.queries)).toBe(1);

    const slug = `totals-${randomBytes(4).toString('hex')}`;
    const role = await admin.post('/api/roles', {
      slug,
      name: `Totals ${slug}`,
      permissions: ['site:read'],
      policy: { site: { read: { condition: { all: [{ field: 'name', op: 'contains', value: 'Counted 2' }] } } } },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const user = await t.createUser({ role: 'user', email: `${slug}@example.com` });
    expect((await admin.post(`/api/users/${user.id}`, { role_id: role.body.data.id })).status).toBe(200);
    const person = await t.signIn(user.email);
    await page(admin);
    const theirs = await page(person);
    // Counted 2 and Counted 20-29.
    expect(theirs.result.body.meta.total).toBe(11);
    expect(counts(theirs.queries)).toBe(1);
    expect((await page(admin)).result.body.meta.total).toBe(SITES);
  });

  it("keeps each choice's matches of a list sorted by a choice and then a field (a view's two sorts)", async () => {
    const sorted = (extra = '') =>
      recordQueries(() =>
        admin.get(
          `/api/sites?filter[city]=${encodeURIComponent(city)}&sort=type,-name&per_page=${size++}&total=estimate${extra}`,
        ),
      );
    const byChoice = (queries: Array<{ sql: string }>) =>
      queries.filter((query) => /count\(\*\) as count from/.test(query.sql)).length;
    const first = await sorted();
    expect(first.result.body.meta.total).toBe(SITES);
    expect(byChoice(first.queries)).toBe(1);
    const next = await sorted('&page=2');
    expect(next.result.body.meta.total).toBe(SITES);
    expect(next.result.body.data.length).toBeGreaterThan(0);
    expect(byChoice(next.queries)).toBe(0);
    // Last to first by name among the union sites: "Counted 99" before "Counted 9".
    expect((await admin.post('/api/sites', { name: 'Counted 99', type: 'union', city })).status).toBe(201);
    const after = await sorted();
    expect(after.result.body.meta.total).toBe(SITES + 1);
    expect(after.result.body.data[0].name).toBe('Counted 99');
    expect(byChoice(after.queries)).toBe(1);
  });

  it("places a view's pages past 10,000 matches from counts the first page made", async () => {
    const sorted = (perPage: number, pageNumber: number) =>
      recordQueries(() =>
        admin.get(
          `/api/sites?filter[city]=${encodeURIComponent(manyCity)}&sort=type,-name&per_page=${perPage}&page=${pageNumber}&total=estimate`,
        ),
      );
    const expected = async (offset: number, limit: number) =>
      (
        await sql<{ name: string }>`select name from sites where city = ${manyCity} and deleted_at is null
          order by lower(name) desc, id desc offset ${offset} limit ${limit}`.execute(t.ctx.db)
      ).rows.map((row) => row.name);
    const first = await sorted(20, 1);
    expect(first.result.body.meta.total_estimated).toBe(true);
    expect(first.result.body.data.map((site: { name: string }) => site.name)).toEqual(await expected(0, 20));
    // Pages 2 and 12 (up to 250 matches a choice were counted for the first): no count, no estimate again.
    for (const [perPage, pageNumber] of [
      [21, 2],
      [19, 12],
    ]) {
      const next = await sorted(perPage, pageNumber);
      expect(next.result.body.data.map((site: { name: string }) => site.name)).toEqual(
        await expected((pageNumber - 1) * perPage, perPage),
      );
      expect(next.result.body.meta.total).toBe(first.result.body.meta.total);
      expect(next.queries.filter((query) => /count\(\*\)|^explain /.test(query.sql))).toEqual([]);
    }
  });

  it('keeps an estimated total past 10,000 matches too: reading it writes nothing, so nothing kept goes stale', async () => {
    const many = (extra = '') =>
      recordQueries(() =>
        admin.get(
          `/api/sites?filter[city]=${encodeURIComponent(manyCity)}&sort=name&per_page=${size++}&total=estimate${extra}`,
        ),
      );
    const first = await many();
    expect(first.result.body.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    expect(first.result.body.meta.total_estimated).toBe(true);
    // The estimate is the planner's (an EXPLAIN that only plans): not a write.
    expect(first.queries.some((query) => /^explain /.test(query.sql))).toBe(true);
    const writes = t.database.writes.data;
    const next = await many('&page=2');
    expect(t.database.writes.data).toBe(writes);
    expect(next.result.body.meta.total).toBe(first.result.body.meta.total);
    expect(counts(next.queries)).toBe(0);
  });
});
