import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The names of linked records of types everyone reads alike are kept in memory where this process is the only writer
 * (records/kept-names.ts: READ_CACHE on the embedded database): the next page names them without asking the database,
 * a write to their table names them anew at once, and a person who may not read a type still gets none of its names.
 */
let t: TestApp;
let admin: TestClient;
const unique = () => randomBytes(4).toString('hex');
const city = `Keptown ${unique()}`;
let status = 0;
let contractor = 0;

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '1' });
  admin = await t.admin();
  [status] = (
    await sql<{
      id: number;
    }>`insert into site_statuses (name, slug) values ('Kept status', ${`kept-${unique()}`}) returning id`.execute(
      t.ctx.db,
    )
  ).rows.map((row) => row.id);
  [contractor] = (
    await sql<{
      id: number;
    }>`insert into contractors (name, type) values ('Kept Builders', 'union') returning id`.execute(t.ctx.db)
  ).rows.map((row) => row.id);
  for (let i = 0; i < 3; i++)
    expect(
      (
        await admin.post('/api/sites', {
          name: `Kept site ${i}`,
          type: 'union',
          city,
          site_status_id: status,
          general_contractor_id: contractor,
        })
      ).status,
    ).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

// Another URL each time, so that no answer comes from the read cache.
let n = 0;
const page = (client: TestClient) =>
  client.get(`/api/sites?filter[city]=${encodeURIComponent(city)}&per_page=${10 + n++}`);

describe('names of linked records kept in memory', () => {
  it('names the next page from memory, on the embedded database', async () => {
    expect((await page(admin)).body.data[0]._labels.site_status_id).toEqual({ [status]: 'Kept status' });
    const next = await recordQueries(() => page(admin));
    expect(next.result.body.data[0]._labels).toMatchObject({
      site_status_id: { [status]: 'Kept status' },
      general_contractor_id: { [contractor]: 'Kept Builders' },
    });
    const asked = next.queries.filter((q) => /from "site_statuses"/.test(q.sql));
    expect(asked).toHaveLength(t.database.kind === 'pglite' ? 0 : 1);
  });

  it('names them anew on the next request after a write to their table, however made', async () => {
    expect((await page(admin)).body.data[0]._labels.site_status_id).toEqual({ [status]: 'Kept status' });
    expect((await admin.put(`/api/site-statuses/${status}`, { name: 'Renamed status' })).status).toBe(200);
    expect((await page(admin)).body.data[0]._labels.site_status_id).toEqual({ [status]: 'Renamed status' });
    await sql`update site_statuses set name = 'Renamed by hand' where id = ${status}`.execute(t.ctx.db);
    expect((await page(admin)).body.data[0]._labels.site_status_id).toEqual({ [status]: 'Renamed by hand' });
    await t.ctx.db
      .transaction()
      .execute((trx) =>
        trx.updateTable('contractors').set({ name: 'Renamed Builders' }).where('id', '=', contractor).execute(),
      );
    expect((await page(admin)).body.data[0]._labels.general_contractor_id).toEqual({
      [contractor]: 'Renamed Builders',
    });
  });

  it('gives a person who may not read a type none of its names, kept or not', async () => {
    expect((await page(admin)).body.data[0]._labels.general_contractor_id).toEqual({
      [contractor]: expect.any(String),
    });
    const slug = `kept-${unique()}`;
    const role = await admin.post('/api/roles', { slug, name: `Kept ${slug}`, permissions: ['site:read'] });
    expect(role.status).toBe(201);
    const user = await t.createUser({ role: 'user', email: `${slug}@example.com` });
    expect((await admin.post(`/api/users/${user.id}`, { role_id: role.body.data.id })).status).toBe(200);
    const labels = (await page(await t.signIn(user.email))).body.data[0]._labels;
    expect(labels.general_contractor_id).toBeUndefined();
  });
});
