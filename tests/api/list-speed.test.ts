import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import type { ResourceDefinition } from '../../src/server/records/resource.js';
import { recordQueries } from '../support/query-counter.js';
import { planNodes } from '../support/query-plans.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * What keeps lists fast on large tables (docs/records.md "Indexes and speed"): choice filters compare the stored key
 * exactly (the value people send normalised to it first) so an index serves them, sorts have the index they need,
 * and the links of a page are read in one query per relation.
 */
let t: TestApp;
let admin: TestClient;
let user: AuthUser;
let sites: ResourceDefinition;
let priority: string;
const TYPES = ['union', 'non-union', 'pla'];
// Enough rows that reading a page in an index's order beats sorting the matches, as on a large table.
const SITES = 6_000;

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  user = await t.authUser();
  sites = t.ctx.resources.get('sites')!;
  const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
  const field = await admin.post('/api/schema-fields', {
    schema_id: schema.id,
    name: 'Speed priority',
    type: 'dropdown',
    options: { choices: ['low', 'high'] },
  });
  expect(field.status, JSON.stringify(field.body)).toBe(201);
  priority = field.body.data.slug;
  await sql`insert into sites (name, type, city, estimated_value, custom)
    select 'Speedy ' || g, (${sql.val(TYPES)}::text[])[1 + g % 3], 'Speedville', case when g % 7 = 0 then null else (g * 7919) % 1000 end,
      jsonb_build_object(${priority}::text, case when g % 2 = 0 then 'high' else 'low' end)
    from generate_series(1, ${SITES}) g`.execute(t.ctx.db);
  await sql`analyze sites`.execute(t.ctx.db);
});
afterAll(async () => {
  await t?.close();
});

const planOf = (query: CompiledQuery) => planNodes(t.ctx.db, query);

const listQueries = async (query: Record<string, unknown>) =>
  (await recordQueries(() => t.ctx.records.list(user, sites, query))).queries;
const countQuery = (queries: CompiledQuery[]) =>
  queries.find((q) => /count\(\*\)/i.test(q.sql) && /from "sites"/i.test(q.sql))!;
const pageQuery = (queries: CompiledQuery[]) =>
  queries.find((q) => /from "sites"/i.test(q.sql) && /\blimit\b/i.test(q.sql) && !/count\(\*\)/i.test(q.sql))!;

describe('choice filters', () => {
  it('a site type filter compares the stored key exactly: the type index serves it', async () => {
    const queries = await listQueries({ 'filter[type]': 'union' });
    const nodes = await planOf(countQuery(queries));
    expect(
      nodes.some((node) => node['Relation Name'] === 'sites' && node['Node Type'] === 'Seq Scan'),
      JSON.stringify(nodes),
    ).toBe(false);
    expect(nodes.map((node) => node['Index Name'])).toContain('sites_type_idx');
  });

  it('a value in another case still finds the records by their key', async () => {
    const want = await sql<{
      n: number;
    }>`select count(*)::int as n from sites where city = 'Speedville' and type = 'union' and deleted_at is null`.execute(
      t.ctx.db,
    );
    const typed = await admin.get('/api/sites?filter[city]=Speedville&filter[type]=UNION&per_page=100');
    expect(typed.status).toBe(200);
    expect(typed.body.meta.total).toBe(want.rows[0].n);
    expect(typed.body.data.every((site: any) => site.type === 'union')).toBe(true);

    const listed = await admin.get(
      '/api/sites?filter[city]=Speedville&filter[type][]=Union&filter[type][]=PLA&per_page=100',
    );
    expect(listed.body.meta.total).toBe((SITES * 2) / 3);
    expect(new Set(listed.body.data.map((site: any) => site.type))).toEqual(new Set(['union', 'pla']));

    const custom = await admin.get(`/api/sites?filter[city]=Speedville&filter[${priority}]=HIGH&per_page=100`);
    expect(custom.status).toBe(200);
    expect(custom.body.meta.total).toBe(SITES / 2);
    expect(custom.body.data.every((site: any) => site[priority] === 'high')).toBe(true);
  });

  it('a value that is no key of the field finds nothing', async () => {
    const res = await admin.get('/api/sites?filter[city]=Speedville&filter[type]=no-such-type');
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(0);
  });
});

