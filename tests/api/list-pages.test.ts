import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_TOTAL_UP_TO, ONE_PASS_MATCHES } from '../../src/server/records/list-query.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A search's page is read in one pass over its matches when they are not too many, other lists (and broader
 * searches) with a count and a page query (records/list-query.ts readPage): every way gives the exact total and
 * the same rows in the same order.
 */
let t: TestApp;
let admin: TestClient;
const SITES = ONE_PASS_MATCHES + 300;
const TYPES = ['union', 'non-union', 'pla'];

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  // Owners repeat (ties broken by id), a few are missing (sorted last) and a few sites are deleted.
  await sql`insert into sites (name, owner, type, city, deleted_at)
    select 'Site ' || g, case when g % 97 = 0 then null else 'Paging ' || (g * 7919) % 500 end, (${sql.val(TYPES)}::text[])[1 + g % 3], 'Pagetown',
      case when g % 101 = 0 then now() end
    from generate_series(1, ${SITES}) g`.execute(t.ctx.db);
});
afterAll(async () => {
  await t?.close();
});

/** The ids of the live Pagetown sites matching `where`, in the list's order: what every page must add up to. */
async function expected(where: string, order: 'asc' | 'desc') {
  const rows = await sql<{
    id: number;
  }>`select id from sites where deleted_at is null and city = 'Pagetown' and ${sql.raw(where)}
    order by owner ${sql.raw(order)} nulls last, id ${sql.raw(order)}`.execute(t.ctx.db);
  return rows.rows.map((row) => row.id);
}

