/**
 * Whose each site is, kept in `record_holders` (access/holders.ts) as the record service writes: an edit that touches
 * no person or team field only brings the copies of the name key and type up to date (the holders stay), and a
 * person field of the sites retyped or deleted works out every site's holders again, so nobody keeps a site as
 * "their own" through a field that no longer names them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type Row } from '../support/api-answers.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let inspector: TestClient;
let inspectorId: number;
let fieldId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ok(
    await admin.post('/api/roles', {
      slug: 'site-inspector',
      name: 'Site inspector',
      permissions: ['site:read'],
      policy: { site: { read: 'own' } },
    }),
    201,
  );
  const user = await t.createUser({ role: 'site-inspector' });
  inspectorId = user.id;
  inspector = await t.signIn(user.email);
  const schemas = (await admin.get('/api/schemas?per_page=-1')).body.data as Array<{ id: number; type: string }>;
  const siteSchema = schemas.find((schema) => schema.type === 'site')!;
  fieldId = Number(
    ok(await admin.post('/api/schema-fields', { schema_id: siteSchema.id, name: 'Inspector', type: 'person' }), 201).id,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const theirSites = async () =>
  ((await inspector.get('/api/sites?per_page=100&sort=name&order=asc')).body.data as Row[]).map((row) => row.name);

/** The site's holder row of the inspector (the site's other holders, its creator among them, aside). */
const holderRows = async (siteId: number) =>
  (
    await sql<{ user_id: number | null; name_key: string | null; category: string | null }>`
      select user_id, name_key, category from record_holders
      where record_type = 'site' and record_id = ${siteId} and user_id = ${inspectorId}`.execute(t.ctx.db)
  ).rows;

describe('the holders of a site', () => {
  it('follow a rename and a change of type without being worked out again, and a person field changed', async () => {
    const site = ok(await admin.post('/api/sites', { name: 'Bravo yard', type: 'union', inspector: inspectorId }), 201);
    const other = ok(await admin.post('/api/sites', { name: 'Alpha yard', type: 'union' }), 201);
    expect(await theirSites()).toEqual(['Bravo yard']);
    const [before] = await holderRows(Number(site.id));
    expect(before).toMatchObject({ user_id: inspectorId, category: 'union' });

    // Renamed and retyped: the copies are brought up to date, the holders not worked out again.
    const { queries } = await recordQueries(async () =>
      ok(await admin.put(`/api/sites/${site.id}`, { name: 'Zulu yard', type: 'pla' })),
    );
    expect(queries.filter((query) => /^\s*(insert into|delete from) record_holders/.test(query.sql))).toEqual([]);
    expect(await theirSites()).toEqual(['Zulu yard']);
    const [after] = await holderRows(Number(site.id));
    expect(after).toMatchObject({ user_id: inspectorId, category: 'pla' });
    expect(after.name_key).not.toBe(before.name_key);

    // The person field itself: handed to the other site.
    ok(await admin.put(`/api/sites/${site.id}`, { inspector: null }));
    ok(await admin.put(`/api/sites/${other.id}`, { inspector: inspectorId }));
    expect(await theirSites()).toEqual(['Alpha yard']);
  });

  it("a page's rows read again ask each row's own holders, not every site the person holds", async () => {
    ok(await admin.post('/api/sites', { name: 'Delta yard', type: 'union', inspector: inspectorId }), 201);
    const { result, queries } = await recordQueries(() =>
      inspector.get('/api/sites?per_page=25&sort=name&order=asc&total=estimate'),
    );
    expect(result.status).toBe(200);
    expect((result.body.data as Row[]).map((row) => row.name)).toContain('Delta yard');
    // The page's ids come from the holders' index; its rows are then read by id with the rule applied again.
    const reread = queries.filter(
      (query) => /^select "t"\.\* from "sites"/.test(query.sql) && / "t"\."id" in \(/.test(query.sql),
    );
    expect(reread).toHaveLength(1);
    expect(reread[0].sql).toMatch(/exists \(select h\.record_id from record_holders h where .*h\.record_id = t\.id/);
    expect(reread[0].sql).not.toMatch(/any\(array\(select h\.record_id from record_holders/);
  });

  it('a site held twice (named in its field, and with a task of theirs on it) is listed and counted once', async () => {
    const site = ok(await admin.post('/api/sites', { name: 'Echo yard', type: 'union', inspector: inspectorId }), 201);
    const task = ok(
      await admin.post('/api/tasks', {
        title: 'Walk Echo yard',
        type: 'call',
        taskable_type: 'site',
        taskable_id: site.id,
        assignee_id: inspectorId,
      }),
      201,
    );
    const held = await sql<{ via: string }>`select via from record_holders
      where record_type = 'site' and record_id = ${site.id} and user_id = ${inspectorId} order by via`.execute(
      t.ctx.db,
    );
    expect(held.rows.map((row) => row.via)).toEqual(['field', 'work']);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from record_holders
      where record_type = 'site' and user_id = ${inspectorId} and live`.execute(t.ctx.db);
    const distinct = await sql<{ n: number }>`select count(distinct record_id)::int as n from record_holders
      where record_type = 'site' and user_id = ${inspectorId} and live`.execute(t.ctx.db);
    expect(rows[0].n).toBe(distinct.rows[0].n + 1);
    for (const sort of ['name', 'created_at']) {
      const body = (await inspector.get(`/api/sites?per_page=2&sort=${sort}&order=asc&total=estimate`)).body;
      expect(body.meta.total, sort).toBe(distinct.rows[0].n);
      const everyPage = [];
      for (let page = 1; page <= Math.ceil(body.meta.total / 2); page++)
        everyPage.push(
          ...((await inspector.get(`/api/sites?per_page=2&page=${page}&sort=${sort}&order=asc`)).body.data as Row[]),
        );
      const names = everyPage.map((row) => row.name);
      expect(new Set(names).size, `${sort}: ${names}`).toBe(names.length);
      expect(names.length, sort).toBe(distinct.rows[0].n);
    }
    ok(await admin.delete(`/api/tasks/${task.id}`));
  });

  it('are worked out again when a person field is retyped, so the old value grants nothing', async () => {
    ok(await admin.post('/api/sites', { name: 'Charlie yard', type: 'union', inspector: inspectorId }), 201);
    expect((await theirSites()).includes('Charlie yard')).toBe(true);
    // Renamed, the field names the same people: nothing is worked out again.
    const renamed = await recordQueries(async () => {
      ok(await admin.put(`/api/schema-fields/${fieldId}`, { name: 'Site inspector' }));
      await t.ctx.events.idle();
    });
    expect(renamed.queries.filter((query) => /^\s*delete from record_holders/.test(query.sql))).toEqual([]);
    expect((await theirSites()).includes('Charlie yard')).toBe(true);
    ok(await admin.put(`/api/schema-fields/${fieldId}`, { type: 'text' }));
    await t.ctx.events.idle();
    expect(await theirSites()).toEqual([]);
  });
});