describe('sort indexes', () => {
  it('sorting by estimated value with a type filter reads the page from an index in that order, not by scanning the table', async () => {
    // The sort's own index, or the one led by the type (migration 072) that serves this filter-and-sort pair.
    const { rows } = await sql<{
      name: string;
    }>`select indexname as name from pg_indexes where tablename = 'sites' and indexdef like '%estimated_value%'`.execute(
      t.ctx.db,
    );
    const sortIndexes = rows.map((row) => row.name);
    for (const order of ['desc', 'asc']) {
      const queries = await listQueries({ 'filter[type]': 'union', sort: 'estimated_value', order });
      const nodes = await planOf(pageQuery(queries));
      expect(
        nodes.some((node) => node['Relation Name'] === 'sites' && node['Node Type'] === 'Seq Scan'),
        JSON.stringify(nodes),
      ).toBe(false);
      expect(
        nodes.some(
          (node) => /^Index (Only )?Scan/.test(node['Node Type']) && sortIndexes.includes(node['Index Name'] ?? ''),
        ),
        JSON.stringify(nodes),
      ).toBe(true);
    }
  });

  it('the pages are those of sorting every match: values in order, missing values last, both ways', async () => {
    const perPage = 8;
    for (const order of ['asc', 'desc'] as const) {
      const want = await sql<{
        id: number;
        value: number | null;
      }>`select id, estimated_value as value from sites where city = 'Speedville' and type = 'union' and deleted_at is null
        order by estimated_value ${sql.raw(order)} nulls last, id ${sql.raw(order)}`.execute(t.ctx.db);
      const valued = want.rows.filter((row) => row.value !== null).length;
      expect(valued % perPage, 'a page holds the last values and the first missing ones').not.toBe(0);
      const boundary = Math.ceil(valued / perPage);
      const last = Math.ceil(want.rows.length / perPage);
      for (const page of [1, 2, boundary - 1, boundary, boundary + 1, last, last + 1]) {
        const res = await admin.get(
          `/api/sites?filter[city]=Speedville&filter[type]=union&sort=estimated_value&order=${order}&per_page=${perPage}&page=${page}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.meta.total).toBe(want.rows.length);
        expect(
          res.body.data.map((site: any) => site.id),
          `page ${page}, ${order}`,
        ).toEqual(want.rows.slice((page - 1) * perPage, page * perPage).map((row) => row.id));
      }
    }
  });

  it('every sortable column of a built-in list has its sort index', async () => {
    const { rows } = await sql<{
      indexdef: string;
    }>`select indexdef from pg_indexes where tablename = 'sites' and indexname like 'sites_sort_%'`.execute(t.ctx.db);
    for (const column of ['estimated_value', 'bid_date', 'city', 'owner', 'updated_at']) {
      expect(
        rows.some((row) => row.indexdef.includes(column)),
        `${column}: ${rows.map((row) => row.indexdef).join('\n')}`,
      ).toBe(true);
    }
  });
});

describe('custom field sort indexes', () => {
  it('a custom field gets the index of its sort when it is made, and loses it when it is deleted', async () => {
    const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
    const made = await admin.post('/api/schema-fields', { schema_id: schema.id, name: 'Speed floors', type: 'number' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const slug = made.body.data.slug;
    const sortIndexes = async () =>
      (
        await sql<{
          indexdef: string;
        }>`select indexdef from pg_indexes where tablename = 'sites' and indexname like '%\_sort\_%' and indexdef like ${`%'${slug}'%`}`.execute(
          t.ctx.db,
        )
      ).rows;
    expect((await sortIndexes()).map((row) => row.indexdef)).toEqual([
      expect.stringMatching(/::numeric\), id, deleted_at\)$/),
    ]);

    await sql`update sites set custom = custom || jsonb_build_object(${slug}::text, id % 50) where city = 'Speedville'`.execute(
      t.ctx.db,
    );
    await sql`analyze sites`.execute(t.ctx.db);
    const queries = await listQueries({ 'filter[type]': 'union', sort: slug, order: 'desc' });
    const nodes = await planOf(pageQuery(queries));
    expect(
      nodes.some((node) => node['Relation Name'] === 'sites' && node['Node Type'] === 'Seq Scan'),
      JSON.stringify(nodes),
    ).toBe(false);
    expect(
      nodes.some((node) => node['Node Type'] === 'Sort'),
      JSON.stringify(nodes),
    ).toBe(false);

    expect((await admin.delete(`/api/schema-fields/${made.body.data.id}`)).status).toBe(200);
    expect(await sortIndexes()).toEqual([]);
  });
});

describe('dropdown sorts', () => {
  const rankIndexes = async (slug: string) =>
    (
      await sql<{
        name: string;
        indexdef: string;
      }>`select indexname as name, indexdef from pg_indexes where tablename = 'sites' and indexdef like '%CASE%' and indexdef like ${`%'${slug}'%`}`.execute(
        t.ctx.db,
      )
    ).rows.map((row) => ({ ...row, indexdef: row.indexdef.replace(/\s+/g, ' ') }));

  it("a dropdown gets an index of its choices' rank when it is made, made again when its choices change, dropped with it", async () => {
    const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
    const made = await admin.post('/api/schema-fields', {
      schema_id: schema.id,
      name: 'Speed stage',
      type: 'dropdown',
      options: { choices: ['early', 'late'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const slug = made.body.data.slug;
    const [first] = await rankIndexes(slug);
    expect(first?.indexdef).toMatch(/WHEN 'early'::text THEN 0 WHEN 'late'::text THEN 1 .*, id, deleted_at\)$/);

    await sql`update sites set custom = custom || jsonb_build_object(${slug}::text, case when id % 3 = 0 then 'early' else 'late' end) where city = 'Speedville'`.execute(
      t.ctx.db,
    );
    await sql`analyze sites`.execute(t.ctx.db);
    for (const order of ['asc', 'desc']) {
      const nodes = await planOf(pageQuery(await listQueries({ sort: slug, order })));
      expect(
        nodes.some((node) => node['Node Type'] === 'Sort'),
        JSON.stringify(nodes),
      ).toBe(false);
      expect(nodes.map((node) => node['Index Name'])).toContain(first.name);
    }

    const changed = await admin.put(`/api/schema-fields/${made.body.data.id}`, {
      options: { choices: ['late', 'early', "won't"] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [second, ...more] = await rankIndexes(slug);
    expect(more).toEqual([]);
    expect(second.name).not.toBe(first.name);
    // Choice keys are slugs however the choice was typed (issue 30 point 4): "won't" is kept as won-t.
    expect(second.indexdef).toMatch(/WHEN 'late'::text THEN 0 WHEN 'early'::text THEN 1 WHEN 'won-t'::text THEN 2 /);
    const page = await admin.get(
      `/api/sites?filter[city]=Speedville&sort=${slug}&order=asc&per_page=5&page=${SITES / 5}`,
    );
    expect(page.body.data.map((site: any) => site[slug])).toEqual(Array(5).fill('early'));
    expect(
      (await planOf(pageQuery(await listQueries({ sort: slug, order: 'asc' })))).map((node) => node['Index Name']),
    ).toContain(second.name);

    expect((await admin.delete(`/api/schema-fields/${made.body.data.id}`)).status).toBe(200);
    expect(await rankIndexes(slug)).toEqual([]);
  });

  it('a list filtered on one choice and sorted by that field is in id order: no sort of the matches', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const queries = await listQueries({ [`filter[${priority}]`]: 'high', sort: priority, order });
      expect(pageQuery(queries).sql).not.toMatch(/case/i);
      const nodes = await planOf(pageQuery(queries));
      expect(
        nodes.some((node) => node['Node Type'] === 'Sort'),
        JSON.stringify(nodes),
      ).toBe(false);
      const want = await sql<{
        id: number;
      }>`select id from sites where custom ->> ${priority} = 'high' and deleted_at is null order by id ${sql.raw(order)} limit 10 offset 10`.execute(
        t.ctx.db,
      );
      const res = await admin.get(
        `/api/sites?filter[${priority}]=high&sort=${priority}&order=${order}&per_page=10&page=2`,
      );
      expect(res.body.data.map((site: any) => site.id)).toEqual(want.rows.map((row) => row.id));
    }
  });
});

describe('dropdown choice indexes', () => {
  const choiceIndexes = async (slug: string) =>
    (
      await sql<{
        name: string;
        indexdef: string;
      }>`select indexname as name, indexdef from pg_indexes where tablename = 'sites' and indexdef like ${`%->> '${slug}'::text) = %`} order by indexdef`.execute(
        t.ctx.db,
      )
    ).rows;

  it("a list filtered on one choice counts its matches from that choice's index alone, not from each match's row", async () => {
    const indexes = await choiceIndexes(priority);
    expect(indexes.map((index) => index.indexdef.replace(/^.* USING /, ''))).toEqual([
      `btree (id) WHERE ((deleted_at IS NULL) AND ((custom ->> '${priority}'::text) = 'high'::text))`,
      `btree (id) WHERE ((deleted_at IS NULL) AND ((custom ->> '${priority}'::text) = 'low'::text))`,
    ]);
    await sql`vacuum analyze sites`.execute(t.ctx.db);
    for (const query of [{ [`filter[${priority}]`]: 'high', total: 'estimate' }, { [`filter[${priority}]`]: 'low' }]) {
      const nodes = await planOf(countQuery(await listQueries(query)));
      expect(
        nodes.some(
          (node) =>
            node['Node Type'] === 'Index Only Scan' && indexes.some((index) => index.name === node['Index Name']),
        ),
        JSON.stringify(nodes),
      ).toBe(true);
    }
    const res = await admin.get(`/api/sites?filter[${priority}]=low&per_page=5`);
    expect(res.body.meta.total).toBe(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from sites where custom ->> ${priority} = 'low' and deleted_at is null`.execute(
          t.ctx.db,
        )
      ).rows[0].n,
    );
  });

  it('follow the choices: made for new ones, dropped for removed ones, none past twelve choices, gone with the field', async () => {
    const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
    const made = await admin.post('/api/schema-fields', {
      schema_id: schema.id,
      name: 'Speed phase',
      type: 'dropdown',
      options: { choices: ['dig', 'frame'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const slug = made.body.data.slug;
    const choicesIndexed = async () =>
      (await choiceIndexes(slug)).map((index) => /= '(.*)'::text\)\)$/.exec(index.indexdef)?.[1]).sort();
    expect(await choicesIndexed()).toEqual(['dig', 'frame']);

    expect(
      (await admin.put(`/api/schema-fields/${made.body.data.id}`, { options: { choices: ['frame', "roof's"] } }))
        .status,
    ).toBe(200);
    // Choice keys are slugs however the choice was typed (issue 30 point 4): "roof's" is kept as roof-s.
    expect(await choicesIndexed()).toEqual(['frame', 'roof-s']);

    const many = Array.from({ length: 13 }, (_, i) => `step ${i + 1}`);
    expect((await admin.put(`/api/schema-fields/${made.body.data.id}`, { options: { choices: many } })).status).toBe(
      200,
    );
    expect(await choicesIndexed()).toEqual([]);

    expect(
      (await admin.put(`/api/schema-fields/${made.body.data.id}`, { options: { choices: many.slice(0, 12) } })).status,
    ).toBe(200);
    expect(await choicesIndexed()).toHaveLength(12);
    expect((await admin.delete(`/api/schema-fields/${made.body.data.id}`)).status).toBe(200);
    expect(await choicesIndexed()).toEqual([]);
  });
});

describe('queries of a list request', () => {
  it('the session and its person are read in one query; a type filter sent as a key reads no list of types', async () => {
    const { result: res, queries } = await recordQueries(() => admin.get('/api/sites?filter[type]=union&per_page=5'));
    expect(res.status).toBe(200);
    expect(res.body.data.every((site: any) => site.type === 'union')).toBe(true);
    const reads = queries.map((q) => q.sql);
    const sessions = reads.filter((text) => /from "sessions"/.test(text));
    expect(sessions, reads.join('\n')).toHaveLength(1);
    expect(sessions[0]).toMatch(/join "users" as "u"/);
    expect(
      reads.filter((text) => /from "users" as "u"/.test(text)),
      reads.join('\n'),
    ).toEqual([]);
    expect(
      reads.filter((text) => /from "site_types"/.test(text)),
      reads.join('\n'),
    ).toEqual([]);
  });
});

describe('links of a page', () => {
  it('a page of 25 sites reads its links in one query per relation, not per row', async () => {
    const [trade] = (
      await sql<{ id: number }>`select id from trades where deleted_at is null order by id limit 1`.execute(t.ctx.db)
    ).rows;
    const [contact] = (
      await sql<{
        id: number;
      }>`insert into contacts (first_name, last_name) values ('Link', 'Counter') returning id`.execute(t.ctx.db)
    ).rows;
    await sql`insert into site_trades (site_id, trade_id) select id, ${trade.id} from sites where city = 'Speedville'`.execute(
      t.ctx.db,
    );
    await sql`insert into site_contacts (site_id, contact_id) select id, ${contact.id} from sites where city = 'Speedville'`.execute(
      t.ctx.db,
    );

    const { result, queries } = await recordQueries(() =>
      t.ctx.records.list(user, sites, { 'filter[city]': 'Speedville', per_page: 25 }),
    );
    expect(result.data).toHaveLength(25);
    expect(
      result.data.every((site) => site.trade_ids.includes(trade.id) && site.contact_ids.includes(contact.id)),
    ).toBe(true);
    // Pivot fields and the presented lists (contractors with trades, attachments), each read once for the page.
    const relations = Object.values(sites.fields).filter((spec) => typeof spec.storage === 'object').length + 2;
    const links = queries.filter((q) => /\bin \(/i.test(q.sql) && !/from "sites"/i.test(q.sql));
    expect(links.length, links.map((q) => q.sql).join('\n')).toBeLessThanOrEqual(relations);
    expect(queries.length, queries.map((q) => q.sql).join('\n')).toBeLessThanOrEqual(relations + 4);
  });
});