async function allPages(query: string, perPage: number) {
  const ids: number[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await admin.get(`/api/sites?filter[city]=Pagetown&${query}&per_page=${perPage}&page=${page}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    total = res.body.meta.total;
    if (!res.body.data.length) break;
    expect(res.body.meta.from).toBe((page - 1) * perPage + 1);
    ids.push(...res.body.data.map((r: any) => r.id));
  }
  return { ids, total };
}

describe('list pages, read in one pass or with a count', () => {
  it('a search with more matches than one pass takes: exact total, every row once, in order', async () => {
    const want = await expected(`owner ilike '%paging%'`, 'asc');
    expect(want.length).toBeGreaterThan(ONE_PASS_MATCHES);
    const { ids, total } = await allPages('search=paging&sort=owner&order=asc', 1000);
    expect(total).toBe(want.length);
    expect(ids).toEqual(want);
  });

  it('a page past others picks its ids in order, then reads their rows by id without searching again', async () => {
    const want = await expected(`owner ilike '%paging%'`, 'asc');
    const page = await recordQueries(() =>
      admin.get('/api/sites?filter[city]=Pagetown&search=paging&sort=owner&order=asc&per_page=1000&page=2'),
    );
    expect(page.result.body.data.map((r: any) => r.id)).toEqual(want.slice(1000, 2000));
    const read = page.queries.filter((query) =>
      /^select "t"\.\* from "sites" as "t" where "t"\."id" in \(/.test(query.sql),
    );
    expect(read).toHaveLength(1);
    expect(read[0].sql.match(/ilike/gi)).toHaveLength(1);
  });

  it('a search with fewer (one pass): exact total, every row once, in order, both ways', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const want = await expected(`owner ilike '%paging 12%'`, order);
      expect(want.length).toBeGreaterThan(25);
      const { ids, total } = await allPages(`search=paging%2012&sort=owner&order=${order}`, 25);
      expect(total).toBe(want.length);
      expect(ids).toEqual(want);
    }
  });

  it('a filter (count, then the page): exact total, every row once, in order', async () => {
    const want = await expected(`type = 'pla'`, 'desc');
    const { ids, total } = await allPages('filter[type]=pla&sort=owner&order=desc', 500);
    expect(total).toBe(want.length);
    expect(ids).toEqual(want);
  });

  it('a page past the end is empty and still has the total; per_page=-1 gives every match', async () => {
    for (const query of ['filter[type]=union', 'search=paging%203']) {
      const want = await expected(query.startsWith('search') ? `owner ilike '%paging 3%'` : `type = 'union'`, 'asc');
      const past = await admin.get(
        `/api/sites?filter[city]=Pagetown&${query}&sort=owner&order=asc&per_page=25&page=999`,
      );
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ total: want.length, from: null, to: null });
      const all = await admin.get(`/api/sites?filter[city]=Pagetown&${query}&sort=owner&order=asc&per_page=-1`);
      expect(all.body.meta.total).toBe(want.length);
      expect(all.body.data.map((r: any) => r.id)).toEqual(want);
    }
  });
});

describe('totals past 10,000 matches (total=estimate, as the generated lists ask)', () => {
  it('are estimates flagged as such; up to 10,000 they stay exact and unflagged', async () => {
    const many = await expected('true', 'asc');
    expect(many.length).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    const estimated = await admin.get(
      '/api/sites?filter[city]=Pagetown&sort=owner&order=asc&per_page=25&total=estimate',
    );
    expect(estimated.status).toBe(200);
    expect(estimated.body.meta.total_estimated).toBe(true);
    expect(estimated.body.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    expect(estimated.body.data.map((r: any) => r.id)).toEqual(many.slice(0, 25));

    const searched = await admin.get('/api/sites?filter[city]=Pagetown&search=paging&per_page=25&total=estimate');
    expect(searched.body.meta.total_estimated).toBe(true);

    const few = await expected(`type = 'union'`, 'asc');
    const exact = await admin.get(
      '/api/sites?filter[city]=Pagetown&filter[type]=union&sort=owner&order=asc&per_page=25&total=estimate',
    );
    expect(exact.body.meta.total).toBe(few.length);
    expect(exact.body.meta.total_estimated).toBeUndefined();

    const asked = await admin.get('/api/sites?filter[city]=Pagetown&sort=owner&order=asc&per_page=25');
    expect(asked.body.meta.total).toBe(many.length);
    expect(asked.body.meta.total_estimated).toBeUndefined();
  });

  it('sorted by a choice first, its pages are those of sorting every match, the total estimated when asked', async () => {
    // The types in their list's order, then the owner backwards (missing last), id breaking ties the same way.
    const { rows } = await sql<{ id: number }>`select s.id from sites s
      where s.deleted_at is null and s.city = 'Pagetown'
      order by (select st.position from site_types st where st.slug = s.type) asc nulls last,
        lower(s.owner) desc nulls last, s.id desc`.execute(t.ctx.db);
    const want = rows.map((row) => row.id);
    expect(want.length).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    const perType = Math.ceil(want.length / 3);
    // The first page, pages across the end of the first and the second type: the total estimated past 10,000.
    const last = Math.ceil(want.length / 25);
    const pageOf = async (page: number) => {
      const res = await admin.get(
        `/api/sites?filter[city]=Pagetown&sort=type,-owner&order=asc&per_page=25&page=${page}&total=estimate`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(
        res.body.data.map((r: any) => r.id),
        `page ${page}`,
      ).toEqual(want.slice((page - 1) * 25, page * 25));
      return res.body.meta;
    };
    for (const page of [1, Math.floor(perType / 25) + 1, Math.floor((2 * perType) / 25) + 1]) {
      const meta = await pageOf(page);
      expect(meta.total_estimated, `page ${page}`).toBe(true);
      expect(meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    }
    // The last page reaches the end of every type's matches: its total is exact.
    const end = await pageOf(last);
    expect(end.total).toBe(want.length);
    expect(end.total_estimated).toBeUndefined();
    // A type no longer offered comes last: the last page, past every offered type, is sorted with the rest.
    const retired = want.slice(-40);
    await sql`update sites set type = 'retired-type' where id in (${sql.join(retired)})`.execute(t.ctx.db);
    try {
      const ranked = want.slice(0, -40);
      const tail = await admin.get(
        `/api/sites?filter[city]=Pagetown&sort=type,-owner&order=asc&per_page=25&page=${last}&total=estimate`,
      );
      const { rows: owners } = await sql<{ id: number }>`select id from sites where id in (${sql.join(retired)})
        order by lower(owner) desc nulls last, id desc`.execute(t.ctx.db);
      const expectedTail = [...ranked, ...owners.map((row) => row.id)];
      expect(tail.body.data.map((r: any) => r.id)).toEqual(expectedTail.slice((last - 1) * 25, last * 25));
      expect(tail.body.meta.total).toBe(want.length);
    } finally {
      await sql`update sites set type = (${sql.val(TYPES)}::text[])[1 + (substring(name from 6)::int) % 3]
        where id in (${sql.join(retired)})`.execute(t.ctx.db);
    }
    const exact = await admin.get('/api/sites?filter[city]=Pagetown&sort=type,-owner&order=asc&per_page=25&page=200');
    expect(exact.body.meta.total).toBe(want.length);
    expect(exact.body.meta.total_estimated).toBeUndefined();
    expect(exact.body.data.map((r: any) => r.id)).toEqual(want.slice(199 * 25, 200 * 25));
  });
});

/** Every page of a list read with the cursor the page before it answered with (meta.next_cursor), as the client does. */
async function pagesByCursor(query: string, perPage: number) {
  const ids: number[] = [];
  let cursor: string | undefined;
  let sought = 0;
  for (let page = 1; ; page++) {
    const asked = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await admin.get(`/api/sites?filter[city]=Pagetown&${query}&per_page=${perPage}&page=${page}${asked}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (cursor) sought++;
    if (!res.body.data.length) break;
    expect(res.body.meta).toMatchObject({ current_page: page, from: (page - 1) * perPage + 1 });
    ids.push(...res.body.data.map((r: any) => r.id));
    cursor = res.body.meta.next_cursor;
    if (!cursor) break;
  }
  return { ids, sought };
}

describe('pages sought from the page before (cursor=)', () => {
  it('give every row once, in order, both ways, through the rows without a value', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const want = await expected(`type = 'pla'`, order);
      const { ids, sought } = await pagesByCursor(`filter[type]=pla&sort=owner&order=${order}`, 100);
      expect(sought).toBeGreaterThan(10);
      expect(ids).toEqual(want);
    }
  });

  it('sorted by a column with no missing values, and by id', async () => {
    for (const sort of ['created_at', 'id']) {
      const want = (
        await sql<{ id: number }>`select id from sites where deleted_at is null and city = 'Pagetown' and type = 'union'
          order by ${sql.ref(sort)} desc, id desc`.execute(t.ctx.db)
      ).rows.map((row) => row.id);
      const { ids } = await pagesByCursor(`filter[type]=union&sort=${sort}&order=desc`, 250);
      expect(ids).toEqual(want);
    }
  });

  it('a cursor of another list, another page or an edited one is not followed: the page is read by its offset', async () => {
    const want = await expected(`type = 'union'`, 'asc');
    const first = await admin.get(
      '/api/sites?filter[city]=Pagetown&filter[type]=union&sort=owner&order=asc&per_page=25&page=1',
    );
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    for (const query of [
      `filter[type]=pla&sort=owner&order=asc&per_page=25&page=2&cursor=${cursor}`,
      `filter[type]=union&sort=owner&order=asc&per_page=25&page=3&cursor=${cursor}`,
      'filter[type]=union&sort=owner&order=asc&per_page=25&page=3&cursor=not-a-cursor',
    ]) {
      const res = await admin.get(`/api/sites?filter[city]=Pagetown&${query}`);
      expect(res.status).toBe(200);
      const page = Number(/&page=(\d+)/.exec(query)?.[1]);
      const expectedIds = query.includes('type]=pla')
        ? (await expected(`type = 'pla'`, 'asc')).slice(25, 50)
        : want.slice((page - 1) * 25, page * 25);
      expect(
        res.body.data.map((r: any) => r.id),
        query,
      ).toEqual(expectedIds);
    }
  });

  it('a cursor whose row was deleted for good falls back to the offset', async () => {
    const want = await expected(`type = 'non-union'`, 'asc');
    const first = await admin.get(
      '/api/sites?filter[city]=Pagetown&filter[type]=non-union&sort=owner&order=asc&per_page=25&page=1',
    );
    const last = first.body.data.at(-1).id;
    await sql`delete from sites where id = ${last}`.execute(t.ctx.db);
    const next = await admin.get(
      `/api/sites?filter[city]=Pagetown&filter[type]=non-union&sort=owner&order=asc&per_page=25&page=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    expect(next.body.data.map((r: any) => r.id)).toEqual(want.filter((id) => id !== last).slice(25, 50));
  });
});
